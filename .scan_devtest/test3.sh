#!/bin/bash
cd "$(dirname "$0")"
source <(sed -n '/^pipeline()/,/^}/p' test.sh)
OUTD=${OUT:-/tmp/out}; mkdir -p $OUTD; SAN=compute-sanitizer; W=/tmp/scanwork; rm -rf $W; mkdir -p $W
for k in 1 2; do timeout 60 bin/perf_base 28; timeout 60 bin/perf_forward 28; done 2>&1 | tee $OUTD/perf.txt
timeout 60 bin/perf_base 134217733 | tee -a $OUTD/perf.txt; timeout 60 bin/perf_base 268435455 | tee -a $OUTD/perf.txt
timeout 60 bin/runner_solution bench scan_any_n 28 1 $W/bench.out 2>&1 | tee -a $OUTD/perf.txt
pipeline solution scan_any_n
for r in zoo_block_sums_not_propagated zoo_last_tile_read_as_full; do pipeline $r scan_any_n; done
pipeline zoo_seed_v1_barrier_in_branch block_inclusive_scan
grep -v "0 wrong" $OUTD/details.txt | grep -E "==|Error|Barrier|wrong" | head -30
