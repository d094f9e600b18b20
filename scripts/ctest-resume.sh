#!/usr/bin/env bash
# The test suite in slices that each fit a time limit (a GPU node's job
# limit, a lent machine's call): each call runs the tests of BUILD that have
# not finished yet (passed, failed or skipped all count as finished), stops
# itself after SECONDS, and the next call goes on where it stopped. A test
# cut off by the limit runs again next time, from its start; one cut off in
# two slices in a row is named (it may never fit one).
#   scripts/ctest-resume.sh BUILD SECONDS [ctest options...]
#   scripts/ctest-resume.sh build 540 -j16 --output-on-failure
#   scripts/ctest-resume.sh build --forget        # start over
# Logs: BUILD/ctest-resume/run<k>.log. Exit: 0 all finished and none failed,
# 1 all finished and some failed, 3 some still to run.
set -uo pipefail
build=${1:?usage: ctest-resume.sh BUILD SECONDS|--forget [ctest options...]}
limit=${2:?usage: ctest-resume.sh BUILD SECONDS|--forget [ctest options...]}
shift 2
logs=$build/ctest-resume
if [ "$limit" = --forget ]; then
  rm -rf "$logs"
  exit 0
fi
mkdir -p "$logs"
finished() { # the names of the tests any earlier slice finished
  cat "$logs"/run*.log 2>/dev/null |
    sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) .*\(Passed\|Failed\|Not Run\|Skipped\|\*\*\*\).*/\1/p' |
    sort -u
}
ctest --test-dir "$build" -N | sed -n 's/^ *Test *#\([0-9]*\): \(.*\)$/\1 \2/p' >"$logs/all.txt"
finished >"$logs/finished.txt"
todo=$(while read -r num name; do
  grep -qxF "$name" "$logs/finished.txt" || printf '%s,' "$num"
done <"$logs/all.txt")
total=$(wc -l <"$logs/all.txt")
echo "ctest-resume: $(wc -l <"$logs/finished.txt") of $total finished before this slice"
if [ -n "$todo" ]; then
  k=$(find "$logs" -name 'run*.log' | wc -l)
  timeout --signal=INT "$limit" ctest --test-dir "$build" -I "0,0,0,${todo%,}" "$@" \
    >"$logs/run$k.log" 2>&1
  rc=$?
  if [ "$rc" = 124 ]; then
    echo "ctest-resume: stopped at the $limit s limit; call again to go on"
    # started in this slice but not finished: cut off. A test cut off in
    # two slices in a row may never fit one (it runs again from its start)
    sed -n 's/^ *Start *[0-9]*: *\([^ ]*\).*/\1/p' "$logs/run$k.log" | sort -u >"$logs/started.txt"
    finished | comm -23 "$logs/started.txt" - >"$logs/cut.new"
    if [ -f "$logs/cut.txt" ]; then
      comm -12 "$logs/cut.txt" "$logs/cut.new" | while read -r t; do
        echo "ctest-resume: $t was cut off in two slices in a row: it may need more than $limit s (ctest --test-dir $build -R '^$t\$')"
      done
    fi
    mv "$logs/cut.new" "$logs/cut.txt"
  else
    rm -f "$logs/cut.txt"
  fi
fi
finished >"$logs/finished.txt"
echo "ctest-resume: $(wc -l <"$logs/finished.txt") of $total finished"
# every slice's verdict lines that are not a pass or a skip
bad=$(cat "$logs"/run*.log 2>/dev/null | grep -E '^ *[0-9]+/[0-9]+ Test' |
  grep -v -e ' Passed ' -e 'Skipped' -e 'Not Run' || true)
[ -z "$bad" ] || printf '%s\n' "$bad"
[ "$(wc -l <"$logs/finished.txt")" -eq "$total" ] || exit 3
[ -z "$bad" ] || exit 1
