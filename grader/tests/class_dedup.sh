#!/usr/bin/env bash
# The dedup lever (class/dedup.h) on the adversarial submissions: every case
# twice, as "<case>" and "<case>_twin" (cp -a: a link stays a link), graded
# as one class with one seed, so the twins' identical files are judged once.
# Every case must still get what its expect.txt says (class_adversarial.sh),
# and each twin exactly its original's row: byte-identical files,
# identical verdicts, whichever of the two was graded.
#   class_dedup.sh <syncgrade> <adversarial dir> <out dir>
set -euo pipefail
syncgrade=$1 cases=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"
mkdir -p "$out"
class=$out/class
mkdir -p "$class"
for dir in "$cases"/*/; do
  name=$(basename "$dir")
  cp -a "$dir" "$class/$name"
  cp -a "$dir" "$class/${name}_twin"
done
SYNCLAB_LEVERS=${SYNCLAB_LEVERS-jobs,dedup} SYNCLAB_TRACE=1 \
  bash "$here/class_adversarial.sh" "$syncgrade" "$class" "$out/grades" --seed 7 2> "$out/trace.log" ||
  { tail -n 30 "$out/trace.log"; exit 1; }
csv=$out/grades/grades.csv
failures=0
for dir in "$class"/*_twin/; do
  twin=$(basename "$dir")
  name=${twin%_twin}
  a=$(grep "^$name," "$csv" | cut -d, -f2-) || true
  b=$(grep "^$twin," "$csv" | cut -d, -f2-) || true
  if [ -z "$a" ] || [ "$a" != "$b" ]; then
    echo "$twin: its row differs from $name's: '$b' vs '$a'"
    failures=1
  fi
done
echo "lesson files taken from a twin: $(grep -c '^\[trace\] dedup ' "$out/trace.log" || true)"
exit $failures
