#!/usr/bin/env bash
# Gradescope image setup (runs once, as root, when the autograder is built).
# The autograder zip holds this repository; Gradescope unpacks it into
# /autograder/source. The image must already have the CUDA toolkit (nvcc,
# compute-sanitizer) and, to judge anything beyond BUILD/TODO/RULE, a GPU:
# see docs/instructors.md.
set -euo pipefail
src=${SYNCLAB_SOURCE:-/autograder/source}
user=${SYNCLAB_RUNNER_USER:-synclab}
cd "$src"
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
targets=(syncgrade)
for dir in lessons/*/; do
  targets+=("synclab_harness_$(basename "$dir")")
done
cmake --build build -j "$(nproc)" --target "${targets[@]}"
# Grading needs neither the reference solutions nor the bug zoo (which
# includes them): no submission gets a chance to read them.
rm -rf solutions lessons/*/zoo grader/tests/adversarial
# Students' code runs as this user, never as root (docs/integrity.md).
id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
