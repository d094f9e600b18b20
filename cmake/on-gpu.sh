#!/bin/sh
# Runs a test that uses the GPU (SYNCLAB_GPU_TEST in CMakeLists.txt) on the
# GPU CTest gave it. Under `ctest --resource-spec-file` CTest names it in
# CTEST_RESOURCE_GROUP_0_GPUS ("id:K,slots:1"); K is the GPU's place in
# this node's list as scripts/gpu-resources.sh wrote it: the K-th entry of
# CUDA_VISIBLE_DEVICES where that is set (a Slurm allocation), else CUDA's
# device K. The test then sees that GPU alone, and takes turns only with
# the graders on it (grader/run/gpu_turn.h). Without a spec file CTest sets
# nothing and the command runs as it is.
#   on-gpu.sh COMMAND [ARGS...]
set -eu
group=${CTEST_RESOURCE_GROUP_0_GPUS:-}
if [ -n "$group" ]; then
  k=${group#id:}
  k=${k%%,*}
  case $k in
  '' | *[!0-9]*)
    echo "on-gpu.sh: CTEST_RESOURCE_GROUP_0_GPUS=$group names no GPU index" >&2
    exit 2
    ;;
  esac
  gpu=$k
  if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
    gpu=$(printf '%s\n' "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | sed -n "$((k + 1))p")
    if [ -z "$gpu" ]; then
      echo "on-gpu.sh: GPU $k of CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES does not exist" \
        "(a resource spec file written for another allocation?)" >&2
      exit 2
    fi
  fi
  CUDA_VISIBLE_DEVICES=$gpu
  export CUDA_VISIBLE_DEVICES
fi
exec "$@"
