#!/usr/bin/env bash
# grade-array.sbatch without Slurm (the array task's variables set by
# hand) and with a stand-in syncgrade: where a shard grades and what it
# leaves. Without SCRATCH it grades in OUT/shards/K, as before. With
# SCRATCH it grades in a folder of its own under SCRATCH (a student's
# sweep writes gigabytes there, off the shared file system), copies the
# results to OUT/shards/K and removes that folder; a shard with grader
# errors (exit 1) is still copied and done; a shard that failed (exit 2)
# fails and claims no results. class.slurm runs the real thing.
#   slurm_scratch.sh <source dir> <scratch dir>
set -euo pipefail
src=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir/subs"
cat >"$dir/syncgrade" <<'STANDIN'
#!/usr/bin/env bash
# stand-in: syncgrade class --submissions S --out O --shard K/N ...
set -euo pipefail
while [ $# -gt 0 ]; do
  case $1 in --out) out=$2; shift ;; --shard) shard=$2; shift ;; esac
  shift
done
echo "$out" >"$(dirname "$0")/out-was"
mkdir -p "$out/students/s1/barriers"
printf 'student,total\ns1,10\n' >"$out/grades.csv"
printf 'synclab-shard 1\nshard %s\n' "${shard%/*}" >"$out/shard.txt"
echo report >"$out/students/s1/report.txt"
exit "${STANDIN_RC:-0}"
STANDIN
chmod +x "$dir/syncgrade"
task() { # [env...]: runs task 2 of 3
  env SYNCGRADE="$dir/syncgrade" SUBMISSIONS="$dir/subs" OUT="$dir/out" \
    SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 "$@" \
    bash "$src/scripts/slurm/grade-array.sbatch"
}
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

task >"$dir/plain.txt" 2>&1 || bad "without SCRATCH: exit $?, $(cat "$dir/plain.txt")"
[ "$(cat "$dir/out-was")" = "$dir/out/shards/2" ] || bad "without SCRATCH it graded in $(cat "$dir/out-was")"
grep -q "shard 2/3: 1 students graded$" "$dir/plain.txt" || bad "without SCRATCH: $(cat "$dir/plain.txt")"

rm -rf "$dir/out"
task SCRATCH="$dir/local" >"$dir/scratch.txt" 2>&1 || bad "with SCRATCH: exit $?, $(cat "$dir/scratch.txt")"
was=$(cat "$dir/out-was")
case $was in "$dir/local/synclab-shard-2-"*) ;; *) bad "with SCRATCH it graded in $was" ;; esac
[ ! -e "$was" ] || bad "the scratch folder $was was left behind"
for f in grades.csv shard.txt students/s1/report.txt; do
  [ -f "$dir/out/shards/2/$f" ] || bad "with SCRATCH: no $f in OUT/shards/2"
done
grep -q "in $dir/local$" "$dir/scratch.txt" || bad "with SCRATCH: $(cat "$dir/scratch.txt")"

rm -rf "$dir/out"
task SCRATCH="$dir/local" STANDIN_RC=1 >"$dir/errors.txt" 2>&1 || bad "grader errors (1): exit $?"
[ -f "$dir/out/shards/2/grades.csv" ] || bad "grader errors (1): the shard's results were not copied"

rm -rf "$dir/out"
rc=0
task SCRATCH="$dir/local" STANDIN_RC=2 >"$dir/failed.txt" 2>&1 || rc=$?
[ "$rc" = 2 ] || bad "a failed shard (2): exit $rc"
[ ! -e "$dir/out/shards/2/grades.csv" ] || bad "a failed shard (2) claimed results"
[ -z "$(ls -A "$dir/local")" ] || bad "a failed shard left $(ls "$dir/local")"

[ "$fail" = 0 ] && echo "slurm_scratch: in OUT without SCRATCH; with it graded on the node, copied, cleaned"
exit "$fail"
