#!/usr/bin/env bash
# Gradescope image setup (runs once, as root, when the autograder is built).
# The autograder zip (make gradescope OUT=autograder.zip) holds this
# repository at HEAD; Gradescope unpacks it into /autograder/source. The
# image must already have the CUDA toolkit (nvcc, compute-sanitizer) and, to
# judge anything beyond BUILD/TODO/RULE, a GPU: see docs/instructors.md.
# Environment (all optional):
#   SYNCLAB_SOURCE             the unpacked zip (default /autograder/source)
#   SYNCLAB_RUNNER_USER        the unprivileged user grading runs as (synclab)
#   SYNCLAB_SETUP_OFFLINE=1    no apt-get and no useradd: for trying the zip
#                              without root or network (CTest grading.gradescope_zip)
#   SYNCLAB_SETUP_TARGETS      what to build (default: syncgrade and every
#                              lesson's harness library)
#   SYNCLAB_SETUP_CMAKE_ARGS   more CMake options for the configure
set -euo pipefail
src=${SYNCLAB_SOURCE:-/autograder/source}
user=${SYNCLAB_RUNNER_USER:-synclab}
cd "$src"
[ "${SYNCLAB_SETUP_OFFLINE:-0}" = 1 ] || scripts/install-deps.sh
# A build/ this script did not make (a zip made by hand from a checkout that
# was built) has a CMake cache of another path: CMake stops on it. Start over.
if [ -e build ] && [ ! -e build/.synclab-setup ]; then
  echo "setup.sh: removing a build/ made elsewhere" >&2
  rm -rf build
fi
# shellcheck disable=SC2086 # SYNCLAB_SETUP_CMAKE_ARGS: several options, split on purpose
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${SYNCLAB_SETUP_CMAKE_ARGS:-}
touch build/.synclab-setup
if [ -n "${SYNCLAB_SETUP_TARGETS:-}" ]; then
  read -r -a targets <<<"$SYNCLAB_SETUP_TARGETS"
else
  targets=(syncgrade)
  for dir in lessons/*/; do
    targets+=("synclab_harness_$(basename "$dir")")
  done
fi
cmake --build build -j "$(nproc)" --target "${targets[@]}"
# Grading needs neither the reference solutions nor the bug zoo (which
# includes them): no submission gets a chance to read them.
rm -rf solutions lessons/*/zoo grader/tests/adversarial
# Students' code runs as this user, never as root (docs/integrity.md).
[ "${SYNCLAB_SETUP_OFFLINE:-0}" = 1 ] ||
  id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
