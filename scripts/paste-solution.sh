#!/usr/bin/env bash
# A bug-zoo file as a student would hand it in: the solution it includes
# (#include "../../../solutions/<lesson>.cu") pasted in its place, so the
# file builds from any folder (make-demo-class.sh, the class tests).
#   scripts/paste-solution.sh lessons/<lesson>/zoo/<file>.cu > <lesson>.cu
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
awk -v sol="$root/solutions" '
  match($0, /^#include "(\.\.\/)+solutions\/[a-z_0-9]+\.cu"/) {
    f = $0; sub(/^#include "(\.\.\/)+solutions\//, "", f); sub(/".*/, "", f)
    while ((getline l < (sol "/" f)) > 0) print l
    close(sol "/" f); next
  }
  { print }' "${1:?usage: paste-solution.sh <zoo file>}"
