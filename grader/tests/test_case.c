#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "case.h"
#include "files.h"
#include "unit.h"

static char path[] = "/tmp/synclab_case_XXXXXX";

static void make_path(void)
{
    strcpy(path, "/tmp/synclab_case_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

static void drop_path(void) { unlink(path); }

START_TEST(round_trip)
{
    sl_case c = {0}, back;
    c.param[SL_P_N] = 5;
    c.param[SL_P_BLOCK] = 128;
    int32_t *a = sl_case_add(&c, SL_I32, 5);
    float *f = sl_case_add(&c, SL_F32, 2);
    for (int i = 0; i < 5; i++)
        a[i] = -i * 7;
    f[1] = 2.5f;
    ck_assert_int_eq(sl_case_write(path, &c), 0);
    char err[128];
    ck_assert_int_eq(sl_case_read(path, &back, 1 << 20, err, sizeof err), 0);
    ck_assert_int_eq(back.narrays, 2);
    ck_assert_int_eq(back.param[SL_P_BLOCK], 128);
    ck_assert_mem_eq(back.array[0].data, a, 5 * sizeof *a);
    ck_assert(((float *)back.array[1].data)[1] == 2.5f);
    sl_case_free(&c);
    sl_case_free(&back);
}
END_TEST

START_TEST(garbage_is_refused)
{
    FILE *f = fopen(path, "wb");
    fputs("PASS PASS PASS all tests passed\n", f);
    fclose(f);
    sl_case back;
    char err[128];
    ck_assert_int_eq(sl_case_read(path, &back, 1 << 20, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "malformed"));
}
END_TEST

START_TEST(truncated_is_refused)
{
    sl_case c = {0};
    sl_case_add(&c, SL_I32, 1000);
    ck_assert_int_eq(sl_case_write(path, &c), 0);
    sl_case_free(&c);
    ck_assert_int_eq(truncate(path, 200), 0);
    sl_case back;
    char err[128];
    ck_assert_int_eq(sl_case_read(path, &back, 1 << 20, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "truncated"));
}
END_TEST

START_TEST(oversized_is_refused)
{
    sl_case c = {0};
    sl_case_add(&c, SL_I32, 1000);
    ck_assert_int_eq(sl_case_write(path, &c), 0);
    sl_case_free(&c);
    sl_case back;
    char err[128];
    ck_assert_int_eq(sl_case_read(path, &back, 100, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "larger"));
}
END_TEST

START_TEST(missing_file_is_refused)
{
    sl_case back;
    char err[128];
    ck_assert_int_eq(sl_case_read("/nonexistent/case0.out", &back, 100, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "no output file"));
}
END_TEST

/* A runner can turn its output file into a FIFO: the grader must neither
 * block on it (open or read) nor follow a link in its place. Check's
 * timeout fails the test where the old fopen() would wait for good. */
START_TEST(fifo_output_is_refused_at_once)
{
    unlink(path);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    sl_case back;
    char err[128] = "";
    ck_assert_int_eq(sl_case_read(path, &back, 100, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not a regular file"));
    ck_assert_ptr_null(sl_read_file(path, 100, NULL));
    ck_assert_ptr_null(sl_read_ends(path, 100, 100));
}
END_TEST

START_TEST(linked_output_is_refused)
{
    unlink(path);
    ck_assert_int_eq(symlink("/dev/zero", path), 0);
    sl_case back;
    char err[128] = "";
    ck_assert_int_eq(sl_case_read(path, &back, 100, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "symbolic link"));
}
END_TEST

/* A log's head and its end: a tool's summary after a long report is kept. */
START_TEST(read_ends_keeps_the_summary)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "@@ready\n");
    for (int i = 0; i < 5000; i++)
        fprintf(f, "========= Warning: line %d of a long report\n", i);
    fprintf(f, "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 5000 warnings)\n");
    fclose(f);
    char *text = sl_read_ends(path, 1024, 200);
    ck_assert_ptr_nonnull(text);
    ck_assert(strncmp(text, "@@ready\n", 8) == 0);
    ck_assert_ptr_nonnull(strstr(text, "\n========= RACECHECK SUMMARY: 1 hazard displayed"));
    ck_assert_uint_lt(strlen(text), 1024 + 200 + 2);
    free(text);
    /* a short file comes back whole, once */
    f = fopen(path, "w");
    fprintf(f, "a\nb\n");
    fclose(f);
    text = sl_read_ends(path, 1024, 200);
    ck_assert_str_eq(text, "a\nb\n");
    free(text);
}
END_TEST

Suite *case_suite(void)
{
    Suite *s = suite_create("case");
    TCase *tc = tcase_create("files");
    tcase_add_checked_fixture(tc, make_path, drop_path);
    tcase_add_test(tc, round_trip);
    tcase_add_test(tc, garbage_is_refused);
    tcase_add_test(tc, truncated_is_refused);
    tcase_add_test(tc, oversized_is_refused);
    tcase_add_test(tc, missing_file_is_refused);
    tcase_add_test(tc, fifo_output_is_refused_at_once);
    tcase_add_test(tc, linked_output_is_refused);
    tcase_add_test(tc, read_ends_keeps_the_summary);
    suite_add_tcase(s, tc);
    return s;
}
