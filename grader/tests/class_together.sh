#!/usr/bin/env bash
# The together lever (judge/together.h): a student's lessons swept in one
# runner of them all give the same grades.csv as each lesson swept alone,
# for students whose files go wrong in several lessons at once: a hang, a
# read past the end (memcheck), a race, a barrier error, a launch error
# and the solutions beside them. Needs a GPU: without one nothing is swept.
#   class_together.sh <syncgrade> <source dir> <out dir>
set -euo pipefail
syncgrade=$1 src=$(cd "$2" && pwd) out=$3
probe=$(dirname "$syncgrade")/harness/synclab_gpu_probe
rc=0
timeout 60 "$probe" > /dev/null 2>&1 || rc=$?
[ "$rc" -ne 77 ] || { echo "no GPU: nothing to sweep"; exit 77; }
rm -rf "$out"
student() { # student <name> <lesson>/<zoo file>...
  local dir=$out/class/$1
  shift
  mkdir -p "$dir"
  cp "$src"/solutions/*.cu "$dir"/
  for m in "$@"; do
    "$src/scripts/paste-solution.sh" "$src/lessons/${m%%/*}/zoo/${m#*/}.cu" > "$dir/${m%%/*}.cu"
  done
}
student ana
student ben awbarrier/early_return reduction/out_of_bounds coop/too_many_blocks
student cy awbarrier/read_before_wait reduction/sum_head_past_n barriers/$(ls "$src/lessons/barriers/zoo" | head -1 | sed 's/\.cu$//')
# a race whose lines are in a file named like another lesson's: reduction.cu
# includes helper/scan.cu, which holds the racy reduction (sanitizer.h: a
# report names files by their whole path; by name alone scan would take
# the race, and reduction keep racecheck clean)
student dee
mkdir -p "$out/class/dee/helper"
"$src/scripts/paste-solution.sh" "$src/lessons/reduction/zoo/missing_barrier.cu" \
  > "$out/class/dee/helper/scan.cu"
echo '#include "helper/scan.cu"' > "$out/class/dee/reduction.cu"
# a race in barriers beside a rule broken in awbarrier (a class of 24 on an
# H200: its racecheck report was not split, and every lesson swept alone)
student eve barriers/missing_barrier_decoy_atomics awbarrier/arrive_never_waited
grade() { # grade <levers> <folder>
  local rc=0
  SYNCLAB_LEVERS=$1 SYNCLAB_TRACE=1 "$syncgrade" class --submissions "$out/class" --out "$out/$2" \
    --seed 7 --jobs 3 --quiet 2> "$out/$2.trace" || rc=$?
  [ "$rc" -le 1 ] || { tail -n 30 "$out/$2.trace"; echo "syncgrade class: exit $rc"; exit 1; }
}
grade initcheck,alloc alone # no dedup: every lesson of every student graded
grade initcheck,alloc,together together
[ "$(grep -c '^\[trace\] together: 7 of 7 lessons swept together$' "$out/together.trace")" -ge 1 ] ||
  { grep '^\[trace\] together' "$out/together.trace" || true; echo "the solutions were not swept together"; exit 1; }
! grep -q '^\[trace\] together' "$out/alone.trace" || { echo "together ran without its lever"; exit 1; }
diff "$out/alone/grades.csv" "$out/together/grades.csv" ||
  { echo "together changed the grades"; exit 1; }
grep -E '^ana,' "$out/together/grades.csv" | grep -q ',FAIL\|,0,' && { echo "the solutions lost points"; exit 1; }
col=$(head -1 "$out/together/grades.csv" | tr ',' '\n' | grep -nx 'reduction/tree_reduce' | cut -d: -f1)
[ "$(grep -E '^dee,' "$out/together/grades.csv" | cut -d, -f "$col")" = 0 ] ||
  { grep -E '^(student|dee),' "$out/together/grades.csv"; echo "dee's race in helper/scan.cu earned points"; exit 1; }
echo "together: the same grades.csv for $(($(wc -l < "$out/together/grades.csv") - 1)) students"
grep '^\[trace\] together: [0-9]* of' "$out/together.trace" | sort | uniq -c
grep -o '^\[trace\] sweep submission: [a-z]* [a-z ]*' "$out/together.trace" | sort | uniq -c
# A lesson the submission's sweep leaves undecided sweeps alone only what
# is left: the checks the submission's sweep ran clean for it are not run
# again, so its plain run has fewer groups than the lesson's whole sweep
# (on an H200: barriers 5, not 10: tile_reverse's inputs, the others' small
# ones). eve alone, so that her traces are in order: once with each lesson
# swept alone, once together.
mkdir -p "$out/eve-only" && cp -r "$out/class/eve" "$out/eve-only/"
for run in "initcheck,alloc eve-alone" "initcheck,alloc,together eve-together"; do
  set -- $run
  SYNCLAB_LEVERS=$1 SYNCLAB_TRACE=1 "$syncgrade" class --submissions "$out/eve-only" --out "$out/$2" \
    --seed 7 --jobs 1 --quiet 2> "$out/$2.trace" || true
done
diff "$out/eve-alone/grades.csv" "$out/eve-together/grades.csv" ||
  { echo "eve's grades together are not her grades alone"; exit 1; }
diff <(grep -E '^eve,' "$out/together/grades.csv") <(grep -E '^eve,' "$out/eve-together/grades.csv") ||
  { echo "eve graded alone got other grades than in the class"; exit 1; }
# racecheck names barriers.cu by its base name only: the race is barriers'
# alone, and the other six lessons keep the submission's sweep
grep -q '^\[trace\] together: 6 of 7 lessons swept together$' "$out/eve-together.trace" ||
  { grep '^\[trace\] \(together\|sweep submission\)' "$out/eve-together.trace" || true
    echo "eve's race in barriers was not told apart from her other lessons"; exit 1; }
groups() { # groups <trace> <lesson>: the groups of the lesson's last plain sweep
  grep "^\[trace\] sweep $2: plain .* groups started)" "$1" | tail -1 |
    sed -n 's/.* of \([0-9]*\) groups started).*/\1/p'
}
alone=$(sed -n 's/^\[trace\] together: \([a-z]*\) sweeps alone what is left$/\1/p' "$out/eve-together.trace")
[ "$alone" = barriers ] || { echo "eve: lessons swept alone after the submission's sweep: '$alone'"; exit 1; }
left=$(groups "$out/eve-together.trace" barriers) whole=$(groups "$out/eve-alone.trace" barriers)
[ -n "$left" ] && [ -n "$whole" ] && [ "$left" -lt "$whole" ] ||
  { echo "barriers swept alone '$left' groups after the submission's sweep, '$whole' from nothing"; exit 1; }
echo "eve: barriers swept alone what was left, $left groups ($whole from nothing)"
