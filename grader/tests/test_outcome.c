#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outcome.h"
#include "report.h"
#include "unit.h"

START_TEST(json_survives_quotes_and_control_characters)
{
    sl_outcome o = {0}, back;
    strcpy(o.lesson, "barriers");
    strcpy(o.exercise, "tile_reverse");
    o.verdict = SL_V_BUILD;
    /* what a compiler or a student's printf may put in a report */
    sl_text_printf(&o.detail, "%s",
                   "x.cu(3): error: expected a \";\"\n\ttab \\ back\x01\x1b[31mred\n");
    strcpy(o.where, "x.cu:3");
    o.max_points = 10;
    char path[4200];
    snprintf(path, sizeof path, "%s/outcome_test.json", unit_tmp_dir());
    ck_assert_int_eq(sl_outcome_write(path, &o), 0);
    ck_assert_int_eq(sl_outcome_read(path, &back), 0);
    ck_assert_str_eq(sl_text_str(&back.detail), sl_text_str(&o.detail));
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
    char path[4200];
    snprintf(path, sizeof path, "%s/outcome_bad.json", unit_tmp_dir());
    FILE *f = fopen(path, "w");
    fputs("{\"verdict\": \"EXCELLENT\"}", f);
    fclose(f);
    sl_outcome back;
    ck_assert_int_eq(sl_outcome_read(path, &back), -1);
    unlink(path);
}
END_TEST

START_TEST(report_round_trips_through_text)
{
    sl_outcome o[2] = {0};
    strcpy(o[0].lesson, "alpha"), strcpy(o[0].exercise, "first");
    strcpy(o[1].lesson, "alpha"), strcpy(o[1].exercise, "second");
    o[0].verdict = SL_V_PASS, o[0].points = 10, o[0].max_points = 10;
    o[1].verdict = SL_V_RACE, o[1].max_points = 15;
    sl_text_printf(&o[1].detail, "%s", "hazard \"here\"\n");
    sl_report r = {"/x/alpha.cu", 18446744073709551557ull, 2.5, o, 2};
    char *text = sl_report_to_text(&r);
    sl_report_data d;
    ck_assert_int_eq(sl_report_parse(text, &d), 0);
    ck_assert_int_eq(d.count, 2);
    ck_assert(d.seed == 18446744073709551557ull); /* no rounding through a double */
    ck_assert_str_eq(d.submission, "/x/alpha.cu");
    ck_assert_int_eq(d.outcomes[1].verdict, SL_V_RACE);
    ck_assert_str_eq(sl_text_str(&d.outcomes[1].detail), "hazard \"here\"\n");
    sl_report_data_free(&d);
    free(text);
    ck_assert_int_eq(sl_report_parse("{\"exercises\": 3}", &d), -1);
    ck_assert_int_eq(sl_report_parse(NULL, &d), -1);
    sl_outcome bad;
    ck_assert_int_eq(sl_outcome_from_text("not json", &bad), -1);
}
END_TEST

Suite *outcome_suite(void)
{
    Suite *s = suite_create("outcome");
    TCase *tc = tcase_create("json");
    tcase_add_test(tc, json_survives_quotes_and_control_characters);
    tcase_add_test(tc, unknown_verdict_is_refused);
    tcase_add_test(tc, report_round_trips_through_text);
    suite_add_tcase(s, tc);
    return s;
}
