#!/usr/bin/env bash
# syncgrade lint fails, with a line naming the file and the problem, on each
# kind of drift it exists for. Each case breaks one file of a copy of the
# source tree and puts it back; the copy itself must lint clean first (so a
# case cannot pass because the copy missed something).
#   lint_negative.sh <syncgrade> <source dir>
set -uo pipefail
sg=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/tree
fail() { echo "FAIL: $*"; [ -f "$tmp/out" ] && cat "$tmp/out"; exit 1; }

mkdir -p "$root/grader"
for p in README.md HACKING.md docs lessons starter solutions grading; do
  [ -e "$src/$p" ] && cp -r "$src/$p" "$root/"
done
for p in core cli runner; do
  cp -r "$src/grader/$p" "$root/grader/"
done

"$sg" lint --root "$root" >"$tmp/out" 2>&1 || fail "the copy of the tree does not lint clean"
"$sg" lint --root "$tmp/none" >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "is not a folder" "$tmp/out" || fail "a missing --root must exit 2, said"

# broken <file> <sed script> <text lint must print>
broken() {
  local file=$root/$1 script=$2 want=$3
  cp "$file" "$tmp/saved" || fail "no $1"
  sed -i -e "$script" "$file"
  cmp -s "$file" "$tmp/saved" && fail "$1: '$script' changed nothing"
  "$sg" lint --root "$root" >"$tmp/out" 2>&1
  local rc=$?
  [ $rc -eq 1 ] || fail "$1 ($script): lint exited $rc, not 1"
  grep -qF -- "$want" "$tmp/out" || fail "$1 ($script): no line with '$want'"
  cp "$tmp/saved" "$file"
  echo "ok: $want"
}

# a wrong anchor in a starter, and a heading renamed under the suites' .doc
line_of() { grep -n -m1 -F -- "$2" "$root/$1" | cut -d: -f1; }
broken starter/barriers.cu 's|01-barriers.md#tile-reverse|01-barriers.md#tile-revers|' \
  "starter/barriers.cu:$(line_of starter/barriers.cu '01-barriers.md#tile-reverse'): docs/01-barriers.md#tile-revers: no heading of docs/01-barriers.md has this anchor"
broken docs/01-barriers.md 's|^## Block vote$|## Block voting|' \
  "lessons/barriers/suite.c:$(line_of lessons/barriers/suite.c '01-barriers.md#block-vote'): docs/01-barriers.md#block-vote: no heading"
# a docs cross-link
broken docs/03-reduction.md 's|(#bug-zoo-what-the-grader-says)|(#bug-zoo)|' \
  "#bug-zoo: no heading of docs/03-reduction.md has this anchor"
# a zoo table row that disagrees with its EXPECT line, and the other way round
broken docs/04-scan.md 's/| WRONG (race-free, short sums) |/| RACE (race-free, short sums) |/' \
  "off_by_one.cu: the table says RACE, its EXPECT lines say WRONG"
broken lessons/scan/zoo/off_by_one.cu 's|EXPECT block_inclusive_scan WRONG|EXPECT block_inclusive_scan WRONG\|RACE|' \
  "off_by_one.cu: the table says WRONG, its EXPECT lines say WRONG|RACE"
# a zoo file without a row
cp "$root/lessons/scan/zoo/off_by_one.cu" "$root/lessons/scan/zoo/off_by_two.cu"
"$sg" lint --root "$root" >"$tmp/out" 2>&1 && fail "a zoo file without a row passed"
grep -qF "lessons/scan/zoo/off_by_two.cu: no row in docs/04-scan.md's bug-zoo tables" "$tmp/out" ||
  fail "the zoo file without a row is not named"
rm "$root/lessons/scan/zoo/off_by_two.cu"
# an EXPECT line for an exercise the lesson does not have
broken lessons/scan/zoo/off_by_one.cu 's|EXPECT block_inclusive_scan|EXPECT block_inclusive_scna|' \
  "EXPECT names exercise 'block_inclusive_scna', which lesson scan does not have"
# a runner table written by hand (its names no longer checked at compile time)
broken lessons/fences/harness.cu 's|^SL_RUNNER_TABLE(SL_LESSON_EXERCISES)$|const sl_runner_exercise sl_runner_exercises[] = {{"message_pass", run_message_pass, NULL}, {NULL, NULL, NULL}};|' \
  "lessons/fences/harness.cu: the runner's table is not SL_RUNNER_TABLE(SL_LESSON_EXERCISES)"
# points.ini and README.md out of date
broken grading/points.ini 's/^scan_any_n = 20$/scan_any_n = 25/' \
  "is 'scan_any_n = 25', the suites give 'scan_any_n = 20'"
broken README.md '/^| 7 | /d' "the lesson table has no row for lesson awbarrier"

"$sg" lint --root "$root" >"$tmp/out" 2>&1 || fail "the tree put back does not lint clean"
echo "lint: every drift caught"
