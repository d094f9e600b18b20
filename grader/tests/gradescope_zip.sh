#!/usr/bin/env bash
# make gradescope: the autograder zip from HEAD (not the working tree) with
# setup.sh and run_autograder at the top, autograder.env with the settings,
# no build/, .deps/, solutions/, bug zoo or grader tests; unpacked into a
# clean folder that holds a stale build/ (a cache of another path), its
# setup.sh configures and builds syncgrade (SYNCLAB_SETUP_OFFLINE=1: no apt,
# no useradd; SYNCLAB_SETUP_TARGETS=syncgrade: quick). Moved to another
# path, that syncgrade refuses to grade, naming the source tree it lacks.
# No GPU needed.
#   gradescope_zip.sh <source dir> [cmake args for the zip's build]
set -uo pipefail
src=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/out" ] && tail -n 40 "$tmp/out"; exit 1; }

# The source tree's files as they are on disk (tracked and new), committed anew, then
# a build folder, .deps and an uncommitted edit that must not go.
repo=$tmp/repo
mkdir "$repo"
(cd "$src" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf -) | tar -C "$repo" -xf - ||
  fail "cannot copy the source tree"
git() { command git -C "$repo" -c user.name=t -c user.email=t@t -c commit.gpgsign=false "$@"; }
git init -q && git add -A && git commit -qm tree || fail "cannot commit the copy"
mkdir -p "$repo/build" "$repo/.deps/usr"
echo 'CMAKE_HOME_DIRECTORY:INTERNAL=/elsewhere' >"$repo/build/CMakeCache.txt"
echo '/* SOLVED */' >>"$repo/starter/barriers.cu"

zip=$tmp/autograder.zip
make -C "$repo" --no-print-directory gradescope OUT="$zip" NO_GPU=error \
  GRADE_ARGS="--visibility after_published" >"$tmp/out" 2>&1 || fail "make gradescope failed"
grep -qE '^  starter/barriers.cu$' "$tmp/out" || fail "no warning naming the edited starter"
u=$tmp/unzipped
mkdir "$u" && (cd "$u" && cmake -E tar xf "$zip") || fail "cannot unzip"
for f in setup.sh run_autograder; do
  [ -x "$u/$f" ] || fail "$f is not at the top of the zip, executable"
done
for f in build .deps solutions grader/tests; do
  [ -e "$u/$f" ] && fail "the zip has $f"
done
ls "$u"/lessons/*/zoo >/dev/null 2>&1 && fail "the zip has a bug zoo"
grep -q SOLVED "$u/starter/barriers.cu" && fail "the zip has the working tree's starter"
grep -qx 'SYNCLAB_GRADESCOPE_NO_GPU=error' "$u/autograder.env" &&
  grep -qx 'SYNCLAB_GRADE_ARGS=--visibility after_published' "$u/autograder.env" ||
  fail "autograder.env lacks the settings"

# A zip made by hand from a built checkout: its build/ is another path's.
mkdir "$u/build"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=/elsewhere\nCMAKE_CACHEFILE_DIR:INTERNAL=/elsewhere/build\n' \
  >"$u/build/CMakeCache.txt"
SYNCLAB_SOURCE=$u SYNCLAB_SETUP_OFFLINE=1 SYNCLAB_SETUP_TARGETS=syncgrade \
  SYNCLAB_SETUP_CMAKE_ARGS="$*" bash "$u/setup.sh" >"$tmp/out" 2>&1 || fail "setup.sh failed"
grep -q 'removing a build/ made elsewhere' "$tmp/out" || fail "setup.sh did not say it removed build/"
"$u/build/syncgrade" list >"$tmp/out" 2>&1 && grep -q '^barriers: ' "$tmp/out" ||
  fail "the zip's syncgrade does not list the lessons"
# That build moved elsewhere, as on a node where the checkout has another
# path: syncgrade names the baked path that is missing, exit 2, no grading.
mv "$u" "$u.moved"
"$u.moved/build/syncgrade" grade --lesson barriers --submission "$u.moved/starter" \
  --out "$tmp/moved" >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "syncgrade of a moved tree did not exit 2"
grep -qx "syncgrade: ERROR: the source tree $u is missing on this machine (baked into syncgrade when it was configured): .*No student was graded." "$tmp/out" ||
  fail "no ERROR line naming the moved source tree"
[ -e "$tmp/moved" ] && fail "a grading with a missing path wrote results"
echo "gradescope zip: HEAD's files, setup.sh and run_autograder at the top, settings in autograder.env, setup.sh builds syncgrade over a stale build/"
