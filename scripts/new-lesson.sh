#!/usr/bin/env bash
# scripts/new-lesson.sh [--exercise NAME] [--title TITLE] LESSON
# Writes the skeleton of a new lesson: one exercise (a copy, out[i] = in[i])
# that builds, whose starter gets TODO and whose solution passes, and
# registers it (the synclab_add_lesson line, a README row, points.ini), so
# that `syncgrade lint` is clean. Then replace the copy with the lesson's
# exercises: docs/adding-a-lesson.md says which file holds what.
#   --exercise NAME   the skeleton exercise's name (default: <lesson>_copy)
#   --title TITLE     the lesson's title (default: the name, capitalized)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  echo "usage: scripts/new-lesson.sh [--exercise NAME] [--title TITLE] LESSON" >&2
  exit 2
}
die() {
  echo "new-lesson: $*" >&2
  exit 2
}

lesson="" exercise="" title=""
while [ $# -gt 0 ]; do
  case $1 in
    --exercise) [ $# -ge 2 ] || usage; exercise=$2; shift 2 ;;
    --title) [ $# -ge 2 ] || usage; title=$2; shift 2 ;;
    -h | --help) usage ;;
    -*) die "unknown option '$1'" ;;
    *) [ -z "$lesson" ] || die "one lesson at a time ('$lesson', then '$1')"; lesson=$1; shift ;;
  esac
done
[ -n "$lesson" ] || usage
exercise=${exercise:-${lesson}_copy}
[ -n "$title" ] || title="$(printf '%s' "${lesson:0:1}" | tr '[:lower:]' '[:upper:]')${lesson:1}"
title=${title//_/ }

# Names become C identifiers, file names and CMake target names.
[[ $lesson =~ ^[a-z][a-z0-9_]{0,30}$ ]] ||
  die "lesson name '$lesson': lower-case letters, digits and _, starting with a letter"
[[ $exercise =~ ^[a-z][a-z0-9_]{0,40}$ ]] ||
  die "exercise name '$exercise': lower-case letters, digits and _, starting with a letter"
[[ $title =~ ^[A-Za-z0-9][-A-Za-z0-9\ ,.:()+]*$ ]] ||
  die "title '$title': letters, digits, spaces and - , . : ( ) + only"
[ -e "$root/lessons/$lesson" ] && die "lessons/$lesson exists already"
grep -q "^synclab_add_lesson($lesson)" "$root/CMakeLists.txt" &&
  die "CMakeLists.txt registers a lesson $lesson already"

number=$(($(grep -c '^synclab_add_lesson(' "$root/CMakeLists.txt") + 1))
nn=$(printf '%02d' "$number")
doc=docs/$nn-$lesson.md
[ -e "$root/$doc" ] && die "$doc exists already"
upper=$(printf '%s' "$lesson" | tr '[:lower:]' '[:upper:]')
lower_title=$(printf '%s' "$title" | tr '[:upper:]' '[:lower:]')

# fill <template> <destination>: the @...@ names replaced.
fill() {
  mkdir -p "$(dirname "$root/$2")"
  sed -e "s|@LESSON@|$lesson|g" -e "s|@UPPER@|$upper|g" -e "s|@EXERCISE@|$exercise|g" \
      -e "s|@TITLE@|$title|g" -e "s|@LOWER_TITLE@|$lower_title|g" -e "s|@N@|$number|g" \
      -e "s|@DOC@|$doc|g" >"$root/$2"
  echo "  $2"
}

echo "new-lesson: lesson $number, $lesson ($title), exercise $exercise"

fill - "lessons/$lesson/$lesson.h" <<'EOF'
/* Lesson @N@: @TITLE@. What you implement in starter/@LESSON@.cu.
 * Read @DOC@ first; each kernel below names its section.
 *
 * Launch shape (the harness launches, you only write kernels): grid =
 * ceil(n / blockDim.x) one-dimensional blocks of 32 to 1024 threads (not
 * always a multiple of 32), so the last block may be partial. Outputs start
 * filled with 0xFF bytes (-1): write every output element. */
#ifndef SYNCLAB_@UPPER@_H
#define SYNCLAB_@UPPER@_H

#include "synclab.h"

/* ---- @EXERCISE@ (@DOC@#@EXERCISE@) -----------------------------------
 * out[i] = in[i] for 0 <= i < n. */
__global__ void @EXERCISE@(const int *in, int *out, int n);

#endif
EOF

fill - "lessons/$lesson/exercises.h" <<'EOF'
/* Lesson @N@, @LOWER_TITLE@: the exercises, declared once for suite.c (C11)
 * and harness.cu (CUDA C++17); see grader/run/exercise_list.h. */
#ifndef SYNCLAB_LESSON_EXERCISES_H
#define SYNCLAB_LESSON_EXERCISES_H

#include "exercise_list.h"

#define SL_LESSON_EXERCISES(X) \
    X(@EXERCISE@, NO_BENCH)
SL_DECLARE_EXERCISES(SL_LESSON_EXERCISES)

/* The param slots of an input (sl_case.param): SL_P_N elements, SL_P_BLOCK
 * threads per block; array 0 = in (I32, N). A slot of the lesson's own gets
 * a name here, in an enum: EXERCISE_P_WHAT = SL_P_A. */

#endif
EOF

fill - "lessons/$lesson/reference.h" <<'EOF'
/* Lesson @N@, @LOWER_TITLE@: CPU references (C11, no CUDA). The contracts
 * are the ones of @LESSON@.h. */
#ifndef SYNCLAB_@UPPER@_REFERENCE_H
#define SYNCLAB_@UPPER@_REFERENCE_H

#include <stdint.h>

/* out[i] = in[i]. */
void ref_@EXERCISE@(const int32_t *in, int32_t *out, int64_t n);

#endif
EOF

fill - "lessons/$lesson/reference.c" <<'EOF'
/* Lesson @N@, @LOWER_TITLE@: CPU references. */
#include "reference.h"

void ref_@EXERCISE@(const int32_t *in, int32_t *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = in[i];
}
EOF

fill - "lessons/$lesson/suite.c" <<'EOF'
/* Lesson @N@, @LOWER_TITLE@: the Check suite. Inputs, comparisons with the
 * CPU reference, PTX rules and hints. No CUDA here. */
#include <stdlib.h>

#include "exercise.h"
#include "exercises.h"
#include "reference.h"
#include "shapes.h"

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* One input: n ints launched with `block` threads per block. */
static void add_case(sl_inputs *out, sl_rng *rng, int64_t n, int block)
{
    sl_input *c = sl_inputs_add(out, "n=%lld block=%d", (long long)n, block);
    if (!c)
        return;
    c->in.param[SL_P_N] = n;
    c->in.param[SL_P_BLOCK] = block;
    int32_t *data = sl_case_add(&c->in, SL_I32, (uint64_t)n);
    if (data)
        sl_rng_fill_i32(rng, data, (uint64_t)n, INT32_MIN, INT32_MAX);
}

/* ---- @EXERCISE@ ---------------------------------------------------------- */

static void copy_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {   /* the sanitizers' shapes (shapes.h) */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(rng, SL_BLOCKS_ANY, s);
        for (int k = 0; k < count; k++)
            add_case(out, rng, s[k].n, s[k].block);
        return;
    }
    static const int64_t sizes[] = {1, 2, 31, 32, 33, 100, 1000, 1025, 65537};
    static const int blocks[] = {32, 100, 256, 1024};
    for (int b = 0; b < COUNT_OF(blocks); b++)
        for (int k = 0; k < COUNT_OF(sizes); k++)
            add_case(out, rng, sizes[k], blocks[b]);
    add_case(out, rng, (1 << 24) + 3, 256);   /* past 2^24 elements */
}

static int copy_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int64_t n = in->param[SL_P_N];
    int32_t *expected = malloc((size_t)n * sizeof *expected);
    if (!expected) {
        sl_text_printf(why, "out of memory in the check\n");
        return 0;
    }
    ref_@EXERCISE@(in->array[0].data, expected, n);
    int ok = sl_expect_shape(out, 0, SL_I32, (uint64_t)n, why) &&
             sl_expect_i32(expected, &out->array[0], (uint64_t)n, why);
    free(expected);
    return ok;
}

/* ---- the lesson ---------------------------------------------------------- */

static const sl_exercise exercises[] = {
    {.name = SL_NAME(@EXERCISE@),
     .title = "Copy every element",
     .doc = "@DOC@#@EXERCISE@",
     .points = 10,
     .make_inputs = copy_inputs,
     .check = copy_check,
     .hint = {
         [SL_V_WRONG] = "Every thread with an element (i < n) writes out[i] = in[i].",
         [SL_V_MEMORY] = "Touch in[i] and out[i] only when i < n.",
     }},
};

SL_SUITE_COVERS(exercises);
static const sl_declared declared[] = SL_DECLARED(SL_LESSON_EXERCISES);

const sl_lesson sl_lesson_@LESSON@ = {"@LESSON@", "@TITLE@", "@DOC@", exercises,
                                      COUNT_OF(exercises), declared};
EOF

fill - "lessons/$lesson/harness.cu" <<'EOF'
// Lesson @N@, @LOWER_TITLE@: runner side. Reads a case, launches the
// student's kernel, downloads the outputs. Never judges. The exercises and
// the case layout (suite.c writes it): exercises.h.
#include "runner.h"
#include "@LESSON@.h"
#include "exercises.h"

static void run_@EXERCISE@(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    int grid = (n + block - 1) / block;
    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc((size_t)n * sizeof(int), 0xFF);
    sl_dirty_shared();   // shared memory nobody wrote holds garbage, not a lucky 0
    @EXERCISE@<<<grid, block>>>(d_in, d_out, n);
    sl_launched("@EXERCISE@");
    sl_download(out, SL_I32, (uint64_t)n, d_out);
    sl_free(d_in);
    sl_free(d_out);
}

SL_RUNNER_TABLE(SL_LESSON_EXERCISES)
EOF

mkdir -p "$root/lessons/$lesson/zoo"
echo "  lessons/$lesson/zoo/ (empty: one file per known bug, with // EXPECT lines)"

fill - "starter/$lesson.cu" <<'EOF'
// Lesson @N@, @LOWER_TITLE@: your workspace. Read @DOC@.
// You will write: @EXERCISE@.
// Check: make check LESSON=@LESSON@ (make hint LESSON=@LESSON@ for a hint).
// The contract of each kernel is in lessons/@LESSON@/@LESSON@.h. When you
// start an exercise, delete its SYNCLAB_TODO line: the grader answers TODO
// while the line is there.
#include "@LESSON@.h"

// @DOC@#@EXERCISE@
__global__ void @EXERCISE@(const int *in, int *out, int n)
{
    SYNCLAB_TODO(@EXERCISE@);
    // TODO: every thread with an element (i < n) writes out[i] = in[i].
    (void)in;
    (void)out;
    (void)n;
}
EOF

fill - "solutions/$lesson.cu" <<'EOF'
// Lesson @N@, @LOWER_TITLE@: reference solution. See @DOC@.
#include "@LESSON@.h"

__global__ void @EXERCISE@(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
EOF

fill - "$doc" <<'EOF'
# Lesson @N@: @TITLE@

What this lesson teaches, and why.

| exercise | what it teaches |
| --- | --- |
| [`@EXERCISE@`](#@EXERCISE@) | the skeleton's copy: replace it |

## @EXERCISE@

`@EXERCISE@(in, out, n)`: `out[i] = in[i]` for `0 <= i < n`.

## Bug zoo: what the grader says

Every file in `lessons/@LESSON@/zoo/` is the reference solution with one bug
([adding a lesson](adding-a-lesson.md#the-bug-zoo)): one row per file, with
the verdicts of its `// EXPECT` lines (`syncgrade lint` compares them).

| file | bug | verdict |
| --- | --- | --- |
EOF

# Registered: the CMake line after the last one, the README row after the
# last row of its lesson table, the points after the last lesson's.
awk -v line="synclab_add_lesson($lesson)" '
  { lines[NR] = $0; if ($0 ~ /^synclab_add_lesson\(/) last = NR }
  END { for (i = 1; i <= NR; i++) { print lines[i]; if (i == last) print line }
        if (!last) print line }' "$root/CMakeLists.txt" >"$root/CMakeLists.txt.new"
mv "$root/CMakeLists.txt.new" "$root/CMakeLists.txt"
echo "  CMakeLists.txt: synclab_add_lesson($lesson)"

row="| $number | $title (\`$lesson\`) | \`$exercise\` | [$doc]($doc) |"
awk -v row="$row" '
  !done && in_table && $0 !~ /^\|/ { print row; done = 1; in_table = 0 }
  { print }
  !done && /^\| # \| lesson \|/ { in_table = 1 }
  END { if (!done && in_table) print row; else if (!done) exit 3 }' \
  "$root/README.md" >"$root/README.md.new" || die "README.md has no lesson table (| # | lesson |)"
mv "$root/README.md.new" "$root/README.md"
echo "  README.md: lesson $number's row"

printf '\n; %s (%s)\n[%s]\n%s = 10\n' "$title" "$doc" "$lesson" "$exercise" >>"$root/grading/points.ini"
echo "  grading/points.ini: [$lesson]"

cat <<EOF
Next: build (make), then grade the starter (make check LESSON=$lesson: TODO)
and run build/syncgrade lint. docs/adding-a-lesson.md: what each file holds,
and the bug zoo (lessons/$lesson/zoo/, one row per file in $doc).
EOF
