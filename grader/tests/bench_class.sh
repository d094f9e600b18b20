#!/usr/bin/env bash
# scripts/bench-class.sh with a stand-in syncgrade: what the bench adds to a
# class's grading, without a GPU. The stand-in grades the demo class as it
# was made to be graded (the points of grading/points.ini, none for an
# exercise a mutant's EXPECT line expects to fail), or, with BENCH_WRONG,
# gives one mutant's bug its points; it honours --shard and traces the
# class's size as syncgrade does. Checked: the figures per student of a
# shard, the rounds, the verdict check (a wrong grade fails the bench),
# the disk line, the seed.
#   bench_class.sh <source dir> <scratch dir>
set -euo pipefail
src=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
cat >"$dir/syncgrade" <<'EOF'
#!/usr/bin/env bash
# stand-in: syncgrade class --submissions S --out O [--shard K/N] [--jobs J]
set -euo pipefail
shift # "class"
jobs=1 k=1 n=1 seeds=""
while [ $# -gt 0 ]; do
  case $1 in
    --submissions) subs=$2; shift ;;
    --out) out=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --shard) k=${2%/*} n=${2#*/}; shift ;;
    --seed) seeds="$seeds $2"; shift ;;
    --seed=*) seeds="$seeds ${1#--seed=}" ;;
  esac
  shift
done
mkdir -p "$out"
echo "seeds:$seeds" >"$out/../seeds.txt"
# long enough for the bench's sampler to see the class's disk
[ -z "${BENCH_SLOW:-}" ] || sleep "$BENCH_SLOW"
mapfile -t all < <(ls "$subs" | sort)
mine=()
for i in "${!all[@]}"; do (( i % n == k - 1 )) && mine+=("${all[$i]}"); done
echo "[trace] class size: ${#mine[@]} students, $((3 * jobs)) graded at once on 1 GPU" >&2
awk -v wrong="${BENCH_WRONG:-}" '
  FILENAME == ARGV[1] {
    if ($0 ~ /^\[/) { sect = substr($0, 2, index($0, "]") - 2); next }
    if ($0 ~ /^[a-z_0-9]+ *= *[0-9]+/) { split($0, kv, /[ =]+/); pts[sect "/" kv[1]] = kv[2]; cols[++nc] = sect "/" kv[1] }
    next }
  FILENAME == ARGV[2] {
    st = $1; sub(/:$/, "", st)
    for (i = 5; i < NF; i++) if ($(i + 1) ~ /^[A-Z]+(\|[A-Z]+)*$/ && $(i + 1) !~ /PASS/) {
      w = $i; sub(/^\(/, "", w); if (wrong == "" || got_wrong++) zero[st "," $2 "/" w] = 1 }
    next }
  FNR == 1 { h = "student"; for (c = 1; c <= nc; c++) h = h "," cols[c]; print h ",total,max,seed,notes"; next }
  { row = $1; t = 0; m = 0
    for (c = 1; c <= nc; c++) { v = ($1 "," cols[c]) in zero ? 0 : pts[cols[c]]; row = row "," v; t += v; m += pts[cols[c]] }
    print row "," t "," m ",1," }' "$SRC/grading/points.ini" "$(dirname "$subs")/class.txt" \
  <(printf '%s\n' student "${mine[@]}") >"$out/grades.csv"
EOF
chmod +x "$dir/syncgrade"
bench() {
  SRC=$src SYNCGRADE=$dir/syncgrade BENCH_DIR=$dir/b "$src/scripts/bench-class.sh" "$@"
}
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# a shard: five of a class of ten, figures per student of the shard
bench 10 --shard 1/2 --jobs 2 >"$dir/shard.txt" 2>&1 || bad "a shard: exit $?, $(tail -n 5 "$dir/shard.txt")"
for want in "students:             5 (shard 1/2 of a class of 10)" \
            "rounds:               0.8 (6 graded at once: one round, as long as its slowest student;" \
            "verdicts:             5 students, " \
            "grades.csv sha256:    "; do
  grep -qF "$want" "$dir/shard.txt" || bad "a shard: no '$want'"
done
[ "$(($(wc -l <"$dir/b/grades/grades.csv") - 1))" = 5 ] || bad "the stand-in did not grade 5 students"

# a whole class of several rounds: no word of one round; the disk and
# the memory sampled while it was graded
BENCH_SLOW=2 bench 10 --jobs=1 >"$dir/whole.txt" 2>&1 || bad "a class: exit $?, $(tail -n 5 "$dir/whole.txt")"
grep -qE "^disk: +[0-9.]+ GiB at the peak, [0-9.]+ GiB free at the least; memory [0-9.]+ GiB at the peak, [0-9.]*[1-9][0-9.]* GiB available at the least$" "$dir/whole.txt" ||
  bad "a class: no disk line: $(grep -i disk "$dir/whole.txt")"
grep -qF "rounds:               3.3 (3 graded at once)" "$dir/whole.txt" || bad "a class of 10 at --jobs 1: $(grep rounds "$dir/whole.txt")"
grep -qF "verdicts:             10 students, " "$dir/whole.txt" || bad "a class: no verdicts line"

# one bug given its points: the bench fails and says which
rc=0
BENCH_WRONG=1 bench 10 --jobs 2 >"$dir/wrong.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || bad "a bug given its points: exit $rc"
grep -q "expected to fail" "$dir/wrong.txt" || bad "a bug given its points: $(tail -n 3 "$dir/wrong.txt")"
grep -q "grades.csv sha256" "$dir/wrong.txt" && bad "a bug given its points: a checksum was printed"

# an empty shard: said, not a division by zero
rc=0
bench 2 --shard 3/3 >"$dir/empty.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "no student graded" "$dir/empty.txt" || bad "an empty shard: exit $rc, $(tail -n 2 "$dir/empty.txt")"

# the bench's seed 1 unless one is given, either way
for given in "" "--seed 3" "--seed=7"; do
  want="seeds: ${given:+${given#--seed[ =]}}"
  [ -n "$given" ] || want="seeds: 1"
  # shellcheck disable=SC2086
  bench 2 --jobs 2 $given >"$dir/seed.txt" 2>&1 || bad "seed '$given': exit $?, $(tail -n 2 "$dir/seed.txt")"
  [ "$(cat "$dir/b/seeds.txt")" = "$want" ] || bad "seed '$given': the class got '$(cat "$dir/b/seeds.txt")', not '$want'"
done

[ "$fail" = 0 ] && echo "bench_class: ok"
exit "$fail"
