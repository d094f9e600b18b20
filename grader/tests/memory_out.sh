#!/usr/bin/env bash
# The machine's want of memory is the grader's failure, never the
# student's (memory.h): a compiler step the kernel's OOM killer stops is
# ERROR "ran out of memory", not BUILD with a hint to fix the file. A
# fake nvcc stands in for the kernel (no test can make it kill): at the
# link step it kills itself with SIGKILL, and with OOM=1 it first raises
# the count SYNCLAB_OOM_KILLS_FILE stands in for (memory.events). The
# same SIGKILL without the count is the file's BUILD, as before; a file
# built by the real nvcc is unaffected by a count that rises.
#   memory_out.sh <syncgrade> <source dir> <scratch dir> <nvcc>
set -euo pipefail
syncgrade=$1 src=$2 dir=$3 nvcc=$4
rm -rf "$dir"
mkdir -p "$dir/sub"
cp "$src/solutions/barriers.cu" "$dir/sub/barriers.cu"
events=$dir/memory.events
cat >"$dir/nvcc" <<FAKE
#!/usr/bin/env bash
case " \$* " in
*" --wrap=cudaLaunchCooperativeKernel "*)
  if [ "\${OOM:-0}" = 1 ]; then printf 'oom 1\noom_kill 1\n' >"$events"; fi
  kill -KILL \$\$ ;;
esac
exec "$nvcc" "\$@"
FAKE
chmod +x "$dir/nvcc"
fail=0
grade() { # <out> [env...]: the report's text, with the count at 0 before
  local out=$1
  shift
  printf 'oom 0\noom_kill 0\n' >"$events"
  # the fake nvcc lives here, where the compile step's sandbox cannot see
  # it: only the link step, never sandboxed, is under test
  env SYNCLAB_OOM_KILLS_FILE="$events" SYNCLAB_SANDBOX=0 "$@" "$syncgrade" grade --submission "$dir/sub" \
    --lesson barriers --out "$out" --seed 1 >"$out.txt" 2>&1 || true
}
grade "$dir/killed" SYNCLAB_NVCC="$dir/nvcc"
grep -qE "tile_reverse +BUILD" "$dir/killed.txt" || { echo "FAIL: a compiler's own SIGKILL: $(grep tile_reverse "$dir/killed.txt")"; fail=1; }
grep -q "ran out of memory while" "$dir/killed.txt" && { echo "FAIL: a SIGKILL without an OOM kill was said to be the machine's"; fail=1; }
grade "$dir/oom" SYNCLAB_NVCC="$dir/nvcc" OOM=1
grep -qE "tile_reverse +ERROR" "$dir/oom.txt" || { echo "FAIL: a compiler the OOM killer stopped: $(grep tile_reverse "$dir/oom.txt")"; fail=1; }
grep -q "the grader's machine ran out of memory while this file was built" "$dir/oom.txt" || { echo "FAIL: the machine's want of memory not said: $(head -40 "$dir/oom.txt")"; fail=1; }
grep -qE "tile_reverse +BUILD" "$dir/oom.txt" && { echo "FAIL: BUILD when the OOM killer stopped the compiler"; fail=1; }
# a count that rises while the real compiler succeeds changes nothing
printf 'oom 0\noom_kill 7\n' >"$events"
env SYNCLAB_OOM_KILLS_FILE="$events" "$syncgrade" grade --submission "$dir/sub" --lesson barriers \
  --out "$dir/real" --seed 1 >"$dir/real.txt" 2>&1 || true
grep -qE "tile_reverse +(ERROR|BUILD)" "$dir/real.txt" && { echo "FAIL: a file that compiles: $(grep tile_reverse "$dir/real.txt")"; fail=1; }
[ "$fail" = 0 ] && echo "memory_out: a compiler the OOM killer stops is ERROR; its own SIGKILL is BUILD"
exit "$fail"
