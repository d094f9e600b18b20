/* Warp-leader arrivals on a cuda::barrier (ptx_warp_arrive.h) and the
 * racecheck reports they dismiss (sanitizer.h, race_filter.h). The PTX is
 * fixtures/warp_arrive/warp_arrive.ptx (sm_90: one arrive of 32) and
 * warp_arrive_sm80.ptx (sm_80: a noComplete arrive of 31, then one of 1),
 * from warp_arrive.cu beside them: one kernel per case, its write and read
 * lines named in the source. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "ptx.h"
#include "ptx_budget.h"
#include "ptx_warp_arrive.h"
#include "race_filter.h"
#include "sanitizer.h"
#include "unit.h"

#define DIR FIXTURES_DIR "/warp_arrive/"
#define SRC "warp_arrive.cu"

static const char *const PTX_FILES[] = {DIR "warp_arrive.ptx", DIR "warp_arrive_sm80.ptx"};

static int orders_in(const char *ptx, int line_a, int line_b)
{
    char *text = sl_read_file(ptx, 8 << 20, NULL);
    ck_assert_ptr_nonnull(text);
    sl_ptx p;
    sl_ptx_budget_start(SL_PTX_BUDGET_STEPS, SL_PTX_BUDGET_SECONDS);
    sl_ptx_parse(text, &p);
    int ok = sl_ptx_warp_arrive_orders(&p, SRC, line_a, "/elsewhere/" SRC, line_b);
    sl_ptx_free(&p);
    free(text);
    return ok;
}

/* The answer for both architectures' PTX, which must agree. */
static int orders(int line_a, int line_b)
{
    int sm90 = orders_in(PTX_FILES[0], line_a, line_b);
    ck_assert_int_eq(orders_in(PTX_FILES[1], line_a, line_b), sm90);
    return sm90;
}

START_TEST(idiom_is_ordered)
{
    /* write (23), __syncwarp, lane 0 arrive(32) + wait, __syncwarp, read (30) */
    ck_assert_int_eq(orders(23, 30), 1);
    ck_assert_int_eq(orders(30, 23), 1); /* the pair, either way round */
}
END_TEST

START_TEST(racy_variants_are_not)
{
    ck_assert_int_eq(orders(37, 43), 0);   /* no __syncwarp before the arrive */
    ck_assert_int_eq(orders(51, 57), 0);   /* none after the wait */
    ck_assert_int_eq(orders(65, 72), 0);   /* the arrive also under a data branch */
    ck_assert_int_eq(orders(81, 88), 0);   /* arrive(1): not the warp's count */
    ck_assert_int_eq(orders(98, 100), 0);  /* write and read on two sides of one stretch */
    ck_assert_int_eq(orders(118, 120), 0); /* the region in a loop */
}
END_TEST

START_TEST(unknown_lines_are_not)
{
    ck_assert_int_eq(orders(23, 23), 0); /* one line: two lanes of one instance */
    ck_assert_int_eq(orders(22, 30), 0); /* no shared access there */
    ck_assert_int_eq(orders(23, 9999), 0);
    char *text = sl_read_file(DIR "warp_arrive.ptx", 8 << 20, NULL);
    sl_ptx p;
    sl_ptx_parse(text, &p);
    ck_assert_int_eq(sl_ptx_warp_arrive_orders(&p, "other.cu", 23, "other.cu", 30), 0);
    sl_ptx_free(&p);
    free(text);
}
END_TEST

static sl_verdict judge(const char *report_name, int *dismissed)
{
    char *report = sl_read_file(report_name, 1 << 20, NULL);
    ck_assert_ptr_nonnull(report);
    sl_text d = {0};
    char where[256];
    sl_verdict v = sl_race_filter_parse(DIR "warp_arrive.ptx", SL_TOOL_RACECHECK, report, SRC,
                                        dismissed, &d, where, sizeof where);
    if (v == SL_V_PASS && *dismissed)
        ck_assert_str_eq(where, "");
    sl_text_free(&d);
    free(report);
    return v;
}

START_TEST(report_of_the_idiom_passes)
{
    int dismissed = -1;
    ck_assert_int_eq(judge(DIR "racecheck_idiom.txt", &dismissed), SL_V_PASS);
    ck_assert_int_eq(dismissed, 1);
}
END_TEST

START_TEST(one_real_hazard_keeps_race)
{
    int dismissed = -1;
    ck_assert_int_eq(judge(DIR "racecheck_idiom_and_other.txt", &dismissed), SL_V_RACE);
    ck_assert_int_eq(dismissed, 0);
}
END_TEST

START_TEST(unread_hazards_keep_race)
{
    /* the summary counts a hazard that was not printed */
    int dismissed = -1;
    ck_assert_int_eq(judge(DIR "racecheck_idiom_unprinted.txt", &dismissed), SL_V_RACE);
    ck_assert_int_eq(dismissed, 0);
}
END_TEST

static int dismiss_all(const char *fa, int la, const char *fb, int lb, void *arg)
{
    (void)fa, (void)la, (void)fb, (void)lb;
    ++*(int *)arg;
    return 1;
}

START_TEST(other_report_shapes_keep_race)
{
    /* hazard-mode warnings name no line pairs: even a callback that
     * dismisses everything is never asked; a pair report is dismissed only
     * by the callback */
    const char *names[] = {FIXTURES_DIR "/racecheck_warp_warnings.txt",
                           FIXTURES_DIR "/racecheck_read_before_wait.txt"};
    sl_verdict want[] = {SL_V_RACE, SL_V_PASS};
    for (int i = 0; i < 2; i++) {
        char *report = sl_read_file(names[i], 1 << 20, NULL);
        ck_assert_ptr_nonnull(report);
        int asked = 0, dismissed = -1;
        sl_text d = {0};
        char where[256];
        sl_verdict v = sl_sanitizer_parse_dismissing(SL_TOOL_RACECHECK, report, "p.cu", dismiss_all,
                                                     &asked, &dismissed, &d, where, sizeof where);
        if (want[i] == SL_V_RACE) {
            ck_assert_int_eq(v, SL_V_RACE);
            ck_assert_int_eq(asked, 0);
        } else {
            /* a well-formed pair report: dismissed only through the callback */
            ck_assert_int_eq(v, SL_V_PASS);
            ck_assert_int_eq(asked, 1);
            ck_assert_int_eq(dismissed, 1);
        }
        /* other tools are never filtered */
        v = sl_sanitizer_parse_dismissing(SL_TOOL_SYNCCHECK, "========= Barrier error detected\n",
                                          "p.cu", dismiss_all, &asked, &dismissed, &d, where,
                                          sizeof where);
        ck_assert_int_eq(v, SL_V_SYNC);
        ck_assert_int_eq(dismissed, 0);
        sl_text_free(&d);
        free(report);
    }
}
END_TEST

Suite *warp_arrive_suite(void)
{
    Suite *s = suite_create("warp_arrive");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, idiom_is_ordered);
    tcase_add_test(tc, racy_variants_are_not);
    tcase_add_test(tc, unknown_lines_are_not);
    tcase_add_test(tc, report_of_the_idiom_passes);
    tcase_add_test(tc, one_real_hazard_keeps_race);
    tcase_add_test(tc, unread_hazards_keep_race);
    tcase_add_test(tc, other_report_shapes_keep_race);
    suite_add_tcase(s, tc);
    return s;
}
