#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "points.h"
#include "unit.h"

START_TEST(defaults_when_the_file_is_silent)
{
    sl_points p;
    sl_text err = {0};
    ck_assert_int_eq(sl_points_parse(&p, "; nothing\n[alpha]\n", unit_lessons, &err), 0);
    ck_assert(sl_points_for(&p, "alpha", "first", 10) == 10);
    ck_assert(sl_points_for(NULL, "beta", "third", 5) == 5);
    sl_points_free(&p);
    sl_text_free(&err);
}
END_TEST

START_TEST(overrides_with_comments_and_spaces)
{
    sl_points p;
    sl_text err = {0};
    const char *ini = "# instructor's file\n[alpha]\n  first = 2.5   ; inline comment\n"
                      "second=0\n[beta]\nthird = 40\n";
    ck_assert_msg(sl_points_parse(&p, ini, unit_lessons, &err) == 0, "%s", sl_text_str(&err));
    ck_assert(sl_points_for(&p, "alpha", "first", 10) == 2.5);
    ck_assert(sl_points_for(&p, "alpha", "second", 15) == 0);
    ck_assert(sl_points_for(&p, "beta", "third", 5) == 40);
    sl_points_free(&p);
    sl_text_free(&err);
}
END_TEST

START_TEST(every_mistake_is_reported)
{
    sl_points p;
    sl_text err = {0};
    const char *ini = "[alpha]\nfirst = ten\nsecnd = 3\nsecond = -1\nfirst = 4\nfirst = 5\n"
                      "[gamma]\nx = 1\nnot an ini line\n";
    ck_assert_int_eq(sl_points_parse(&p, ini, unit_lessons, &err), -1);
    const char *e = sl_text_str(&err);
    ck_assert_ptr_nonnull(strstr(e, "first = ten"));
    ck_assert_ptr_nonnull(strstr(e, "secnd: no exercise"));
    ck_assert_ptr_nonnull(strstr(e, "second = -1"));
    ck_assert_ptr_nonnull(strstr(e, "first: given twice"));
    ck_assert_ptr_nonnull(strstr(e, "[gamma]: no lesson"));
    ck_assert_ptr_nonnull(strstr(e, "not an INI line"));
    ck_assert_int_eq(p.count, 0);
    sl_text_free(&err);
}
END_TEST

START_TEST(apply_gives_all_or_nothing)
{
    sl_points p;
    sl_text err = {0};
    ck_assert_int_eq(sl_points_parse(&p, "[alpha]\nfirst = 7\n", unit_lessons, &err), 0);
    sl_outcome o[2] = {0};
    strcpy(o[0].lesson, "alpha"), strcpy(o[0].exercise, "first");
    strcpy(o[1].lesson, "alpha"), strcpy(o[1].exercise, "second");
    o[0].verdict = SL_V_PASS, o[0].max_points = 10;
    o[1].verdict = SL_V_RACE, o[1].max_points = 15, o[1].points = 15;
    sl_points_apply(&p, o, 2);
    ck_assert(o[0].points == 7 && o[0].max_points == 7);
    ck_assert(o[1].points == 0 && o[1].max_points == 15);
    sl_points_free(&p);
    sl_text_free(&err);
}
END_TEST

START_TEST(defaults_file_round_trips)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sl_points_write_defaults(f, unit_lessons);
    fclose(f);
    sl_points p;
    sl_text err = {0};
    ck_assert_msg(sl_points_parse(&p, buf, unit_lessons, &err) == 0, "%s", sl_text_str(&err));
    ck_assert_int_eq(p.count, 3);
    ck_assert(sl_points_for(&p, "alpha", "second", -1) == 15);
    ck_assert(sl_points_for(&p, "beta", "third", -1) == 5);
    sl_points_free(&p);
    sl_text_free(&err);
    free(buf);
}
END_TEST

START_TEST(missing_file_names_it)
{
    sl_points p;
    sl_text err = {0};
    ck_assert_int_eq(sl_points_load(&p, "/nonexistent/points.ini", unit_lessons, &err), -1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&err), "/nonexistent/points.ini"));
    sl_text_free(&err);
}
END_TEST

Suite *points_suite(void)
{
    Suite *s = suite_create("points");
    TCase *tc = tcase_create("ini");
    tcase_add_test(tc, defaults_when_the_file_is_silent);
    tcase_add_test(tc, overrides_with_comments_and_spaces);
    tcase_add_test(tc, every_mistake_is_reported);
    tcase_add_test(tc, apply_gives_all_or_nothing);
    tcase_add_test(tc, defaults_file_round_trips);
    tcase_add_test(tc, missing_file_names_it);
    suite_add_tcase(s, tc);
    return s;
}
