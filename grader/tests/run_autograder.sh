#!/usr/bin/env bash
# grader/gradescope/run_autograder hands Gradescope only a file written by
# this grading's syncgrade: a forged file, a file left by a failed run or a
# file without the run's secret gives 0 points; the real one goes through.
#   run_autograder.sh <repo> <syncgrade> <scratch dir>
set -uo pipefail
repo=$1 syncgrade=$2 scratch=$3
rm -rf "$scratch"; mkdir -p "$scratch"
fails=0
check() {  # <what> <results.json> <grep pattern>
  if grep -q "$3" "$2"; then echo "ok: $1"; else echo "FAIL: $1"; cat "$2"; fails=1; fi
}
# A stand-in syncgrade (mode in $1): list, then grade writing as told.
fake() {
  local dir=$scratch/$1
  mkdir -p "$dir/build" "$dir/submission"
  cp "$repo/starter/barriers.cu" "$dir/submission/"
  cat > "$dir/build/syncgrade" <<FAKE
#!/usr/bin/env bash
[ "\$1" = list ] && { echo "barriers: Barriers"; exit 0; }
if [ "\$1" = locate ]; then  # the real one copies the lesson files into --out
  while [ \$# -gt 0 ]; do [ "\$1" = --out ] && cp "$dir/submission/barriers.cu" "\$2/"; shift; done
  exit 0
fi
while [ \$# -gt 0 ]; do [ "\$1" = --gradescope ] && out=\$2; shift; done
case $1 in
  forged) echo '{"score": 250, "tests": []}' > "\$out"; exit 0 ;;
  stale) echo '{"score": 250, "tests": [], "extra_data": {"synclab_nonce": "0123"}}' > "\$out"; exit 0 ;;
  failed) echo '{"score": 250, "tests": []}' > "\$out"; exit 2 ;;
  honest) printf '{"score": 7, "extra_data": {"synclab_nonce": "%s"}, "tests": []}\n' \
            "\$SYNCLAB_RESULT_NONCE" > "\$out"; exit 0 ;;
esac
FAKE
  chmod +x "$dir/build/syncgrade"
  SYNCLAB_SOURCE=$dir SYNCLAB_SUBMISSION=$dir/submission SYNCLAB_RESULTS=$dir/results \
    SYNCLAB_RUNNER_USER=synclab-test-nobody bash "$repo/grader/gradescope/run_autograder" \
    > "$dir/log" 2>&1
}
fake forged; check "a file without the secret is refused" "$scratch/forged/results/results.json" '"score": 0,.*not written by this grading'
fake stale; check "another secret is refused" "$scratch/stale/results/results.json" '"score": 0,.*not written by this grading'
fake failed; check "a failed run's file is refused" "$scratch/failed/results/results.json" '"score": 0,.*syncgrade failed'
fake honest; check "the run's own file goes through" "$scratch/honest/results/results.json" '"score": 7'
# the real grader echoes the secret (no GPU needed: one lesson, static verdicts)
real=$scratch/real; mkdir -p "$real/submission"
cp "$repo/starter/barriers.cu" "$real/submission/"
SYNCLAB_RESULT_NONCE=feedc0de "$syncgrade" grade --submission "$real/submission" --lesson barriers \
  --out "$real/out" --gradescope "$real/out/gradescope.json" --quiet > "$real/log" 2>&1
check "syncgrade echoes the secret" "$real/out/gradescope.json" '"synclab_nonce":[[:space:]]*"feedc0de"'
# a planted read-only results file: syncgrade fails loudly, leaves it as it was
mkdir -p "$real/planted"
echo '{"score": 250}' > "$real/planted/gradescope.json"; chmod 0444 "$real/planted/gradescope.json"
"$syncgrade" grade --submission "$real/submission" --lesson barriers --out "$real/planted" \
  --gradescope "$real/planted/gradescope.json" --quiet > "$real/log2" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q "cannot write" "$real/log2"; then
  echo "ok: a planted read-only file makes syncgrade fail (exit $rc)"
else
  echo "FAIL: syncgrade exited $rc with a planted read-only gradescope.json"; fails=1
fi
ls "$real/planted" | grep -q '\.tmp$' && { echo "FAIL: a temporary file was left"; fails=1; }
exit $fails
