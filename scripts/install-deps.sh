#!/usr/bin/env bash
# Installs the Debian packages CUDA Sync Lab builds and tests with (CUDA
# itself, nvcc and compute-sanitizer, comes from NVIDIA's toolkit). Needs
# root or sudo; scripts/fetch-deps.sh is the way without.
set -euo pipefail
packages=(cmake make gcc g++ pkg-config check libsubunit-dev libcjson-dev libinih-dev
          libxml2-dev libseccomp-dev bubblewrap inotify-tools tmux clang-format)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo -n"
export DEBIAN_FRONTEND=noninteractive
echo "installing ${missing[*]}" >&2
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
