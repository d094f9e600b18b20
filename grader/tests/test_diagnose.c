/* When a plain run's launch failure becomes MEMORY: memcheck must pin it on
 * a bad access at a source line (grade.c, diagnose). */
#include <check.h>
#include <string.h>

#include "grade.h"
#include "sanitizer.h"
#include "unit.h"

static const char INVALID_READ[] =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ read of size 16 bytes\n"
    "=========     at sum_int_tail4(const int *, long long, int *)+0x2d0 in "
    "/work/zoo/sum_int4_tail_past_n.cu:31\n"
    "=========     by thread (0,0,0) in block (0,0,0)\n"
    "=========     Address 0x7f3a00000ffc is out of bounds\n"
    "=========\n"
    "========= ERROR SUMMARY: 1 error\n";

static const char API_ERROR_ONLY[] =
    "========= COMPUTE-SANITIZER\n"
    "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch "
    "failure\" on CUDA API call to cudaDeviceSynchronize.\n"
    "=========\n"
    "========= ERROR SUMMARY: 1 error\n";

static const char PLAIN_UNSPECIFIED[] =
    "plain run: CUDA error: cudaErrorLaunchFailure: unspecified launch failure (completion)";
static const char PLAIN_ILLEGAL_INSTRUCTION[] =
    "plain run: CUDA error: cudaErrorIllegalInstruction: an illegal instruction was encountered";

START_TEST(an_out_of_bounds_read_at_a_line_is_memory)
{
    sl_text detail = {0};
    char where[256];
    sl_verdict v = sl_sanitizer_parse(SL_TOOL_MEMCHECK, INVALID_READ, "sum_int4_tail_past_n.cu",
                                      &detail, where, sizeof where);
    ck_assert_int_eq(v, SL_V_MEMORY);
    ck_assert_str_eq(where, "sum_int4_tail_past_n.cu:31");
    ck_assert(sl_grade_memcheck_names_access(sl_text_str(&detail), where, PLAIN_UNSPECIFIED));
    sl_text_free(&detail);
}
END_TEST

START_TEST(a_failed_api_call_alone_stays_launch)
{
    sl_text detail = {0};
    char where[256];
    sl_verdict v =
        sl_sanitizer_parse(SL_TOOL_MEMCHECK, API_ERROR_ONLY, "x.cu", &detail, where, sizeof where);
    ck_assert_int_eq(v, SL_V_PASS);
    ck_assert(!sl_grade_memcheck_names_access(sl_text_str(&detail), where, PLAIN_UNSPECIFIED));
    /* a finding without a line (a report we could not read) names nothing */
    ck_assert(!sl_grade_memcheck_names_access("memcheck reported errors", "", PLAIN_UNSPECIFIED));
    sl_text_free(&detail);
}
END_TEST

START_TEST(an_illegal_instruction_counts_only_when_the_run_died_of_one)
{
    const char *found = "memcheck: Hardware exception: Warp Illegal Instruction\n";
    ck_assert(sl_grade_memcheck_names_access(found, "k.cu:9", PLAIN_ILLEGAL_INSTRUCTION));
    /* a trap (grid.sync() without a cooperative launch) is a launch error */
    ck_assert(!sl_grade_memcheck_names_access(found, "k.cu:9", PLAIN_UNSPECIFIED));
    ck_assert(sl_grade_memcheck_names_access(
        "memcheck: Hardware exception: Warp Misaligned Address\n", "k.cu:9", PLAIN_UNSPECIFIED));
}
END_TEST

Suite *diagnose_suite(void)
{
    Suite *s = suite_create("diagnose");
    TCase *tc = tcase_create("memcheck");
    tcase_add_test(tc, an_out_of_bounds_read_at_a_line_is_memory);
    tcase_add_test(tc, a_failed_api_call_alone_stays_launch);
    tcase_add_test(tc, an_illegal_instruction_counts_only_when_the_run_died_of_one);
    suite_add_tcase(s, tc);
    return s;
}
