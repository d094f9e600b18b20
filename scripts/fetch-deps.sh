#!/usr/bin/env bash
# Unpacks the Debian packages the build needs (Check, subunit, cJSON, inih,
# libxml2, libseccomp, bubblewrap, inotify-tools) into a folder, without root: for
# machines where apt cannot install (no root, a GPU node, a cluster).
#   scripts/fetch-deps.sh .deps                            # needs Debian's mirror
#   cmake -S . -B build -DSYNCLAB_DEPS_ROOT=$PWD/.deps     # the Makefile does this
#   scripts/fetch-deps.sh --portable .deps   # for another machine (a GPU node):
#     also libxml2's ICU, which the dependency check below skips when this
#     machine has it; no .deb files and no static ICU kept, to stay small
# Without root apt keeps its package lists under <folder>/apt.
set -euo pipefail
portable=0
if [ "${1:-}" = --portable ]; then portable=1; shift; fi
dest=${1:-.deps}
packages=(check libsubunit-dev libsubunit0 libcjson-dev libcjson1 libinih-dev libinih1
          libxml2-dev libxml2 libseccomp-dev libseccomp2 bubblewrap inotify-tools
          libinotifytools0)
[ $portable = 1 ] && packages+=(libicu-dev libicu72)
mkdir -p "$dest/debs"
dest=$(cd "$dest" && pwd)
apt_opts=()
download() { (cd "$dest/debs" && apt-get "${apt_opts[@]}" download "${packages[@]}"); }
if ! download 2>/dev/null; then
  # no package lists (a fresh container) or none readable: a private copy
  mkdir -p "$dest/apt/lists/partial" "$dest/apt/cache/archives/partial"
  apt_opts=(-o "Dir::State::Lists=$dest/apt/lists" -o "Dir::Cache=$dest/apt/cache"
            -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" -q)
  apt-get "${apt_opts[@]}" update >/dev/null
  download
fi
# Their run-time libraries that this machine lacks (libxml2's ICU, say), one
# level down: the rest (libc, libstdc++) every system has.
extra=()
for deb in "$dest"/debs/*.deb; do
  for dep in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/[|(].*//; s/ //g; s/:any$//'); do
    dpkg -s "$dep" >/dev/null 2>&1 || ls "$dest/debs/${dep}_"*.deb >/dev/null 2>&1 ||
      printf '%s\n' "${extra[@]}" | grep -qx "$dep" || extra+=("$dep")
  done
done
if [ ${#extra[@]} -gt 0 ]; then
  # one at a time: a virtual package name cannot be downloaded, and need not be
  for dep in "${extra[@]}"; do
    (cd "$dest/debs" && apt-get "${apt_opts[@]}" download "$dep" >/dev/null 2>&1) ||
      echo "fetch-deps: $dep not downloaded (virtual or unknown): skipped" >&2
  done
fi
for deb in "$dest"/debs/*.deb; do
  dpkg -x "$deb" "$dest"
done
if [ $portable = 1 ]; then
  rm -rf "$dest/debs" "$dest/apt" "$dest"/usr/lib/x86_64-linux-gnu/libicu*.a "$dest"/usr/share/doc
fi
printf '%s\n' "${packages[@]}" > "$dest/.complete"
echo "unpacked into $dest: pass -DSYNCLAB_DEPS_ROOT=$dest to cmake"
