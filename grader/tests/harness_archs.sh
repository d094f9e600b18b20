#!/usr/bin/env bash
# Every lesson harness holds code for every GPU (issue 26): the SASS and PTX
# of its archs list (libsynclab_harness_<lesson>.archs, what CMake built it
# for and what the grader judges runners by) are in each CUDA object of the
# archive, read from the objects' fatbins (cuobjdump need not be there).
# usage: harness_archs.sh <build>/harness
set -euo pipefail
dir=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# "sm_75 sm_90 compute_121 ...": the entries of every fatbin in a file
# (a fatbin: magic 0xBA55ED50, header size at +6, size at +8; each entry:
# kind 1 PTX / 2 ELF at +0, its header size at +4, payload size at +8,
# arch at +28).
fatbin_archs() {
  od -An -tu1 -v "$1" | awk '
    { for (i = 1; i <= NF; i++) b[n++] = $i }
    function u16(p) { return b[p] + 256 * b[p + 1] }
    function u32(p) { return u16(p) + 65536 * u16(p + 2) }
    END {
      for (i = 0; i + 16 <= n; i++) {
        if (b[i] != 80 || b[i + 1] != 237 || b[i + 2] != 85 || b[i + 3] != 186) continue
        p = i + u16(i + 6); end = p + u32(i + 8)
        while (p + 32 <= end) {
          kind = u16(p); arch = u32(p + 28)
          printf "%s_%d\n", kind == 1 ? "compute" : "sm", arch
          p += u32(p + 4) + u32(p + 8)
        }
        i = end - 1
      }
    }' | sort -u
}

n=0
for lib in "$dir"/libsynclab_harness_*.a; do
  lesson=${lib##*/libsynclab_harness_}; lesson=${lesson%.a}
  [[ -f ${lib%.a}.archs ]] || fail "$lesson: no ${lib%.a}.archs"
  IFS=';' read -r -a archs < "${lib%.a}.archs"
  want=()
  for a in "${archs[@]}"; do
    case $a in
      *-real) want+=("sm_${a%-real}") ;;
      *-virtual) want+=("compute_${a%-virtual}") ;;
      *) want+=("sm_$a" "compute_$a") ;;
    esac
  done
  rm -rf "${work:?}"/*; (cd "$work" && ar x "$lib")
  for obj in "$work"/*.cu.o; do
    objcopy -O binary --only-section=.nv_fatbin "$obj" "$obj.fatbin"
    have=$(fatbin_archs "$obj.fatbin" | tr '\n' ' ')
    for w in "${want[@]}"; do
      [[ " $have" == *" $w "* ]] || fail "$lesson: ${obj##*/} lacks $w (has: $have)"
    done
    echo "$lesson ${obj##*/}: $have"
  done
  n=$((n + 1))
done
((n > 0)) || fail "no harness library in $dir"
# lesson 7's header needs sm_80: from there on only, and the rest from sm_75
if [[ -f $dir/libsynclab_harness_awbarrier.archs ]]; then
  grep -q '^75' "$dir/libsynclab_harness_awbarrier.archs" && fail "awbarrier built for sm_75"
fi
grep -q '^75-real;' "$dir/libsynclab_harness_barriers.archs" || fail "barriers lacks sm_75"
echo "ok: $n harness libraries hold every arch of their list"
