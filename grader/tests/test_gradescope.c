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

/* No GPU: alpha/first passed the static checks (SKIP), beta/third did not. */
static cJSON *render_without_gpu(const char *mode)
{
    sl_outcome o[2];
    sample(o);
    o[0].verdict = SL_V_SKIP, o[0].points = 0;
    o[1].verdict = SL_V_RULE;
    ck_assert_int_eq(sl_gradescope_set_no_gpu(mode), 0);
    cJSON *j = render(o, 2, NULL);
    sl_gradescope_set_no_gpu(NULL);
    sl_text_free(&o[1].detail);
    return j;
}

START_TEST(no_gpu_shows_the_static_checks)
{
    cJSON *j = render_without_gpu(NULL);
    const char *out = cJSON_GetObjectItem(j, "output")->valuestring;
    ck_assert_msg(strstr(out, "static checks only: this autograder has no GPU"), "%s", out);
    ck_assert_msg(strstr(out, "1 of 2 exercises passed the static checks"), "%s", out);
    ck_assert_msg(strstr(out, "1 failed them (below)"), "%s", out);
    ck_assert(cJSON_GetObjectItem(j, "score")->valuedouble == 0);
    ck_assert(cJSON_GetObjectItem(j, "max_score")->valuedouble == 5); /* the SKIP's 10 left out */
    cJSON *tests = cJSON_GetObjectItem(j, "tests");
    cJSON *t0 = cJSON_GetArrayItem(tests, 0), *t1 = cJSON_GetArrayItem(tests, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(t0, "status")->valuestring, "passed");
    ck_assert(cJSON_GetObjectItem(t0, "max_score")->valuedouble == 0);
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(t0, "output")->valuestring, "no GPU"));
    ck_assert_str_eq(cJSON_GetObjectItem(t1, "status")->valuestring, "failed");
    ck_assert(cJSON_GetObjectItem(t1, "max_score")->valuedouble == 5);
    cJSON_Delete(j);
}
END_TEST

START_TEST(no_gpu_as_the_autograders_error)
{
    cJSON *j = render_without_gpu("error");
    const char *out = cJSON_GetObjectItem(j, "output")->valuestring;
    ck_assert_msg(strstr(out, "The autograder failed (it has no GPU"), "%s", out);
    ck_assert(cJSON_GetObjectItem(j, "score")->valuedouble == 0);
    cJSON *t0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "tests"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(t0, "status")->valuestring, "failed");
    ck_assert(cJSON_GetObjectItem(t0, "max_score")->valuedouble == 10);
    cJSON_Delete(j);
    ck_assert_int_eq(sl_gradescope_set_no_gpu("zero"), -1);
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
    tcase_add_test(tc, no_gpu_shows_the_static_checks);
    tcase_add_test(tc, no_gpu_as_the_autograders_error);
    suite_add_tcase(s, tc);
    return s;
}
