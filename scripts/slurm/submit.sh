#!/usr/bin/env bash
# Grades a class on Slurm: a job array of N shards, then a merge job that
# runs only when every shard succeeded (--dependency=afterok).
#   scripts/slurm/submit.sh SUBMISSIONS OUT [N] [syncgrade class options...]
# e.g. scripts/slurm/submit.sh ~/hw3 ~/hw3-grades 8 --seed 42 --jobs 4
# SBATCH_ARGS: options for both sbatch calls, split on spaces (your site's
#   --partition, --account, --gres=gpu:1, --time).
# SYNCGRADE: the binary (default: build/syncgrade of this checkout). The
# folders must be on a file system every node sees. SCRATCH: a folder on
# each node's own disk to grade in (grade-array.sbatch), so that the
# students' work files stay off the shared one. Prints the two job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
submissions=$(cd "${1:?usage: submit.sh SUBMISSIONS OUT [N] [options]}" && pwd)
mkdir -p "${2:?usage: submit.sh SUBMISSIONS OUT [N] [options]}"
out=$(cd "$2" && pwd)
n=${3:-4}
shift $(($# < 3 ? $# : 3))
export SYNCGRADE=${SYNCGRADE:-$(cd "$here/../.." && pwd)/build/syncgrade}
export SUBMISSIONS=$submissions OUT=$out SYNCGRADE_ARGS="$*"
[ -x "$SYNCGRADE" ] || { echo "submit.sh: no $SYNCGRADE (build first, or set SYNCGRADE)" >&2; exit 2; }
mkdir -p "$out/logs"
rm -rf "$out/shards" # a shard of an earlier run would be merged too
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="1-$n" --output="$out/logs/shard-%a.out" \
        "$here/grade-array.sbatch")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterok:$array" --kill-on-invalid-dep=yes \
        --output="$out/logs/merge.out" "$here/merge.sbatch")
merge=${merge%%;*}
echo "grading: job array $array ($n shards), then merge job $merge"
echo "grades:  $out/grades.csv once job $merge is done (logs in $out/logs)"
