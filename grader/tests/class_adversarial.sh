#!/usr/bin/env bash
# Grades grader/tests/adversarial as a class and checks grades.csv: every
# exercise a case's expect.txt names (the ones it cheats) must have 0 points,
# except an honest neighbour's (expected PASS), which must keep its points
# when there is a GPU. Without a GPU the dynamic cases are SKIP (0 points,
# said in notes); with one the cheats must still get nothing. No file the
# class wrote may hold what a submission forged (SYNCLAB_FORGED).
#   class_adversarial.sh <syncgrade> <adversarial dir> <out dir> [class options...]
set -euo pipefail
syncgrade=$1 cases=$2 out=$3
shift 3
rm -rf "$out"
lessons=()
for f in "$cases"/*/*.cu; do lessons+=(--lesson "$(basename "$f" .cu)"); done
mapfile -t lessons < <(printf '%s\n' "${lessons[@]}" | paste - - | sort -u | tr '\t' '\n')
"$syncgrade" class --submissions "$cases" --out "$out" --jobs 2 --quiet "${lessons[@]}" "$@" ||
  [ $? -eq 1 ] # 1: some exercise not judged (ERROR), still checked below
csv=$out/grades.csv
[ -s "$csv" ] || { echo "no $csv"; exit 1; }
header=$(head -1 "$csv" | tr -d '\r')
failures=0
for dir in "$cases"/*/; do
  case_name=$(basename "$dir")
  files=("$dir"/*.cu)
  lesson=$(basename "${files[0]}" .cu)
  row=$(grep "^$case_name," "$csv" | tr -d '\r') || { echo "$case_name: no row"; failures=1; continue; }
  while read -r exercise verdicts; do
    case $exercise in ''|'#'*) continue ;; esac
    column=$(tr ',' '\n' <<<"$header" | grep -nx "$lesson/$exercise" | cut -d: -f1)
    points=$(cut -d, -f"$column" <<<"$row")
    if [ "$verdicts" = PASS ]; then
      # an innocent neighbour: full marks, unless nothing ran (no GPU)
      if [ "$points" = 0 ] && ! grep -q "skipped (no GPU)" <<<"$row"; then
        echo "$case_name: $lesson/$exercise lost its points beside a cheat"
        failures=1
      else
        echo "$case_name: $lesson/$exercise $points points ok"
      fi
    elif [ "$points" != 0 ]; then
      echo "$case_name: $lesson/$exercise earned $points points (expected 0: $verdicts)"
      failures=1
    else
      echo "$case_name: $lesson/$exercise 0 points ok"
    fi
  done < "$dir/expect.txt"
  # the report says why, and the Gradescope file is valid JSON with a test per exercise
  grep -q "score:" "$out/students/$case_name/report.txt" ||
    { echo "$case_name: no report"; failures=1; }
done
if grep -rl --include='*.json' --include='*.csv' --include='*.txt' --include='*.xml' \
     SYNCLAB_FORGED "$out" 2>/dev/null; then
  echo "a forged file is among the class's results (above)"
  failures=1
fi
exit $failures
