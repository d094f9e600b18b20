#!/usr/bin/env bash
# The student commands print only the grader's table and explanations:
# no Check runner lines, no make or CMake chatter, no trailing make error;
# the exit status still says that something failed. Also the hint ladder
# through make: three calls, three steps.
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

for step in 1 2 3; do
  mk hint LESSON=barriers EXERCISE=halo_diff || fail "make hint exited non-zero"
  grep -q "hint $step/3" "$tmp/out" || fail "call $step did not reach step $step"
  grep -q "hint $((step + 1))/3" "$tmp/out" && fail "call $step went past step $step"
  grep -qE "$chatter" "$tmp/out" && fail "make hint printed chatter"
done

mk progress || fail "make progress exited non-zero"
grep -qE '^barriers +0/4 pass +tile_reverse:TODO' "$tmp/out" || fail "no progress line for barriers"
grep -qE '^fences +0/2 pass +not checked yet' "$tmp/out" || fail "progress read another folder"
grep -qE "$chatter" "$tmp/out" && fail "make progress printed chatter"

mk check && fail "make check without LESSON exited 0"
grep -q 'usage: make check LESSON=' "$tmp/out" || fail "no usage line"
grep -q 'make: \*\*\*' "$tmp/out" && fail "usage ended with a make error"

# a syntax error: BUILD, with the compiler's line for the student's file
echo 'this is not C++' >> "$tmp/sub/barriers.cu"
mk check LESSON=barriers && fail "make check on a broken file exited 0"
grep -qE 'tile_reverse +BUILD' "$tmp/out" || fail "no BUILD verdict"
grep -q 'barriers.cu' "$tmp/out" || fail "no compiler line naming the file"
grep -qE "$chatter" "$tmp/out" && fail "the BUILD report printed chatter"
echo "student commands: quiet, statuses right, hint ladder 1-2-3"
