#!/usr/bin/env bash
# One runner for a whole submission (the together lever, build.h:
# sl_build_lessons_runner), without a GPU: the seven solutions link into one
# runner that knows every exercise as <lesson>/<exercise>, the same ones
# each lesson's own runner knows; two lessons' files that define the same
# kernel, global and inline function (different bodies) still link, and
# each keeps its own: the plain names made local, the inline function's
# COMDAT copy renamed per lesson (the linker would keep one of the two).
# usage: together_runner.sh <syncgrade> <source dir>
set -euo pipefail
syncgrade=$1
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

lessons=(barriers fences reduction scan worklist coop awbarrier)
args=()
for l in "${lessons[@]}"; do args+=(--lesson "$l" --source "$src/solutions/$l.cu"); done
"$syncgrade" build "${args[@]}" --out "$work/all" >"$work/all.out" || fail "no runner: $(cat "$work/all.out")"
runner=$work/all/runner/runner
[ -x "$runner" ] || fail "no runner at $runner"
"$runner" list >"$work/together.list"
: >"$work/each.list"
for l in "${lessons[@]}"; do
  "$work/all/$l/runner" list | sed "s|^|$l/|" >>"$work/each.list"
done
diff "$work/each.list" "$work/together.list" || fail "the runner of all lessons lists other exercises"
[ "$(wc -l <"$work/together.list")" -ge 20 ] || fail "too few exercises: $(cat "$work/together.list")"
echo "ok: one runner, $(wc -l <"$work/together.list") exercises of ${#lessons[@]} lessons"

# the same names in two lessons' files
for l in barriers fences; do
  mkdir -p "$work/clash/$l"
  value=$([ "$l" = barriers ] && echo 1 || echo 2)
  { cat "$src/solutions/$l.cu"
    cat <<CU
__global__ void same_kernel(int *p) { *p = $value; }
__attribute__((noinline)) inline int same_inline(void) { return $value; }
int same_global = $value;
int ${l}_probe(int *p)
{
    same_kernel<<<1, 1>>>(p);
    return same_inline() + same_global;
}
CU
  } >"$work/clash/$l/$l.cu"
done
"$syncgrade" build --lesson barriers --source "$work/clash/barriers/barriers.cu" \
  --lesson fences --source "$work/clash/fences/fences.cu" --out "$work/clash/out" \
  >"$work/clash.out" 2>&1 || fail "the same names in two files do not link: $(cat "$work/clash.out")"
runner=$work/clash/out/runner/runner
nm "$runner" >"$work/clash.nm"
for l in barriers fences; do
  grep -q " _Z11same_inlinev\.sl\.$l\$" "$work/clash.nm" || fail "no $l copy of same_inline"
done
[ "$(grep -c ' [td] _Z11same_kernelPi$' "$work/clash.nm")" -eq 2 ] ||
  fail "same_kernel is not local twice: $(grep same_kernel "$work/clash.nm")"
[ "$(grep -c ' [d] same_global$' "$work/clash.nm")" -eq 2 ] ||
  fail "same_global is not local twice: $(grep same_global "$work/clash.nm")"
for l in barriers fences; do
  grep -q " T ${l}_probe\$" "$work/clash.nm" && fail "${l}_probe is still global"
done
"$runner" list | grep -qx 'fences/message_pass' || fail "the clash runner lost an exercise"
echo "ok: the same kernel, global and inline function in two files: each file its own"
