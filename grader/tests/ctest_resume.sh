#!/usr/bin/env bash
# scripts/ctest-resume.sh on a toy CTest project: slices go on where the
# last one stopped, a test cut off twice in a row is named (it may never
# fit a slice: the determinism tests of a whole lesson did not), and the
# exit says finished (0), failed (1) or more to run (3).
#   ctest_resume.sh <source root>
set -uo pipefail
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out" 2>/dev/null; exit 1; }
mkdir -p "$tmp/src"
cat >"$tmp/src/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.25)
project(toy NONE)
enable_testing()
add_test(NAME slow COMMAND sleep 30)
add_test(NAME fast COMMAND true)
add_test(NAME bad COMMAND false)
CM
cmake -S "$tmp/src" -B "$tmp/b" >/dev/null || fail "toy project"
r() { "$root/scripts/ctest-resume.sh" "$tmp/b" "$@" >"$tmp/out" 2>&1; }
r 3 -j3; [ $? -eq 3 ] || fail "first slice: slow still to run (exit 3)"
grep -q "2 of 3 finished" "$tmp/out" || fail "first slice: fast and bad finish"
grep -q "cut off in two slices" "$tmp/out" && fail "named after one slice"
r 3 -j3; [ $? -eq 3 ] || fail "second slice: exit 3"
grep -q "ctest-resume: slow was cut off in two slices in a row" "$tmp/out" ||
  fail "slow cut off twice and not named"
grep -q "bad .*Failed" "$tmp/out" || fail "the failure of an earlier slice is not listed"
r --forget; r 60 -j3 -E slow; [ $? -eq 3 ] || fail "with slow left out: still to run (exit 3)"
echo "ctest-resume: slices go on, a test cut off twice is named, failures listed"
