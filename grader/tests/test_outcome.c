#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outcome.h"
#include "unit.h"

START_TEST(json_survives_quotes_and_control_characters)
{
    sl_outcome o = {0}, back;
    strcpy(o.lesson, "barriers");
    strcpy(o.exercise, "tile_reverse");
    o.verdict = SL_V_BUILD;
    /* what a compiler or a student's printf may put in a report */
    o.detail = strdup("x.cu(3): error: expected a \";\"\n\ttab \\ back\x01\x1b[31mred\n");
    strcpy(o.where, "x.cu:3");
    o.max_points = 10;
    const char *path = "/tmp/synclab_outcome_test.json";
    ck_assert_int_eq(sl_outcome_write(path, &o), 0);
    ck_assert_int_eq(sl_outcome_read(path, &back), 0);
    ck_assert_str_eq(back.detail, o.detail);
    ck_assert_int_eq(back.verdict, SL_V_BUILD);
    ck_assert_str_eq(back.where, "x.cu:3");
    ck_assert(back.max_points == 10);
    sl_outcome_free(&o);
    sl_outcome_free(&back);
    unlink(path);
}
END_TEST

START_TEST(unknown_verdict_is_refused)
{
    const char *path = "/tmp/synclab_outcome_bad.json";
    FILE *f = fopen(path, "w");
    fputs("{\"verdict\": \"EXCELLENT\"}", f);
    fclose(f);
    sl_outcome back;
    ck_assert_int_eq(sl_outcome_read(path, &back), -1);
    unlink(path);
}
END_TEST

Suite *outcome_suite(void)
{
    Suite *s = suite_create("outcome");
    TCase *tc = tcase_create("json");
    tcase_add_test(tc, json_survives_quotes_and_control_characters);
    tcase_add_test(tc, unknown_verdict_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
