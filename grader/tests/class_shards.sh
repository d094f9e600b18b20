#!/usr/bin/env bash
# Shards of a class, merged, equal one run of the whole class: grades.csv
# byte for byte, and every student's report, results.json and junit.xml are
# there. Without a GPU the verdicts are static (TODO of starters, BUILD of
# broken files, SKIP of dynamic checks); with one the seed makes the
# dynamic ones repeatable. merge refuses shards that do not make one class.
# --gpus spreads the students over GPUs and changes no grade either.
#   class_shards.sh <syncgrade> <source dir> <out dir>
set -euo pipefail
syncgrade=$1 src=$2 out=$3
rm -rf "$out"
class=$out/submissions
bash "$(dirname "$0")/make_test_class.sh" "$src" "$class"

args=(--submissions "$class" --lesson barriers --lesson scan --seed 1234 --jobs 2 --quiet)
graded() { "$syncgrade" class "$@" || [ $? -eq 1 ]; } # 1: some ERROR, compared anyway
graded "${args[@]}" --out "$out/whole"
for k in 1 2 3; do graded "${args[@]}" --out "$out/shard$k" --shard "$k/3"; done
# each shard holds its slice: 7 students in 3 shards are 3, 2 and 2
for k in 1 2 3; do
  rows=$(($(wc -l < "$out/shard$k/grades.csv") - 1))
  want=$([ "$k" = 1 ] && echo 3 || echo 2)
  [ "$rows" = "$want" ] || { echo "shard $k/3 has $rows students, not $want"; exit 1; }
done
# the order the shards are named in does not matter
"$syncgrade" merge --out "$out/merged" --quiet "$out/shard2" "$out/shard3" "$out/shard1" ||
  [ $? -eq 1 ]
cmp "$out/whole/grades.csv" "$out/merged/grades.csv" ||
  { diff "$out/whole/grades.csv" "$out/merged/grades.csv"; echo "merged grades differ"; exit 1; }
# a student's files: <out>/students/<name> (or <out>/<name>, the older layout)
files_of() { if [ -d "$1/students" ]; then echo "$1/students/$2"; else echo "$1/$2"; fi; }
for s in "$class"/*/; do
  name=$(basename "$s")
  whole=$(files_of "$out/whole" "$name") merged=$(files_of "$out/merged" "$name")
  for f in report.txt results.json junit.xml; do
    [ -s "$merged/$f" ] || { echo "merged: no $merged/$f"; exit 1; }
  done
  # the same verdicts as one run (the reports differ only in seconds, and in
  # the disk a student's grading took: with dedup, whoever grades a shared
  # file first builds it, and shards make other students first)
  no_time() { sed -E 's/, [0-9.]+ s\)/)/; s/ +[0-9.]+s$//; /^disk: /d' "$1"; }
  diff <(no_time "$whole/report.txt") <(no_time "$merged/report.txt") ||
    { echo "merged: $name/report.txt says other verdicts than one run"; exit 1; }
done
echo "3 shards merged: grades.csv equals one run ($(sha256sum < "$out/merged/grades.csv" | cut -c1-16))"

# worker groups per GPU change no grade: every GPU there is, and two groups
# on GPU 0 (a list may name a GPU twice), which works on any machine
graded "${args[@]}" --out "$out/gpus-all" --gpus all
graded "${args[@]}" --out "$out/gpus-0-0" --gpus 0,0
for run in gpus-all gpus-0-0; do
  cmp "$out/whole/grades.csv" "$out/$run/grades.csv" || { echo "--$run: other grades"; exit 1; }
done
echo "--gpus all and --gpus 0,0: grades.csv equals one run"

refused() { # what merge must refuse, with status 2: refused WHY OUT SHARD...
  local why=$1 to=$2; shift 2
  if "$syncgrade" merge --quiet --out "$to" "$@" 2>/dev/null; then rc=0; else rc=$?; fi
  [ "$rc" = 2 ] || { echo "merge of $why: status $rc, not 2"; exit 1; }
  echo "merge refuses $why"
}
refused "a missing shard" "$out/refused" "$out/shard1" "$out/shard2"
refused "a shard twice" "$out/refused" "$out/shard1" "$out/shard1" "$out/shard2"
refused "a folder that is no shard" "$out/refused" "$out/shard1" "$out/shard2" "$out/whole"
graded "${args[@]}" --out "$out/other2" --shard 2/3 --seed 99
refused "shards of another run" "$out/refused" "$out/shard1" "$out/other2" "$out/shard3"
refused "--out one of the shards" "$out/shard1" "$out/shard1" "$out/shard2" "$out/shard3"
