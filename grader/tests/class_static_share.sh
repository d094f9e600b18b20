#!/usr/bin/env bash
# Without --seed every student gets a seed of its own, so the dedup lever's
# key (bytes and seed) never matches; but files whose every verdict is
# static (an untouched starter: all TODO) are the same for any seed and
# are judged once (class/dedup.h). Three students hand in the untouched
# barriers starter, a fourth the solution: the starter is graded once and
# taken twice, the solution (verdicts from runs) is never taken, every
# starter row is the same. Static verdicts: the same with or without a GPU.
#   class_static_share.sh <syncgrade> <source dir> <out dir>
set -euo pipefail
syncgrade=$1 src=$2 out=$3
rm -rf "$out"
mkdir -p "$out/class"
for s in ana ben cho; do
  mkdir -p "$out/class/$s"
  cp "$src/starter/barriers.cu" "$out/class/$s/"
done
mkdir -p "$out/class/dee"
cp "$src/solutions/barriers.cu" "$out/class/dee/"
rc=0
SYNCLAB_LEVERS=dedup SYNCLAB_TRACE=1 "$syncgrade" class --submissions "$out/class" \
  --out "$out/grades" --lesson barriers --jobs 1 --quiet 2> "$out/trace.log" || rc=$?
[ "$rc" -le 1 ] || { tail -n 30 "$out/trace.log"; echo "syncgrade class: exit $rc"; exit 1; }
taken=$(grep -c '^\[trace\] dedup .*: barriers: identical to a file already graded (static verdicts only: any seed)$' \
  "$out/trace.log" || true)
[ "$taken" -eq 2 ] || { grep '^\[trace\] dedup' "$out/trace.log" || true; echo "starter taken $taken times, wanted 2"; exit 1; }
! grep -q '^\[trace\] dedup dee' "$out/trace.log" || { echo "the solution was taken from another file"; exit 1; }
csv=$out/grades/grades.csv
# the same row but for the seed column (each student's own)
seed=$(head -1 "$csv" | tr ',' '\n' | grep -nx seed | cut -d: -f1)
rows=$(grep -E '^(ana|ben|cho),' "$csv" | cut -d, -f "2-$((seed - 1)),$((seed + 1))-" | sort -u | wc -l)
[ "$rows" -eq 1 ] || { cat "$csv"; echo "the three starters' rows differ"; exit 1; }
[ "$(grep -E '^(ana|ben|cho),' "$csv" | cut -d, -f "$seed" | sort -u | wc -l)" -eq 3 ] ||
  { cat "$csv"; echo "the three students did not get seeds of their own"; exit 1; }
grep -E '^ana,' "$csv" | grep -q ',0,' || { cat "$csv"; echo "an untouched starter earned points"; exit 1; }
echo "untouched starter: graded once, taken twice, whatever the seed"
