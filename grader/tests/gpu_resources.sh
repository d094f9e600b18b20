#!/usr/bin/env bash
# One ctest spreads the suite over a node's GPUs (scripts/gpu-resources.sh,
# cmake/on-gpu.sh):
#  - the spec lists CUDA_VISIBLE_DEVICES's GPUs where it is set, else
#    nvidia-smi's (a fake one here);
#  - a toy CTest project of GPU tests under a spec of two GPUs with one slot
#    each, out of CUDA_VISIBLE_DEVICES=5,7: each test sees one of them
#    alone, both are used, never two tests at once on one; without a spec
#    file a test sees what it was given;
#  - the check below reads CTestTestfile in CMake 3.25's quoting and in
#    CMake 4's (synthetic files: one test of each kind it must flag);
#  - in this build every test that counts as a GPU test (PROCESSORS) asks
#    for a GPU slot and runs through on-gpu.sh, but class.slurm (RUN_SERIAL:
#    it may spread over the whole node itself).
#   gpu_resources.sh <source root> <build dir> <out dir>
set -euo pipefail
root=$1 build=$2 out=$3
rm -rf "$out"
mkdir -p "$out/smi"
fail() { echo "gpu_resources: $*"; exit 1; }

printf '#!/bin/sh\nfor i in 0 1 2; do echo "GPU $i: NVIDIA H100 (UUID: GPU-$i)"; done\n' >"$out/smi/nvidia-smi"
chmod +x "$out/smi/nvidia-smi"
ids() { grep -o '"id": "[0-9]*", "slots": [0-9]*' | tr '\n' ';'; }
got=$(env -u CUDA_VISIBLE_DEVICES PATH="$out/smi:$PATH" "$root/scripts/gpu-resources.sh" 2 | ids)
[ "$got" = '"id": "0", "slots": 2;"id": "1", "slots": 2;"id": "2", "slots": 2;' ] ||
  fail "nvidia-smi's three GPUs gave: $got"
got=$(CUDA_VISIBLE_DEVICES=5,7 PATH="$out/smi:$PATH" "$root/scripts/gpu-resources.sh" | ids)
[ "$got" = '"id": "0", "slots": 4;"id": "1", "slots": 4;' ] ||
  fail "CUDA_VISIBLE_DEVICES=5,7 gave: $got"
"$root/scripts/gpu-resources.sh" 0 >/dev/null 2>&1 && fail "SLOTS 0 was taken"

# the toy project: six tests of half a second, each marks its GPU busy
toy=$out/toy
mkdir -p "$toy/src" "$toy/seen"
cat >"$toy/test.sh" <<'TEST'
d=$(dirname "$0") gpu=$CUDA_VISIBLE_DEVICES
echo "$gpu" >"$d/seen/$1"
if mkdir "$d/busy-$gpu" 2>/dev/null; then
  sleep 0.5
  rmdir "$d/busy-$gpu"
else
  echo "$1 on $gpu" >>"$d/overlap"
fi
TEST
cat >"$toy/src/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(toy NONE)
enable_testing()
foreach(i RANGE 1 6)
  add_test(NAME t\${i} COMMAND sh $root/cmake/on-gpu.sh sh $toy/test.sh t\${i})
  set_tests_properties(t\${i} PROPERTIES RESOURCE_GROUPS gpus:1)
endforeach()
CMAKE
cmake -S "$toy/src" -B "$toy/build" >"$toy/configure.log" 2>&1 || { cat "$toy/configure.log"; fail "the toy project did not configure"; }
CUDA_VISIBLE_DEVICES=5,7 "$root/scripts/gpu-resources.sh" 1 >"$toy/gpus.json"
CUDA_VISIBLE_DEVICES=5,7 ctest --test-dir "$toy/build" -j6 --resource-spec-file "$toy/gpus.json" \
  >"$toy/ctest.log" 2>&1 || { cat "$toy/ctest.log"; fail "the toy tests failed"; }
[ ! -e "$toy/overlap" ] || fail "two tests ran at once on one GPU of one slot"
seen=$(cat "$toy/seen"/t* | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')
case $seen in
"5:"*" 7:"*" ") ;;
*) fail "the tests saw CUDA_VISIBLE_DEVICES $seen, not 5 and 7 alone" ;;
esac
rm -f "$toy/seen"/*
CUDA_VISIBLE_DEVICES=5,7 ctest --test-dir "$toy/build" -j6 >"$toy/plain.log" 2>&1 || fail "without a spec file the toy tests failed"
[ "$(cat "$toy/seen"/t* | sort -u)" = "5,7" ] || fail "without a spec file a test did not see what it was given"

# this build: GPU tests ask for a slot and run on the GPU given. CTestTestfile
# quotes a name as [=[name]=] (CMake 3.25) or "name" (CMake 4, the
# device's): both are read. check_build DIR MIN prints each test that is not
# spread, or too few GPU tests
check_build() {
  find "$1" -path "$out" -prune -o -name CTestTestfile.cmake -exec cat {} + | awk -v launcher="$root/cmake/on-gpu.sh" -v min="$2" '
  { gsub(/\[=+\[/, "\""); gsub(/\]=+\]/, "\"") }
  function name_of(line) { sub(/^[a-z_]+\("/, "", line); sub(/".*/, "", line); return line }
  /^add_test\(/ { n = name_of($0); if (index($0, "\"" n "\" \"sh\" \"" launcher "\"")) via[n] = 1 }
  /^set_tests_properties\(/ { n = name_of($0)
    if ($0 ~ /PROCESSORS "/) procs[n] = 1
    if ($0 ~ /RESOURCE_GROUPS "gpus:1"/) gpu[n] = 1 }
  END {
    for (n in procs) { if (!(n in gpu) && n != "class.slurm") print "counts as a GPU test but asks for no GPU: " n }
    for (n in gpu) { asked++; if (!(n in via)) print "asks for a GPU but does not run through on-gpu.sh: " n }
    if (asked < min) print "only " asked + 0 " tests ask for a GPU"
  }'
}
# the check itself, on Testfiles in both quotings: a spread test, one that
# skips on-gpu.sh, one that asks for no GPU
for q in bracket quote; do
  mkdir -p "$out/testfile-$q"
  if [ $q = bracket ]; then o='[=[' c=']=]'; else o='"' c='"'; fi
  cat >"$out/testfile-$q/CTestTestfile.cmake" <<FILE
add_test(${o}a.spread${c} "sh" "$root/cmake/on-gpu.sh" "x")
set_tests_properties(${o}a.spread${c} PROPERTIES  LABELS "gpu" PROCESSORS "4" RESOURCE_GROUPS "gpus:1")
add_test(${o}b.direct${c} "x")
set_tests_properties(${o}b.direct${c} PROPERTIES  PROCESSORS "4" RESOURCE_GROUPS "gpus:1")
add_test(${o}c.nogpu${c} "sh" "$root/cmake/on-gpu.sh" "x")
set_tests_properties(${o}c.nogpu${c} PROPERTIES  PROCESSORS "4")
FILE
  got=$(check_build "$out/testfile-$q" 1 | sort | tr '\n' ';')
  [ "$got" = "asks for a GPU but does not run through on-gpu.sh: b.direct;counts as a GPU test but asks for no GPU: c.nogpu;" ] ||
    fail "the check read $q-quoted names wrongly: $got"
done
check_build "$build" 100 >"$out/build.txt"
if [ -s "$out/build.txt" ]; then
  cat "$out/build.txt"
  fail "the build's GPU tests are not all spread"
fi
echo "gpu_resources: the spec, the toy project and this build's GPU tests are right"
