#include <check.h>
#include <math.h>
#include <string.h>

#include "exercise.h"
#include "rng.h"
#include "unit.h"
#include "verdict.h"

START_TEST(int_mismatches_name_index_expected_got)
{
    int32_t expected[5] = {1, 2, 3, 4, 5};
    int32_t got_data[5] = {1, 2, 9, 4, 5};
    sl_array got = {SL_I32, 5, got_data};
    sl_text why = {0};
    ck_assert(!sl_expect_i32(expected, &got, 5, &why));
    ck_assert_str_eq(sl_text_str(&why), "index 2: expected 3, got 9\n");
    sl_text_free(&why);
    got_data[2] = 3;
    ck_assert(sl_expect_i32(expected, &got, 5, &why));
}
END_TEST

START_TEST(too_short_output_is_wrong)
{
    int32_t expected[5] = {0};
    int32_t got_data[2] = {0};
    sl_array got = {SL_I32, 2, got_data};
    sl_text why = {0};
    ck_assert(!sl_expect_i32(expected, &got, 5, &why));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "wrong shape"));
    sl_text_free(&why);
}
END_TEST

START_TEST(float_tolerance_and_nan)
{
    double expected[2] = {1.0, 2.0};
    float got_data[2] = {1.0f + 1e-7f, NAN};
    sl_array got = {SL_F32, 2, got_data};
    sl_text why = {0};
    ck_assert(!sl_expect_f32(expected, &got, 2, 1e-5, &why));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "index 1"));
    sl_text_free(&why);
    got_data[1] = 2.0f;
    ck_assert(sl_expect_f32(expected, &got, 2, 1e-5, &why));
}
END_TEST

START_TEST(sum_tolerance_grows_with_n)
{
    double small = sl_sum_tolerance(1000, 500.0);
    double large = sl_sum_tolerance(1 << 24, 500.0);
    ck_assert(large > small);
    /* a lost element of size ~0.5 is outside the tolerance at n = 1000 */
    ck_assert(small < 0.5);
}
END_TEST

START_TEST(rng_is_reproducible)
{
    sl_rng a, b;
    sl_rng_seed(&a, 42);
    sl_rng_seed(&b, 42);
    for (int i = 0; i < 100; i++)
        ck_assert_uint_eq(sl_rng_u64(&a), sl_rng_u64(&b));
    for (int i = 0; i < 1000; i++) {
        int64_t x = sl_rng_range(&a, -3, 3);
        ck_assert(x >= -3 && x <= 3);
    }
    ck_assert(sl_seed_unpredictable() != sl_seed_unpredictable());
}
END_TEST

START_TEST(verdict_names_round_trip)
{
    for (int v = 0; v < SL_V_COUNT; v++)
        ck_assert_int_eq(sl_verdict_parse(sl_verdict_name((sl_verdict)v)), v);
    ck_assert_int_eq(sl_verdict_parse("NOPE"), -1);
}
END_TEST

Suite *exercise_suite(void)
{
    Suite *s = suite_create("exercise");
    TCase *tc = tcase_create("compare");
    tcase_add_test(tc, int_mismatches_name_index_expected_got);
    tcase_add_test(tc, too_short_output_is_wrong);
    tcase_add_test(tc, float_tolerance_and_nan);
    tcase_add_test(tc, sum_tolerance_grows_with_n);
    tcase_add_test(tc, rng_is_reproducible);
    tcase_add_test(tc, verdict_names_round_trip);
    suite_add_tcase(s, tc);
    return s;
}
