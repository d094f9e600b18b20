/* What a lesson declares about its exercises. A lesson's suite.c fills one
 * sl_lesson; the grader does the rest (build, rules, sanitizers, plain runs,
 * comparison, report). See docs/adding-a-lesson.md. */
#ifndef SYNCLAB_EXERCISE_H
#define SYNCLAB_EXERCISE_H

#include "case.h"
#include "exercise_list.h"
#include "ptx.h"
#include "rng.h"
#include "sanitizer.h"
#include "shapes.h"
#include "text.h"
#include "verdict.h"

typedef struct {
    sl_case in;
    char label[128]; /* the input's shape, shown with WRONG */
} sl_input;

typedef struct {
    sl_input *v;
    int count, cap;
} sl_inputs;

/* Appends an empty input whose label is printf-formatted. */
sl_input *sl_inputs_add(sl_inputs *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sl_inputs_free(sl_inputs *s);

typedef enum {
    SL_INPUTS_FULL = 0, /* many sizes and launch shapes, stress */
    SL_INPUTS_SMALL = 1 /* a few small shapes for the sanitizer runs */
} sl_input_set;

typedef struct {
    const char *question; /* 1: where to look, as a question */
    const char *rule;     /* 2: the rule the verdict says was broken */
    const char *fix;      /* 3: what to change in the code */
} sl_hint_steps;

/* The launch shapes an exercise's contract allows (its lesson header says
 * them in words). `make run` refuses others, saying why; grader.lesson_inputs
 * checks every input the suite makes against it. */
typedef struct {
    sl_block_rule blocks; /* which blockDim.x in [32, 1024] */
    int launcher_picks;   /* 1: the student's launcher picks the block (BLOCK is not used) */
    int64_t n_max;        /* the largest n the contract promises to handle; 0: none stated */
    const char *says;     /* the contract's words, quoted when a shape is refused */
} sl_shape_rule;

typedef struct sl_exercise {
    const char *name; /* runner exercise name and TODO marker */
    const char *title;
    const char *doc; /* "docs/01-barriers.md#tile-reverse" */
    int points;      /* default points (instructors may override) */
    void (*make_inputs)(sl_rng *rng, sl_input_set set, sl_inputs *out);
    /* Compares a runner output with the CPU reference. On mismatch writes
     * the first mismatches (index, expected, got) and returns 0. */
    int (*check)(const sl_case *in, const sl_case *out, sl_text *why);
    const sl_rule *rules;         /* ends with SL_RULE_END; NULL for none */
    unsigned tools;               /* sanitizer tools; 0 means SL_TOOLS_ALL */
    int repeats;                  /* plain runs of the full inputs; 0 means 1 */
    double timeout_s;             /* no new input for this long: a stall; 0 means 10 s */
    const char *hint[SL_V_COUNT]; /* per-verdict hint; NULL: generic */
    /* `make hint`'s ladder per verdict, one step per call: a question that
     * points into the doc, the rule, the code-level fix. A step left NULL
     * is built from the verdict, hint[] and doc (hint.c). */
    sl_hint_steps ladder[SL_V_COUNT];
    /* The playground (`make run`), both optional. make_input appends one
     * input of n elements launched with `block` threads (NULL: the first
     * small input of make_inputs, resized); expected fills the CPU
     * reference's output of an input, 0 ok (NULL: only check()'s
     * mismatches are shown). */
    void (*make_input)(int64_t n, int block, sl_rng *rng, sl_inputs *out);
    int (*expected)(const sl_case *in, sl_case *out);
    sl_shape_rule shape;
    int bench; /* runner has a bench for this exercise */
} sl_exercise;

typedef struct sl_lesson {
    const char *name; /* "barriers": starter/barriers.cu, lessons/barriers/ */
    const char *title;
    const char *doc; /* "docs/01-barriers.md" */
    const sl_exercise *exercises;
    int count;
    /* lessons/<name>/exercises.h's list, the runner's table is made of
     * (SL_DECLARED); syncgrade lint checks that it equals the suite's. */
    const sl_declared *declared;
} sl_lesson;

/* For expected(): out becomes an empty case with in's params; the output
 * arrays follow with sl_case_add, in the order the runner writes them. */
void sl_expected_start(const sl_case *in, sl_case *out);

/* 1 when n elements on blocks of `block` threads are a shape e's contract
 * allows; else 0 and why (the rule in words). */
int sl_shape_allows(const sl_exercise *e, int64_t n, int block, sl_text *why);

/* Helpers for check(): exact integer comparison and float comparison with
 * a tolerance. They print up to 3 mismatches as "index i: expected e, got g". */
int sl_expect_i32(const int32_t *expected, const sl_array *got, uint64_t n, sl_text *why);
int sl_expect_u32(const uint32_t *expected, const sl_array *got, uint64_t n, sl_text *why);
/* |got - expected| <= tol[i] (tol may be NULL: then abs_tol for all). */
int sl_expect_f32(const double *expected, const sl_array *got, uint64_t n, double abs_tol,
                  sl_text *why);
/* Output array check: right type and at least n elements. */
int sl_expect_shape(const sl_case *out, int index, int type, uint64_t n, sl_text *why);
/* Tolerance for a float32 sum of n terms whose magnitudes add up to sum_abs,
 * in any order: grows with n (float rounding), measured against a double
 * reference. */
double sl_sum_tolerance(uint64_t n, double sum_abs);

#endif
