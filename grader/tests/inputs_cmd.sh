#!/usr/bin/env bash
# syncgrade inputs writes the inputs a seed gives each exercise, as the
# grader does: the same seed gives the same files, another seed other data,
# and every printed runner command names as many cases as were written.
#   inputs_cmd.sh <syncgrade> <out dir>
set -euo pipefail
syncgrade=$1 out=$2
rm -rf "$out"
"$syncgrade" inputs --lesson reduction --seed 11 --out "$out/a" > "$out.a.txt"
"$syncgrade" inputs --lesson reduction --seed 11 --out "$out/b" > /dev/null
"$syncgrade" inputs --lesson reduction --seed 12 --out "$out/c" > /dev/null
diff -r "$out/a" "$out/b" > /dev/null || { echo "seed 11 twice gave different inputs"; exit 1; }
diff -r -q "$out/a" "$out/c" > /dev/null && { echo "seeds 11 and 12 gave the same inputs"; exit 1; }
rows=0
while read -r _ _ _ exercise dir count; do
  rows=$((rows + 1))
  n=$(find "$dir" -name 'case*.in' | wc -l)
  [ "$n" -eq "$count" ] && [ "$count" -gt 0 ] || { echo "$exercise: $dir has $n cases, printed $count"; exit 1; }
done < "$out.a.txt"
expected=$("$syncgrade" list | awk '/^reduction:/ {on=1; next} /^[a-z]/ {on=0} on' | wc -l)
[ "$rows" -eq $((2 * expected)) ] || { echo "$rows runner commands for $expected exercises"; exit 1; }
"$syncgrade" inputs --lesson reduction --out "$out/d" 2> /dev/null && { echo "no --seed was accepted"; exit 1; }
"$syncgrade" inputs --lesson reduction --seed 1 --exercise nope --out "$out/e" 2> /dev/null &&
  { echo "an unknown exercise was accepted"; exit 1; }
echo "$expected exercises: small and full inputs, same for a seed, other for another"
