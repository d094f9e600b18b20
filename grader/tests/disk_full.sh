#!/usr/bin/env bash
# A full disk is the grader's failure, never the student's (files.h,
# room.h): nvcc that cannot write its object fails as a file that does
# not compile would, so a build that fails while the disk under the build
# folder is all but full is ERROR "the grader's disk was full", not BUILD.
# SYNCLAB_DISK_LOW_MB stands in for a full disk (no test can fill one);
# without it the same file is BUILD, and a file that compiles is judged
# as ever (SKIP without a GPU, its verdict with one).
#   disk_full.sh <syncgrade> <source dir> <scratch dir>
set -euo pipefail
syncgrade=$1 src=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir/broken" "$dir/ok"
sed 's/^__global__ void tile_reverse/__global__ void tile_reverse(int not_a_parameter_list/' \
  "$src/solutions/barriers.cu" >"$dir/broken/barriers.cu"
cmp -s "$src/solutions/barriers.cu" "$dir/broken/barriers.cu" && { echo "the mutant did not take"; exit 1; }
cp "$src/solutions/barriers.cu" "$dir/ok/barriers.cu"
fail=0
grade() { # <submission> <out> [env...]: the report's text
  local sub=$1 out=$2
  shift 2
  env "$@" "$syncgrade" grade --submission "$sub" --lesson barriers --out "$out" --seed 1 >"$out.txt" 2>&1 || true
  cat "$out.txt"
}
grade "$dir/broken" "$dir/plain" >/dev/null
grep -qE "tile_reverse +BUILD" "$dir/plain.txt" || { echo "FAIL: a broken file on a roomy disk: $(grep tile_reverse "$dir/plain.txt")"; fail=1; }
grep -qE "disk (was|is) full" "$dir/plain.txt" && { echo "FAIL: a roomy disk was said to be full"; fail=1; }
grade "$dir/broken" "$dir/full" SYNCLAB_DISK_LOW_MB=999999999 >/dev/null
grep -qE "tile_reverse +ERROR" "$dir/full.txt" || { echo "FAIL: a broken file on a full disk: $(grep tile_reverse "$dir/full.txt")"; fail=1; }
grep -q "the grader's disk was full" "$dir/full.txt" || { echo "FAIL: a full disk not said: $(head -40 "$dir/full.txt")"; fail=1; }
grep -qE "tile_reverse +BUILD" "$dir/full.txt" && { echo "FAIL: BUILD on a full disk"; fail=1; }
# a file that compiles is not the disk's to judge
grade "$dir/ok" "$dir/okfull" SYNCLAB_DISK_LOW_MB=999999999 >/dev/null
grep -qE "tile_reverse +(ERROR|BUILD)" "$dir/okfull.txt" && { echo "FAIL: a file that compiles: $(grep tile_reverse "$dir/okfull.txt")"; fail=1; }
[ "$fail" = 0 ] && echo "disk_full: a full disk is ERROR, not BUILD; a roomy one changes nothing"
exit "$fail"
