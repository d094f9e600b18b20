#!/bin/bash
# Dev-only: on the GPU machine. perf variants, the solution through the whole
# pipeline, and every mutant's verdict-relevant steps.
cd "$(dirname "$0")"
OUTD=${OUT:-/tmp/out}; mkdir -p $OUTD
SAN=compute-sanitizer
W=/tmp/scanwork; rm -rf $W; mkdir -p $W
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
MODE=${1:-all}
if [ "$MODE" = all -o "$MODE" = perf ]; then
  for p in bin/perf_*; do $p 28; done 2>&1 | tee $OUTD/perf.txt
  bin/perf_base 20; bin/perf_base 24
fi
# pipeline <runner> <exercise>: prints one line of step results
pipeline() {
  local r=$1 ex=$2 d=$W/$1_$2; mkdir -p $d/s $d/f
  local ns=$(bin/drive gen $ex small 7 $d/s) res=""
  timeout 60 bin/runner_$r run $ex $d/s $ns > $d/plain.log 2>&1; res="plain=$?"
  for t in memcheck synccheck racecheck initcheck; do
    local extra=""; [ $t = racecheck ] && extra="--racecheck-detect-level warn --racecheck-report analysis"
    timeout 90 $SAN --tool $t --error-exitcode 86 --print-limit 20 --show-backtrace device $extra bin/runner_$r run $ex $d/s $ns > $d/$t.log 2>&1
    res="$res $t=$?"
  done
  local nf=$(bin/drive gen $ex full 11 $d/f)
  timeout 120 bin/runner_$r run $ex $d/f $nf > $d/full.log 2>&1; res="$res full=$?"
  bin/drive check $ex full 11 $d/f > $d/check.log 2>&1; res="$res check=$?"
  echo "$r $ex: $res" | tee -a $OUTD/summary.txt
  for f in $d/*.log; do
    if grep -q -E "ERROR SUMMARY: [1-9]|RACECHECK SUMMARY: [1-9]|Barrier|Invalid|Uninitialized|wrong|CUDA error" $f; then
      echo "== $f"; grep -E "Barrier|Race|hazard|Invalid|Uninitialized|SUMMARY|wrong|expected|CUDA error|at .*scan|case" $f | head -10
    fi
  done >> $OUTD/details.txt 2>&1
}
if [ "$MODE" = all -o "$MODE" = pipe ]; then
  for ex in block_inclusive_scan block_exclusive_scan scan_any_n; do pipeline solution $ex; done
  bin/runner_solution bench scan_any_n 28 1 $W/bench.out 2>&1 | tee -a $OUTD/summary.txt
  for m in $(ls bin/runner_zoo_* | grep -v -e seed_v1 -e early_return) bin/runner_zoo_seed_v1_barrier_in_branch bin/runner_zoo_early_return; do
    r=${m#bin/runner_}
    src=../lessons/scan/zoo/${r#zoo_}.cu; [ -f $src ] || src=${r#zoo_}.cu
    ex=$(head -1 $src | awk "{print \$3}")
    pipeline $r $ex
  done
  tar czf $OUTD/logs.tgz -C $W --exclude='*.in' --exclude='*.out' . 2>/dev/null
  cat $OUTD/summary.txt
fi
