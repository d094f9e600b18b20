#!/usr/bin/env bash
# make watch under tmux: the table is drawn, an edit of the file redraws it
# (TODO -> BUILD on a syntax error, back to TODO when undone) and Ctrl-C
# stops it.   watch_tmux.sh <source dir> <build dir>
set -uo pipefail
root=$1
build=$2
command -v tmux >/dev/null || { echo "no tmux: skipped"; exit 77; }
command -v inotifywait >/dev/null || { echo "no inotifywait: skipped"; exit 77; }
tmp=$(mktemp -d)
sock=synclab-watch-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
cp "$root/starter/barriers.cu" "$tmp/"
cp "$tmp/barriers.cu" "$tmp/original.cu"
tmux -L "$sock" new-session -d -x 160 -y 50 \
  "SYNCLAB_OUT='$tmp/grade' make -C '$root' --no-print-directory watch LESSON=barriers SUBMISSION='$tmp' BUILD='$build'"
tmux -L "$sock" set-option -g remain-on-exit on >/dev/null   # the last screen stays readable
screen() { tmux -L "$sock" capture-pane -p -J; }   # the visible screen: what a redraw shows
wait_for() {   # pattern, seconds
  for ((i = 0; i < $2 * 5; i++)); do
    screen | grep -qE "$1" && return 0
    sleep 0.2
  done
  echo "FAIL: waited $2 s for /$1/; the screen:"; screen; exit 1
}
# after a check, "checked at" comes last; then inotifywait needs a moment to
# set up its watch, or an edit made at once goes unseen
settled() { wait_for "$1" "$2"; wait_for 'checked at' "$2"; sleep 1.5; }
settled 'tile_reverse +TODO' 240
echo 'this is not C++' >> "$tmp/barriers.cu"
settled 'tile_reverse +BUILD' 240
screen | grep -qE 'tile_reverse +TODO' && { echo "FAIL: the old table was not cleared"; screen; exit 1; }
cp "$tmp/original.cu" "$tmp/barriers.cu.new" && mv "$tmp/barriers.cu.new" "$tmp/barriers.cu"
settled 'tile_reverse +TODO' 240
tmux -L "$sock" send-keys C-c
for ((i = 0; i < 25; i++)); do
  [ "$(tmux -L "$sock" display-message -p '#{pane_dead}')" = 1 ] && break
  sleep 0.2
done
[ "$(tmux -L "$sock" display-message -p '#{pane_dead}')" = 1 ] ||
  { echo "FAIL: make watch still runs after Ctrl-C"; screen; exit 1; }
screen | grep -qE 'make: \*\*\*' && { echo "FAIL: make error after Ctrl-C"; screen; exit 1; }
pgrep -f "inotifywait.*$tmp" >/dev/null && { echo "FAIL: inotifywait still runs"; exit 1; }
echo "make watch: TODO -> BUILD -> TODO on saves, stopped by Ctrl-C"
