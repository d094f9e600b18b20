#!/usr/bin/env bash
# make gradescope OUT=autograder.zip: the zip to upload as Gradescope's
# autograder. HEAD's files (git archive: never build/, .deps/ or anything
# untracked), with grader/gradescope/setup.sh and run_autograder at the top,
# without solutions/, the bug zoo and the grader's tests (nothing there
# needs them; setup.sh would delete them anyway). Settings for
# run_autograder go into autograder.env at the top:
#   NO_GPU=static|error   what a run without a GPU shows (default static:
#                         the static checks' result, see docs/instructors.md)
#   GRADE_ARGS="..."      more syncgrade grade options (--visibility ...)
#   POINTS=file           grading/points.ini of the zip (default: HEAD's)
#   make-gradescope.sh <zip>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
zip_out=${1:?usage: make-gradescope.sh <zip> (NO_GPU, GRADE_ARGS, POINTS from the environment)}
case $zip_out in *.zip) ;; *) echo "make gradescope: OUT must end in .zip" >&2; exit 2 ;; esac
case ${NO_GPU:-static} in static | error) ;; *) echo "make gradescope: NO_GPU=static or error" >&2; exit 2 ;; esac
case ${GRADE_ARGS:-} in *[\"\$\`\\]*) echo "make gradescope: GRADE_ARGS may not hold quotes, \$, \` or \\" >&2; exit 2 ;; esac
[ -z "${POINTS:-}" ] || [ -f "$POINTS" ] || { echo "make gradescope: no points file $POINTS" >&2; exit 2; }
zip_out=$(cd "$(dirname "$zip_out")" && pwd)/$(basename "$zip_out")

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
files=()
while IFS= read -r -d '' f; do
  case $f in solutions/* | lessons/*/zoo/* | grader/tests/* | .probe/* | .ci/*) continue ;; esac
  files+=("$f")
done < <(git -C "$root" ls-tree -r -z --name-only HEAD)
git -C "$root" archive --format=tar HEAD -- "${files[@]}" | tar -x -C "$stage"
cp -p "$stage/grader/gradescope/setup.sh" "$stage/grader/gradescope/run_autograder" "$stage/"
[ -z "${POINTS:-}" ] || cp "$POINTS" "$stage/grading/points.ini"
{
  echo "# run_autograder's settings (make gradescope)"
  echo "SYNCLAB_GRADESCOPE_NO_GPU=${NO_GPU:-static}"
  echo "SYNCLAB_GRADE_ARGS=${GRADE_ARGS:-}"
} >"$stage/autograder.env"
changed=$(cd "$root" && git diff --name-only HEAD -- "${files[@]}")
if [ -n "$changed" ]; then
  echo "make gradescope: WARNING: these files differ from HEAD in your working tree; the zip has" >&2
  echo "HEAD's version (commit a change to ship it):" >&2
  echo "$changed" | sed 's/^/  /' >&2
fi
rm -f "$zip_out"
# cmake (which the build needs anyway) writes the zip: no zip package needed
(cd "$stage" && cmake -E tar cf "$zip_out" --format=zip -- $(ls -A))
echo "gradescope: $zip_out from HEAD $(git -C "$root" rev-parse --short HEAD) ($(du -h "$zip_out" | cut -f1); setup.sh and run_autograder at the top; NO_GPU=${NO_GPU:-static})"
