#!/usr/bin/env bash
# The machine's want of memory on the runner side (grade.c's
# memory_ran_out, lesson_run.c's note for a judge that died): the kernel
# really kills here, in a cgroup v2 of its own with a memory limit (root
# only; skipped where none can be made).
#   - the solutions of barriers under limits too small for a runner under
#     racecheck (800M) or for the judges (400M): every exercise ERROR,
#     "ran out of memory", never RACE or LAUNCH (racecheck reads a killed
#     target as an error it found);
#   - a runner that holds 8 GiB of host memory itself (the reduction
#     solution with a hog in reduce_sum_int): PASS with room, and under a
#     6G limit LAUNCH "it held N MiB", the student's doing.
#   memory_out_gpu.sh <syncgrade> <source dir> <scratch dir>
set -euo pipefail
syncgrade=$1 src=$2 dir=$3
skip() { echo "skipped: $1"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root: no cgroup of its own can be made"
[ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers ||
  skip "no cgroup v2 with a memory controller at /sys/fs/cgroup"
rm -rf "$dir"
mkdir -p "$dir/ok" "$dir/hog"
cp "$src/solutions/barriers.cu" "$dir/ok/"
awk '{ print }
/^void reduce_sum_int\(const int \*d_in, long long n, int \*d_out\)$/ { want = 1; next }
want && /^\{$/ {
  print "    static char *hog; /* 8 GiB of host memory, every page touched */"
  print "    if (!hog) {"
  print "        size_t bytes = (size_t)8 << 30;"
  print "        hog = (char *)malloc(bytes);"
  print "        for (size_t i = 0; hog && i < bytes; i += 4096)"
  print "            ((volatile char *)hog)[i] = 1;"
  print "    }"
  want = 0 }' "$src/solutions/reduction.cu" | sed '1i #include <stdlib.h>' >"$dir/hog/reduction.cu"
grep -q "static char \*hog" "$dir/hog/reduction.cu" || { echo "the hog did not take"; exit 1; }
cg=/sys/fs/cgroup/synclab-memory-test-$$
mkdir "$cg" 2>/dev/null || skip "cannot make $cg"
trap 'rmdir "$cg" 2>/dev/null || true' EXIT
echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
[ -f "$cg/memory.max" ] || skip "no memory controller in $cg"
echo 0 >"$cg/memory.swap.max" 2>/dev/null || true
fail=0
# grade <name> <submission> <lesson> <limit>: the report in <name>.txt
grade() {
  local name=$1 sub=$2 lesson=$3 limit=$4
  echo "$limit" >"$cg/memory.max"
  sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$syncgrade" grade --submission "$sub" \
    --lesson "$lesson" --out "$dir/out-$(basename "$sub")" --seed 3 >"$dir/$name.txt" 2>&1 || true
  grep -qE " SKIP " "$dir/$name.txt" && skip "no GPU"
  return 0
}
verdicts() { grep -E "^ *([a-z]+ +)?[a-z_]+ +[A-Z]+ +[0-9]+/[0-9]+" "$dir/$1.txt" | awk '{ print $(NF-2) }' | sort | uniq -c | tr -s ' \n' ' '; }
grade ok-roomy "$dir/ok" barriers max
[ "$(verdicts ok-roomy)" = " 4 PASS " ] || { echo "FAIL: the solutions with room: $(verdicts ok-roomy)"; fail=1; }
for limit in 800M 400M; do
  grade "ok-$limit" "$dir/ok" barriers "$limit"
  v=$(verdicts "ok-$limit")
  [ "$v" = " 4 ERROR " ] || { echo "FAIL: the solutions under $limit: $v"; fail=1; }
  n=$(grep -c "ran out of memory" "$dir/ok-$limit.txt" || true)
  [ "$n" -ge 4 ] || { echo "FAIL: under $limit the want of memory is said $n times: $(sed -n '/^barriers\//,$p' "$dir/ok-$limit.txt" | head -12)"; fail=1; }
done
avail=$(awk '/^MemAvailable:/ { print int($2 / 1048576) }' /proc/meminfo)
if [ "$avail" -ge 16 ]; then
  grade hog-roomy "$dir/hog" reduction max
  grep -qE "sum_int +PASS" "$dir/hog-roomy.txt" || { echo "FAIL: the hog with room: $(grep sum_int "$dir/hog-roomy.txt")"; fail=1; }
  grade hog-6G "$dir/hog" reduction 6G
  grep -qE "sum_int +LAUNCH" "$dir/hog-6G.txt" || { echo "FAIL: the hog under 6G: $(grep sum_int "$dir/hog-6G.txt")"; fail=1; }
  grep -qE "stopped the program for want of memory.*it held [0-9]+ MiB of host memory" "$dir/hog-6G.txt" ||
    { echo "FAIL: the hog's memory not said: $(sed -n '/^reduction\/sum_int/,+3p' "$dir/hog-6G.txt")"; fail=1; }
  grep -q "ran out of memory" "$dir/hog-6G.txt" && { echo "FAIL: the hog's own memory was called the machine's"; fail=1; }
else
  echo "note: $avail GiB available, the 8 GiB hog is left out"
fi
[ "$fail" = 0 ] && echo "memory_out_gpu: the machine's want of memory is ERROR; a runner's own is its verdict"
exit "$fail"
