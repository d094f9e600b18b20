#!/usr/bin/env bash
# Makes sure the libraries and tools the build needs are there, and prints
# the folder to pass as SYNCLAB_DEPS_ROOT (empty: installed system-wide).
#   1. all installed: nothing to do;
#   2. root, or sudo without a password: apt-get install (install-deps.sh);
#   3. otherwise: Debian's packages unpacked into .deps (fetch-deps.sh);
#   4. neither possible: one error saying what to run.
# Progress goes to stderr, only when something is installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps=$root/.deps
libs=(check libcjson inih libxml-2.0 libseccomp)
tools=(bwrap inotifywait)

system_ok() {
  command -v cmake >/dev/null && command -v pkg-config >/dev/null &&
    pkg-config --exists "${libs[@]}" 2>/dev/null || return 1
  for t in "${tools[@]}"; do command -v "$t" >/dev/null || return 1; done
}
unpacked_ok() {
  [ -f "$deps/.complete" ] && command -v cmake >/dev/null && command -v pkg-config >/dev/null
}

if system_ok; then
  echo ""
  exit 0
fi
if unpacked_ok; then
  echo "$deps"
  exit 0
fi
if [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; then
  if "$root/scripts/install-deps.sh" >&2 && system_ok; then
    echo ""
    exit 0
  fi
fi
if command -v apt-get >/dev/null && command -v dpkg >/dev/null &&
   command -v cmake >/dev/null && command -v pkg-config >/dev/null; then
  echo "unpacking the missing libraries into $deps (no root needed)" >&2
  if "$root/scripts/fetch-deps.sh" "$deps" >"$root/.deps.log" 2>&1; then
    echo "$deps"
    exit 0
  fi
  echo "(see $root/.deps.log)" >&2
fi
cat >&2 <<MSG
synclab: the build needs cmake, pkg-config, Check, cJSON, inih, libxml2, libseccomp, bubblewrap and
inotify-tools, and cannot install them here. Run, as root or with sudo:
    sudo scripts/install-deps.sh
or, on a machine with Debian's mirror (no root needed), then copy .deps here:
    scripts/fetch-deps.sh .deps
MSG
exit 1
