#!/usr/bin/env bash
# Checks a demo class's grades against the verdicts it was made to get
# (scripts/make-demo-class.sh prints them: its class.txt). For each row of
# grades.csv:
#   - a clean copy of the solutions has every exercise's full points;
#   - an exercise a mutant expects to fail (// EXPECT ... RACE) has 0;
#   - an exercise a mutant expects to pass (an ok_* file) has its full points;
#   - the exercises of a lesson the student did not get a mutant for have
#     their full points.
# An exercise a mutant file does not name is not checked: the zoo promises
# nothing of it. Full points come from the points file (grading/points.ini
# unless given; points are all or nothing).
# A lever that turned a verdict would change grades.csv's checksum too, but
# a class graded once, or in shards (only the shard's rows are checked), has
# no checksum to compare with: this is what says such a run proves anything.
#   check-demo-grades.sh <class.txt> <grades.csv> [points.ini]
# Exit 0 and one line with the counts; 1 and the first 20 differences.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
class=${1:?usage: check-demo-grades.sh <class.txt> <grades.csv> [points.ini]}
grades=${2:?usage: check-demo-grades.sh <class.txt> <grades.csv> [points.ini]}
points=${3:-$root/grading/points.ini}

# class.txt:  "student02: coop <- leader_lane0 (agg_filter WRONG )"
#             "student03: solutions"
#             "student07: barriers <- x (tile_reverse SYNC static warp_step RULE )"
awk '
  FILENAME == ARGV[1] {
    if ($0 ~ /^\[/) { sect = substr($0, 2, index($0, "]") - 2); next }
    if ($0 ~ /^[a-z_0-9]+ *= *[0-9]+/) { split($0, kv, /[ =]+/); pts[sect "/" kv[1]] = kv[2] }
    next }
  FILENAME == ARGV[2] {
    st = $1; sub(/:$/, "", st)
    if ($2 == "solutions") next
    mutated[st "/" $2] = 1
    # "exercise VERDICT[|VERDICT...]" pairs after the "(": a verdict is upper case
    for (i = 5; i < NF; i++) if ($(i + 1) ~ /^[A-Z]+(\|[A-Z]+)*$/) {
      w = $i; sub(/^\(/, "", w); v = $(i + 1)
      want[st "," $2 "/" w] = v == "PASS" ? "full" : v ~ /PASS/ ? "any" : "zero" }
    next }
  FNR == 1 {
    for (i = 2; i <= NF; i++) col[i] = $i
    last = NF; next }
  {
    rows++
    for (i = 2; i <= last; i++) {
      c = col[i]; if (!(c in pts)) continue
      split(c, lc, "/"); k = $1 "," c
      e = (k in want) ? want[k] : (($1 "/" lc[1]) in mutated) ? "" : "full"
      if (e == "zero") { fail++; if ($i != 0) bad[++nbad] = $1 " " c ": " $i " points, expected to fail" }
      if (e == "full") { full++; if ($i != pts[c]) bad[++nbad] = $1 " " c ": " $i " of " pts[c] " points, expected to pass" }
    } }
  END {
    if (!rows) { print "check-demo-grades: no rows in " ARGV[4] > "/dev/stderr"; exit 1 }
    if (nbad) {
      print "check-demo-grades: " nbad " grade(s) the class was not made to get:" > "/dev/stderr"
      for (j = 1; j <= nbad && j <= 20; j++) print "  " bad[j] > "/dev/stderr"
      exit 1 }
    printf "verdicts as made: %d students, %d exercises expected to pass and %d to fail\n", rows, full, fail
  }' "$points" "$class" FS=, "$grades"
