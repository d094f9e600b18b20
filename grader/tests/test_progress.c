#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void hint_of(sl_lesson_status *st, const char *exercise, FILE *f)
{
    sl_hint_print(f, st, exercise);
}

START_TEST(hint_shows_the_last_verdict_or_every_hint)
{
    sl_outcome a[1] = {outcome("alpha", "second", SL_V_RACE)};
    a[0].detail = "racecheck: shared memory hazard\n";
    strcpy(a[0].where, "s.cu:12");
    strcpy(a[0].hint, "Separate the write from the read.");
    sl_lesson_status st = {&unit_lesson_a, 1, {.outcomes = a, .count = 1}};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hint_of(&st, NULL, f); /* first not passing: "first" was never checked */
    hint_of(&st, "second", f);
    hint_of(&st, "nope", f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "alpha/first: First\nnot checked yet"));
    ck_assert_ptr_nonnull(strstr(buf, "RACE     Put a barrier between the write and the read."));
    ck_assert_ptr_nonnull(strstr(buf, "last check: RACE at s.cu:12\n    racecheck: shared memory "
                                      "hazard\nhint: Separate the write from the read.\n"
                                      "read: docs/a.md#second"));
    ck_assert_ptr_nonnull(strstr(buf, "no exercise 'nope' in lesson alpha; its exercises: first "
                                      "second"));
    free(buf);
}
END_TEST

Suite *progress_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("student_loop");
    tcase_add_test(tc, next_is_the_first_exercise_not_passing);
    tcase_add_test(tc, progress_lists_lessons_and_what_next);
    tcase_add_test(tc, hint_shows_the_last_verdict_or_every_hint);
    suite_add_tcase(s, tc);
    return s;
}
