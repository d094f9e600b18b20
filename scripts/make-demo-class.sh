#!/usr/bin/env bash
# Makes a demo class for `make grade SUBMISSIONS=`: N student folders, each a
# copy of solutions/ in which some lessons carry one bug-zoo mutant (two
# mutants of two lessons per buggy student, the lessons taken in turn, so
# that even a small class has mutants of every lesson). Every file is
# made self-contained (a mutant's #include of the solution is replaced by the
# solution's text) so it passes the submission policy like a student's file.
#   scripts/make-demo-class.sh [--distinct] <out dir> [students=20] [every=2]
# every=2: every second student is a clean copy of the solutions.
# --distinct: every file ends with a comment naming its student, so no two
# files of the class are byte-identical (the grader's dedup lever, which
# judges identical files once, then finds nothing to share: what the other
# levers do can be measured apart from it). The verdicts are the same.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
distinct=0
if [ "${1:-}" = --distinct ]; then distinct=1; shift; fi
out=${1:?usage: make-demo-class.sh [--distinct] <out dir> [students] [every]}
students=${2:-20}
every=${3:-2}
mapfile -t lessons < <(for z in "$root"/lessons/*/zoo; do basename "$(dirname "$z")"; done | sort)

# A mutant with the solution's text where it includes it.
inline_mutant() { "$root/scripts/paste-solution.sh" "$1"; }

make_distinct() {
  (( distinct )) || return 0
  for f in "$1"/*.cu; do printf '// demo class: %s\n' "$(basename "$1")" >> "$f"; done
}

rm -rf "$out"
m=0
for ((k = 0; k < students; k++)); do
  dir=$out/$(printf 'student%02d' "$k")
  mkdir -p "$dir"
  cp "$root"/solutions/*.cu "$dir"/
  if (( k % every == every - 1 )); then
    echo "$(basename "$dir"): solutions"
    make_distinct "$dir"
    continue
  fi
  # two mutants of two lessons per buggy student: lessons 2m and 2m+1 (in
  # turn), and in each a file further along its zoo every round
  for pick in 0 1; do
    lesson=${lessons[$(( (2 * m + pick) % ${#lessons[@]} ))]}
    mapfile -t zoo < <(ls "$root/lessons/$lesson/zoo/"*.cu | sort)
    src=${zoo[$(( (m * 5 + pick * 3) % ${#zoo[@]} ))]}
    inline_mutant "$src" > "$dir/$lesson.cu"
    echo "$(basename "$dir"): $lesson <- $(basename "$src" .cu) ($(sed -n 's|^// EXPECT ||p' "$src" | tr '\n' ' '))"
  done
  m=$((m + 1))
  make_distinct "$dir"
done
