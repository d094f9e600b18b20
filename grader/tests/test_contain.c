#include <check.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "channel.h"
#include "contain.h"
#include "files.h"
#include "jobs.h"
#include "proc.h"
#include "unit.h"

static char log_path[4200], jobs_dir[4200]; /* in unit_tmp_dir(), set by contain_suite */

/* Whether a process whose command line holds marker is alive. */
static int alive(const char *marker)
{
    DIR *d = opendir("/proc");
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL && !found;) {
        char path[300];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        size_t len = 0;
        char *cmd = sl_read_file(path, 4096, &len);
        for (size_t i = 0; cmd && i + 1 < len; i++)
            if (cmd[i] == '\0')
                cmd[i] = ' ';
        /* a zombie has an empty command line: it is gone already */
        found = cmd && strstr(cmd, marker) && !strstr(cmd, "sh -c");
        free(cmd);
    }
    if (d)
        closedir(d);
    return found;
}

START_TEST(channel_carries_a_child_result)
{
    int fd = sl_channel_open("test");
    ck_assert_int_ge(fd, 0);
    pid_t pid = fork();
    if (pid == 0)
        _exit(sl_channel_put(fd, "{\"verdict\": \"PASS\"}") == 0 ? 0 : 1);
    int status;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char *got = sl_channel_get(fd, 1 << 20);
    ck_assert_str_eq(got, "{\"verdict\": \"PASS\"}");
    free(got);
    /* a shorter result replaces it whole */
    ck_assert_int_eq(sl_channel_put(fd, "x"), 0);
    got = sl_channel_get(fd, 1 << 20);
    ck_assert_str_eq(got, "x");
    free(got);
    ck_assert_int_eq(sl_channel_put(fd, ""), 0);
    ck_assert_ptr_null(sl_channel_get(fd, 1 << 20));
    sl_channel_close(&fd);
    ck_assert_int_eq(fd, -1);
}
END_TEST

START_TEST(runner_gets_no_grader_descriptor)
{
    int fd = sl_channel_open("test");
    int plain = dup(fd); /* even one without close-on-exec */
    char cmd[128];
    snprintf(cmd, sizeof cmd,
             "ls /proc/self/fd > /dev/null; test -e /proc/$$/fd/%d && echo "
             "LEAK; test -e /proc/$$/fd/%d && echo LEAK; echo done",
             fd, plain);
    char *argv[] = {"sh", "-c", cmd, NULL};
    sl_proc_result r;
    sl_proc_run(argv, log_path, 1 << 20, 10, &r);
    char *out = sl_read_file(log_path, 4096, NULL);
    ck_assert_str_eq(out, "done\n");
    free(out);
    close(plain);
    sl_channel_close(&fd);
}
END_TEST

START_TEST(grader_is_not_dumpable)
{
    pid_t pid = fork();
    if (pid == 0) {
        sl_contain_protect_self();
        _exit(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

START_TEST(detached_daemon_is_killed)
{
    /* a runner that double-forks into a new session and exits at once:
     * the process-group kill cannot reach it, the subreaper can */
    ck_assert_int_eq(sl_contain_adopt_orphans(), 0);
    ck_assert(sl_contain_is_subreaper());
    char *argv[] = {"sh", "-c", "(setsid sleep 4321.25 &) ; exit 0", NULL};
    sl_proc_result r;
    sl_proc_run(argv, log_path, 1 << 20, 10, &r);
    ck_assert(r.exited && r.code == 0);
    ck_assert(!alive("4321.25"));
    pid_t kids[16];
    ck_assert_int_eq(sl_contain_list_children(kids, 16), 0);
}
END_TEST

static int count_running(void)
{
    int n = 0;
    DIR *d = opendir(jobs_dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += e->d_name[0] == 'r';
    if (d)
        closedir(d);
    return n;
}

static int job_work(int job, void *arg)
{
    (void)arg;
    char path[4300];
    snprintf(path, sizeof path, "%s/r%d", jobs_dir, job);
    close(creat(path, 0644));
    struct timespec nap = {0, 60 * 1000 * 1000};
    nanosleep(&nap, NULL);
    int seen = count_running();
    unlink(path);
    if (job == 3) /* leaves a daemon behind */
        if (system("(setsid sleep 4322.75 &)") != 0)
            return 99;
    return seen;
}

typedef struct {
    int calls, max_seen, mask;
} job_log;

static void job_done(int job, int status, void *arg)
{
    job_log *l = arg;
    l->calls++;
    l->mask |= 1 << job;
    if (WIFEXITED(status) && WEXITSTATUS(status) > l->max_seen)
        l->max_seen = WEXITSTATUS(status);
}

START_TEST(jobs_stay_bounded_and_clean_up)
{
    ck_assert_int_eq(mkdir(jobs_dir, 0700), 0);
    job_log log = {0};
    sl_jobs j = {7, 2, &log, NULL, job_work, job_done, 0};
    ck_assert_int_eq(sl_jobs_run(&j), 0);
    ck_assert_int_eq(log.calls, 7);
    ck_assert_int_eq(log.mask, 0x7f);
    ck_assert_int_ge(log.max_seen, 1);
    ck_assert_int_le(log.max_seen, 2);
    ck_assert(!alive("4322.75"));
}
END_TEST

/* Job 1 hangs (a blocked open, a loop): its slot is freed at its deadline,
 * the others run, and done() sees it killed. */
static int hang_or_not(int job, void *arg)
{
    (void)arg;
    if (job == 1)
        for (;;)
            pause();
    return 0;
}

static void killed_done(int job, int status, void *arg)
{
    int *killed = arg;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        *killed |= 1 << job;
}

START_TEST(a_hung_job_is_killed_at_its_deadline)
{
    int killed = 0;
    sl_jobs j = {4, 2, &killed, NULL, hang_or_not, killed_done, 1.0};
    double t0 = sl_now();
    ck_assert_int_eq(sl_jobs_run(&j), 0);
    ck_assert_int_eq(killed, 1 << 1);
    ck_assert_msg(sl_now() - t0 < 10.0, "took %.1f s", sl_now() - t0);
}
END_TEST

Suite *contain_suite(void)
{
    snprintf(log_path, sizeof log_path, "%s/contain_test.log", unit_tmp_dir());
    snprintf(jobs_dir, sizeof jobs_dir, "%s/jobs_test", unit_tmp_dir());
    Suite *s = suite_create("contain");
    TCase *tc = tcase_create("processes");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, channel_carries_a_child_result);
    tcase_add_test(tc, runner_gets_no_grader_descriptor);
    tcase_add_test(tc, grader_is_not_dumpable);
    tcase_add_test(tc, detached_daemon_is_killed);
    tcase_add_test(tc, jobs_stay_bounded_and_clean_up);
    tcase_add_test(tc, a_hung_job_is_killed_at_its_deadline);
    suite_add_tcase(s, tc);
    return s;
}
