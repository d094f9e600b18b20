#!/usr/bin/env bash
# Every "docs/<file>.md#<anchor>" that a lesson's suite (.doc, hints, hint
# ladders) points students to names a heading of that file, slugged as
# GitHub does (lower case, punctuation dropped, spaces to hyphens).
#   doc_anchors.sh <source dir>
set -uo pipefail
root=$1
cd "$root" || exit 2
bad=0
checked=0
while IFS= read -r ref; do
  file=${ref%%#*}
  anchor=${ref#*#}
  checked=$((checked + 1))
  if [ ! -f "$file" ]; then
    echo "missing file: $ref"; bad=1; continue
  fi
  if ! grep -E '^#{1,6} ' "$file" | sed -E 's/^#+ +//' | tr '[:upper:]' '[:lower:]' |
       sed -E 's/[^a-z0-9 _-]//g; s/ /-/g' | grep -qx -- "$anchor"; then
    echo "no heading for: $ref"; bad=1
  fi
done < <(grep -ohE 'docs/[0-9a-z_-]+\.md#[a-z0-9_-]+' lessons/*/suite.c $(ls grader/*/*.c | grep -v '^grader/tests/') | sort -u)
[ "$bad" -eq 0 ] && echo "doc anchors: $checked links, every one names a heading"
exit "$bad"
