#!/usr/bin/env bash
# Another process holding the grading GPU's memory is the machine's
# failure, never the student's (grade.c: failed_before_ready,
# gpu_memory_taken): with all but 512 MiB of the GPU taken by a process
# of no student's, the solutions of reduction (whose full inputs need
# more) get PASS or ERROR, never LAUNCH, MEMORY or WRONG, and every ERROR
# says why; once the holder is gone, all PASS.
#   gpu_memory_held.sh <syncgrade> <source dir> <scratch dir> <holder>
set -euo pipefail
syncgrade=$1 src=$2 dir=$3 holder=$4
rm -rf "$dir"
mkdir -p "$dir"
"$holder" 512 >"$dir/holder.txt" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q holding "$dir/holder.txt" 2>/dev/null && break
  kill -0 $pid 2>/dev/null || { echo "skipped: no GPU memory to hold ($(cat "$dir/holder.txt"))"; exit 77; }
  sleep 0.2
done
grep -q holding "$dir/holder.txt" || { echo "the holder did not start"; exit 1; }
cat "$dir/holder.txt"
grade() { # <name>: the report of the solutions' reduction
  "$syncgrade" grade --submission "$src/solutions" --lesson reduction --out "$dir/$1" --seed 3 \
    >"$dir/$1.txt" 2>&1 || true
}
verdicts() { grep -E "^ *([a-z]+ +)?[a-z_]+ +[A-Z]+ +[0-9]+/[0-9]+" "$dir/$1.txt" | awk '{ print $(NF-2) }'; }
fail=0
grade held
grep -qE " SKIP " "$dir/held.txt" && { echo "skipped: no GPU"; exit 77; }
echo "held: $(verdicts held | sort | uniq -c | tr -s ' \n' ' ')"
bad=$(verdicts held | grep -vE "^(PASS|ERROR)$" || true)
[ -z "$bad" ] || { echo "FAIL: with the GPU's memory held by another process: $(echo $bad)"; sed -n '/^reduction\//,$p' "$dir/held.txt" | head -30; fail=1; }
errors=$(verdicts held | grep -c ERROR || true)
said=$(grep -cE "before any of the submission's code ran|another process holds it" "$dir/held.txt" || true)
[ "$errors" -ge 1 ] || { echo "FAIL: nothing failed with 512 MiB of the GPU free: the test holds too little"; fail=1; }
[ "$said" -ge "$errors" ] || { echo "FAIL: $errors ERRORs, $said of them say why"; sed -n '/^reduction\//,$p' "$dir/held.txt" | head -30; fail=1; }
kill $pid
wait $pid 2>/dev/null || true
grade free
[ "$(verdicts free | sort -u)" = PASS ] || { echo "FAIL: once the GPU was free: $(verdicts free | tr '\n' ' ')"; fail=1; }
[ "$fail" = 0 ] && echo "gpu_memory_held: a GPU whose memory another process holds gives ERROR, never the student's verdict"
exit "$fail"
