#!/usr/bin/env bash
# scripts/new-lesson.sh in a copy of the source tree: the skeleton lesson
# builds (the grader and its harness only), lints clean, its starter gets
# TODO without a GPU, and its solution passes the static checks (PASS with
# a GPU, SKIP without). Bad names and a second run are refused.
#   new_lesson.sh <source dir> [cmake args for the copy's build]
set -uo pipefail
src=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/out" ] && tail -40 "$tmp/out"; exit 1; }
root=$tmp/src
mkdir -p "$root"

# The tree as git sees it (tracked and new files, no build folders), else
# all of it but the usual build folders.
if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard |
     while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
     tar --null -T - -cf -) | tar -C "$root" -xf - || fail "cannot copy the tree"
else
  tar -C "$src" --exclude=./.git --exclude='./build*' --exclude=./.deps -cf - . |
    tar -C "$root" -xf - || fail "cannot copy the tree"
fi

"$root/scripts/new-lesson.sh" 'Bad-Name' >"$tmp/out" 2>&1 && fail "a bad lesson name was accepted"
grep -q "lesson name 'Bad-Name'" "$tmp/out" || fail "a bad name is not explained"
"$root/scripts/new-lesson.sh" barriers >"$tmp/out" 2>&1 && fail "an existing lesson was overwritten"
grep -q "lessons/barriers exists already" "$tmp/out" || fail "an existing lesson is not named"
"$root/scripts/new-lesson.sh" --title "Histograms" histogram >"$tmp/out" 2>&1 ||
  fail "new-lesson.sh histogram failed"
"$root/scripts/new-lesson.sh" histogram >"$tmp/out" 2>&1 && fail "a second run was accepted"
for f in lessons/histogram/histogram.h lessons/histogram/exercises.h lessons/histogram/suite.c \
         lessons/histogram/harness.cu lessons/histogram/reference.c lessons/histogram/reference.h \
         starter/histogram.cu solutions/histogram.cu docs/08-histogram.md; do
  [ -f "$root/$f" ] || fail "no $f"
done
[ -d "$root/lessons/histogram/zoo" ] || fail "no zoo folder"
grep -qx 'synclab_add_lesson(histogram)' "$root/CMakeLists.txt" || fail "not registered in CMake"

# Only what grading the lesson needs: syncgrade and the lesson's harness.
build=$tmp/build
cmake -S "$root" -B "$build" "$@" >"$tmp/out" 2>&1 || fail "configure"
cmake --build "$build" -j "$(nproc)" --target syncgrade synclab_harness_histogram \
  >"$tmp/out" 2>&1 || fail "the skeleton does not build"
sg=$build/syncgrade

"$sg" lint --root "$root" >"$tmp/out" 2>&1 || fail "the skeleton is not lint-clean"
"$sg" list >"$tmp/out" 2>&1 || fail "syncgrade list"
grep -q '^histogram: Histograms (docs/08-histogram.md)' "$tmp/out" || fail "histogram is not listed"
"$sg" expect --lesson histogram --source "$root/starter/histogram.cu" --out "$tmp/expect" \
  --all TODO >"$tmp/out" 2>&1 || fail "the starter is not TODO"
grep -qE 'histogram_copy +TODO' "$tmp/out" || fail "no TODO line for histogram_copy"
"$sg" expect --lesson histogram --source "$root/solutions/histogram.cu" --out "$tmp/expect" \
  --all PASS >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || fail "the solution: exit $rc (PASS, or SKIP without a GPU)"
echo "new-lesson: the skeleton builds, lints clean, its starter is TODO (solution: exit $rc)"
