#!/usr/bin/env bash
# The grader's folders are pipeline stages (HACKING.md), in the order of
# SYNCLAB_STAGES in grader/CMakeLists.txt: a module may include headers of
# its own stage and of earlier ones, never of a later one. Fails naming
# each include that runs the wrong way, or a header found in no stage.
#   stage_includes.sh <source root>
set -euo pipefail
root=$1
stages=$(sed -n 's/^set(SYNCLAB_STAGES \(.*\))$/\1/p' "$root/grader/CMakeLists.txt")
[ -n "$stages" ] || { echo "no set(SYNCLAB_STAGES ...) in grader/CMakeLists.txt"; exit 1; }
declare -A rank where
i=0
for s in $stages; do
  rank[$s]=$i; i=$((i + 1))
  [ -d "$root/grader/$s" ] || { echo "stage folder grader/$s is missing"; exit 1; }
  for h in "$root/grader/$s"/*.h; do where[$(basename "$h")]=$s; done
done
bad=0
for s in $stages; do
  for f in "$root/grader/$s"/*.[ch]; do
    while read -r inc; do
      t=${where[$inc]:-}
      [ -n "$t" ] || continue   # system, generated or lesson headers
      if [ "${rank[$t]}" -gt "${rank[$s]}" ]; then
        echo "grader/$s/$(basename "$f") includes $inc from the later stage '$t'"
        bad=1
      fi
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
  done
done
# every C file of the grader's library lives in a stage folder
for f in "$root"/grader/*/*.c; do
  d=$(basename "$(dirname "$f")")
  case " $stages cli runner tests gradescope " in *" $d "*) ;; *) echo "$f: not in a stage folder"; bad=1 ;; esac
done
[ "$bad" -eq 0 ] && echo "stages: $stages; no include runs to a later stage"
exit "$bad"
