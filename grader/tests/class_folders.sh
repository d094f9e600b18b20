#!/usr/bin/env bash
# Class folders as instructors get them (issue 26): every folder is a row
# of grades.csv, named folders as an LMS names them are graded, refused ones
# say why, `notes` says what was found (a nested folder, another spelling,
# an empty folder), reports show no path of the grading machine, build and
# work files go unless --keep-work, shards merged keep every row, `check
# --submission` leaves build/grade alone and `locate` copies what
# Gradescope grades. Static verdicts only: the same with or without a GPU.
#   class_folders.sh <syncgrade> <source dir> <out dir>
set -euo pipefail
syncgrade=$1 src=$2 out=$3
rm -rf "$out"
class=$out/submissions
fails=0
fail() { echo "FAIL: $*"; fails=1; }
ok() { echo "ok: $*"; }

folder() { mkdir -p -- "$class/$1"; }
folder "Smith, Eve_12345_assignsubmission_file_"
cp "$src/starter/barriers.cu" "$class/Smith, Eve_12345_assignsubmission_file_/"
folder "José Núñez" # a compile error on line 26
sed '26s/;$/ int oops = ;/' "$src/solutions/barriers.cu" > "$class/José Núñez/barriers.cu"
folder "O'Brien (late)/hw1"
cp "$src/starter/barriers.cu" "$class/O'Brien (late)/hw1/"
folder caps
cp "$src/starter/barriers.cu" "$class/caps/Barriers.cu"
folder "empty/sub"
folder pdf
echo '%PDF' > "$class/pdf/report.pdf"
folder "=cmd"
cp "$src/starter/barriers.cu" "$class/=cmd/"
folder "-dash"
cp "$src/starter/barriers.cu" "$class/-dash/"
folder $'nl\nname'
folder 'x$(touch PWNED)y' # nvcc runs its steps through sh: this must stay a name
sed '26s/;$/ int oops = ;/' "$src/solutions/barriers.cu" > "$class/x\$(touch PWNED)y/barriers.cu"
folder 'Ann "A&B" <x>' # quotes and markup: CSV, JSON and XML escape them
cp "$src/starter/barriers.cu" "$class/Ann \"A&B\" <x>/"
folder .git # hidden: no student
nstudents=11

args=(--submissions "$class" --lesson barriers --seed 7 --jobs 2 --quiet)
graded() { "$syncgrade" class "$@" || [ $? -eq 1 ]; } # 1: refused folders, still graded
handed_in=$(find "$class" -type f -printf '%p %s\n' | sort | sha256sum)
graded "${args[@]}" --out "$out/whole"
# removing the build folders (and their link to the submission) left every file handed in
[ "$(find "$class" -type f -printf '%p %s\n' | sort | sha256sum)" = "$handed_in" ] &&
  ok "the submissions are as they were" || fail "grading changed the submissions"
csv=$out/whole/grades.csv

rows=$(($(wc -l < "$csv") - 1))
[ "$rows" = "$nstudents" ] && ok "$rows rows for $nstudents folders" ||
  fail "$rows rows for $nstudents folders"
row() { grep -F -- "$1" "$csv" | head -1; } # the row that holds $1
expect_note() { # <start of the row> <text its notes hold>
  local r
  r=$(row "$1")
  if [ -z "$r" ]; then fail "no row for $1"; return; fi
  if grep -qF -- "$2" <<<"$r"; then ok "$1: $2"; else fail "$1: no '$2' in: $r"; fi
}
expect_note "\"Smith, Eve_12345_assignsubmission_file_\"," "reports in students/Smith_Eve_12345_assignsubmission_file_~"
expect_note "José Núñez," "reports in students/"
expect_note "O'Brien (late)," "barriers.cu found in hw1/"
expect_note "caps," "Barriers.cu: did you mean barriers.cu?"
expect_note "empty," "empty folder"
expect_note "pdf," "no .cu file"
expect_note "'-dash," "not graded: leading '-'"
expect_note 'nl\x0aname,' "not graded: a newline in the name"
expect_note "'=cmd," ",0,50,7," # graded (TODO: 0 of 50), no formula in a spreadsheet
expect_note '"Ann ""A&B"" <x>",' "reports in students/Ann_A_B_x_~"
ann=$(echo "$out"/whole/students/Ann_A_B_x_~*)
grep -q '^student Ann "A&B" <x>$' "$ann/report.txt" && ok "the report names Ann \"A&B\" <x>" ||
  fail "Ann's report: $(head -1 "$ann/report.txt")"
if command -v xmllint >/dev/null; then
  xmllint --noout "$ann/junit.xml" && ok "junit.xml is well-formed" || fail "junit.xml"
fi
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$ann/results.json" &&
    ok "results.json is JSON" || fail "results.json"
fi
# a refused folder's row has 0 points and its report says why
grep -q "not graded: the folder's name: leading '-'" "$out"/whole/students/_dash~*/report.txt &&
  ok "the refused folder's report says why" || fail "no reason in -dash's report"
# the nested file was graded (TODO, not BUILD), the misspelt one was not
grep -q "tile_reverse  *TODO" "$out"/whole/students/O_Brien_late_~*/report.txt &&
  ok "hw1/barriers.cu graded" || fail "hw1/barriers.cu not graded"
grep -q "Barriers.cu: did you mean barriers.cu?" "$out/whole/students/caps/report.txt" &&
  ok "caps' report names Barriers.cu" || fail "caps' report does not name Barriers.cu"
# compiler messages relative to the submission, no path of this machine anywhere
grep -q "^ *barriers.cu(26): error" "$out"/whole/students/Jos_N_ez~*/report.txt &&
  ok "the compiler's line is barriers.cu(26)" || fail "no 'barriers.cu(26): error' line"
abs_class=$(cd "$class" && pwd -P) abs_src=$(cd "$src" && pwd -P) abs_out=$(cd "$out" && pwd -P)
if grep -rlF -e "$abs_class" -e "$abs_src" -e "$abs_out" "$out/whole" \
     --include=report.txt --include=grades.csv --include=results.json --include=junit.xml; then
  fail "absolute paths of the grading machine in the files above"
else
  ok "no absolute path in reports and grades.csv"
fi
if find "$out" "$PWD" "${TMPDIR:-/tmp}" -maxdepth 6 -name PWNED 2>/dev/null | grep -q .; then
  fail "a folder name ran a command"
else
  ok "a folder named x\$(touch PWNED)y ran nothing"
fi
# work files: gone without --keep-work, the reports stay
if find "$out/whole/students" -mindepth 2 -type d | grep -q .; then
  fail "build/work folders left without --keep-work: $(find "$out/whole/students" -mindepth 2 -type d | head -3)"
else
  ok "no build or work folder left"
fi
for f in report.txt results.json junit.xml; do
  [ -s "$out/whole/students/caps/$f" ] || fail "no students/caps/$f"
done
grep -qE "^disk: [0-9.]+ (kB|MB) while graded" "$out/whole/students/caps/report.txt" &&
  ok "report.txt records the disk" || fail "no disk line in report.txt"

# shards (with --keep-work): the merge has every row, refused ones included
for k in 1 2; do graded "${args[@]}" --out "$out/shard$k" --shard "$k/2" --keep-work; done
"$syncgrade" merge --out "$out/merged" --quiet "$out/shard1" "$out/shard2" || [ $? -eq 1 ]
cmp "$csv" "$out/merged/grades.csv" && ok "2 shards merged: grades.csv equals one run" ||
  { diff "$csv" "$out/merged/grades.csv"; fail "merged grades differ"; }
kept=$(find "$out/shard1/students" "$out/shard2/students" -path '*/barriers/build/runner' -o \
         -path '*/barriers/build/build.log' | wc -l)
[ "$kept" -gt 0 ] && ok "--keep-work keeps the build folders ($kept files)" ||
  fail "--keep-work kept no build folder"

# check --submission in a checkout: build/grade is not touched
grade_dir=$(dirname "$syncgrade")/grade
before=$( (find "$grade_dir" -printf '%p %T@\n' 2>/dev/null || true) | sort | sha256sum)
log=$("$syncgrade" check --lesson barriers --submission "$class/O'Brien (late)" 2>&1) || true
after=$( (find "$grade_dir" -printf '%p %T@\n' 2>/dev/null || true) | sort | sha256sum)
[ "$before" = "$after" ] && ok "check --submission left build/grade alone" ||
  fail "check --submission changed $grade_dir"
grep -q "^note: barriers.cu found in hw1/" <<<"$log" && ok "check says where the file was" ||
  fail "check did not say where: $log"

# an --out nvcc cannot build in: one line, exit 2, nothing graded
rc=0; "$syncgrade" class "${args[@]}" --out "$out/a,b" 2> "$out/comma.log" || rc=$?
[ "$rc" = 2 ] && grep -q "nvcc cannot build in a folder" "$out/comma.log" &&
  ok "--out with a comma refused in one line" || fail "--out a,b: exit $rc, $(cat "$out/comma.log")"

# locate (run_autograder): the lesson file's folder, flat, nothing else
mkdir -p "$out/stage"
"$syncgrade" locate --submission "$class/O'Brien (late)" --lesson barriers --out "$out/stage" \
  > "$out/locate.log"
[ "$(ls "$out/stage")" = barriers.cu ] && ok "locate copied hw1/barriers.cu" ||
  fail "locate copied: $(ls "$out/stage")"
exit $fails
