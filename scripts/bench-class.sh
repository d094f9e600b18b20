#!/usr/bin/env bash
# Class grading throughput: makes a demo class of N students
# (scripts/make-demo-class.sh), grades it, and prints the wall time,
# students per minute, processes per student (runner, sanitizer and sweep
# runs from SYNCLAB_TRACE; nvcc calls through a counting wrapper) and the
# sha256 of grades.csv, which must not change when a speed lever does.
#   scripts/bench-class.sh N [syncgrade class options...]
# e.g. scripts/bench-class.sh 100 --jobs 6
#      scripts/bench-class.sh 100 --jobs 6 --mps
#      scripts/bench-class.sh 100 --gpus all
# A fixed --seed (1 unless given) keeps the checksum comparable.
# BENCH_DIR: where the class and the grades go (default build/bench-class).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:?usage: bench-class.sh N [syncgrade class options...]}
shift
syncgrade=${SYNCGRADE:-$root/build/syncgrade}
dir=${BENCH_DIR:-$root/build/bench-class}
[ -x "$syncgrade" ] || { echo "bench-class: no $syncgrade (build first)" >&2; exit 2; }
seed=(--seed 1)
for a in "$@"; do [ "$a" = --seed ] && seed=(); done

rm -rf "$dir"
mkdir -p "$dir"
"$root/scripts/make-demo-class.sh" "$dir/class" "$n" > "$dir/class.txt"

# every nvcc call of the grader leaves a line in nvcc.count
real_nvcc=${SYNCLAB_NVCC:-$(sed -n 's/^#define SYNCLAB_NVCC "\(.*\)"$/\1/p' \
                               "$root/build/generated/synclab_config.h")}
cat > "$dir/nvcc" <<WRAP
#!/bin/sh
echo x >> "$dir/nvcc.count"
exec "$real_nvcc" "\$@"
WRAP
chmod +x "$dir/nvcc"
: > "$dir/nvcc.count"

start=$(date +%s.%N)
rc=0
SYNCLAB_TRACE=1 SYNCLAB_NVCC=$dir/nvcc "$syncgrade" class --submissions "$dir/class" \
  --out "$dir/grades" --quiet "${seed[@]}" "$@" 2> "$dir/trace.log" || rc=$?
end=$(date +%s.%N)
[ "$rc" -le 1 ] || { tail -n 20 "$dir/trace.log"; echo "bench-class: syncgrade class failed ($rc)" >&2; exit "$rc"; }

count() { grep -c "$1" "$dir/trace.log" || true; }
plain=$(count '^\[trace\] [^ ]*: plain run')
tools=$(count '^\[trace\] [^ ]*: \(racecheck\|synccheck\|memcheck\|initcheck\)')
sweeps=$(count '^\[trace\] sweep ')
nvcc=$(wc -l < "$dir/nvcc.count")
awk -v n="$n" -v s="$start" -v e="$end" -v p="$plain" -v t="$tools" -v w="$sweeps" \
    -v c="$nvcc" 'BEGIN {
  wall = e - s
  printf "students:             %d\n", n
  printf "wall:                 %.1f s (%.1f s per student)\n", wall, wall / n
  printf "students per minute:  %.2f\n", n * 60 / wall
  printf "processes per student: %.1f GPU (%.1f plain runs, %.1f sanitizer runs, %.1f sweep runs), %.1f nvcc\n",
         (p + t + w) / n, p / n, t / n, w / n, c / n
}'
echo "grades.csv sha256:    $(sha256sum < "$dir/grades/grades.csv" | cut -d' ' -f1)"
[ "$rc" -eq 0 ] || echo "(some exercises not judged: ERROR; see $dir/trace.log)"
