#!/usr/bin/env bash
# syncgrade's command line (getopt_long) and the playground without a GPU:
# `syncgrade run` builds the starter, makes the input the user asked for
# and prints it beside the CPU reference's output.
#   cli_and_run.sh <syncgrade> <source dir>
set -uo pipefail
sg=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/out" ] && cat "$tmp/out"; exit 1; }

# options: --opt value and --opt=value alike; errors name the option
"$sg" list >"$tmp/out" 2>&1 || fail "list"
"$sg" help >"$tmp/out" 2>&1 || fail "help exited non-zero"
grep -q 'syncgrade run    --lesson L --exercise E' "$tmp/out" || fail "help lacks run"
"$sg" check --bogus >"$tmp/out" 2>&1; [ $? -eq 2 ] || fail "an unknown option must exit 2"
grep -q "unknown option '--bogus'" "$tmp/out" || fail "unknown option not named"
"$sg" hint --lesson >"$tmp/out" 2>&1; [ $? -eq 2 ] || fail "a missing value must exit 2"
grep -q -- "--lesson needs a value" "$tmp/out" || fail "missing value not named"
"$sg" grade --jobs many >"$tmp/out" 2>&1; [ $? -eq 2 ] || fail "a bad number must exit 2"
grep -q -- "--jobs wants a non-negative whole number, not 'many'" "$tmp/out" || fail "bad number"
"$sg" hint extra >"$tmp/out" 2>&1; [ $? -eq 2 ] || fail "a stray argument must exit 2"
"$sg" hint --lesson=barriers --exercise=tile_reverse --out="$tmp/none" >"$tmp/out" 2>&1 ||
  fail "--opt=value forms"
grep -q '^barriers/tile_reverse: ' "$tmp/out" || fail "hint with --opt=value"

# a path baked in at configure time or set in the environment that this
# machine lacks (a cluster node): one ERROR line naming it, exit 2, before
# anyone is graded or anything is written
mkdir -p "$tmp/class/alice"
for cmd in grade check class; do
  SYNCLAB_SANITIZER=$tmp/missing/compute-sanitizer "$sg" "$cmd" --lesson barriers \
    --submissions "$tmp/class" --out "$tmp/paths" >"$tmp/out" 2>&1
  [ $? -eq 2 ] || fail "$cmd with a missing compute-sanitizer must exit 2"
  [ "$(wc -l <"$tmp/out")" -eq 1 ] || fail "$cmd: not one line"
  grep -q "^syncgrade: ERROR: compute-sanitizer $tmp/missing/compute-sanitizer is missing on this machine (SYNCLAB_SANITIZER): point SYNCLAB_SANITIZER at" "$tmp/out" ||
    fail "$cmd: no ERROR line naming compute-sanitizer"
done
SYNCLAB_NVCC=$tmp/missing/nvcc "$sg" grade --lesson barriers --out "$tmp/paths" >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "grade with a missing nvcc must exit 2"
grep -q "^syncgrade: ERROR: nvcc $tmp/missing/nvcc is missing on this machine" "$tmp/out" ||
  fail "no ERROR line naming nvcc"
[ -e "$tmp/paths" ] && fail "a grading with a missing path wrote results"

# the playground: values 1..40 from a file, blocks of 32: tile 0 (32
# values) and the partial tile 1 (8 values) each reversed
{ printf '1 2 3\n4, 5  # a comment\n'; seq 6 40 | tr '\n' ' '; } >"$tmp/values.txt"
"$sg" run --lesson barriers --exercise tile_reverse --input "$tmp/values.txt" --block 32 \
  --out "$tmp/o" >"$tmp/out" 2>&1
grep -q 'barriers/tile_reverse on n=40 block=32' "$tmp/out" || fail "no heading"
for i in 0 1 30 31 32 33 39; do
  if [ $i -lt 32 ]; then e=$((32 - i)); else e=$((72 - i)); fi
  grep -qE "^ +$i +$((i + 1)) +$e( |$)" "$tmp/out" || fail "row $i is not $((i + 1)) -> $e"
done
# the runner it built, as a lesson sweep starts it: an output and an input
# descriptor per case, all open before any student code. 1200 cases under
# the soft limit of 1024 a user's shell starts with must get as far as the
# GPU (77 without one, 0 with one), never "cannot write" (it did: every
# lesson sweep of a user's grading fell back to each exercise); a hard
# limit too low is one clear line, nothing written.
runner=$tmp/o/barriers/run/build/runner
[ -x "$runner" ] || fail "no runner under $tmp/o"
mkdir -p "$tmp/many/in" "$tmp/many/out"
for i in $(seq 0 1199); do cp "$tmp/o/barriers/run/in/case0.in" "$tmp/many/in/case$i.in"; done
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -ge 4096 ]; then
  (ulimit -Sn 1024 && exec "$runner" run tile_reverse "$tmp/many/in" 1200 "$tmp/many/out") \
    >"$tmp/out" 2>&1
  rc=$?
  [ $rc -eq 0 ] || [ $rc -eq 77 ] || fail "1200 cases under a soft limit of 1024: exit $rc"
  rm -rf "$tmp/many/out" && mkdir "$tmp/many/out"
  (ulimit -n 1500 && exec "$runner" run tile_reverse "$tmp/many/in" 1200 "$tmp/many/out") \
    >"$tmp/out" 2>&1
  [ $? -eq 3 ] || fail "a hard limit of 1500 for 1200 cases must stop the runner (exit 3)"
  grep -q "RLIMIT_NOFILE's hard limit is 1500: raise it (ulimit -Hn)" "$tmp/out" ||
    fail "a hard limit too low: no clear line"
  [ -z "$(ls "$tmp/many/out")" ] || fail "a runner that could not open its inputs wrote outputs"
else
  echo "(a hard RLIMIT_NOFILE of $hard here: the runner's descriptor cases need 4096)"
fi

# a shape the contract forbids is refused with the contract's words (exit 2)
"$sg" run --lesson barriers --exercise warp_step --n 10 --block 4 --out "$tmp/o" >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "BLOCK=4 must be refused"
grep -q 'a block of 4 threads is not between 32 and 1024: warp_step needs blocks of a multiple of 32' \
  "$tmp/out" || fail "refusal without the contract"
"$sg" run --lesson barriers --exercise warp_step --n 10 --block 100 --out "$tmp/o" >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q 'not a multiple of 32' "$tmp/out" || fail "block 100 for warp_step"
# lesson 7 too has an expected column (every exercise has one: lesson_inputs)
"$sg" run --lesson awbarrier --exercise tile_pipeline --n 40 --block 32 --out "$tmp/o" \
  >"$tmp/out" 2>&1
grep -qE '^ +i +input +expected +got' "$tmp/out" || fail "tile_pipeline: no expected column"
grep -qE '^ +39 +[0-9]+ +[0-9]+' "$tmp/out" || fail "tile_pipeline: no expected value in row 39"
# n, block and seed: n rows; the same seed draws the same values
"$sg" run --lesson barriers --exercise halo_diff --n 6 --block 32 --seed 7 --out "$tmp/o" >"$tmp/a" 2>&1
"$sg" run --lesson barriers --exercise halo_diff --n 6 --block 32 --seed 7 --out "$tmp/o" >"$tmp/b" 2>&1
grep -qE '^ +5 ' "$tmp/a" && ! grep -qE '^ +6 ' "$tmp/a" || { cp "$tmp/a" "$tmp/out"; fail "not 6 rows"; }
diff <(grep -E '^ +[0-9]' "$tmp/a") <(grep -E '^ +[0-9]' "$tmp/b") >/dev/null || fail "seed not reproducible"
"$sg" run --lesson barriers --exercise nope --out "$tmp/o" >"$tmp/out" 2>&1; [ $? -eq 2 ] ||
  fail "an unknown exercise must exit 2"
grep -q "no exercise 'nope' in barriers; its exercises: tile_reverse" "$tmp/out" || fail "exercises"
"$sg" run --lesson barriers --exercise tile_reverse --tool nosuch --out "$tmp/o" >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "an unknown tool must exit 2"
echo "cli: getopt_long forms and errors; run: input file, n/block/seed, reference beside"
