#!/usr/bin/env bash
# make handout: no solutions, no zoo, no grader tests; the handout builds
# (the grader and one lesson) and make check works in it. No GPU needed.
#   handout.sh <source dir> [cmake args for the handout's build]
set -uo pipefail
root=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/out" ] && cat "$tmp/out"; exit 1; }
make -C "$root" --no-print-directory handout OUT="$tmp/handout" >"$tmp/out" 2>&1 ||
  fail "make handout failed"
h=$tmp/handout
for f in starter/barriers.cu Makefile docs/01-barriers.md scripts/student.sh; do
  [ -f "$h/$f" ] || fail "the handout lacks $f"
done
[ -e "$h/solutions" ] && fail "the handout has solutions/"
ls "$h"/lessons/*/zoo >/dev/null 2>&1 && fail "the handout has a bug zoo"
[ -e "$h/grader/tests" ] && fail "the handout has the grader's tests"
grep -rqE 'solutions/' "$h/starter" && fail "a starter refers to solutions/"
make -C "$h" --no-print-directory check LESSON=barriers BUILD="$tmp/build" CMAKE_ARGS="$*" \
  >"$tmp/out" 2>&1 && fail "make check on the handout's starter exited 0"
grep -qE 'tile_reverse +TODO' "$tmp/out" || fail "no TODO table from the handout"
grep -qE 'make: \*\*\*|srunner|:[0-9]+:F:' "$tmp/out" && fail "chatter in the handout's check"
echo "handout: builds, make check LESSON=barriers gives the TODO table"
