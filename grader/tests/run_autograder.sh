#!/usr/bin/env bash
# grader/gradescope/run_autograder hands Gradescope only a file written by
# this grading's syncgrade: a forged file, a file left by a failed run or a
# file without the run's secret gives 0 points; the real one goes through.
# It takes its settings from the zip's autograder.env (the environment
# wins), and a run without a GPU shows the static checks' result.
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
all="\$*"
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
  settings*) printf '{"score": 1, "extra_data": {"synclab_nonce": "%s"}, "output": "no_gpu=%s args=%s"}\n' \
            "\$SYNCLAB_RESULT_NONCE" "\$SYNCLAB_GRADESCOPE_NO_GPU" "\$all" > "\$out"; exit 0 ;;
esac
FAKE
  chmod +x "$dir/build/syncgrade"
  printf 'SYNCLAB_GRADESCOPE_NO_GPU=error\nSYNCLAB_GRADE_ARGS=--visibility hidden\n' >"$dir/autograder.env"
  SYNCLAB_SOURCE=$dir SYNCLAB_SUBMISSION=$dir/submission SYNCLAB_RESULTS=$dir/results \
    SYNCLAB_RUNNER_USER=synclab-test-nobody bash "$repo/grader/gradescope/run_autograder" \
    > "$dir/log" 2>&1
}
fake forged; check "a file without the secret is refused" "$scratch/forged/results/results.json" '"score": 0,.*not written by this grading'
fake stale; check "another secret is refused" "$scratch/stale/results/results.json" '"score": 0,.*not written by this grading'
fake failed; check "a failed run's file is refused" "$scratch/failed/results/results.json" '"score": 0,.*syncgrade failed'
fake honest; check "the run's own file goes through" "$scratch/honest/results/results.json" '"score": 7'
fake settings; check "autograder.env's settings reach syncgrade" "$scratch/settings/results/results.json" \
  'no_gpu=error args=.*--visibility hidden'
SYNCLAB_GRADESCOPE_NO_GPU=static fake settings_env
check "the environment wins over autograder.env" "$scratch/settings_env/results/results.json" 'no_gpu=static'
# the real grader echoes the secret (no GPU needed: one lesson, static verdicts)
real=$scratch/real; mkdir -p "$real/submission"
cp "$repo/starter/barriers.cu" "$real/submission/"
SYNCLAB_RESULT_NONCE=feedc0de "$syncgrade" grade --submission "$real/submission" --lesson barriers \
  --out "$real/out" --gradescope "$real/out/gradescope.json" --quiet > "$real/log" 2>&1
check "syncgrade echoes the secret" "$real/out/gradescope.json" '"synclab_nonce":[[:space:]]*"feedc0de"'
# no GPU (none visible): a correct file shows the static checks passed, not
# 0 points of failed tests; NO_GPU=error makes it the autograder's failure
CUDA_VISIBLE_DEVICES= SYNCLAB_RESULT_NONCE=feedc0de "$syncgrade" grade --lesson barriers \
  --submission "$repo/solutions" --out "$real/nogpu" --gradescope "$real/nogpu/gradescope.json" \
  --quiet > "$real/log_nogpu" 2>&1
nogpu=$real/nogpu/gradescope.json
check "no GPU: the static checks' result" "$nogpu" 'static checks only: this autograder has no GPU'
check "no GPU: every exercise passed the static checks" "$nogpu" '4 of 4 exercises passed the static checks'
check "no GPU: a SKIP is a passed test worth 0 of 0" "$nogpu" '"max_score":[[:space:]]*0,'
if grep -q '"status":[[:space:]]*"failed"' "$nogpu"; then echo "FAIL: a failed test without a GPU"; fails=1; fi
CUDA_VISIBLE_DEVICES= SYNCLAB_GRADESCOPE_NO_GPU=error "$syncgrade" grade --lesson barriers \
  --submission "$repo/solutions" --out "$real/nogpu_error" --gradescope "$real/nogpu_error/gs.json" \
  --quiet > "$real/log_nogpu_error" 2>&1
check "no GPU, NO_GPU=error: the autograder's failure" "$real/nogpu_error/gs.json" 'The autograder failed (it has no GPU'
SYNCLAB_GRADESCOPE_NO_GPU=zero "$syncgrade" grade --lesson barriers --submission "$real/submission" \
  --out "$real/nogpu_bad" --quiet > "$real/log_nogpu_bad" 2>&1
check "a wrong NO_GPU setting is refused" "$real/log_nogpu_bad" 'SYNCLAB_GRADESCOPE_NO_GPU=zero: want static or error'
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
