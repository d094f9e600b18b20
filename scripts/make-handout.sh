#!/usr/bin/env bash
# make handout OUT=dir: the repository an instructor gives students. The
# same lessons, starters, docs and grader, without what gives answers away
# or needs them: solutions/, the bug zoo (its mutants include the
# solutions), the grader's own tests (they grade solutions and zoo), the
# instructors' docs and scripts, HACKING.md, and the instructor-only
# passages of the Markdown files (<!-- instructors --> ... <!-- /instructors -->).
#
# The files are HEAD's (git archive), never the working tree's: an
# instructor's solved starter/ or an edited doc is not handed out unless
# committed, and untracked files never go. What differs from HEAD is listed
# on stderr. The result must pass `syncgrade lint --handout`; it builds and
# `make check` works in it.
#   make-handout.sh <out dir> [syncgrade]   (syncgrade: build/syncgrade)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: make-handout.sh <out dir> [syncgrade]}
syncgrade=${2:-$root/build/syncgrade}
[ -x "$syncgrade" ] || { echo "make handout: no $syncgrade (make grader first)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $out/ in "$root"/*) echo "make handout: OUT must be outside the repository" >&2; exit 2 ;; esac
if [ -n "$(ls -A "$out")" ]; then
  echo "make handout: $out is not empty" >&2
  exit 2
fi
git -C "$root" rev-parse --verify -q HEAD >/dev/null ||
  { echo "make handout: $root has no commit to hand out" >&2; exit 2; }

# What stays with the instructor.
is_instructors() {
  case $1 in
    solutions/* | lessons/*/zoo/* | grader/tests/* | .probe/* | .ci/* | grader/gradescope/* | \
    docs/instructors.md | HACKING.md | scripts/slurm/* | \
    scripts/make-demo-class.sh | scripts/paste-solution.sh | scripts/make-handout.sh | \
    scripts/make-gradescope.sh | \
    scripts/bench-class.sh | scripts/new-lesson.sh | scripts/ctest-resume.sh) return 0 ;;
  esac
  return 1
}
shipped=()
while IFS= read -r -d '' f; do
  is_instructors "$f" || shipped+=("$f")
done < <(git -C "$root" ls-tree -r -z --name-only HEAD)
git -C "$root" archive --format=tar HEAD -- "${shipped[@]}" | tar -x -C "$out"

# The working tree against HEAD, for the shipped files: say what is not
# handed out as it is on disk.
changed=$(cd "$root" && git diff --name-status HEAD -- "${shipped[@]}")
if [ -n "$changed" ]; then
  {
    echo "make handout: WARNING: these files differ from HEAD in your working tree; the handout"
    echo "has HEAD's version (a solved starter/ stays with you; commit a change to ship it):"
    echo "$changed" | sed 's/^/  /'
  } >&2
fi
untracked=$(cd "$root" && git ls-files --others --exclude-standard)
if [ -n "$untracked" ]; then
  echo "make handout: not shipped, untracked (commit them to ship them):" >&2
  echo "$untracked" | sed 's/^/  /' >&2
fi

# The instructor-only passages of the Markdown files: whole lines (the
# markers alone on their lines) or within lines (syncgrade lint checks in
# the repository that each is closed).
find "$out" -name '*.md' -type f -print0 |
  xargs -0 perl -0777 -pi -e 's/^<!-- instructors -->\n.*?^<!-- \/instructors -->\n//gms;
    s/<!-- instructors -->.*?<!-- \/instructors -->//gs'

# What a student's copy must not contain: say so loudly if it does.
if grep -rlE --include='*.cu' --include='*.c' --include='*.h' --include='*.cuh' '#include "(\.\./)+solutions/' "$out" >/dev/null 2>&1; then
  echo "make handout: a file of the handout includes a solution:" >&2
  grep -rlE --include='*.cu' --include='*.c' --include='*.h' --include='*.cuh' '#include "(\.\./)+solutions/' "$out" >&2
  exit 1
fi
if ! lint=$("$syncgrade" lint --handout --root "$out"); then
  echo "make handout: the handout in $out is not whole (fix the repository, or mark the" >&2
  echo "passage <!-- instructors --> ... <!-- /instructors -->):" >&2
  echo "$lint" >&2
  exit 1
fi
echo "handout: ${#shipped[@]} files of HEAD $(git -C "$root" rev-parse --short HEAD) in $out (no solutions/, no bug zoo, no grader tests; lint clean)"
