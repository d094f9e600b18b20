#!/usr/bin/env bash
# A CTest resource spec file for this node's GPUs, so one ctest spreads the
# tests that use a GPU over all of them (each sees only its own:
# cmake/on-gpu.sh), SLOTS tests at once on each (default 4, as ctest -j16
# gives one GPU today: a GPU test counts as 4 processors).
#   scripts/gpu-resources.sh [SLOTS] > build/gpus.json
#   ctest --test-dir build -j$((16 * GPUS)) --resource-spec-file "$PWD/build/gpus.json"
#   scripts/ctest-resume.sh build 540 -j64 --resource-spec-file "$PWD/build/gpus.json"
# The GPUs: CUDA_VISIBLE_DEVICES's entries where it is set (a Slurm
# allocation), else nvidia-smi's. The spec names a GPU by its place in that
# list (CTest takes no uuid as an id). Write it where the tests run: a
# spec from another node or allocation names GPUs that are not there.
set -euo pipefail
slots=${1:-4}
case $slots in '' | *[!0-9]* | 0) echo "gpu-resources.sh: SLOTS must be a positive number, not '$slots'" >&2; exit 2 ;; esac
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
  n=$(printf '%s' "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c . || true)
else
  n=$(timeout 20 nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
if [ "$n" -eq 0 ]; then
  # the GPU tests still run, one GPU's worth at a time, and skip (77)
  echo "gpu-resources.sh: no GPU found; the spec lists one, so the GPU tests run and skip" >&2
  n=1
fi
printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": ['
for ((k = 0; k < n; k++)); do
  printf '%s{"id": "%d", "slots": %d}' "$([ $k -gt 0 ] && echo ', ')" "$k" "$slots"
done
printf ']}]}\n'
