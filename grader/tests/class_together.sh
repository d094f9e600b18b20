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
# again, so its plain run takes its small inputs, one group an exercise,
# not the full inputs again. eve alone, so that her trace is in order.
mkdir -p "$out/eve-only" && cp -r "$out/class/eve" "$out/eve-only/"
SYNCLAB_LEVERS=initcheck,alloc,together SYNCLAB_TRACE=1 "$syncgrade" class \
  --submissions "$out/eve-only" --out "$out/eve" --seed 7 --jobs 1 --quiet 2> "$out/eve.trace" || true
diff <(grep -E '^eve,' "$out/together/grades.csv") <(grep -E '^eve,' "$out/eve/grades.csv") ||
  { echo "eve graded alone got other grades"; exit 1; }
# racecheck names barriers.cu by its base name only: the race is barriers'
# alone, and the other six lessons keep the submission's sweep
grep -q '^\[trace\] together: 6 of 7 lessons swept together$' "$out/eve.trace" ||
  { grep '^\[trace\] \(together\|sweep submission\)' "$out/eve.trace" || true
    echo "eve's race in barriers was not told apart from her other lessons"; exit 1; }
alone=$(sed -n 's/^\[trace\] together: \([a-z]*\) sweeps alone what is left$/\1/p' "$out/eve.trace")
for l in $alone; do
  # its own sweep's plain run: the last of its name; then its exercises' "keeps"
  at=$(grep -n "^\[trace\] sweep $l: plain .* groups started)" "$out/eve.trace" | tail -1 | cut -d: -f1)
  [ -n "$at" ] || continue # every exercise was decided already: nothing swept
  groups=$(sed -n "${at}s/.* of \([0-9]*\) groups started).*/\1/p" "$out/eve.trace")
  ex=$(tail -n "+$at" "$out/eve.trace" | grep -c "^\[trace\] sweep $l: [a-z_0-9]* keeps")
  [ "$groups" -le "$ex" ] ||
    { echo "$l swept alone $groups groups for $ex exercises: its full inputs again"; exit 1; }
  echo "$l swept alone what was left: $groups groups for $ex exercises"
done
[ -n "$alone" ] || echo "eve: every lesson decided by the submission's sweep"
grep '^\[trace\] sweep submission: [a-z]* report not split' "$out/eve.trace" || true
