#include <check.h>
#include <string.h>

#include "class.h"
#include "csv.h"
#include "unit.h"

START_TEST(plain_fields_stay_plain)
{
    sl_csv c = {0};
    sl_csv_text(&c, "alice");
    sl_csv_number(&c, 12.5);
    sl_csv_text(&c, "");
    sl_csv_end_row(&c);
    sl_csv_text(&c, "");
    sl_csv_text(&c, "bob");
    sl_csv_end_row(&c);
    ck_assert_str_eq(sl_text_str(&c.text), "alice,12.5,\r\n,bob\r\n");
    sl_csv_free(&c);
}
END_TEST

START_TEST(commas_quotes_and_newlines_are_quoted)
{
    sl_csv c = {0};
    sl_csv_text(&c, "Doe, Jane");
    sl_csv_text(&c, "say \"hi\"");
    sl_csv_text(&c, "two\nlines");
    sl_csv_text(&c, " padded ");
    sl_csv_end_row(&c);
    ck_assert_str_eq(sl_text_str(&c.text),
                     "\"Doe, Jane\",\"say \"\"hi\"\"\",\"two\nlines\",\" padded \"\r\n");
    sl_csv_free(&c);
}
END_TEST

START_TEST(formulas_are_defused)
{
    sl_csv c = {0};
    sl_csv_text(&c, "=HYPERLINK(\"http://x\",\"y\")");
    sl_csv_text(&c, "+1");
    sl_csv_text(&c, "-2");
    sl_csv_text(&c, "@SUM(A1)");
    sl_csv_number(&c, -3); /* our own numbers stay numbers */
    sl_csv_end_row(&c);
    ck_assert_str_eq(sl_text_str(&c.text),
                     "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",'+1,'-2,'@SUM(A1),-3\r\n");
    sl_csv_free(&c);
}
END_TEST

START_TEST(grades_rows_have_one_column_per_exercise)
{
    sl_csv c = {0};
    sl_class_csv_header(&c, unit_lessons, 2);
    sl_outcome o[3] = {0};
    strcpy(o[0].lesson, "alpha"), strcpy(o[0].exercise, "first");
    strcpy(o[1].lesson, "alpha"), strcpy(o[1].exercise, "second");
    strcpy(o[2].lesson, "beta"), strcpy(o[2].exercise, "third");
    o[0].verdict = SL_V_PASS, o[0].points = 10, o[0].max_points = 10;
    o[1].verdict = SL_V_ERROR, o[1].max_points = 15;
    o[2].verdict = SL_V_SKIP, o[2].max_points = 5;
    sl_class_row row = {"Doe, Jane", 18446744073709551615ull, o, 3, NULL};
    sl_class_csv_row(&c, unit_lessons, 2, &row);
    ck_assert_str_eq(sl_text_str(&c.text),
                     "student,alpha/first,alpha/second,beta/third,total,max,seed,notes\r\n"
                     "\"Doe, Jane\",10,0,0,10,30,18446744073709551615,"
                     "1 grader error: regrade; 1 skipped (no GPU)\r\n");
    sl_csv_free(&c);
}
END_TEST

Suite *csv_suite(void)
{
    Suite *s = suite_create("csv");
    TCase *tc = tcase_create("quoting");
    tcase_add_test(tc, plain_fields_stay_plain);
    tcase_add_test(tc, commas_quotes_and_newlines_are_quoted);
    tcase_add_test(tc, formulas_are_defused);
    tcase_add_test(tc, grades_rows_have_one_column_per_exercise);
    suite_add_tcase(s, tc);
    return s;
}
