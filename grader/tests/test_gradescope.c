#include <cJSON.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gradescope.h"
#include "unit.h"

static cJSON *render(const sl_outcome *o, int n, const char *visibility)
{
    sl_report r = {"alice", 42, 3.5, o, n};
    char *text = sl_gradescope_text(&r, visibility);
    ck_assert_ptr_nonnull(text);
    cJSON *j = cJSON_Parse(text); /* what Gradescope does with it */
    ck_assert_ptr_nonnull(j);
    free(text);
    return j;
}

static void sample(sl_outcome *o)
{
    memset(o, 0, 2 * sizeof *o);
    strcpy(o[0].lesson, "alpha"), strcpy(o[0].exercise, "first"), strcpy(o[0].title, "First");
    strcpy(o[1].lesson, "beta"), strcpy(o[1].exercise, "third"), strcpy(o[1].title, "Third");
    o[0].verdict = SL_V_PASS, o[0].points = 10, o[0].max_points = 10, o[0].cases = 7;
    o[1].verdict = SL_V_WRONG, o[1].max_points = 5;
    sl_text_printf(&o[1].detail, "%s", "index 3: expected \"1\", got \x01\x1b[31m\xff\n");
    strcpy(o[1].hint, "check the tail");
}

START_TEST(shape_is_what_gradescope_reads)
{
    sl_outcome o[2];
    sample(o);
    cJSON *j = render(o, 2, NULL);
    ck_assert(cJSON_GetObjectItem(j, "score")->valuedouble == 10);
    ck_assert(cJSON_GetObjectItem(j, "max_score")->valuedouble == 15);
    ck_assert(cJSON_GetObjectItem(j, "execution_time")->valuedouble == 3.5);
    cJSON *tests = cJSON_GetObjectItem(j, "tests");
    ck_assert_int_eq(cJSON_GetArraySize(tests), 2);
    cJSON *t0 = cJSON_GetArrayItem(tests, 0), *t1 = cJSON_GetArrayItem(tests, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(t0, "name")->valuestring, "alpha / first: First");
    ck_assert_str_eq(cJSON_GetObjectItem(t0, "status")->valuestring, "passed");
    ck_assert_str_eq(cJSON_GetObjectItem(t0, "number")->valuestring, "1.1");
    ck_assert_str_eq(cJSON_GetObjectItem(t1, "number")->valuestring, "2.1");
    ck_assert_str_eq(cJSON_GetObjectItem(t1, "status")->valuestring, "failed");
    ck_assert(cJSON_GetObjectItem(t1, "score")->valuedouble == 0);
    ck_assert(cJSON_GetObjectItem(t1, "max_score")->valuedouble == 5);
    ck_assert_str_eq(cJSON_GetObjectItem(t1, "visibility")->valuestring, "visible");
    ck_assert_str_eq(cJSON_GetObjectItem(j, "stdout_visibility")->valuestring, "hidden");
    cJSON_Delete(j);
}
END_TEST

START_TEST(output_survives_quotes_and_bad_bytes)
{
    sl_outcome o[2];
    sample(o);
    cJSON *j = render(o, 2, "after_published");
    cJSON *t1 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "tests"), 1);
    const char *out = cJSON_GetObjectItem(t1, "output")->valuestring;
    ck_assert_ptr_nonnull(strstr(out, "WRONG"));
    ck_assert_ptr_nonnull(strstr(out, "expected \"1\", got \x01\x1b[31m\xEF\xBF\xBD"));
    ck_assert_ptr_nonnull(strstr(out, "hint: check the tail"));
    ck_assert_str_eq(cJSON_GetObjectItem(t1, "visibility")->valuestring, "after_published");
    cJSON_Delete(j);
}
END_TEST

START_TEST(visibility_values)
{
    ck_assert(sl_gradescope_visibility_ok("hidden"));
    ck_assert(sl_gradescope_visibility_ok("after_due_date"));
    ck_assert(sl_gradescope_visibility_ok("after_published"));
    ck_assert(sl_gradescope_visibility_ok("visible"));
    ck_assert(!sl_gradescope_visibility_ok("public"));
    ck_assert(!sl_gradescope_visibility_ok(NULL));
}
END_TEST

Suite *gradescope_suite(void)
{
    Suite *s = suite_create("gradescope");
    TCase *tc = tcase_create("results_json");
    tcase_add_test(tc, shape_is_what_gradescope_reads);
    tcase_add_test(tc, output_survives_quotes_and_bad_bytes);
    tcase_add_test(tc, visibility_values);
    suite_add_tcase(s, tc);
    return s;
}
