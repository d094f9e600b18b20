#!/usr/bin/env bash
# Configures (once) and builds the given CMake targets with no output unless
# something fails: then the compiler's lines, without make's and CMake's.
#   scripts/build-quiet.sh [target]...     (no target: everything)
# BUILD (default build) and JOBS (default nproc) as the Makefile passes them;
# SYNCLAB_BUILD_LOCK=file: builds of a shared build folder wait for each other.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
jobs=${JOBS:-$(nproc)}
unset MAKEFLAGS MFLAGS MAKELEVEL   # the outer make's flags are not CMake's
mkdir -p "$build"
log=$build/build.log

# The compiler's and CMake's errors, not the progress lines around them.
show_errors() {
  grep -vE '^(\[ *[0-9]+%\]|g?make(\[[0-9]+\])?: (Entering|Leaving)|-- |Scanning|Consolidate|Built target|Building (C|CXX|CUDA)|Linking)' "$log" |
    grep -vE '^g?make(\[[0-9]+\])?: \*\*\*' | head -60 >&2
  echo "synclab: the build failed (whole log: $log)" >&2
}

if [ ! -f "$build/CMakeCache.txt" ]; then
  case " ${CMAKE_ARGS:-} " in
    *-DSYNCLAB_DEPS_ROOT=*) deps_root="" ;; # the caller names the dependencies itself
    *) deps_root=$("$root/scripts/ensure-deps.sh") || exit 2 ;;
  esac
  # shellcheck disable=SC2086 # CMAKE_ARGS: several options, split on purpose
  if ! ${SYNCLAB_BUILD_LOCK:+flock "$SYNCLAB_BUILD_LOCK"} cmake -S "$root" -B "$build" ${deps_root:+-DSYNCLAB_DEPS_ROOT="$deps_root"} \
       ${CMAKE_ARGS:-} >"$log" 2>&1; then
    show_errors
    exit 2
  fi
fi
lock=()
[ -n "${SYNCLAB_BUILD_LOCK:-}" ] && command -v flock >/dev/null && lock=(flock "$SYNCLAB_BUILD_LOCK")
targets=()
for t in "$@"; do targets+=(--target "$t"); done
if ! "${lock[@]}" cmake --build "$build" -j "$jobs" "${targets[@]}" >"$log" 2>&1; then
  show_errors
  exit 2
fi
