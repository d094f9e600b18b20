#!/usr/bin/env bash
# The grader's and the lessons' own C and CUDA sources follow .clang-format
# (clang-format 14, Debian 12's). Student-facing code (starter/, solutions/,
# the bug zoo) is left as written: zoo files test particular spellings.
# Prints each file that differs and how to fix it. Without clang-format the
# check skips (77), except where SYNCLAB_REQUIRE_FORMAT=1 (CI) makes that a
# failure.
#   format_check.sh <source root>
set -uo pipefail
root=$1
cd "$root" || exit 2
cf=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$cf" ]; then
  echo "clang-format not found"
  [ "${SYNCLAB_REQUIRE_FORMAT:-0}" = 1 ] && exit 1
  exit 77
fi
version=$("$cf" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$version" != 14 ]; then
  echo "clang-format $version here; the style is checked with version 14"
  [ "${SYNCLAB_REQUIRE_FORMAT:-0}" = 1 ] && exit 1
  exit 77
fi
bad=0 n=0
for f in grader/*/*.c grader/*/*.h grader/runner/*.cu lessons/*/*.c lessons/*/*.h lessons/*/*.cu; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  if ! "$cf" --dry-run --Werror "$f" > /dev/null 2>&1; then
    echo "not formatted: $f (clang-format -i $f)"
    bad=1
  fi
done
[ "$bad" -eq 0 ] && echo "format: $n files follow .clang-format"
exit "$bad"
