/* Taking turns on the GPU: an "alone" turn waits for sharers, and sharers
 * that come later wait behind it. Processes stand in for graders. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpu_arch.h"
#include "gpu_turn.h"
#include "gpus.h"
#include "proc.h"
#include "unit.h"

static char g_prefix[256];

static void use_private_locks(void)
{
    snprintf(g_prefix, sizeof g_prefix, "/tmp/synclab-unit-gpu-%d", (int)getpid());
    setenv("SYNCLAB_GPU_LOCK", g_prefix, 1);
}

static void remove_locks(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s.turn", g_prefix);
    unlink(path);
    snprintf(path, sizeof path, "%s.room", g_prefix);
    unlink(path);
    snprintf(path, sizeof path, "%s.want", g_prefix);
    unlink(path);
}

static void nap(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

/* Until pid waits for one of the locks (/proc/locks lists a blocked
 * request as "->"): a nap alone let a child that started late on a loaded
 * machine (the suite runs beside compiles) come after the next one. */
static void until_blocked(pid_t pid)
{
    char who[32];
    snprintf(who, sizeof who, " %d ", (int)pid);
    for (double t0 = sl_now(); sl_now() - t0 < 10.0; nap(0.01)) {
        FILE *f = fopen("/proc/locks", "r");
        if (!f) {
            nap(0.2); /* no such file: the naps have to do */
            return;
        }
        char line[512];
        int found = 0;
        while (fgets(line, sizeof line, f))
            found |= strstr(line, "->") && strstr(line, who);
        fclose(f);
        if (found)
            return;
    }
}

/* A child that waits for a turn and reports how long it waited (ms) as its
 * exit status / 10. */
static pid_t child_waiting(int alone, double then_hold_s)
{
    pid_t pid = fork();
    if (pid == 0) {
        double t0 = sl_now();
        if (alone)
            sl_gpu_alone();
        else
            sl_gpu_share();
        int waited = (int)((sl_now() - t0) * 100.0); /* in 10 ms */
        nap(then_hold_s);
        sl_gpu_leave();
        _exit(waited > 250 ? 250 : waited);
    }
    return pid;
}

static int waited_10ms(pid_t pid)
{
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(sharers_share)
{
    use_private_locks();
    sl_gpu_share();
    pid_t other = child_waiting(0, 0.0);
    ck_assert_int_lt(waited_10ms(other), 10); /* no wait behind a sharer */
    sl_gpu_leave();
    remove_locks();
}
END_TEST

START_TEST(alone_waits_for_sharers)
{
    use_private_locks();
    sl_gpu_share();
    pid_t alone = child_waiting(1, 0.0);
    until_blocked(alone);
    nap(0.4);
    sl_gpu_leave();
    ck_assert_int_ge(waited_10ms(alone), 35);
    remove_locks();
}
END_TEST

START_TEST(late_sharer_queues_behind_alone)
{
    use_private_locks();
    sl_gpu_share();
    pid_t alone = child_waiting(1, 0.4); /* waits for us, then holds 0.4 s */
    until_blocked(alone);
    nap(0.2);
    pid_t late = child_waiting(0, 0.0); /* comes while "alone" waits */
    until_blocked(late);
    nap(0.2);
    sl_gpu_leave();
    ck_assert_int_ge(waited_10ms(alone), 35);
    ck_assert_int_ge(waited_10ms(late), 55); /* 0.2 s before us + 0.4 s of alone */
    remove_locks();
}
END_TEST

/* A grader that comes to wait to be alone goes before a sharer that came
 * earlier but found the GPU taken by another alone turn: the sharer would
 * hold the room for a whole sweep while the second alone waits (eight
 * hangs graded at once queued this way behind each other's neighbours). */
START_TEST(every_alone_goes_before_waiting_sharers)
{
    use_private_locks();
    sl_gpu_share();
    pid_t first = child_waiting(1, 0.4); /* alone from our leave, for 0.4 s */
    until_blocked(first);
    nap(0.1);
    pid_t sharer = child_waiting(0, 1.5); /* comes while first waits; then holds 1.5 s */
    until_blocked(sharer);
    nap(0.1);
    pid_t second = child_waiting(1, 0.0); /* comes after the sharer */
    until_blocked(second);
    nap(0.1);
    sl_gpu_leave();
    waited_10ms(first);
    /* about 0.1 + 0.4 s; behind the sharer it would be 2.0 s */
    ck_assert_int_lt(waited_10ms(second), 120);
    ck_assert_int_ge(waited_10ms(sharer), 55); /* after both alone turns */
    remove_locks();
}
END_TEST

START_TEST(forked_child_keeps_parents_turn)
{
    use_private_locks();
    sl_gpu_alone();
    pid_t pid = fork();
    if (pid == 0) {
        /* inherited the parent's descriptors: leaving must not unlock them */
        sl_gpu_leave();
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    pid_t sharer = child_waiting(0, 0.0);
    until_blocked(sharer);
    nap(0.3);
    sl_gpu_leave();
    ck_assert_int_ge(waited_10ms(sharer), 25);
    remove_locks();
}
END_TEST

/* While it waits for the GPU alone behind a neighbour, a grader's own runs
 * that go on (tools beside a plain run) still meet their limits. */
START_TEST(own_runs_are_watched_while_waiting)
{
    use_private_locks();
    pid_t neighbour = child_waiting(0, 4.0); /* shares for 4 s */
    nap(0.2);
    char *argv[] = {"sh", "-c", "sleep 100", NULL};
    sl_proc_opts o = {0};
    o.out_path = "/dev/null";
    o.timeout_s = 0.5;
    sl_proc p;
    ck_assert_int_eq(sl_proc_spawn(&p, argv, &o), 0);
    sl_gpu_alone(); /* about 3.8 s behind the neighbour */
    sl_proc_result r;
    sl_proc_wait(&p, &r);
    ck_assert(r.timed_out);
    /* killed near its 0.5 s, not when the wait ended (margins for a
     * loaded machine: the suite runs beside compiles) */
    ck_assert_msg(r.seconds < 2.5, "killed after %.2f s", r.seconds);
    sl_gpu_leave();
    waited_10ms(neighbour);
    remove_locks();
}
END_TEST

/* Without SYNCLAB_GPU_LOCK each GPU has its lock, named by its uuid: a
 * grader alone on one GPU holds up no grader on another (Slurm tasks of one
 * GPU each, ctest parts per GPU), and one that names the same GPU by uuid
 * waits for it. */
START_TEST(a_lock_per_gpu)
{
    char smi[600], path[5000];
    snprintf(smi, sizeof smi, "%s/gpu-turn-smi", unit_tmp_dir());
    unit_fake_smi(smi, "echo 'GPU-aaaa-0, 9.0'; echo 'GPU-bbbb-1, 9.0'");
    const char *old = getenv("PATH");
    snprintf(path, sizeof path, "%s:%s", smi, old ? old : "/usr/bin:/bin");
    setenv("PATH", path, 1);
    setenv("TMPDIR", unit_tmp_dir(), 1);
    unsetenv("SYNCLAB_GPU_LOCK");
    sl_gpu_target_forget();

    char want[700], got[700];
    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    sl_gpu_lock_prefix(got, sizeof got);
    snprintf(want, sizeof want, "%s/synclab-gpu-GPU-bbbb-1", unit_tmp_dir());
    ck_assert_str_eq(got, want);
    sl_gpu_lock_folder(got, sizeof got);
    ck_assert_str_eq(got, unit_tmp_dir());

    /* a class spreads over GPUs: each student's lock is its GPU's */
    sl_gpus g;
    ck_assert_int_eq(sl_gpus_parse("0,1", &g), 0);
    sl_gpus_enter(&g, 0);
    ck_assert_str_eq(getenv("CUDA_VISIBLE_DEVICES"), "0");
    ck_assert_ptr_null(getenv("SYNCLAB_GPU_LOCK"));
    sl_gpu_alone(); /* on GPU-aaaa-0 */

    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    pid_t other_gpu = child_waiting(1, 0.0);
    ck_assert_int_lt(waited_10ms(other_gpu), 10);
    setenv("CUDA_VISIBLE_DEVICES", "GPU-aaaa", 1); /* ours, by uuid */
    pid_t same_gpu = child_waiting(0, 0.0);
    until_blocked(same_gpu);
    nap(0.3);
    sl_gpu_leave();
    ck_assert_int_ge(waited_10ms(same_gpu), 25);

    /* a caller's own lock family still gets one lock per GPU id */
    setenv("SYNCLAB_GPU_LOCK", "/x/own", 1);
    sl_gpus_enter(&g, 1);
    ck_assert_str_eq(getenv("SYNCLAB_GPU_LOCK"), "/x/own-gpu-1");
    sl_gpu_lock_folder(got, sizeof got);
    ck_assert_str_eq(got, "/x");
    unsetenv("SYNCLAB_GPU_LOCK");
    unsetenv("CUDA_VISIBLE_DEVICES");
    setenv("PATH", path + strlen(smi) + 1, 1);
    sl_gpu_target_forget();
}
END_TEST

/* Another user's grader on this GPU made the lock files, in a sticky folder
 * like /tmp: they are still taken. With fs.protected_regular on (systemd's
 * default), opening them with O_CREAT fails even for root, and the graders
 * of two users ran unsynchronized. Needs root to give the files away. */
START_TEST(takes_another_users_lock_files)
{
    if (geteuid() != 0)
        return;
    char dir[600], prefix[700], path[800];
    snprintf(dir, sizeof dir, "%s/sticky", unit_tmp_dir());
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    ck_assert_int_eq(chmod(dir, 01777), 0);
    snprintf(prefix, sizeof prefix, "%s/synclab-gpu-x", dir);
    const char *parts[] = {"turn", "room", "want"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s.%s", prefix, parts[i]);
        int fd = open(path, O_WRONLY | O_CREAT, 0666);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(fchmod(fd, 0666), 0);
        ck_assert_int_eq(fchown(fd, 54321, 54321), 0); /* someone else's */
        close(fd);
    }
    setenv("SYNCLAB_GPU_LOCK", prefix, 1);
    sl_gpu_alone();
    pid_t sharer = child_waiting(0, 0.0); /* must wait: the files work */
    until_blocked(sharer);
    nap(0.3);
    sl_gpu_leave();
    ck_assert_int_ge(waited_10ms(sharer), 25);
    unsetenv("SYNCLAB_GPU_LOCK");
}
END_TEST

START_TEST(no_lock_file_runs_anyway)
{
    setenv("SYNCLAB_GPU_LOCK", "/nonexistent-dir/synclab-gpu", 1);
    double t0 = sl_now();
    sl_gpu_alone();
    sl_gpu_share();
    sl_gpu_leave();
    ck_assert(sl_now() - t0 < 3.0);
}
END_TEST

Suite *gpu_turn_suite(void)
{
    Suite *s = suite_create("gpu_turn");
    TCase *tc = tcase_create("turns");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, sharers_share);
    tcase_add_test(tc, alone_waits_for_sharers);
    tcase_add_test(tc, late_sharer_queues_behind_alone);
    tcase_add_test(tc, every_alone_goes_before_waiting_sharers);
    tcase_add_test(tc, forked_child_keeps_parents_turn);
    tcase_add_test(tc, a_lock_per_gpu);
    tcase_add_test(tc, takes_another_users_lock_files);
    tcase_add_test(tc, no_lock_file_runs_anyway);
    tcase_add_test(tc, own_runs_are_watched_while_waiting);
    suite_add_tcase(s, tc);
    return s;
}
