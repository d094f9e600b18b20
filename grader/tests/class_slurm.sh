#!/usr/bin/env bash
# The Slurm path end to end on a one-node Slurm of this machine
# (scripts/slurm/local-slurm.sh): submit.sh grades the test class as a job
# array of 3 shards and a dependent merge job; the merged grades.csv must
# equal one local run's. 77 when Slurm or munge is not installed, or not root.
#   class_slurm.sh <syncgrade> <source dir> <out dir>
set -euo pipefail
syncgrade=$1 src=$2 out=$3
slurm=$src/scripts/slurm
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rc=0
env_line=$("$slurm/local-slurm.sh" start "$out/slurm") || rc=$?
[ "$rc" -eq 0 ] || exit "$rc" # 77: no Slurm here
eval "$env_line"               # export SLURM_CONF=...
trap '"$slurm/local-slurm.sh" stop "$out/slurm"' EXIT

bash "$(dirname "$0")/make_test_class.sh" "$src" "$out/submissions"
options=(--lesson barriers --lesson scan --seed 1234 --jobs 1)
"$syncgrade" class --submissions "$out/submissions" --out "$out/whole" --quiet "${options[@]}" ||
  [ $? -eq 1 ]
# the shards grade on the node's own disk (SCRATCH) and copy their results
ids=$(SCRATCH=$out/node-scratch SYNCGRADE=$syncgrade "$slurm/submit.sh" "$out/submissions" \
      "$out/slurm-grades" 3 "${options[@]}")
echo "$ids"
merge=$(sed -n 's/.*then merge job \([0-9]*\).*/\1/p' <<<"$ids")
# wait for the merge job: done, or failed (a shard failed, or the merge)
for _ in $(seq 600); do
  state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case $state in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;; esac
  sleep 1
done
echo "merge job $merge: ${state:-gone}"
[ "$state" = COMPLETED ] || { tail -n 20 "$out"/slurm-grades/logs/*.out; exit 1; }
cmp "$out/whole/grades.csv" "$out/slurm-grades/grades.csv" ||
  { diff "$out/whole/grades.csv" "$out/slurm-grades/grades.csv"; exit 1; }
[ -z "$(ls -A "$out/node-scratch" 2>/dev/null)" ] || { echo "SCRATCH left: $(ls "$out/node-scratch")"; exit 1; }
grep -q "students graded in $out/node-scratch" "$out"/slurm-grades/logs/shard-1.out ||
  { echo "shard 1 did not grade in SCRATCH: $(cat "$out"/slurm-grades/logs/shard-1.out)"; exit 1; }
echo "Slurm job array of 3 shards (graded in SCRATCH) + merge: grades.csv equals one run"
