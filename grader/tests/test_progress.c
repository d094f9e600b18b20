#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "hint.h"
#include "progress.h"
#include "unit.h"

static sl_outcome outcome(const char *lesson, const char *exercise, sl_verdict v)
{
    sl_outcome o = {0};
    snprintf(o.lesson, sizeof o.lesson, "%s", lesson);
    snprintf(o.exercise, sizeof o.exercise, "%s", exercise);
    o.verdict = v;
    return o;
}

static char *printed(void (*print)(FILE *, const sl_lesson_status *, int), sl_lesson_status *st,
                     int n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    print(f, st, n);
    fclose(f);
    return buf;
}

START_TEST(next_is_the_first_exercise_not_passing)
{
    sl_outcome a[2] = {outcome("alpha", "first", SL_V_PASS), outcome("alpha", "second", SL_V_RACE)};
    sl_lesson_status st[2] = {{&unit_lesson_a, 1, {.outcomes = a, .count = 2}},
                              {&unit_lesson_b, 0, {.count = 0}}};
    int l, e;
    ck_assert(sl_progress_next(st, 2, &l, &e));
    ck_assert_int_eq(l, 0);
    ck_assert_int_eq(e, 1);
    a[1].verdict = SL_V_PASS;
    ck_assert(sl_progress_next(st, 2, &l, &e));
    ck_assert_int_eq(l, 1); /* an unchecked lesson is not done */
    ck_assert_int_eq(e, 0);
    sl_outcome b[1] = {outcome("beta", "third", SL_V_PASS)};
    st[1].checked = 1;
    st[1].last.outcomes = b;
    st[1].last.count = 1;
    ck_assert(!sl_progress_next(st, 2, &l, &e));
}
END_TEST

START_TEST(progress_lists_lessons_and_what_next)
{
    sl_outcome a[2] = {outcome("alpha", "first", SL_V_PASS), outcome("alpha", "second", SL_V_RACE)};
    sl_lesson_status st[2] = {{&unit_lesson_a, 1, {.outcomes = a, .count = 2}},
                              {&unit_lesson_b, 0, {.count = 0}}};
    char *out = printed(sl_progress_print, st, 2);
    ck_assert_ptr_nonnull(strstr(out, "alpha      1/2 pass   first:PASS second:RACE\n"));
    ck_assert_ptr_nonnull(strstr(out, "beta       0/1 pass  not checked yet\n"));
    ck_assert_ptr_nonnull(strstr(out, "next: alpha/second (RACE): Second"));
    ck_assert_ptr_nonnull(strstr(out, "make hint LESSON=alpha EXERCISE=second"));
    free(out);
}
END_TEST

static void hint_of(sl_lesson_status *st, const char *exercise, FILE *f, const char *state)
{
    sl_hint_print(f, st, exercise, state);
}

START_TEST(hint_shows_the_last_verdict_or_the_first_step)
{
    sl_outcome a[1] = {outcome("alpha", "second", SL_V_RACE)};
    sl_text_printf(&a[0].detail, "%s", "racecheck: shared memory hazard\n");
    strcpy(a[0].where, "s.cu:12");
    strcpy(a[0].hint, "Separate the write from the read.");
    sl_lesson_status st = {&unit_lesson_a, 1, {.outcomes = a, .count = 1}};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hint_of(&st, NULL, f, NULL); /* first not passing: "first" was never checked */
    hint_of(&st, "second", f, NULL);
    hint_of(&st, "nope", f, NULL);
    fclose(f);
    /* never checked: one question, not every verdict's hint */
    ck_assert_ptr_nonnull(strstr(buf, "alpha/first: First\nnot checked yet"));
    ck_assert_ptr_nonnull(strstr(buf, "hint 1/3 (question): What does docs/a.md#first ask"));
    ck_assert_ptr_null(strstr(buf, "Put a barrier between the write and the read."));
    ck_assert_ptr_nonnull(strstr(buf, "last check: RACE at s.cu:12\n    racecheck: shared memory "
                                      "hazard\nhint 1/3 (question): "));
    ck_assert_ptr_null(strstr(buf, "hint 2/3"));
    ck_assert_ptr_nonnull(strstr(buf, "read: docs/a.md#second"));
    ck_assert_ptr_nonnull(strstr(buf, "no exercise 'nope' in lesson alpha; its exercises: first "
                                      "second"));
    free(buf);
    /* an unknown exercise is an error (make hint exits non-zero) */
    f = fopen("/dev/null", "w");
    ck_assert_int_eq(sl_hint_print(f, &st, "nope", NULL), -1);
    ck_assert_int_eq(sl_hint_print(f, &st, "second", NULL), 0);
    fclose(f);
}
END_TEST

/* The ladder: one more step per call, kept in the state file; starts over
 * when the verdict changes; stays at the last step. */
START_TEST(hint_ladder_climbs_one_step_per_call)
{
    char dir[] = "/tmp/synclab-hint-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    sl_outcome a[1] = {outcome("alpha", "first", SL_V_RACE)};
    sl_lesson_status st = {&unit_lesson_a, 1, {.outcomes = a, .count = 1}};
    char *out[5];
    for (int k = 0; k < 5; k++) {
        if (k == 4)
            a[0].verdict = SL_V_WRONG;
        size_t len = 0;
        FILE *f = open_memstream(&out[k], &len);
        hint_of(&st, "first", f, dir);
        fclose(f);
    }
    ck_assert_ptr_nonnull(strstr(out[0], "hint 1/3 (question): "));
    ck_assert_ptr_null(strstr(out[0], "hint 2/3"));
    ck_assert_ptr_nonnull(strstr(out[0], "again for the next step"));
    ck_assert_ptr_nonnull(strstr(out[1], "hint 2/3 (rule): "));
    ck_assert_ptr_null(strstr(out[1], "hint 3/3"));
    /* step 3: the exercise's own code-level hint */
    ck_assert_ptr_nonnull(strstr(out[2], "hint 3/3 (fix): Put a barrier between the write and "
                                         "the read."));
    ck_assert_ptr_null(strstr(out[2], "again for the next step"));
    ck_assert_ptr_nonnull(strstr(out[3], "hint 3/3 (fix)"));
    /* a fourth call says there are no more, instead of repeating in silence */
    ck_assert_ptr_null(strstr(out[2], "no more steps"));
    ck_assert_ptr_nonnull(strstr(out[3], "no more steps: these 3 are all the hints for RACE"));
    /* another verdict: back to its first step */
    ck_assert_ptr_nonnull(strstr(out[4], "last check: WRONG"));
    ck_assert_ptr_nonnull(strstr(out[4], "hint 1/3 (question): Which outputs come out wrong"));
    ck_assert_ptr_null(strstr(out[4], "hint 2/3"));
    for (int k = 0; k < 5; k++)
        free(out[k]);
    char path[256];
    snprintf(path, sizeof path, "%s/hint-first.step", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* A lesson's own ladder text wins over the built one, step by step. */
START_TEST(hint_ladder_uses_the_lessons_steps)
{
    static const sl_exercise e = {.name = "x",
                                  .doc = "docs/x.md#x",
                                  .hint = {[SL_V_SYNC] = "generic fix"},
                                  .ladder = {[SL_V_SYNC] = {"Own question?", NULL, "Own fix."}}};
    sl_text t[3] = {{0}, {0}, {0}};
    for (int k = 0; k < 3; k++)
        sl_hint_step(&e, SL_V_SYNC, k + 1, &t[k]);
    ck_assert_str_eq(sl_text_str(&t[0]), "Own question?");
    ck_assert_str_eq(sl_text_str(&t[1]), sl_verdict_hint(SL_V_SYNC));
    ck_assert_str_eq(sl_text_str(&t[2]), "Own fix.");
    for (int k = 0; k < 3; k++)
        sl_text_free(&t[k]);
}
END_TEST

/* SKIP (static checks passed, no GPU here) is done for now: progress
 * moves on and says what still needs a GPU (issue 28). */
START_TEST(progress_moves_past_skip)
{
    sl_outcome a[2] = {outcome("alpha", "first", SL_V_SKIP), outcome("alpha", "second", SL_V_TODO)};
    sl_lesson_status st[2] = {{&unit_lesson_a, 1, {.outcomes = a, .count = 2}},
                              {&unit_lesson_b, 0, {.count = 0}}};
    int l, e;
    ck_assert(sl_progress_next(st, 2, &l, &e));
    ck_assert_int_eq(l, 0);
    ck_assert_int_eq(e, 1);
    char *out = printed(sl_progress_print, st, 2);
    ck_assert_ptr_nonnull(strstr(out, "static checks passed, the rest needs a GPU: alpha/first\n"));
    ck_assert_ptr_nonnull(strstr(out, "next: alpha/second (TODO)"));
    free(out);
    a[1].verdict = SL_V_PASS;
    sl_outcome b[1] = {outcome("beta", "third", SL_V_SKIP)};
    st[1].checked = 1;
    st[1].last.outcomes = b;
    st[1].last.count = 1;
    ck_assert(!sl_progress_next(st, 2, &l, &e));
    out = printed(sl_progress_print, st, 2);
    ck_assert_ptr_nonnull(strstr(out, "needs a GPU: alpha/first, beta/third\n"));
    ck_assert_ptr_nonnull(strstr(out, "every other exercise passes"));
    ck_assert_ptr_null(strstr(out, "well done"));
    free(out);
}
END_TEST

/* TODO's step 2 is a rule, not step 1 or 3 again nor "not started". */
START_TEST(todo_ladder_has_a_rule_step)
{
    const sl_exercise *e = &unit_lesson_a.exercises[1];
    sl_text t[3] = {{0}, {0}, {0}};
    for (int k = 0; k < 3; k++)
        sl_hint_step(e, SL_V_TODO, k + 1, &t[k]);
    ck_assert_str_ne(sl_text_str(&t[1]), sl_verdict_hint(SL_V_TODO));
    ck_assert_str_ne(sl_text_str(&t[1]), sl_text_str(&t[2]));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&t[1]), "contract"));
    for (int k = 0; k < 3; k++)
        sl_text_free(&t[k]);
}
END_TEST

/* make check prints step 1; the next make hint goes on at step 2. */
START_TEST(check_counts_as_the_first_step)
{
    char dir[] = "/tmp/synclab-shown-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/hint-first.step", dir);
    sl_hint_shown(path, SL_V_RULE, 1);
    ck_assert_int_eq(sl_hint_advance(path, SL_V_RULE), 2);
    sl_hint_shown(path, SL_V_RULE, 1); /* a check again: the ladder stays where it was */
    ck_assert_int_eq(sl_hint_advance(path, SL_V_RULE), 3);
    ck_assert_int_eq(sl_hint_advance(path, SL_V_RULE), 4); /* no more */
    ck_assert_int_eq(sl_hint_advance(path, SL_V_RULE), 4);
    sl_hint_shown(path, SL_V_SYNC, 1); /* another verdict starts over */
    ck_assert_int_eq(sl_hint_advance(path, SL_V_SYNC), 2);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* The table's hint is the question with the way to the next step, never
 * the fix; TODOs share one block (issue 28). */
START_TEST(report_prints_the_first_step_and_one_todo_block)
{
    sl_outcome o[3] = {outcome("alpha", "first", SL_V_RACE), outcome("alpha", "second", SL_V_TODO),
                       outcome("beta", "third", SL_V_TODO)};
    strcpy(o[0].hint, "Which slot?");
    o[0].hint_step = 1;
    for (int i = 1; i < 3; i++) {
        sl_text_printf(&o[i].detail, "SYNCLAB_TODO(%s) is still in the code\n", o[i].exercise);
        strcpy(o[i].hint, "What does it ask?");
        o[i].hint_step = 1;
    }
    sl_report r = {"/nowhere", 1, 0.5, o, 3};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sl_report_print(f, &r, 1);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "    hint 1/3: Which slot?  (make hint LESSON=alpha "
                                      "EXERCISE=first for the next step)\n"));
    ck_assert_ptr_nonnull(strstr(buf, "not started yet (TODO)"));
    ck_assert_ptr_nonnull(strstr(buf, "      alpha: second\n      beta: third\n"));
    ck_assert_ptr_null(strstr(buf, "SYNCLAB_TODO(second) is still"));
    ck_assert_ptr_null(strstr(buf, "alpha/second: TODO"));
    free(buf);
    for (int i = 0; i < 3; i++)
        sl_outcome_free(&o[i]);
}
END_TEST

/* A lesson file that does not compile: one block for the exercises with
 * the same compiler lines, another for one whose lines differ. */
START_TEST(report_prints_one_block_per_build_failure)
{
    sl_outcome o[4] = {
        outcome("alpha", "first", SL_V_BUILD), outcome("alpha", "second", SL_V_BUILD),
        outcome("alpha", "third", SL_V_BUILD), outcome("beta", "fourth", SL_V_BUILD)};
    for (int i = 0; i < 4; i++)
        sl_text_printf(&o[i].detail, "k.cu:3: error: expected ';'\n");
    sl_text_printf(&o[2].detail, "k.cu:9: error: another\n");
    sl_report r = {"/nowhere", 1, 0.5, o, 4};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sl_report_print(f, &r, 1);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\nalpha/first, second: BUILD\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\nalpha/third: BUILD\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\nbeta/fourth: BUILD\n")); /* another lesson's file */
    ck_assert_ptr_null(strstr(buf, "alpha/second: BUILD"));
    free(buf);
    for (int i = 0; i < 4; i++)
        sl_outcome_free(&o[i]);
}
END_TEST

/* SYNC and RULE: the student's lines first, the explanation with each PTX
 * instruction replaced by its place, the PTX on one "ptx:" line last. */
START_TEST(sync_detail_shows_source_lines_before_ptx)
{
    char dir[] = "/tmp/synclab-detail-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/k.cu", dir);
    FILE *f = fopen(path, "w");
    fputs("int a;\n    if (t < n) {\n\t__syncthreads();\n}\n", f);
    fclose(f);
    sl_outcome o = outcome("alpha", "first", SL_V_SYNC);
    sl_text_printf(&o.detail, "%s",
                   "the barrier `bar.sync \t0` (k.cu:3) is inside a branch (`@%p1 bra \t$L1` "
                   "(k.cu:2)): move it out\n");
    strcpy(o.where, "k.cu:3, k.cu:2");
    sl_text t = {0};
    sl_report_detail(&t, &o, dir); /* the submission as a folder */
    ck_assert_str_eq(sl_text_str(&t),
                     "k.cu:3: __syncthreads();\n"
                     "k.cu:2: if (t < n) {\n"
                     "the barrier k.cu:3 is inside a branch (k.cu:2): move it out\n"
                     "ptx: bar.sync 0 (k.cu:3); @%p1 bra $L1 (k.cu:2)\n");
    sl_text_clear(&t);
    sl_report_detail(&t, &o, path); /* or as the lesson's file */
    ck_assert_ptr_nonnull(strstr(sl_text_str(&t), "k.cu:3: __syncthreads();\n"));
    sl_text_clear(&t);
    o.verdict = SL_V_RACE; /* other verdicts: the detail as it is */
    sl_report_detail(&t, &o, dir);
    ck_assert_str_eq(sl_text_str(&t), sl_text_str(&o.detail));
    sl_text_free(&t);
    unlink(path);
    rmdir(dir);
}
END_TEST

Suite *progress_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("student_loop");
    tcase_add_test(tc, next_is_the_first_exercise_not_passing);
    tcase_add_test(tc, progress_lists_lessons_and_what_next);
    tcase_add_test(tc, hint_shows_the_last_verdict_or_the_first_step);
    tcase_add_test(tc, hint_ladder_climbs_one_step_per_call);
    tcase_add_test(tc, hint_ladder_uses_the_lessons_steps);
    tcase_add_test(tc, sync_detail_shows_source_lines_before_ptx);
    tcase_add_test(tc, progress_moves_past_skip);
    tcase_add_test(tc, todo_ladder_has_a_rule_step);
    tcase_add_test(tc, check_counts_as_the_first_step);
    tcase_add_test(tc, report_prints_the_first_step_and_one_todo_block);
    tcase_add_test(tc, report_prints_one_block_per_build_failure);
    suite_add_tcase(s, tc);
    return s;
}
