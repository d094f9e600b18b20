#!/usr/bin/env bash
# The student commands print only the grader's table and explanations:
# no Check runner lines, no make or CMake chatter, no trailing make error,
# no grading folder or sandbox line (unless the sandbox is missing); the
# exit status still says that something failed (make grade too). Also the
# hint ladder (issue 28): make check shows step 1, the question, and names
# make hint; two make hints give steps 2 and 3; later ones say there are no
# more. An unknown exercise or lesson is an error that lists the names.
# Without a GPU a clean exercise is SKIP "static checks passed", and
# progress moves past it. RULE details read as words (rule_words.sh).
#   student_commands.sh <source dir> <build dir>
set -uo pipefail
root=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }
chatter='srunner|Running suite|\.c:[0-9]+:[FE]:|make: \*\*\*|make\[[0-9]+\]|^\[ *[0-9]+%\]|Checks: [0-9]+|-- Configuring|Error [0-9]'
cp -r "$root/starter" "$tmp/sub"
export SYNCLAB_OUT=$tmp/grade   # not the student's build/grade
mk() { make -C "$root" --no-print-directory BUILD="$build" SUBMISSION="$tmp/sub" "$@" >"$tmp/out" 2>&1; }

mk check LESSON=barriers && fail "make check on the starter exited 0"
grep -qE 'tile_reverse +TODO' "$tmp/out" || fail "no TODO table"
grep -qE "$chatter" "$tmp/out" && fail "make check printed chatter: $(grep -E "$chatter" "$tmp/out")"
grep -q '^grading ' "$tmp/out" && fail "make check printed the grading folder"
grep -q '^sandbox: ' "$tmp/out" && ! grep -q '^sandbox: unavailable' "$tmp/out" &&
  fail "make check printed the sandbox line, which is fine"
# the four TODOs in one block, its hint the question, never the fix
[ "$(grep -c 'SYNCLAB_TODO' "$tmp/out")" -le 1 ] || fail "one TODO block per exercise"
first_hint=$(grep -m1 'hint' "$tmp/out" | grep -v '^lesson')
echo "$first_hint" | grep -qE '^ +hint 1/3: What does .*make hint LESSON=' ||
  fail "the first hint line is not the question with make hint: $first_hint"
grep -qE 'Delete the SYNCLAB_TODO|remove SYNCLAB_TODO' "$tmp/out" && fail "make check gave the fix"

# make check showed step 1: make hint goes on at 2, 3, then no more
for step in 2 3; do
  mk hint LESSON=barriers EXERCISE=halo_diff || fail "make hint exited non-zero"
  grep -q "hint $step/3" "$tmp/out" || fail "a make hint did not reach step $step"
  grep -q "hint $((step + 1))/3" "$tmp/out" && fail "a make hint went past step $step"
  grep -q "no more steps" "$tmp/out" && fail "no more steps at step $step"
  grep -qE "$chatter" "$tmp/out" && fail "make hint printed chatter"
done
for call in 3 4; do
  mk hint LESSON=barriers EXERCISE=halo_diff || fail "make hint exited non-zero"
  grep -q "no more steps" "$tmp/out" || fail "make hint call $call did not say there are no more"
done
mk hint LESSON=barriers EXERCISE=halo_dif && fail "make hint with an unknown EXERCISE exited 0"
grep -q "its exercises: tile_reverse halo_diff block_vote warp_step" "$tmp/out" ||
  fail "an unknown EXERCISE does not list the exercises"
for goal in hint check; do
  mk $goal LESSON=barrier && fail "make $goal LESSON=barrier (a typo) exited 0"
  grep -q "no lesson named 'barrier'" "$tmp/out" || fail "make $goal: the typo is not named"
  grep -q '^lessons: barriers fences' "$tmp/out" || fail "make $goal: a typo does not list the lessons"
  grep -q 'build failed' "$tmp/out" && fail "a lesson typo read as a build failure"
done

# make grade's exit status says whether everything passed
mk grade LESSON=barriers && fail "make grade on the starter exited 0"
grep -qE 'tile_reverse +TODO' "$tmp/out" || fail "no TODO table from make grade"

mk progress || fail "make progress exited non-zero"
grep -qE '^barriers +0/4 pass +tile_reverse:TODO' "$tmp/out" || fail "no progress line for barriers"
grep -qE '^fences +0/2 pass +not checked yet' "$tmp/out" || fail "progress read another folder"
grep -qE "$chatter" "$tmp/out" && fail "make progress printed chatter"

# No GPU (hidden here, so on a GPU machine too): the clean exercises are
# SKIP, saying the static checks passed; progress moves past them.
cp "$root/solutions/barriers.cu" "$tmp/sub/barriers.cu"
CUDA_VISIBLE_DEVICES='' mk check LESSON=barriers && fail "make check with SKIPs exited 0"
grep -qE 'tile_reverse +SKIP' "$tmp/out" || fail "no SKIP without a GPU"
grep -q 'static checks passed; the rest needs a GPU' "$tmp/out" || fail "SKIP does not say why"
mk progress || fail "make progress exited non-zero"
grep -q 'static checks passed, the rest needs a GPU: barriers/tile_reverse, barriers/halo_diff' \
  "$tmp/out" || fail "progress does not say what waits for a GPU"
grep -q '^next: fences/message_pass' "$tmp/out" || fail "progress stuck on a SKIP"
cp "$root/starter/barriers.cu" "$tmp/sub/barriers.cu"

# RULE details in words: three bug-zoo mutants of lesson 1 (their RULE
# and SYNC verdicts are static)
for z in warp_shuffle vote_with_atomics vote_mbarrier_counter barrier_in_branch; do
  "$build/syncgrade" expect --static --lesson barriers --out "$tmp/zoo" \
    --source "$root/lessons/barriers/zoo/$z.cu" >"$tmp/out" 2>&1 || fail "zoo $z"
done
"$(dirname "$0")/rule_words.sh" "$tmp/zoo" >"$tmp/out" 2>&1 || fail "RULE details not in words"

mk check && fail "make check without LESSON exited 0"
grep -q 'usage: make check LESSON=' "$tmp/out" || fail "no usage line"
grep -q 'make: \*\*\*' "$tmp/out" && fail "usage ended with a make error"

# a syntax error: BUILD, with the compiler's line for the student's file
echo 'this is not C++' >> "$tmp/sub/barriers.cu"
mk check LESSON=barriers && fail "make check on a broken file exited 0"
grep -qE 'tile_reverse +BUILD' "$tmp/out" || fail "no BUILD verdict"
grep -q 'barriers.cu' "$tmp/out" || fail "no compiler line naming the file"
grep -qE "$chatter" "$tmp/out" && fail "the BUILD report printed chatter"
echo "student commands: quiet, statuses right, hint ladder 1-2-3 and no more, SKIP moves on"
