/* mps.c with a stand-in nvidia-cuda-mps-control on PATH that notes how it
 * was called: the daemon runs as the sandbox's uid (a root grader's runs
 * drop to it, and MPS runs one server at a time, for one uid), its folders reach it
 * only through that call's environment, and quit goes to its stdin. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "mps.h"
#include "sandbox.h"
#include "unit.h"

static char bin[200], calls[300];

static void fake_control(void)
{
    char dir[200], script[1200], path[300];
    snprintf(dir, sizeof dir, "/tmp/synclab-test-mpsctl-%ld", (long)getpid());
    snprintf(bin, sizeof bin, "%s/bin", dir);
    snprintf(calls, sizeof calls, "%s/calls", dir);
    sl_remove_tree(dir, 1);
    ck_assert_int_eq(sl_mkdirs(bin), 0);
    chmod(dir, 0777); /* the daemon's uid writes its notes here */
    snprintf(script, sizeof script,
             "#!/bin/sh\n"
             "echo \"uid=$(id -u) arg=$1 pipes=$CUDA_MPS_PIPE_DIRECTORY\" >> %s\n"
             "if [ \"$1\" = -d ]; then exit ${FAKE_MPS_RC:-0}; fi\n"
             "read cmd; echo \"stdin=$cmd\" >> %s\n",
             calls, calls);
    snprintf(path, sizeof path, "%s/nvidia-cuda-mps-control", bin);
    ck_assert_int_eq(sl_write_file(path, script), 0);
    chmod(path, 0755);
    chmod(bin, 0755);
    char *old = getenv("PATH");
    char *p = malloc(strlen(bin) + strlen(old ? old : "") + 2);
    sprintf(p, "%s:%s", bin, old ? old : "");
    setenv("PATH", p, 1);
    free(p);
    unsetenv("SYNCLAB_MPS_PIPES");
}

START_TEST(daemon_runs_as_the_sandbox_uid)
{
    fake_control();
    /* a folder named from our pid, made first by someone else (or left
     * from an earlier run): not ours to use */
    char planted[100];
    snprintf(planted, sizeof planted, "/tmp/synclab-mps-%ld", (long)getpid());
    mkdir(planted, 0777);
    chmod(planted, 0777);
    ck_assert_int_eq(sl_mps_start(), 0);
    const char *pipes = sl_mps_pipes();
    ck_assert_ptr_nonnull(pipes);
    char want[100], dir[100];
    snprintf(want, sizeof want, "%s", pipes);
    ck_assert_int_eq(strncmp(want, "/tmp/synclab-mps-", 17), 0);
    char in_planted[120];
    snprintf(in_planted, sizeof in_planted, "%s/", planted);
    ck_assert(strncmp(want, in_planted, strlen(in_planted)) != 0);
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(want, '/') - want), want);
    ck_assert_str_eq(want + strlen(dir), "/pipe");
    struct stat own;
    ck_assert_int_eq(stat(dir, &own), 0);
    ck_assert_int_eq(own.st_mode & 0077, 0); /* nobody else's to enter */
    /* no other CUDA program of ours finds it */
    ck_assert_ptr_null(getenv("CUDA_MPS_PIPE_DIRECTORY"));
    long uid = geteuid() == 0 && sl_sandbox_uid() >= 0 ? sl_sandbox_uid() : (long)getuid();
    char line[600];
    snprintf(line, sizeof line, "uid=%ld arg=-d pipes=%s\n", uid, want);
    char *got = sl_read_file(calls, 4096, NULL);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, line);
    free(got);
    struct stat st;
    ck_assert_int_eq(stat(want, &st), 0);
    ck_assert_int_eq((long)st.st_uid, uid);
    sl_mps_stop();
    ck_assert_ptr_null(sl_mps_pipes());
    got = sl_read_file(calls, 4096, NULL);
    snprintf(line, sizeof line, "uid=%ld arg= pipes=%s\nstdin=quit", uid, want);
    ck_assert_msg(strstr(got, line) != NULL, "%s", got);
    free(got);
    ck_assert_int_ne(access(dir, F_OK), 0); /* removed when it stopped */
    rmdir(planted);
}
END_TEST

START_TEST(no_daemon_no_clients)
{
    fake_control();
    setenv("FAKE_MPS_RC", "1", 1); /* it did not start */
    ck_assert_int_eq(sl_mps_start(), -1);
    ck_assert_ptr_null(sl_mps_pipes());
    unsetenv("FAKE_MPS_RC");
    setenv("PATH", "/nonexistent", 1); /* none installed */
    ck_assert_int_eq(sl_mps_start(), -1);
    ck_assert_ptr_null(sl_mps_pipes());
    sl_mps_stop(); /* nothing to stop */
}
END_TEST

Suite *mps_suite(void)
{
    Suite *s = suite_create("mps");
    TCase *tc = tcase_create("daemon");
    tcase_add_test(tc, daemon_runs_as_the_sandbox_uid);
    tcase_add_test(tc, no_daemon_no_clients);
    suite_add_tcase(s, tc);
    return s;
}
