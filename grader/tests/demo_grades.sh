#!/usr/bin/env bash
# scripts/check-demo-grades.sh, the bench's check that a demo class got the
# verdicts it was made to get, without a GPU: on grades an H200 gave ten
# students of a class of 100 (fixtures/demo-grades, 2026-11-29), on each
# kind of wrong grade, and on a class.txt that make-demo-class.sh writes
# now (its format is what the check parses).
#   demo_grades.sh <source dir> <work dir>
set -euo pipefail
src=$1 work=$2
check=$src/scripts/check-demo-grades.sh
fix=$src/grader/tests/fixtures/demo-grades
rm -rf "$work"
mkdir -p "$work"
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# the device's grades pass, with every expectation counted: 10 students x 22
# exercises, less the 22 of mutated lessons that no EXPECT line names
out=$("$check" "$fix/class.txt" "$fix/grades.csv") || bad "the device's grades were refused"
[ "$out" = "verdicts as made: 10 students, 191 exercises expected to pass and 7 to fail" ] ||
  bad "counts: $out"

# Sets column NAME of STUDENT's row to VALUE, into $work/g.csv.
set_grade() {
  awk -F, -v OFS=, -v st="$1" -v name="$2" -v val="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
    NR > 1 && $1 == st { $c = val } { print }' "$fix/grades.csv" >"$work/g.csv"
}
# Each wrong grade is refused, naming the student and the exercise.
refused() {
  local what=$1 want=$2
  if "$check" "$fix/class.txt" "$work/g.csv" >/dev/null 2>"$work/err"; then
    bad "$what: accepted"
  else
    grep -qF "$want" "$work/err" || bad "$what: said $(cat "$work/err")"
  fi
}
set_grade student01 barriers/halo_diff 0
refused "a clean copy losing an exercise" "student01 barriers/halo_diff: 0 of 15 points, expected to pass"
set_grade student00 barriers/tile_reverse 10
refused "a race given its points" "student00 barriers/tile_reverse: 10 points, expected to fail"
set_grade student08 barriers/tile_reverse 10
refused "a static SYNC given its points" "student08 barriers/tile_reverse: 10 points, expected to fail"
set_grade student06 worklist/compact 10
refused "the second exercise an EXPECT names" "student06 worklist/compact: 10 points, expected to fail"
set_grade student04 scan/scan_any_n 0
refused "an ok_* file losing its exercise" "student04 scan/scan_any_n: 0 of 20 points, expected to pass"
set_grade student02 reduction/sum_int 0
refused "a lesson the student did not get a mutant for" "student02 reduction/sum_int: 0 of 15 points"
set_grade student02 barriers/tile_reverse 5
refused "part of an exercise's points" "student02 barriers/tile_reverse: 5 of 10 points"
# not checked: what no EXPECT line of a mutated lesson names
set_grade student00 barriers/halo_diff 0
"$check" "$fix/class.txt" "$work/g.csv" >/dev/null 2>&1 || bad "an exercise the mutant does not name was checked"
# the columns are found by name, in any order, and a student of the class
# that this shard did not grade (student10, student11) is not asked for
awk -F, -v OFS=, '{ t = $2; $2 = $3; $3 = t; print }' "$fix/grades.csv" >"$work/g.csv"
"$check" "$fix/class.txt" "$work/g.csv" >/dev/null || bad "columns in another order"
head -n 1 "$fix/grades.csv" >"$work/g.csv"
refused "a grades.csv without rows" "no rows"

# make-demo-class.sh's class.txt, as it writes it today: on grades of full
# points for every exercise, the check must refuse exactly the exercises
# its EXPECT lines expect to fail (counted here without the check's parser)
"$src/scripts/make-demo-class.sh" "$work/class" 14 >"$work/class.txt"
expected=$(grep -oE '[a-z_0-9]+ [A-Z]+(\|[A-Z]+)*' "$work/class.txt" | grep -vc ' PASS$' || true)
[ "$expected" -gt 7 ] || bad "make-demo-class.sh's class of 14 expects only $expected failures"
awk -F, -v OFS=, '
  FILENAME == ARGV[1] {
    if ($0 ~ /^\[/) { sect = substr($0, 2, index($0, "]") - 2); next }
    if ($0 ~ /^[a-z_0-9]+ *= *[0-9]+/) { split($0, kv, /[ =]+/); pts[sect "/" kv[1]] = kv[2] }
    next }
  FILENAME == ARGV[2] { print; for (i = 2; i <= NF; i++) col[i] = $i; n = NF; nextfile }
  { st = $1; sub(/:$/, "", st); if (seen[st]++) next
    row = st; for (i = 2; i <= n; i++) row = row OFS ((col[i] in pts) ? pts[col[i]] : "")
    print row }' "$src/grading/points.ini" "$fix/grades.csv" FS=' ' "$work/class.txt" >"$work/full.csv"
if "$check" "$work/class.txt" "$work/full.csv" >/dev/null 2>"$work/err"; then
  bad "full points for a class with mutants: accepted"
else
  got=$(grep -c 'expected to fail$' "$work/err" || true)
  # the check lists at most 20; its first line gives the count
  total=$(sed -n 's/^check-demo-grades: \([0-9]*\) grade.*/\1/p' "$work/err")
  [ "$total" = "$expected" ] || bad "make-demo-class.sh's class: $total refused, $expected expected to fail"
  [ "$got" -ge 1 ] || bad "make-demo-class.sh's class: no exercise named"
  grep -v 'expected to fail$' "$work/err" | grep -q 'expected to pass' &&
    bad "make-demo-class.sh's class: an exercise it expects to pass was refused"
fi

[ "$fail" = 0 ] && echo "demo_grades: ok"
exit "$fail"
