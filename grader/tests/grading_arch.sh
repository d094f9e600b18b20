#!/usr/bin/env bash
# Students' files are built for the GPU that grades, asked of nvidia-smi
# when grading (issue 26): a fake nvidia-smi first on the PATH stands for
# the GPU. No GPU is needed: the arch is read from the PTX nvcc wrote and
# the build's own note, and a runner that cannot run on the GPU is the
# grader's ERROR before anything runs.
# usage: grading_arch.sh <syncgrade> <source dir>
set -euo pipefail
syncgrade=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir "$work/bin"
gpu() { # the fake GPU: nvidia-smi's answer, or its failure
  printf '#!/bin/sh\n%s\n' "$1" > "$work/bin/nvidia-smi"
  chmod +x "$work/bin/nvidia-smi"
}
out=$work/build
build() { # build the barriers solution; prints the arch of its PTX
  PATH="$work/bin:$PATH" "$@" "$syncgrade" build --lesson barriers \
    --source "$src/solutions/barriers.cu" --out "$out" >/dev/null
  sed -n 's/^\.target[ \t]*\(sm_[0-9a-z]*\).*/\1/p' "$out/keep/barriers.ptx"
}
note() { grep -m1 '^note: built for' "$out/build.log"; }

gpu 'echo 8.0' # an A100
[[ $(build env) == sm_80 ]] || fail "A100: built for $(build env), not sm_80"
note | grep -q "built for sm_80, this GPU's architecture" || fail "A100 note: $(note)"
[[ $(cat "$out/arch") == 80 ]] || fail "arch stamp: $(cat "$out/arch")"

# the same folder, no GPU visible: rebuilt for the default, with a note
[[ $(build env CUDA_VISIBLE_DEVICES=) == sm_90 ]] || fail "no GPU visible: not sm_90"
note | grep -q "sm_90, the default: CUDA_VISIBLE_DEVICES is empty" || fail "note: $(note)"

gpu 'echo "No devices were found"; exit 6' # what nvidia-smi says without a GPU
rm -rf "$out" # (an sm_90 build is up to date: its log would be the last one's)
[[ $(build env) == sm_90 ]] || fail "no device: not sm_90"
note | grep -q "the default: nvidia-smi failed" || fail "no device note: $(note)"

gpu 'echo "GPU-0a1b, 8.9"' # an L40S, named by uuid
[[ $(build env CUDA_VISIBLE_DEVICES=GPU-0a1b) == sm_89 ]] || fail "L40S: not sm_89"
[[ $(build env SYNCLAB_ARCH=86) == sm_86 ]] || fail "SYNCLAB_ARCH=86 not followed"
note | grep -q "(SYNCLAB_ARCH)" || fail "override note: $(note)"

# A runner that cannot run on the GPU is the grader's ERROR, with the line
# that says what to do, before any run (no GPU needed to see it).
expect_error() { # <line it must print> <env...>
  local want=$1
  shift
  local log=$work/expect.log
  PATH="$work/bin:$PATH" env "$@" "$syncgrade" expect --lesson barriers \
    --source "$src/solutions/barriers.cu" --out "$work/expect" --all ERROR >"$log" 2>&1 ||
    { cat "$log"; fail "$* : not ERROR for every exercise"; }
  grep -q "$want" "$work/expect"/barriers/*/results.json ||
    { cat "$log"; fail "$* : no '$want' in the results"; }
}
gpu 'echo 9.0' # an H100, student code built for sm_100
expect_error "SYNCLAB_ARCH=100 builds code for sm_100, which cannot run on this GPU" \
  SYNCLAB_ARCH=100
gpu 'echo 7.0' # a V100: older than this toolkit builds for
expect_error "the runner was built for sm_90, which cannot run on this GPU (compute capability 7.0)"
echo "ok: students' files are built for the GPU that grades"
