#!/usr/bin/env bash
# Judging a lesson's exercises at once (--exercise-jobs) must give the same
# table as one by one: every exercise present, each with its own verdict.
# On starter/ every verdict is TODO, with or without a GPU.
#   exercise_jobs.sh <syncgrade> <starter dir> <out dir>
set -euo pipefail
syncgrade=$1 starter=$2 out=$3
table() { # lesson, exercise, verdict, points of each row, whichever lesson it follows
  "$syncgrade" grade --submission "$starter" --out "$1" --quiet "${@:2}" |
    awk '/^[a-z]+ +[a-z_]+ +[A-Z]+ +[0-9]+\/[0-9]+/ {l=$1; print l, $2, $3, $4; next}
         /^ +[a-z_]+ +[A-Z]+ +[0-9]+\/[0-9]+/ {print l, $1, $2, $3}'
}
one=$(table "$out/one")
many=$(table "$out/many" --exercise-jobs 3)
expected=$("$syncgrade" list | grep -c '^  [a-z_]')
[ "$(wc -l <<<"$one")" -eq "$expected" ] || { echo "sequential: $(wc -l <<<"$one") rows, expected $expected"; exit 1; }
[ "$one" = "$many" ] || { echo "tables differ:"; diff <(echo "$one") <(echo "$many"); exit 1; }
grep -v ' TODO ' <<<"$many" && { echo "starter exercises that are not TODO (above)"; exit 1; }
echo "$expected exercises, same verdicts with --exercise-jobs 3"
