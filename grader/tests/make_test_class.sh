#!/usr/bin/env bash
# A class of 7 with verdicts that need no GPU to be repeatable: starters
# (TODO), files that do not build (BUILD), solutions (SKIP without a GPU,
# PASS with one), missing files, names with the punctuation a folder may
# hold. For class_shards.sh and class_slurm.sh.
#   make_test_class.sh <source dir> <class dir>
set -euo pipefail
src=$1 class=$2
rm -rf "$class"
for s in ada bo.b cy odd@x+y dee eve fay; do mkdir -p "$class/$s"; done
cp "$src"/starter/barriers.cu "$class/ada/"
cp "$src"/starter/barriers.cu "$src"/starter/scan.cu "$class/bo.b/"
echo 'this is not CUDA' > "$class/cy/barriers.cu"
cp "$src"/solutions/barriers.cu "$class/odd@x+y/"
cp "$src"/starter/scan.cu "$class/dee/"
cp "$src"/solutions/scan.cu "$class/eve/"
cp "$src"/starter/barriers.cu "$class/fay/"
echo 'int broken(' > "$class/fay/scan.cu"
