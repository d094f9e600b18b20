#!/usr/bin/env bash
# Held-out static cases: submissions written by reviewers who had not seen
# the rules (correct idioms, real bugs, cheats), each with its EXPECT lines.
# Each is judged by the static stages alone (syncgrade expect --static): a
# static verdict must match, and a case expected to PASS or to fail only at
# run time must get through them. No GPU is used, so the result is the same
# in CI and on the device. Every RULE and SYNC detail must read as words
# (rule_words.sh: no mangled names, no rule patterns).
#   heldout.sh SYNCGRADE LESSON_DIR OUT_DIR
set -uo pipefail
syncgrade=$1 dir=$2 out=$3
lesson=$(basename "$dir")
rm -rf "$out" # results of this run only: rule_words.sh reads them all
mkdir -p "$(dirname "$out")" || exit 2
fail=0 n=0
for f in "$dir"/*.cu; do
  n=$((n + 1))
  if ! "$syncgrade" expect --static --lesson "$lesson" --source "$f" --out "$out" > "$out.log" 2>&1; then
    fail=$((fail + 1))
    cat "$out.log"
  fi
done
echo "heldout $lesson: $((n - fail)) of $n cases right"
"$(dirname "$0")/rule_words.sh" "$out" || fail=$((fail + 1))
[ "$fail" -eq 0 ]
