#!/usr/bin/env bash
# syncgrade determinism holds each run to the source's EXPECT line, not only
# to the other runs: a steady verdict the line does not accept fails (exit
# 1, "UNEXPECTED"). Static verdicts, so it decides without a GPU too.
#   determinism_expect.sh <syncgrade> <source dir> <out dir>
set -uo pipefail
syncgrade=$1 src=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
zoo=$src/lessons/barriers/zoo/barrier_in_branch.cu # EXPECT tile_reverse SYNC static
grep -q '^// EXPECT tile_reverse SYNC static' "$zoo" || { echo "$zoo: its EXPECT line changed"; exit 1; }
# the same file, its EXPECT line saying RACE (the include made absolute)
sed -e "s|^#include \"\.\./\.\./\.\./solutions/|#include \"$src/solutions/|" \
    -e 's|^// EXPECT tile_reverse SYNC static|// EXPECT tile_reverse RACE|' "$zoo" > "$out/wrong_expect.cu"
"$syncgrade" determinism --lesson barriers --runs 2 --source "$zoo" --out "$out/right" > "$out/right.txt"
rc=$?
[ "$rc" -eq 0 ] && grep -q 'tile_reverse .*SYNC SYNC .*steady$' "$out/right.txt" ||
  { cat "$out/right.txt"; echo "the zoo file as written: exit $rc, wanted 0 and SYNC SYNC steady"; exit 1; }
"$syncgrade" determinism --lesson barriers --runs 2 --source "$out/wrong_expect.cu" --out "$out/wrong" > "$out/wrong.txt"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'steady, UNEXPECTED (its EXPECT line: RACE)' "$out/wrong.txt" ||
  { cat "$out/wrong.txt"; echo "a steady SYNC under EXPECT RACE: exit $rc, wanted 1 and UNEXPECTED"; exit 1; }
echo "steady and expected: 0; steady but not its EXPECT line's: 1"
