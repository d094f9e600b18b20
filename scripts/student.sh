#!/usr/bin/env bash
# What `make check|hint|progress|grade|run|watch|handout` run: build what the
# command needs without a word, then the grader, whose table and
# explanations are all that prints. The exit status is the grader's.
# Settings come from the environment, as the Makefile passes them:
#   LESSON EXERCISE SUBMISSION SUBMISSIONS SEED N BLOCK INPUT TOOL OUT
#   CLASS_OUT GRADE_JOBS POINTS GRADE_ARGS BUILD JOBS
# SYNCLAB_OUT=dir: results and hint steps there, not in build/grade (tests).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$root/$BUILD ;; esac
grader=$BUILD/syncgrade
goal=${1:?usage: student.sh check|hint|progress|grade|run|watch|handout}

# Tools unpacked into .deps (bubblewrap, inotifywait) work from there too.
if [ -d "$root/.deps/usr/bin" ]; then
  export PATH=$PATH:$root/.deps/usr/bin
  export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$root/.deps/usr/lib/x86_64-linux-gnu
fi

# LESSON given and one of the lessons (a typo is no build failure).
need_lesson() {
  if [ -z "${LESSON:-}" ]; then
    echo "usage: make $goal LESSON=<name>$1" >&2
    echo "lessons: $(lessons | tr '\n' ' ')" >&2
    exit 2
  fi
  if ! lessons | grep -qxF -- "$LESSON"; then
    echo "make $goal: no lesson named '$LESSON'" >&2
    echo "lessons: $(lessons | tr '\n' ' ')" >&2
    exit 2
  fi
}
lessons() { "$grader" list 2>/dev/null | sed -n 's/^\([a-z0-9_]*\): .*/\1/p'; }
# A build that has work to do for minutes says so first: silence that
# long reads as a hang.
announced=
announce() {
  [ -n "$announced" ] && return
  if [ ! -x "$grader" ]; then
    echo "first build: compiling the grader and the lesson harnesses, a few minutes..." >&2
    announced=1
    return
  fi
  local missing=()
  for t in "$@"; do
    [ "$t" = syncgrade ] || [ -f "$BUILD/harness/lib$t.a" ] || missing+=("${t#synclab_harness_}")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "first build of the harness of ${missing[*]}: a minute or two each..." >&2
    announced=1
  fi
}
build() { announce "$@"; "$root/scripts/build-quiet.sh" "$@" || exit $?; }
# The grader and the runner side of the lessons named (all: every lesson).
build_for() {
  build syncgrade
  local targets=()
  for l in "$@"; do targets+=("synclab_harness_$l"); done
  [ ${#targets[@]} -eq 0 ] || build "${targets[@]}"
}
opt() { [ -n "${2:-}" ] && printf '%s\n%s\n' "$1" "$2"; }
args=()
add() { while IFS= read -r a; do args+=("$a"); done < <(opt "$1" "${2:-}"); }

case $goal in
check)
  build syncgrade
  need_lesson ""
  build_for "$LESSON"
  add --lesson "$LESSON"; add --submission "${SUBMISSION:-}"; add --seed "${SEED:-}"
  add --out "${SYNCLAB_OUT:-}"
  exec "$grader" check "${args[@]}" ;;
hint)
  build syncgrade
  need_lesson " [EXERCISE=<name>]"
  add --lesson "$LESSON"; add --exercise "${EXERCISE:-}"; add --submission "${SUBMISSION:-}"
  add --out "${SYNCLAB_OUT:-}"
  exec "$grader" hint "${args[@]}" ;;
progress)
  build syncgrade
  add --submission "${SUBMISSION:-}"; add --out "${SYNCLAB_OUT:-}"
  exec "$grader" progress "${args[@]}" ;;
run)
  build syncgrade
  need_lesson " EXERCISE=<name> [N=10] [BLOCK=32] [SEED=s] [INPUT=file] [TOOL=racecheck]"
  build_for "$LESSON"
  add --lesson "$LESSON"; add --exercise "${EXERCISE:-}"; add --n "${N:-}"
  add --block "${BLOCK:-}"; add --seed "${SEED:-}"; add --input "${INPUT:-}"
  add --tool "${TOOL:-}"; add --submission "${SUBMISSION:-}"; add --out "${SYNCLAB_OUT:-}"
  exec "$grader" run "${args[@]}" ;;
grade)
  build syncgrade
  if [ -n "${LESSON:-}" ]; then need_lesson ""; build_for "$LESSON"; else mapfile -t all < <(lessons); build_for "${all[@]}"; fi
  add --lesson "${LESSON:-}"; add --points "${POINTS:-}"; add --seed "${SEED:-}"
  if [ -n "${SUBMISSIONS:-}" ]; then
    add --submissions "$SUBMISSIONS"; add --out "${CLASS_OUT:-$BUILD/class}"
    add --jobs "${GRADE_JOBS:-}"
    # shellcheck disable=SC2086 # GRADE_ARGS: more options, split on purpose
    exec "$grader" class "${args[@]}" ${GRADE_ARGS:-}
  fi
  add --submission "${SUBMISSION:-}"; add --out "${SYNCLAB_OUT:-}"
  # shellcheck disable=SC2086
  exec "$grader" grade --quiet --exit-status "${args[@]}" ${GRADE_ARGS:-} ;;
watch)
  build syncgrade
  need_lesson ""
  build_for "$LESSON"
  exec "$root/scripts/watch.sh" ;;
handout)
  if [ -z "${OUT:-}" ]; then echo "usage: make handout OUT=<dir>" >&2; exit 2; fi
  if [ ! -x "$root/scripts/make-handout.sh" ]; then
    echo "make handout: this is a handout; make one in the instructors' repository" >&2
    exit 2
  fi
  build syncgrade   # lints the handout
  exec "$root/scripts/make-handout.sh" "$OUT" "$grader" ;;
*)
  echo "student.sh: unknown goal $goal" >&2
  exit 2 ;;
esac
