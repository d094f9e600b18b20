#!/usr/bin/env bash
# Unpacks Check, subunit, cJSON and inih from Debian's packages into a folder,
# for machines without root or without network (a GPU node, a cluster):
#   scripts/fetch-deps.sh .deps         # here, with network
#   cmake -S . -B build -DSYNCLAB_DEPS_ROOT=$PWD/.deps   # there
set -euo pipefail
dest=${1:-.deps}
mkdir -p "$dest/debs"
(cd "$dest/debs" && apt-get download check libsubunit-dev libsubunit0 libcjson-dev libcjson1 \
                              libinih-dev libinih1)
for deb in "$dest"/debs/*.deb; do
  dpkg -x "$deb" "$dest"
done
echo "unpacked into $dest: pass -DSYNCLAB_DEPS_ROOT=$(cd "$dest" && pwd) to cmake"
