#!/usr/bin/env bash
# make handout: no solutions, no zoo, no grader tests; HEAD's files, not
# the working tree's (a solved starter stays with the instructor, and the
# handout says so), no untracked file; syncgrade lint --handout is clean,
# and a shipped doc that links what the handout lacks stops it. The
# handout builds (the grader and one lesson) and make check works in it.
# No GPU needed. It works on a copy of the source tree committed in a
# scratch repository, so the real one is never touched.
#   handout.sh <source dir> <syncgrade> [cmake args for the handout's build]
set -uo pipefail
src=$1
syncgrade=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/out" ] && cat "$tmp/out"; exit 1; }

# The source tree's files as they are on disk (tracked and new), committed anew.
repo=$tmp/repo
mkdir "$repo"
(cd "$src" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf -) | tar -C "$repo" -xf - ||
  fail "cannot copy the source tree"
git() { command git -C "$repo" -c user.name=t -c user.email=t@t -c commit.gpgsign=false "$@"; }
git init -q && git add -A && git commit -qm tree || fail "cannot commit the copy"

# An instructor who solved a starter, edited a doc and left a file lying.
head_starter=$(git show HEAD:starter/barriers.cu)
echo '/* SOLVED: the answer to tile_reverse */' >>"$repo/starter/barriers.cu"
echo 'a note' >>"$repo/docs/students.md"
echo 'my answers' >"$repo/starter/answers.txt"

h=$tmp/handout
"$repo/scripts/make-handout.sh" "$h" "$syncgrade" >"$tmp/out" 2>&1 || fail "make handout failed"
grep -qE 'WARNING: these files differ from HEAD' "$tmp/out" || fail "no warning for the working tree"
grep -qE '^  M[[:space:]]+starter/barriers.cu$' "$tmp/out" || fail "the warning does not name starter/barriers.cu"
grep -qE '^  M[[:space:]]+docs/students.md$' "$tmp/out" || fail "the warning does not name docs/students.md"
grep -qE 'untracked' "$tmp/out" && grep -qE '^  starter/answers.txt$' "$tmp/out" ||
  fail "the untracked file is not named"
grep -qE 'lint clean' "$tmp/out" || fail "make handout does not say its lint was clean"
[ "$(cat "$h/starter/barriers.cu")" = "$head_starter" ] || fail "the handout has the working tree's starter"
grep -q SOLVED -r "$h" && fail "the solved starter was handed out"
grep -q 'a note' "$h/docs/students.md" && fail "the working tree's doc was handed out"
[ -e "$h/starter/answers.txt" ] && fail "the untracked file was handed out"
for f in starter/barriers.cu Makefile docs/01-barriers.md scripts/student.sh; do
  [ -f "$h/$f" ] || fail "the handout lacks $f"
done
[ -e "$h/solutions" ] && fail "the handout has solutions/"
ls "$h"/lessons/*/zoo >/dev/null 2>&1 && fail "the handout has a bug zoo"
[ -e "$h/grader/tests" ] && fail "the handout has the grader's tests"
for f in docs/instructors.md HACKING.md scripts/slurm scripts/bench-class.sh grader/gradescope; do
  [ -e "$h/$f" ] && fail "the handout has $f"
done
grep -rqE 'solutions/' "$h/starter" && fail "a starter refers to solutions/"
grep -rq --include='*.md' '<!-- /\?instructors -->' "$h" && fail "an instructor-only passage is left"
grep -q 'scan to start from' "$h/docs/04-scan.md" && fail "04-scan.md offers a zoo file the handout lacks"
"$syncgrade" lint --handout --root "$h" >"$tmp/out" 2>&1 || fail "lint --handout on the handout"
"$syncgrade" lint --root "$h" >"$tmp/out" 2>&1 && fail "lint as a repository passed a tree without its zoo"

# A committed doc that links what the handout lacks: make handout stops,
# naming the line.
printf '\nSee [the guide](instructors.md).\n' >>"$repo/docs/students.md"
git commit -qam 'a link to an instructors-only page'
"$repo/scripts/make-handout.sh" "$tmp/bad" "$syncgrade" >"$tmp/out" 2>&1 && fail "make handout passed a dead link"
grep -qE 'not whole' "$tmp/out" && grep -qE '^docs/students.md:[0-9]+: instructors.md: no such file' "$tmp/out" ||
  fail "make handout does not name the dead link"

make -C "$h" --no-print-directory check LESSON=barriers BUILD="$tmp/build" CMAKE_ARGS="$*" \
  >"$tmp/out" 2>&1 && fail "make check on the handout's starter exited 0"
grep -qE 'tile_reverse +TODO' "$tmp/out" || fail "no TODO table from the handout"
grep -qE 'make: \*\*\*|srunner|:[0-9]+:F:' "$tmp/out" && fail "chatter in the handout's check"
echo "handout: HEAD's files (working tree named, not shipped), lint --handout clean, builds, make check LESSON=barriers gives the TODO table"
