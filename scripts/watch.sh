#!/usr/bin/env bash
# make watch LESSON=x: checks the lesson, then again each time its file is
# saved (inotify: editors that write in place and those that rename a new
# file over the old one), redrawing the table. Ctrl-C stops it.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
grader=${BUILD:-$root/build}/syncgrade
dir=${SUBMISSION:-$root/starter}
dir=$(cd "$dir" && pwd) || exit 2
file=$dir/$LESSON.cu
# the file as the student names it: relative to where make was run (a
# folder outside it keeps its absolute path)
case $file in "$PWD"/*) shown=${file#"$PWD"/} ;; *) shown=$file ;; esac
command -v inotifywait >/dev/null || { echo "make watch needs inotifywait (inotify-tools)" >&2; exit 2; }
trap 'echo; exit 0' INT TERM

check() {
  [ -t 1 ] && printf '\033[H\033[2J'   # clear the screen for the new table
  echo "watching $shown: save it to check again, Ctrl-C to stop"
  "$grader" check --lesson "$LESSON" --submission "$dir" ${SEED:+--seed "$SEED"} \
    ${SYNCLAB_OUT:+--out "$SYNCLAB_OUT"}
  echo "checked at $(date +%T)"
}

check
while true; do
  # the folder, not the file: a rename over the file replaces the inode
  inotifywait -qq -e close_write -e moved_to -e create --include "/$LESSON\\.cu\$" "$dir" ||
    exit 0
  sleep 0.2   # let an editor finish its burst of writes
  check
done
