#!/bin/bash
cd "$(dirname "$0")"
source <(sed -n '/^pipeline()/,/^}/p' test.sh)
OUTD=${OUT:-/tmp/out}; mkdir -p $OUTD; SAN=compute-sanitizer; W=/tmp/scanwork; rm -rf $W; mkdir -p $W
for k in 1 2; do bin/perf_base 28; bin/perf_reverse 28; done 2>&1 | tee $OUTD/perf.txt
bin/perf_base 22; bin/perf_base 16
for ex in block_inclusive_scan block_exclusive_scan scan_any_n; do pipeline solution $ex; done
bin/runner_solution bench scan_any_n 28 1 $W/bench.out 2>&1
bin/runner_solution bench scan_any_n 28 2 $W/bench.out 2>&1
for r in zoo_block_sums_not_propagated zoo_last_tile_read_as_full zoo_ok_chained_scan; do pipeline $r scan_any_n; done
for r in zoo_v1_single zoo_v1_final zoo_seed_v1_barrier_in_branch; do pipeline $r block_inclusive_scan; done
cat $OUTD/details.txt | grep -v "0 wrong" | head -60
cuobjdump -sass bin/runner_zoo_seed_v1_barrier_in_branch 2>/dev/null | awk '/Function : _Z20block_inclusive_scanPKiPii/{f=1} f&&/EXIT|BAR|BRA|BSSY|BSYNC|WARPSYNC|ISETP|LDS|STS/{print} f&&/\.L_x_[0-9]+:/{c++} f&&/Function : /&&!/block_inclusive/{f=0}' | head -40 > $OUTD/sass.txt
head -40 $OUTD/sass.txt
