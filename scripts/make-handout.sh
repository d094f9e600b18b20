#!/usr/bin/env bash
# make handout OUT=dir: the repository an instructor gives students. The
# same lessons, starters, docs and grader, without what gives answers away
# or needs them: solutions/, the bug zoo (its mutants include the
# solutions), the grader's own tests (they grade solutions and zoo) and
# the instructors' scripts. It builds and `make check` works in it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: make-handout.sh <out dir>}
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $out/ in "$root"/*) echo "make handout: OUT must be outside the repository" >&2; exit 2 ;; esac
if [ -n "$(ls -A "$out")" ]; then
  echo "make handout: $out is not empty" >&2
  exit 2
fi

# Everything git knows of or would add (not build folders, not .deps),
# less what stays with the instructor.
is_instructors() {
  case $1 in
    solutions/* | lessons/*/zoo/* | grader/tests/* | .probe/* | .ci/* | grader/gradescope/* | \
    scripts/make-demo-class.sh | scripts/make-handout.sh | docs/instructors.md) return 0 ;;
  esac
  return 1
}
n=0
while IFS= read -r -d '' f; do
  [ -e "$root/$f" ] || continue   # deleted in the working tree
  is_instructors "$f" && continue
  mkdir -p "$out/$(dirname "$f")"
  cp -p "$root/$f" "$out/$f"
  n=$((n + 1))
done < <(cd "$root" && git ls-files -z --cached --others --exclude-standard)

# What a student's copy must not contain: say so loudly if it does.
if grep -rlE --include='*.cu' --include='*.c' --include='*.h' --include='*.cuh' '#include "(\.\./)+solutions/' "$out" >/dev/null 2>&1; then
  echo "make handout: a file of the handout includes a solution:" >&2
  grep -rlE --include='*.cu' --include='*.c' --include='*.h' --include='*.cuh' '#include "(\.\./)+solutions/' "$out" >&2
  exit 1
fi
echo "handout: $n files in $out (no solutions/, no bug zoo, no grader tests)"
