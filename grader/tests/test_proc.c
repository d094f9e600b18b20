#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "unit.h"

static const char *log_path = "/tmp/synclab_proc_test.log";

START_TEST(exit_code_and_output)
{
    char *argv[] = {"sh", "-c", "echo hello; exit 3", NULL};
    sl_proc_result r;
    sl_proc_run(argv, log_path, 1 << 20, 10, &r);
    ck_assert(r.exited && !r.timed_out);
    ck_assert_int_eq(r.code, 3);
    char *out = sl_read_file(log_path, 1024, NULL);
    ck_assert_str_eq(out, "hello\n");
    free(out);
}
END_TEST

START_TEST(hang_is_killed_with_its_children)
{
    /* the child starts a grandchild that would outlive a plain kill */
    char *argv[] = {"sh", "-c", "sleep 100 & sleep 100", NULL};
    sl_proc_result r;
    double t0 = sl_now();
    sl_proc_run(argv, log_path, 1 << 20, 0.5, &r);
    ck_assert(r.timed_out);
    ck_assert(sl_now() - t0 < 5.0);
}
END_TEST

START_TEST(slow_progress_is_not_a_hang)
{
    /* 2 s of output, a line every 0.25 s: slow, never silent for 1 s */
    char *argv[] = {"sh", "-c", "for i in 1 2 3 4 5 6 7 8; do echo $i; sleep 0.25; done", NULL};
    sl_proc_result r;
    sl_proc_run_watched(argv, log_path, 1 << 20, 1.0, 30, &r);
    ck_assert(!r.timed_out);
    ck_assert(r.exited && r.code == 0);
}
END_TEST

START_TEST(silence_is_a_hang)
{
    char *argv[] = {"sh", "-c", "echo start; sleep 100", NULL};
    sl_proc_result r;
    double t0 = sl_now();
    sl_proc_run_watched(argv, log_path, 1 << 20, 1.0, 30, &r);
    ck_assert(r.timed_out);
    ck_assert(sl_now() - t0 < 5.0);
}
END_TEST

START_TEST(crash_is_reported)
{
    char *argv[] = {"sh", "-c", "kill -SEGV $$", NULL};
    sl_proc_result r;
    sl_proc_run(argv, log_path, 1 << 20, 10, &r);
    ck_assert(r.signaled);
    ck_assert_int_eq(r.sig, SIGSEGV);
}
END_TEST

START_TEST(output_flood_is_capped)
{
    char *argv[] = {"sh", "-c", "yes flood", NULL};
    sl_proc_result r;
    sl_proc_run(argv, log_path, 64 << 10, 20, &r);
    ck_assert(!r.timed_out);
    ck_assert(r.signaled || (r.exited && r.code != 0));
    size_t len = 0;
    char *out = sl_read_file(log_path, 1 << 20, &len);
    ck_assert_uint_le(len, 64 << 10);
    free(out);
}
END_TEST

START_TEST(missing_program)
{
    char *argv[] = {"/nonexistent/runner", NULL};
    sl_proc_result r;
    sl_proc_run(argv, log_path, 1 << 20, 10, &r);
    ck_assert(r.spawn_failed);
}
END_TEST

Suite *proc_suite(void)
{
    Suite *s = suite_create("proc");
    TCase *tc = tcase_create("children");
    tcase_add_test(tc, exit_code_and_output);
    tcase_add_test(tc, hang_is_killed_with_its_children);
    tcase_add_test(tc, crash_is_reported);
    tcase_add_test(tc, slow_progress_is_not_a_hang);
    tcase_add_test(tc, silence_is_a_hang);
    tcase_add_test(tc, output_flood_is_capped);
    tcase_add_test(tc, missing_program);
    suite_add_tcase(s, tc);
    return s;
}
