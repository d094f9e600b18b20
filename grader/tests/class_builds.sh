#!/usr/bin/env bash
# The builds lever (levers.h): a student's lesson files built at once, each
# in a child (judge/together.h: sl_lesson_prebuild), give the same
# grades.csv and reports as built one by one, for files that build, fail
# to compile, are refused by the policy before the compile (an include of
# the solution) or after it (host inline assembly), are untouched starters
# or are missing; and a file that built is compiled once, not again when
# its lesson is prepared. The stagger lever (a place on the GPU for each of
# --jobs sweeps, three times as many students graded at once) gives the same
# grades.csv too, and on a GPU every sweep holds a place (none is left in
# TMPDIR after); with buildturns beside it, students build in turns. Static
# verdicts: the same with or without a GPU.
#   class_builds.sh <syncgrade> <source dir> <out dir>
set -euo pipefail
syncgrade=$1 src=$(cd "$2" && pwd) out=$3
rm -rf "$out"
student() { # student <name> <from folder> [<lesson file> <adversarial case>]...
  local dir=$out/class/$1
  mkdir -p "$dir"
  cp "$src/$2"/*.cu "$dir"/
  shift 2
  while [ $# -gt 1 ]; do
    cp "$src/grader/tests/adversarial/$2/$1" "$dir/$1"
    shift 2
  done
}
student ana solutions
student ben solutions barriers.cu does_not_compile
student cy solutions barriers.cu include_solution
student dee solutions barriers.cu host_syscall_asm
student eve starter
student fay solutions
rm "$out/class/fay/scan.cu"
# --jobs 3: six students in two rounds, so that on a GPU the test ends well
# inside a device call (one by one it took over 540 s on an H200); still two
# builds at once or more with two cores (class.c: build_parallel)
grade() { # grade <levers> <folder>
  local rc=0
  SYNCLAB_LEVERS=$1 SYNCLAB_TRACE=1 "$syncgrade" class --submissions "$out/class" --out "$out/$2" \
    --seed 7 --jobs 3 --quiet 2> "$out/$2.trace" || rc=$?
  [ "$rc" -le 1 ] || { tail -n 30 "$out/$2.trace"; echo "syncgrade class: exit $rc"; exit 1; }
}
grade together,initcheck,alloc one_by_one
grade together,initcheck,alloc,builds at_once
# the places' folder is made in TMPDIR (class.c), and removed at the end
mkdir -p "$out/tmp"
TMPDIR=$out/tmp grade together,initcheck,alloc,builds,stagger,buildturns staggered
! ls "$out/tmp" | grep -q '^synclab-places-' || { ls "$out/tmp"; echo "the places were left behind"; exit 1; }
diff "$out/one_by_one/grades.csv" "$out/staggered/grades.csv" || { echo "stagger changed the grades"; exit 1; }
! grep -q 'a place on the GPU' "$out/at_once.trace" || { echo "places without the stagger lever"; exit 1; }
probe=$(dirname "$syncgrade")/harness/synclab_gpu_probe rc=0
timeout 60 "$probe" > /dev/null 2>&1 || rc=$?
if [ "$rc" -eq 0 ]; then # a GPU: the sweep of each of the five students whose files build took a place
  took=$(grep -c '^\[trace\] sweep [a-z]*: took a place on the GPU after' "$out/staggered.trace" || true)
  [ "$took" -ge 5 ] || { grep 'a place on the GPU' "$out/staggered.trace" || true; echo "$took sweeps took a place, wanted 5 or more"; exit 1; }
  ! grep -q 'runs without a place' "$out/staggered.trace" || { echo "a sweep ran without a place"; exit 1; }
  grep -q '^\[trace\] together: [0-9]* lessons built .*(a turn to build after' "$out/staggered.trace" ||
    { grep '^\[trace\] together: [0-9]* lessons built' "$out/staggered.trace" || true; echo "no student built in a turn"; exit 1; }
else
  ! grep -q 'a place on the GPU\|a turn to build' "$out/staggered.trace" || { echo "places without a GPU"; exit 1; }
fi
# at least two builds at once on a machine of two cores or more (class.c)
grep -q '^\[trace\] together: 7 lessons built ([2-7] at once)' "$out/at_once.trace" ||
  { grep '^\[trace\] together' "$out/at_once.trace" || true; echo "the lessons were not built at once"; exit 1; }
! grep -q '^\[trace\] together: 7 lessons built ([2-7] at once)' "$out/one_by_one.trace" ||
  { echo "builds at once without the lever"; exit 1; }
diff "$out/one_by_one/grades.csv" "$out/at_once/grades.csv" || { echo "building at once changed the grades"; exit 1; }
# every report but the disk a student took while graded and the seconds
# on the score line and each exercise's row (not verdicts: on a GPU they
# differ from run to run)
same() { grep -v '^disk:' "$1" | sed -E 's/^(score: .*), [0-9.]+ s\)$/\1)/; s/ +[0-9.]+s$//'; }
for r in "$out"/one_by_one/students/*/report.txt; do
  s=${r#"$out/one_by_one/"}
  diff <(same "$r") <(same "$out/at_once/$s") ||
    { echo "building at once changed $s"; exit 1; }
done
# the verdicts the cases are for (a zero in a row that must have one)
row() { grep -E "^$1," "$out/at_once/grades.csv"; }
col() { head -1 "$out/at_once/grades.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
t=$(col barriers/tile_reverse)
for s in ben cy dee eve; do
  [ "$(row $s | cut -d, -f "$t")" = 0 ] || { row $s; echo "$s's barriers earned points"; exit 1; }
done
grep -q 'BUILD' "$out/at_once/students/cy/report.txt" || { echo "cy's include of the solution was not refused"; exit 1; }
# a file that built is compiled once: as many compiles with the lever as
# without for a class of ana alone, whose every file builds (a file that
# failed is built again when prepared). The builds do not depend on the
# GPU: it is hidden, so that only the static stages run after them.
mkdir -p "$out/ana_only"
cp -r "$out/class/ana" "$out/ana_only/"
compiles() { # compiles <levers> <name>: the compiler calls of grading ana_only
  CUDA_VISIBLE_DEVICES= SYNCLAB_LEVERS=$1 SYNCLAB_TRACE=1 "$syncgrade" class --submissions "$out/ana_only" \
    --out "$out/$2" --seed 7 --jobs 1 --quiet 2> "$out/$2.trace" > /dev/null || true
  grep -c '^\[trace\] build: nvcc' "$out/$2.trace" || true
}
a=$(compiles together,builds ana_at_once) b=$(compiles together ana_one_by_one)
[ "$a" -gt 0 ] && [ "$a" -eq "$b" ] || { echo "the solutions took $a compiler calls at once, $b one by one"; exit 1; }
# and the builds were the children's: each lesson found its build made
grep -q '^\[trace\] together: 7 lessons built ([2-7] at once) in [0-9.]* s, 7 found built when prepared' \
  "$out/ana_at_once.trace" || { grep '^\[trace\] together' "$out/ana_at_once.trace"; echo "the lessons were built when prepared, not before"; exit 1; }
grep -q '^\[trace\] together: 7 lessons built (1 at once) in [0-9.]* s, 0 found built' \
  "$out/ana_one_by_one.trace" || { grep '^\[trace\] together' "$out/ana_one_by_one.trace"; echo "builds found ready without the lever"; exit 1; }
echo "builds at once: the same grades.csv and reports for $(($(wc -l < "$out/at_once/grades.csv") - 1)) students; $a compiler calls for the solutions either way"
