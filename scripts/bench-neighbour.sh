#!/usr/bin/env bash
# What an attacker costs an honest neighbour (issue 25's target: within
# 1.5x of grading alone). Grades a class of one honest student (a copy of
# solutions/) alone, then a class of that student and one attacker from
# grader/tests/adversarial, for each attacker named; prints the honest
# student's grading time (its report's "score:" line), the ratio to alone,
# its score (it must keep full marks), the attacker's score (it must
# earn nothing of what its expect.txt names) and its own grading time. A first row puts it beside an
# honest twin (the solutions again, one byte different in each file, so
# dedup shares nothing): what any neighbour costs, against which each
# attacker's own cost shows (column "vs twin").
#   scripts/bench-neighbour.sh [class options...] [-- attacker...]
# e.g. scripts/bench-neighbour.sh --jobs 2 -- infinite_loop huge_output
# Without attackers: the ones that press on shared things (the GPU, disk,
# processes, the static stage, output files).
# BENCH_DIR: where the classes go (default build/bench-neighbour).
# BENCH_GPUS="0 1 2 3": the attackers spread over those GPUs, one bench per
# GPU at once (CUDA_VISIBLE_DEVICES and a GPU lock of its own, so benches
# on different GPUs never take turns with each other), each with its own
# alone and twin rows: eight attackers in the time of two. They still share
# the host's cores and disk: compare rows of the same GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
syncgrade=${SYNCGRADE:-$root/build/syncgrade}
dir=${BENCH_DIR:-$root/build/bench-neighbour}
cases=$root/grader/tests/adversarial
[ -x "$syncgrade" ] || { echo "bench-neighbour: no $syncgrade (build first)" >&2; exit 2; }
opts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
attackers=("$@")
[ ${#attackers[@]} -gt 0 ] || attackers=(infinite_loop hogs_gpu_memory
  nameless_fork_exec many_big_files huge_output static_analysis_bomb nameless_fifo fifo_outputs)

# "score: 265 / 265   (seed 1, 38.2 s)" -> "265/265 38.2"
score_of() {
  sed -n 's/^score: \([0-9.]*\) \/ \([0-9.]*\).*, \([0-9.]*\) s)$/\1\/\2 \3/p' "$1" | head -1
}
grade() { # grade <name> <student folders...>: a class of them
  local class=$dir/$1
  shift
  rm -rf "$class" "$class.out"
  mkdir -p "$class"
  for s in "$@"; do cp -r "$s" "$class/"; done
  "$syncgrade" class --submissions "$class" --out "$class.out" --quiet "${opts[@]}" \
    > "$class.log" 2>&1 || [ $? -eq 1 ]
}

if [ -n "${BENCH_GPUS:-}" ]; then
  mkdir -p "$(dirname "$dir")"
  read -ra gpus <<< "$BENCH_GPUS"
  pids=()
  for k in "${!gpus[@]}"; do
    mine=()
    for j in "${!attackers[@]}"; do
      (( j % ${#gpus[@]} == k )) && mine+=("${attackers[$j]}")
    done
    [ ${#mine[@]} -gt 0 ] || continue
    g=${gpus[$k]}
    rm -f "$dir-gpu$g.txt"
    CUDA_VISIBLE_DEVICES=$g SYNCLAB_GPU_LOCK="${TMPDIR:-/tmp}/synclab-gpu-bench-gpu-$g" \
      BENCH_GPUS='' BENCH_DIR="$dir-gpu$g" "$0" "${opts[@]}" -- "${mine[@]}" > "$dir-gpu$g.txt" 2>&1 &
    pids+=($!)
  done
  rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  for g in "${gpus[@]}"; do
    [ -f "$dir-gpu$g.txt" ] && { echo "-- GPU $g"; cat "$dir-gpu$g.txt"; }
  done
  exit $rc
fi

rm -rf "$dir"
mkdir -p "$dir/students/honest"
cp "$root"/solutions/*.cu "$dir/students/honest/"
grade alone "$dir/students/honest"
read -r score alone < <(score_of "$dir/alone.out/students/honest/report.txt")
mkdir -p "$dir/students/twin"
for f in "$root"/solutions/*.cu; do
  { cat "$f"; echo "// twin"; } > "$dir/students/twin/$(basename "$f")"
done
grade with-twin "$dir/students/honest" "$dir/students/twin"
read -r tscore twin < <(score_of "$dir/with-twin.out/students/honest/report.txt")
printf '%-28s %8s %6s %7s %10s %-9s %s\n' neighbour "honest s" ratio "vs twin" honest attacker "its s"
printf '%-28s %8.1f %6s %7s %10s\n' "(alone)" "$alone" 1.00 - "$score"
printf '%-28s %8.1f %6s %7s %10s\n' "(an honest twin)" "$twin" \
  "$(awk -v t="$twin" -v a="$alone" 'BEGIN { printf "%.2f", t / a }')" 1.00 "$tscore"
worst=0
for a in "${attackers[@]}"; do
  [ -d "$cases/$a" ] || { echo "bench-neighbour: no attacker $a in $cases" >&2; exit 2; }
  mkdir -p "$dir/students/$a"
  cp "$cases/$a"/*.cu "$dir/students/$a/"
  cp "$cases/$a"/*.h "$dir/students/$a/" 2>/dev/null || true
  grade "with-$a" "$dir/students/honest" "$dir/students/$a"
  read -r hs ht < <(score_of "$dir/with-$a.out/students/honest/report.txt")
  read -r as at < <(score_of "$dir/with-$a.out/students/$a/report.txt")
  ratio=$(awk -v t="$ht" -v a="$alone" 'BEGIN { printf "%.2f", t / a }')
  vs=$(awk -v t="$ht" -v a="$twin" 'BEGIN { printf "%.2f", t / a }')
  printf '%-28s %8.1f %6s %7s %10s %-9s %s\n' "$a" "$ht" "$ratio" "$vs" "$hs" "$as" "$at"
  worst=$(awk -v r="$ratio" -v w="$worst" 'BEGIN { print (r > w) ? r : w }')
done
echo "worst ratio: $worst (target: 1.5 or less)"
