#!/usr/bin/env bash
# Installs the Debian packages CUDA Sync Lab builds with (CUDA itself, nvcc
# and compute-sanitizer, comes from NVIDIA's toolkit). Needs root or sudo.
set -euo pipefail
packages=(cmake make gcc g++ pkg-config check libsubunit-dev libcjson-dev libinih-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "dependencies: all present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
