#!/usr/bin/env bash
# How long this machine's driver takes to make CUDA contexts: one alone,
# K at once on one GPU, K at once spread over every GPU, and under each
# compute-sanitizer tool. Grading a class costs about what its contexts
# cost (every run of student code makes one, and the driver makes them one
# at a time: docs/instructors.md, "Where the time goes"), so this predicts
# what more --jobs, --mps or more GPUs can give before a class is graded.
#   scripts/bench-contexts.sh [K]      K processes at once (default 16)
# Exit 77 without a GPU, 2 when the probe does not build. Each process is
# bounded by `timeout`: a driver that hangs ends the bench, not the shell.
set -euo pipefail
k=${1:-16}
[[ "$k" =~ ^[1-9][0-9]*$ ]] || { echo "usage: bench-contexts.sh [K]" >&2; exit 2; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
sanitizer=${SANITIZER:-$(command -v compute-sanitizer || echo "$(dirname "$nvcc")/compute-sanitizer")}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a context and nothing else; --count: the number of GPUs
cat > "$tmp/ctx.cu" <<'EOF'
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
int main(int argc, char **argv)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0)
        return 77;
    if (argc > 1 && strcmp(argv[1], "--count") == 0) {
        printf("%d\n", n);
        return 0;
    }
    return cudaFree(0) == cudaSuccess ? 0 : 1;
}
EOF
"$nvcc" -o "$tmp/ctx" "$tmp/ctx.cu" > "$tmp/nvcc.log" 2>&1 ||
  { cat "$tmp/nvcc.log" >&2; echo "bench-contexts: the probe did not build" >&2; exit 2; }
rc=0
gpus=$(timeout 60 "$tmp/ctx" --count) || rc=$?
[ "$rc" -ne 77 ] || { echo "bench-contexts: no GPU"; exit 77; }
[ "$rc" -eq 0 ] || { echo "bench-contexts: the probe failed ($rc)" >&2; exit 1; }

# the GPUs this shell may use: CUDA_VISIBLE_DEVICES's list when set (a
# Slurm job's, say), else 0 .. gpus-1
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  IFS=, read -r -a visible <<<"$CUDA_VISIBLE_DEVICES"
else
  visible=()
  for ((i = 0; i < gpus; i++)); do visible+=("$i"); done
fi
[ "${#visible[@]}" -ge "$gpus" ] || gpus=${#visible[@]}

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# at_once N SPREAD [tool]: N probes started together, process i on the
# (i % SPREAD)th visible GPU; prints the seconds until the last ended,
# fails if any did
at_once() {
  local n=$1 spread=$2 tool=${3:-} start pids=() i fail=0
  start=$(now)
  for ((i = 0; i < n; i++)); do
    if [ -n "$tool" ]; then
      CUDA_VISIBLE_DEVICES=${visible[i % spread]} timeout 120 "$sanitizer" --tool "$tool" \
        --error-exitcode 1 "$tmp/ctx" > /dev/null 2>&1 &
    else
      CUDA_VISIBLE_DEVICES=${visible[i % spread]} timeout 120 "$tmp/ctx" &
    fi
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || fail=1; done
  since "$start"
  return "$fail"
}
line() { # what, alone, at once, n
  awk -v w="$1" -v a="$2" -v b="$3" -v n="$4" 'BEGIN {
    printf "%-26s 1 alone %5.2f s, %d at once %5.2f s (%.2f s each)\n", w, a, n, b, b / n }'
}

echo "GPUs: $gpus"
at_once 1 1 > /dev/null || true # the driver loaded once before timing
one=$(at_once 1 1) && many=$(at_once "$k" 1) || { echo "bench-contexts: a probe failed" >&2; exit 1; }
line "contexts, one GPU:" "$one" "$many" "$k"
# the grader's "connections" lever: one hardware work queue a context
# (docs/instructors.md, "Levers")
one_q=$(CUDA_DEVICE_MAX_CONNECTIONS=1 at_once 1 1) && many_q=$(CUDA_DEVICE_MAX_CONNECTIONS=1 at_once "$k" 1) ||
  { echo "bench-contexts: a probe failed" >&2; exit 1; }
line "contexts, one work queue:" "$one_q" "$many_q" "$k"
if [ "$gpus" -gt 1 ]; then
  spread=$(at_once "$k" "$gpus") || { echo "bench-contexts: a probe failed" >&2; exit 1; }
  line "contexts, $gpus GPUs:" "$one" "$spread" "$k"
  awk -v a="$many" -v b="$spread" -v g="$gpus" 'BEGIN {
    printf "spread over %d GPUs: %.1fx faster than on one (%d would mean a lock per GPU, 1 one lock for all)\n", g, a / b, g }'
fi
if [ -x "$sanitizer" ] || command -v "$sanitizer" > /dev/null 2>&1; then
  half=$(( (k + 1) / 2 ))
  for tool in memcheck racecheck synccheck initcheck; do
    a=$(at_once 1 1 "$tool") && b=$(at_once "$half" 1 "$tool") ||
      { echo "bench-contexts: $tool failed on an empty program" >&2; exit 1; }
    line "contexts under $tool:" "$a" "$b" "$half"
  done
else
  echo "no compute-sanitizer at $sanitizer: the tools were not timed"
fi
