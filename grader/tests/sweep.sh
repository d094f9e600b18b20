#!/usr/bin/env bash
# The lesson sweep (grader/judge/sweep.c) saves runs and changes no verdict:
#  - a clean lesson: every check comes out clean in the sweep, and no
#    exercise runs a sanitizer tool of its own; with the initcheck lever
#    (on by default, util/levers.h) the solution, which allocates nothing,
#    runs no initcheck at all, and without the levers it runs all four;
#  - the same with SYNCLAB_SWEEP=0: the same verdicts, each exercise runs
#    every tool itself (three with the initcheck lever, four without);
#  - a bug-zoo RACE mutant: the sweep's racecheck is not clean, so the
#    exercise runs racecheck itself and gets its expected verdict from it,
#    while the tools that were clean in the sweep do not run again;
#  - the full inputs: a clean lesson runs none of its own (the sweep's
#    plain runner did); with SYNCLAB_SWEEP_FULL=0 each exercise runs them;
#    a submission that crashes in the last exercise's full inputs keeps the
#    sweep's full runs of the exercises before it, and the rest run theirs;
#  - a fault in every input of the first exercise: it is left out of the
#    sweep and the others are swept again (they keep the sweep's runs);
#  - a flood of output in the first exercise (adversarial huge_output): if
#    it stops the sweep's plain run in its small inputs, that exercise is
#    left out and the others are swept again; a flood is never diagnosed
#    under a tool (it would flood again);
#  - a barrier in each branch (a hang on some GPUs): when the sweep's plain
#    run stalls there, that exercise's synccheck runs beside the sweep that
#    follows, once: the exercise runs no diagnosis of its own.
#   sweep.sh <syncgrade> <source root> <out dir>
set -euo pipefail
syncgrade=$1 root=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
tools='(memcheck|synccheck|racecheck|initcheck)'

# grade <name> <source> [expect args...]: verdicts in <name>.txt, trace in <name>.err
grade() {
  local name=$1 source=$2
  shift 2
  local rc=0
  SYNCLAB_TRACE=1 "$syncgrade" expect --lesson barriers --source "$source" --seed 5 "$@" \
    --out "$out/$name" > "$out/$name.txt" 2> "$out/$name.err" || rc=$?
  if [ "$rc" -eq 77 ]; then echo "no GPU: skipped"; exit 77; fi
  [ "$rc" -eq 0 ] || { echo "$name: wrong verdicts (exit $rc)"; cat "$out/$name.txt"; exit 1; }
}
fail() { echo "$1"; exit 1; }
own_tools() { grep -cE "^\[trace\] [a-z_]+: $tools " "$out/$1.err" || true; }
own_plain() { grep -cE "^\[trace\] ${2:-[a-z_]+}: plain run " "$out/$1.err" || true; }

# the grader's default levers (initcheck on: the solution allocates nothing)
grade swept "$root/solutions/barriers.cu" --all PASS
for t in plain memcheck synccheck racecheck; do
  grep -q "sweep barriers: $t clean" "$out/swept.err" || fail "clean lesson: sweep $t not clean"
done
grep -qE "sweep barriers: initcheck|^\[trace\] [a-z_]+: initcheck " "$out/swept.err" &&
  fail "initcheck lever: initcheck ran on a file that allocates no device memory"
[ "$(own_tools swept)" -eq 0 ] || fail "clean lesson: exercises ran tools the sweep had run"
[ "$(own_plain swept)" -eq 0 ] || fail "clean lesson: exercises ran inputs the sweep had run"
# without the levers every tool runs, initcheck too, and all in the sweep
SYNCLAB_LEVERS=none grade swept_all "$root/solutions/barriers.cu" --all PASS
for t in plain memcheck synccheck racecheck initcheck; do
  grep -q "sweep barriers: $t clean" "$out/swept_all.err" ||
    fail "clean lesson, no levers: sweep $t not clean"
done
[ "$(own_tools swept_all)" -eq 0 ] || fail "clean lesson, no levers: exercises ran tools the sweep had run"

SYNCLAB_SWEEP_FULL=0 grade fullless "$root/solutions/barriers.cu" --all PASS
# tile_reverse 1 run, halo_diff 3, block_vote 1, warp_step 1
[ "$(own_plain fullless)" -eq 6 ] ||
  fail "SYNCLAB_SWEEP_FULL=0: $(own_plain fullless) own full runs, not 6"

SYNCLAB_SWEEP=0 grade unswept "$root/solutions/barriers.cu" --all PASS
grep -q "sweep barriers" "$out/unswept.err" && fail "SYNCLAB_SWEEP=0 still swept"
exercises=$(grep -c ': ' "$out/unswept.txt" || true)
[ "$exercises" -ge 4 ] || fail "SYNCLAB_SWEEP=0: $exercises exercises graded, not 4"
[ "$(own_tools unswept)" -eq $((3 * exercises)) ] ||
  fail "SYNCLAB_SWEEP=0: $(own_tools unswept) tool runs for $exercises exercises, not 3 each"
SYNCLAB_LEVERS=none SYNCLAB_SWEEP=0 grade unswept_all "$root/solutions/barriers.cu" --all PASS
[ "$(own_tools unswept_all)" -eq $((4 * exercises)) ] ||
  fail "SYNCLAB_SWEEP=0, no levers: $(own_tools unswept_all) tool runs for $exercises exercises, not 4 each"
diff <(awk '{print $2, $3}' "$out/swept.txt" | grep -v '^[0-9]') \
     <(awk '{print $2, $3}' "$out/unswept.txt" | grep -v '^[0-9]') > /dev/null ||
  fail "verdicts differ with and without the sweep"

grade mutant "$root/lessons/barriers/zoo/missing_barrier.cu"
grep -q "sweep barriers: racecheck not clean" "$out/mutant.err" || fail "mutant: sweep racecheck clean"
grep -qE "^\[trace\] tile_reverse: racecheck " "$out/mutant.err" ||
  fail "mutant: the exercise did not run racecheck itself"
# a sweep check that the exercise keeps (clean, with its outputs right) is
# not run again; one that it does not (a loaded machine can time it out, a
# race can change an output under the tool, a stop in the exercise can
# leave it out of the sweep) decides nothing, and the exercise runs it itself
if grep -qE "sweep barriers: tile_reverse keeps .*memcheck" "$out/mutant.err"; then
  grep -qE "^\[trace\] tile_reverse: memcheck " "$out/mutant.err" &&
    fail "mutant: memcheck ran again although the sweep's was clean"
else
  grep -qE "^\[trace\] tile_reverse: memcheck " "$out/mutant.err" ||
    fail "mutant: the sweep's memcheck was not kept and the exercise did not run its own"
fi
fixture=$root/grader/tests/fixtures/sweep/warp_step_faults_on_large_n
grade crash "$fixture.cu" --expect "$fixture.expect"
for e in tile_reverse block_vote; do
  [ "$(own_plain crash $e)" -eq 0 ] || fail "crash: $e ran the full inputs the sweep had finished"
done
[ "$(own_plain crash halo_diff)" -ge 1 ] || fail "crash: halo_diff's unfinished runs were not run again"
[ "$(own_plain crash warp_step)" -ge 1 ] || fail "crash: warp_step did not run its full inputs itself"
grep -qE "sweep barriers: tile_reverse keeps .*memcheck" "$out/crash.err" ||
  grep -qE "^\[trace\] tile_reverse: memcheck " "$out/crash.err" ||
  fail "crash: the small inputs' tools ran neither in the sweep nor per exercise"

fixtures=$root/grader/tests/fixtures/sweep
grade stop "$fixtures/tile_reverse_faults.cu" --expect "$fixtures/tile_reverse_faults.expect"
grep -qE "sweep barriers: tile_reverse keeps nothing" "$out/stop.err" ||
  fail "stop: tile_reverse kept a check of the sweep it stopped"
for e in halo_diff block_vote warp_step; do
  grep -qE "sweep barriers: $e keeps plain" "$out/stop.err" ||
    fail "stop: $e was not swept again without tile_reverse"
done
grade flood "$root/grader/tests/adversarial/huge_output/barriers.cu" \
  --expect "$fixtures/flood_in_tile_reverse.expect"
if grep -q "sweep barriers: plain not clean" "$out/flood.err"; then
  grep -q "sweep barriers: plain clean" "$out/flood.err" ||
    fail "flood: the others were not swept again without tile_reverse"
fi
if grep -qE "^\[trace\] tile_reverse: plain run .*output past its cap" "$out/flood.err"; then
  grep -qE "^\[trace\] tile_reverse: (synccheck|memcheck) " "$out/flood.err" &&
    fail "flood: diagnosed under a tool"
fi

grade hang "$root/lessons/barriers/zoo/vote_in_both_branches.cu" \
  --expect "$fixtures/vote_in_both_branches.expect"
if grep -q "the sweep's plain run hung: its synccheck starts now" "$out/hang.err"; then
  [ "$(grep -cE '^\[trace\] block_vote: synccheck ' "$out/hang.err")" -eq 1 ] ||
    fail "hang: block_vote's synccheck ran again after the one beside the sweep"
  grep -q "sweep barriers: plain clean" "$out/hang.err" ||
    fail "hang: the others were not swept again without block_vote"
fi
echo "hang: $(grep -c "synccheck starts now" "$out/hang.err") early diagnosis"
echo "clean lesson: 0 own tool runs (unswept: $(own_tools unswept)); mutant: RACE from its own racecheck"
