/* Reports captured from compute-sanitizer 2025.3.1 on an H100 (fixtures/). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "sanitizer.h"
#include "unit.h"

static sl_verdict parse_fixture(int tool, const char *name, sl_text *detail, char *where)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, name);
    char *text = sl_read_file(path, 1 << 20, NULL);
    ck_assert_msg(text != NULL, "missing fixture %s", path);
    sl_verdict v = sl_sanitizer_parse(tool, text, "p.cu", detail, where, 256);
    free(text);
    return v;
}

START_TEST(racecheck_names_both_lines)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_RACECHECK, "racecheck_read_before_wait.txt", &d, where),
                     SL_V_RACE);
    ck_assert_str_eq(where, "p.cu:35, p.cu:36");
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "Race reported between Write access"));
    sl_text_free(&d);
}
END_TEST

START_TEST(racecheck_warnings_count)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_RACECHECK, "racecheck_warp_warnings.txt", &d, where),
                     SL_V_RACE);
    ck_assert_ptr_nonnull(strstr(where, "p.cu:15"));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "Warp Level Programming"));
    sl_text_free(&d);
}
END_TEST

START_TEST(synccheck_divergent_barrier)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_SYNCCHECK, "synccheck_divergent.txt", &d, where),
                     SL_V_SYNC);
    ck_assert_str_eq(where, "p.cu:20");
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "Divergent thread(s) in warp"));
    sl_text_free(&d);
}
END_TEST

START_TEST(synccheck_overflow_points_at_student_line)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_SYNCCHECK, "synccheck_overflow.txt", &d, where),
                     SL_V_SYNC);
    /* the student's line comes before the library header's */
    ck_assert_msg(strncmp(where, "p.cu:29", 7) == 0, "where = %s", where);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "Barrier overflow"));
    sl_text_free(&d);
}
END_TEST

START_TEST(initcheck_is_memory)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_INITCHECK, "initcheck_uninit.txt", &d, where),
                     SL_V_MEMORY);
    ck_assert_str_eq(where, "p.cu:24");
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "256 errors"));
    sl_text_free(&d);
}
END_TEST

START_TEST(clean_report_passes)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_MEMCHECK, "memcheck_clean.txt", &d, where), SL_V_PASS);
    ck_assert_str_eq(where, "");
    sl_text_free(&d);
}
END_TEST

START_TEST(memcheck_api_errors_are_not_memory_errors)
{
    const char *report =
        "========= COMPUTE-SANITIZER\n"
        "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch "
        "failure\" on CUDA API call to cudaDeviceSynchronize.\n"
        "========= ERROR SUMMARY: 1 error\n";
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(sl_sanitizer_parse(SL_TOOL_MEMCHECK, report, "x.cu", &d, where, sizeof where),
                     SL_V_PASS);
    sl_text_free(&d);
}
END_TEST

START_TEST(memcheck_out_of_bounds)
{
    const char *report =
        "========= COMPUTE-SANITIZER\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at tree_reduce(const int *, int *, int)+0x70 in /src/reduction.cu:31\n"
        "=========     by thread (100,0,0) in block (3,0,0)\n"
        "=========     Address 0x7f0000001000 is out of bounds\n"
        "=========     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 4095\n"
        "========= \n"
        "========= ERROR SUMMARY: 1 error\n";
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(sl_sanitizer_parse(SL_TOOL_MEMCHECK, report, "reduction.cu", &d, where,
                                        sizeof where), SL_V_MEMORY);
    ck_assert_str_eq(where, "reduction.cu:31");
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "is out of bounds"));
    sl_text_free(&d);
}
END_TEST

START_TEST(sanitizer_arguments)
{
    const char *argv[20];
    int n = sl_sanitizer_args(SL_TOOL_RACECHECK, "/x/compute-sanitizer", argv);
    ck_assert_int_gt(n, 4);
    ck_assert_ptr_null(argv[n]);
    int has_warn = 0, has_exit = 0;
    for (int i = 0; i < n; i++) {
        has_warn |= strcmp(argv[i], "warn") == 0;
        has_exit |= strcmp(argv[i], "--error-exitcode") == 0;
    }
    ck_assert(has_warn && has_exit);
}
END_TEST

Suite *sanitizer_suite(void)
{
    Suite *s = suite_create("sanitizer");
    TCase *tc = tcase_create("reports");
    tcase_add_test(tc, racecheck_names_both_lines);
    tcase_add_test(tc, racecheck_warnings_count);
    tcase_add_test(tc, synccheck_divergent_barrier);
    tcase_add_test(tc, synccheck_overflow_points_at_student_line);
    tcase_add_test(tc, initcheck_is_memory);
    tcase_add_test(tc, clean_report_passes);
    tcase_add_test(tc, memcheck_api_errors_are_not_memory_errors);
    tcase_add_test(tc, memcheck_out_of_bounds);
    tcase_add_test(tc, sanitizer_arguments);
    suite_add_tcase(s, tc);
    return s;
}
