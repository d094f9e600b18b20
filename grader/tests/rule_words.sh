#!/usr/bin/env bash
# What a RULE or SYNC verdict tells a student is words (issue 28): no
# mangled C++ name (_Z10block_votePKiPiii) and none of the rule pattern
# language (atom.|red., mbarrier.arrive&mbarrier.try_wait, atom+.acq_rel,
# op@file) outside the `backquoted PTX`, which reports move to a ptx: line.
#   rule_words.sh DIR...   (every results.json under them; exit 1 on any)
set -uo pipefail
bad=0 seen=0
while IFS= read -r -d '' json; do
  # cJSON_Print: "verdict" then "detail", one line each
  while IFS= read -r detail; do
    seen=$((seen + 1))
    # shellcheck disable=SC2016 # backquotes, literally
    words=$(printf '%s' "$detail" | sed 's/`[^`]*`//g')
    if printf '%s' "$words" | grep -qE '(^|[^A-Za-z0-9_])_Z[0-9A-Z]'; then
      echo "FAIL: a mangled name in $json: $words"; bad=1
    fi
    if printf '%s' "$words" | grep -qE "[a-z_]+\.[a-z0-9_.]*([&|@]|\+\.)|no instruction matching"; then
      echo "FAIL: rule pattern syntax in $json: $words"; bad=1
    fi
  done < <(grep -A1 -E '"verdict":[[:space:]]*"(RULE|SYNC)"' "$json" | sed -n 's/^[[:space:]]*"detail":[[:space:]]*//p')
done < <(find "$@" -name results.json -print0)
echo "rule words: $seen RULE/SYNC details read"
exit $bad
