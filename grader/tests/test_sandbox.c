/* The sandbox runners start in (sandbox.h), tried with small shell scripts
 * standing in for a cheating runner: no GPU needed. Each attack must fail
 * inside the sandbox and the grader must carry on. Where bubblewrap cannot
 * start here, the tests check the fallback instead. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "contain.h"
#include "files.h"
#include "grade.h"
#include "mps.h"
#include "proc.h"
#include "runner_call.h"
#include "sandbox.h"
#include "synclab_config.h"
#include "unit.h"

/* A runner's world: in/ (read-only), out/ (its own), and a secret beside
 * them that it must not see (under the build tree, which is hidden). */
typedef struct {
    char root[512], in[600], out[600], log[600], secret_dir[600], secret[700];
} world;

static void make_world(world *w, const char *name)
{
    snprintf(w->root, sizeof w->root, "%s/test-sandbox-%s-%ld", SYNCLAB_BINARY_DIR, name,
             (long)getpid());
    snprintf(w->in, sizeof w->in, "%s/in", w->root);
    snprintf(w->out, sizeof w->out, "%s/out", w->root);
    snprintf(w->log, sizeof w->log, "%s/run.log", w->root);
    snprintf(w->secret_dir, sizeof w->secret_dir, "%s/other-student", w->root);
    snprintf(w->secret, sizeof w->secret, "%s/answer.txt", w->secret_dir);
    sl_remove_tree(w->root, 1);
    ck_assert_int_eq(sl_mkdirs(w->in), 0);
    ck_assert_int_eq(sl_mkdirs(w->out), 0);
    ck_assert_int_eq(sl_mkdirs(w->secret_dir), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/case0.in", w->in);
    ck_assert_int_eq(sl_write_file(path, "input\n"), 0);
    ck_assert_int_eq(sl_write_file(w->secret, "42\n"), 0);
}

/* Runs script with /bin/sh in the world's sandbox: in/ read-only, out/
 * writable, limits as given. From a subreaper, as the grader's processes
 * that run sandboxes are (jobs.c, lesson_run.c): bubblewrap's init, left
 * to the nearest subreaper, is then killed and reaped before the run's
 * wait returns; left to the machine's init, what it still ran could write
 * into out/ after the test emptied it (many_big_files_are_stopped, 1 run
 * in 60 under load). */
static void run_in(world *w, const char *script, double timeout_s, long nproc, size_t out_cap,
                   int quota_entries, long long quota_bytes, sl_proc_result *r)
{
    ck_assert_int_eq(sl_contain_adopt_orphans(), 0);
    sl_sandbox box = {0};
    sl_sandbox_ro(&box, w->in);
    sl_sandbox_rw(&box, w->out);
    box.nproc = nproc;
    box.cpu_s = timeout_s * 2;
    sl_proc_opts o = {0};
    o.out_path = w->log;
    o.out_cap = out_cap ? out_cap : 1 << 20;
    o.timeout_s = timeout_s;
    o.box = &box;
    o.quota_dir = w->out;
    o.quota_entries = quota_entries;
    o.quota_bytes = quota_bytes;
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    sl_proc_run_opts(argv, &o, r);
}

static char *out_file(world *w, const char *name)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", w->out, name);
    return sl_read_file(path, 1 << 16, NULL);
}

#define NEED_SANDBOX()                                                                             \
    do {                                                                                           \
        if (!sl_sandbox_available()) {                                                             \
            fprintf(stderr, "sandbox tests skipped: %s\n", sl_sandbox_status());                   \
            return;                                                                                \
        }                                                                                          \
    } while (0)

START_TEST(runs_and_writes_its_outputs)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "ok");
    char script[1400];
    snprintf(script, sizeof script, "cat %s/case0.in > %s/case0.out; echo done", w.in, w.out);
    sl_proc_result r;
    run_in(&w, script, 10, 0, 0, 16, 1 << 20, &r);
    ck_assert_msg(r.exited && r.code == 0, "exit %d signal %d spawn_failed %d", r.code, r.sig,
                  r.spawn_failed);
    char *out = out_file(&w, "case0.out");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "input\n");
    free(out);
    sl_remove_tree(w.root, 1);
}
END_TEST

START_TEST(cannot_write_outside_its_folder)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "write");
    char script[2400];
    /* the inputs, the folder beside, the system, then report what worked */
    snprintf(script, sizeof script,
             "r=''; echo x > %s/case0.in 2>/dev/null && r=\"$r in\"; "
             "echo x > %s/planted 2>/dev/null && r=\"$r root\"; "
             "echo x > /etc/synclab-planted 2>/dev/null && r=\"$r etc\"; "
             "echo x > /var/tmp/synclab-planted-$$ 2>/dev/null && r=\"$r var\"; "
             "echo \"wrote:$r\" > %s/report",
             w.in, w.root, w.out);
    sl_proc_result r;
    run_in(&w, script, 10, 0, 0, 16, 1 << 20, &r);
    ck_assert(r.exited && r.code == 0);
    char *report = out_file(&w, "report");
    ck_assert_ptr_nonnull(report);
    /* The inputs, /etc and /var/tmp are read-only binds: the write itself
     * fails. The folder beside is judged on the host only: when the build
     * tree lies under /tmp, the runner sees it in its own throwaway tmpfs
     * and may write there, but nothing reaches the real folder. */
    ck_assert_msg(!strstr(report, " in") && !strstr(report, " etc") && !strstr(report, " var"),
                  "%s", report);
    free(report);
    char path[700];
    snprintf(path, sizeof path, "%s/planted", w.root);
    ck_assert(access(path, F_OK) != 0);
    ck_assert(access("/etc/synclab-planted", F_OK) != 0);
    snprintf(path, sizeof path, "%s/case0.in", w.in);
    char *text = sl_read_file(path, 100, NULL);
    ck_assert_str_eq(text, "input\n");
    free(text);
    sl_remove_tree(w.root, 1);
}
END_TEST

START_TEST(cannot_read_hidden_folders)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "read");
    /* an explicitly hidden folder outside the grader's trees too */
    char extra[600];
    snprintf(extra, sizeof extra, "/var/tmp/synclab-test-hidden-%ld", (long)getpid());
    sl_mkdirs(extra);
    char extra_file[700];
    snprintf(extra_file, sizeof extra_file, "%s/answer.txt", extra);
    ck_assert_int_eq(sl_write_file(extra_file, "42\n"), 0);
    sl_sandbox_hide(extra);
    char script[3000];
    snprintf(script, sizeof script,
             "r=''; cat %s >/dev/null 2>&1 && r=\"$r neighbour\"; "
             "cat %s >/dev/null 2>&1 && r=\"$r hidden\"; "
             "ls %s/solutions >/dev/null 2>&1 && r=\"$r solutions\"; "
             "echo \"read:$r\" > %s/report",
             w.secret, extra_file, SYNCLAB_SOURCE_DIR, w.out);
    sl_proc_result r;
    run_in(&w, script, 10, 0, 0, 16, 1 << 20, &r);
    ck_assert(r.exited && r.code == 0);
    char *report = out_file(&w, "report");
    ck_assert_ptr_nonnull(report);
    ck_assert_str_eq(report, "read:\n");
    free(report);
    sl_remove_tree(extra, 1);
    sl_remove_tree(w.root, 1);
}
END_TEST

START_TEST(sees_only_what_a_runner_needs)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "view");
    char script[4800];
    /* what must be gone (the users, their homes, the machine's other
     * folders and disks), then what a runner and a compile need; a folder
     * on the way to the checkout (a clone under /srv or /home) is there
     * as the path to what is bound, so it is not counted */
    snprintf(script, sizeof script,
             "a=' %s/ %s/ '; "
             "r=''; for p in /etc/passwd /etc/shadow /etc/hostname /home /root /var/lib /var/log "
             "/opt /srv "
             "/mnt /boot /dev/sda /dev/vda /dev/mem; do case $a in *\" $p/\"*) continue;; esac; "
             "test -e $p && r=\"$r $p\"; done; "
             "for p in /usr/bin/env /bin/sh /etc/ld.so.cache /proc/self/status /dev/null "
             "/dev/urandom /sys/devices /tmp; do test -e $p || r=\"$r no:$p\"; done; "
             "echo x > /dev/null || r=\"$r no:null\"; "
             "echo x > /new-top-level 2>/dev/null && r=\"$r root-writable\"; "
             "echo \"seen:$r\" > %s/report",
             SYNCLAB_SOURCE_DIR, SYNCLAB_BINARY_DIR, w.out);
    sl_proc_result r;
    run_in(&w, script, 10, 0, 0, 16, 1 << 20, &r);
    ck_assert(r.exited && r.code == 0);
    char *report = out_file(&w, "report");
    ck_assert_ptr_nonnull(report);
    ck_assert_str_eq(report, "seen:\n");
    free(report);
    sl_remove_tree(w.root, 1);
}
END_TEST

START_TEST(cannot_reach_the_gpu_turn_locks)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "lock");
    /* the default place (under /tmp) and a folder of one's own */
    char lockdir[700], prefix[800], turn[900];
    snprintf(lockdir, sizeof lockdir, "%s/locks", w.root);
    sl_mkdirs(lockdir);
    snprintf(prefix, sizeof prefix, "%s/synclab-gpu", lockdir);
    snprintf(turn, sizeof turn, "%s.turn", prefix);
    sl_write_file(turn, "");
    char tmp_lock[96];
    snprintf(tmp_lock, sizeof tmp_lock, "/tmp/synclab-gpu-sandbox-test-%ld.turn", (long)getpid());
    ck_assert_int_eq(sl_write_file(tmp_lock, ""), 0);
    setenv("SYNCLAB_GPU_LOCK", prefix, 1);
    char script[2400];
    snprintf(script, sizeof script,
             "r=''; test -e %s && r=\"$r own\"; test -e %s && "
             "r=\"$r tmp\"; echo \"locks:$r\" > %s/report",
             turn, tmp_lock, w.out);
    sl_proc_result r;
    run_in(&w, script, 10, 0, 0, 16, 1 << 20, &r);
    unsetenv("SYNCLAB_GPU_LOCK");
    unlink(tmp_lock);
    ck_assert(r.exited && r.code == 0);
    char *report = out_file(&w, "report");
    ck_assert_ptr_nonnull(report);
    ck_assert_str_eq(report, "locks:\n");
    free(report);
    sl_remove_tree(w.root, 1);
}
END_TEST

/* Threads of uid now: RLIMIT_NPROC counts every thread of the uid (a CUDA
 * process has dozens), outside the sandbox too. */
static long processes_of(uid_t uid)
{
    long n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        char path[300];
        struct stat st;
        snprintf(path, sizeof path, "/proc/%s/task", e->d_name);
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || stat(path, &st) != 0 || st.st_uid != uid)
            continue;
        DIR *t = opendir(path);
        for (struct dirent *k; t && (k = readdir(t)) != NULL;)
            n += k->d_name[0] != '.';
        if (t)
            closedir(t);
    }
    if (d)
        closedir(d);
    return n;
}

START_TEST(fork_bomb_is_bounded)
{
    /* root runs sandboxes as another uid (SYNCLAB_SANDBOX_UID, 65534), which
     * other graders' sandboxes share: under ctest -j their CUDA threads had
     * used the limit before this sandbox could start. A uid of its own (this
     * test runs in its own process, which has not looked at the sandbox yet) */
    if (geteuid() == 0 && !getenv("SYNCLAB_SANDBOX_UID"))
        setenv("SYNCLAB_SANDBOX_UID", "65531", 1);
    NEED_SANDBOX();
    world w;
    make_world(&w, "bomb");
    /* and count what that uid runs already */
    uid_t uid = getuid() == 0 ? (uid_t)sl_sandbox_job_uid() : getuid();
    long already = processes_of(uid), limit = already + 40;
    char script[1400];
    snprintf(script, sizeof script,
             "last=; n=0; i=0; while [ $i -lt 400 ]; do sleep 3 2>/dev/null & "
             "if [ \"$!\" != \"$last\" ]; then n=$((n+1)); last=$!; fi; "
             "echo $n > %s/count; i=$((i+1)); done 2>/dev/null; wait",
             w.out);
    sl_proc_result r;
    double t0 = sl_now();
    /* 6 s: on a loaded machine bubblewrap alone can take seconds to start the
     * shell; the bound under test is the process count, not the time */
    run_in(&w, script, 6.0, limit, 0, 16, 1 << 20, &r);
    ck_assert(sl_now() - t0 < 15);
    char *count = out_file(&w, "count");
    if (!count) {
        char *log = sl_read_file(w.log, 2000, NULL);
        ck_abort_msg("the sandboxed shell never ran (%ld threads of uid %ld, limit %ld): %s",
                     processes_of(uid), (long)uid, limit, log ? log : "");
    }
    /* processes started: at most the limit */
    ck_assert_msg(atol(count) <=
                      45 + (processes_of(uid) > already ? processes_of(uid) - already : 0),
                  "%ld processes started in the sandbox", atol(count));
    free(count);
    /* the grader carries on: the next run starts */
    sl_proc_result again;
    run_in(&w, "true", 10, 0, 0, 16, 1 << 20, &again);
    ck_assert(again.exited && again.code == 0);
    sl_remove_tree(w.root, 1);
}
END_TEST

/* Root grading from a private tree (a folder above the runner without o+x:
 * a mktemp -d, /root): the run is staged where the sandbox's uid reaches
 * it and runs as that uid, never as root; its outputs come back, a FIFO
 * does not. */
START_TEST(private_tree_is_staged_not_run_as_root)
{
    if (geteuid() != 0)
        return; /* only root drops to another uid */
    NEED_SANDBOX();
    world w;
    char private_dir[300];
    snprintf(private_dir, sizeof private_dir, "/tmp/synclab-private-%ld", (long)getpid());
    sl_remove_tree(private_dir, 1);
    ck_assert_int_eq(mkdir(private_dir, 0700), 0);
    snprintf(w.root, sizeof w.root, "%s/tree", private_dir);
    snprintf(w.in, sizeof w.in, "%s/in", w.root);
    snprintf(w.out, sizeof w.out, "%s/out", w.root);
    snprintf(w.log, sizeof w.log, "%s/run.log", w.root);
    ck_assert_int_eq(sl_mkdirs(w.in), 0);
    ck_assert_int_eq(sl_mkdirs(w.out), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/case0.in", w.in);
    ck_assert_int_eq(sl_write_file(path, "input\n"), 0);
    /* one input only the grader may read: staged as a copy, not a link */
    snprintf(path, sizeof path, "%s/case1.in", w.in);
    ck_assert_int_eq(sl_write_file(path, "12345\n"), 0);
    ck_assert_int_eq(chmod(path, 0600), 0);
    char script[1400];
    snprintf(script, sizeof script,
             "id -u > %s/uid; cat %s/case0.in %s/case1.in > %s/copy; mkfifo %s/fifo; "
             "ls %s > %s/seen",
             w.out, w.in, w.in, w.out, w.out, private_dir, w.out);
    /* the trace says what staging did (bench-class.sh sums it) */
    char trace[400];
    snprintf(trace, sizeof trace, "%s/trace", private_dir);
    fflush(stderr);
    int saved = dup(2), tf = open(trace, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert(saved >= 0 && tf >= 0);
    dup2(tf, 2);
    setenv("SYNCLAB_TRACE", "1", 1);
    sl_proc_result r;
    run_in(&w, script, 10, 0, 0, 16, 1 << 20, &r);
    unsetenv("SYNCLAB_TRACE");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(tf);
    ck_assert_msg(r.exited && r.code == 0, "exit %d: %s", r.code, sl_read_file(w.log, 2000, NULL));
    char *said = sl_read_file(trace, 1 << 16, NULL);
    ck_assert_ptr_nonnull(said);
    ck_assert_msg(strstr(said, "[trace] sandbox: staged: 1 linked, 1 copied (0.0 MB)") &&
                      strstr(said, "[trace] sandbox: outputs back: "),
                  "trace: %s", said);
    free(said);
    char *uid = out_file(&w, "uid"), *copy = out_file(&w, "copy"), *seen = out_file(&w, "seen");
    char want[32];
    snprintf(want, sizeof want, "%ld\n", sl_sandbox_job_uid());
    ck_assert_ptr_nonnull(uid);
    ck_assert_str_eq(uid, want);
    ck_assert_str_ne(uid, "0\n");
    ck_assert_ptr_nonnull(copy);
    ck_assert_str_eq(copy, "input\n12345\n");
    ck_assert_ptr_nonnull(seen);
    ck_assert_str_eq(seen, "tree\n"); /* only what the run needs, on a tmpfs */
    snprintf(path, sizeof path, "%s/fifo", w.out);
    struct stat st;
    ck_assert_int_ne(lstat(path, &st), 0);
    free(uid);
    free(copy);
    free(seen);
    sl_remove_tree(private_dir, 1);
}
END_TEST

/* One uid per concurrent job: two processes that start runs at once drop
 * to two uids, so RLIMIT_NPROC binds each job alone. */
START_TEST(concurrent_jobs_get_their_own_uids)
{
    if (geteuid() != 0)
        return;
    NEED_SANDBOX();
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    long mine = sl_sandbox_job_uid();
    pid_t child = fork();
    if (child == 0) {
        long theirs = sl_sandbox_job_uid();
        ssize_t w = write(fds[1], &theirs, sizeof theirs);
        _exit(w == (ssize_t)sizeof theirs ? 0 : 1);
    }
    long theirs = -1;
    ck_assert_int_eq(read(fds[0], &theirs, sizeof theirs), (ssize_t)sizeof theirs);
    waitpid(child, NULL, 0);
    ck_assert_int_ge(mine, sl_sandbox_uid());
    ck_assert_int_ge(theirs, sl_sandbox_uid());
    ck_assert_int_ne(mine, theirs);
}
END_TEST

START_TEST(big_file_is_stopped)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "big");
    char script[1400];
    snprintf(script, sizeof script, "dd if=/dev/zero of=%s/big bs=1M count=2048 2>/dev/null",
             w.out);
    sl_proc_result r;
    run_in(&w, script, 20, 0, 4 << 20, 16, 64 << 20, &r);
    /* RLIMIT_FSIZE: SIGXFSZ at 4 MiB */
    ck_assert_msg(r.signaled || (r.exited && r.code != 0), "exit %d", r.code);
    struct stat st;
    char path[700];
    snprintf(path, sizeof path, "%s/big", w.out);
    ck_assert(stat(path, &st) != 0 || st.st_size <= (4 << 20));
    sl_remove_tree(w.root, 1);
}
END_TEST

START_TEST(many_big_files_are_stopped)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "bytes");
    char script[1400];
    /* each under the per-file cap, together far over the folder's */
    snprintf(script, sizeof script,
             "i=0; while [ $i -lt 64 ]; do head -c 3000000 /dev/zero > %s/f$i; i=$((i+1)); "
             "sleep 0.02; done",
             w.out);
    sl_proc_result r;
    run_in(&w, script, 30, 0, 4 << 20, 1000, 16 << 20, &r);
    ck_assert(r.over_quota);
    long long entries, bytes;
    sl_tree_usage(w.out, &entries, &bytes);
    ck_assert_msg(bytes < (40LL << 20), "%lld bytes left", bytes);
    sl_remove_tree(w.out, 0);
    sl_tree_usage(w.out, &entries, &bytes);
    ck_assert_int_eq(entries, 0);
    sl_remove_tree(w.root, 1);
}
END_TEST

START_TEST(many_files_are_stopped)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "files");
    char script[1400];
    snprintf(script, sizeof script,
             "mkdir %s/d; i=0; while [ $i -lt 100000 ]; do : > %s/d/f$i; i=$((i+1)); done", w.out,
             w.out);
    sl_proc_result r;
    double t0 = sl_now();
    run_in(&w, script, 60, 0, 0, 50, 1 << 30, &r);
    ck_assert(r.over_quota);
    ck_assert(sl_now() - t0 < 30);
    long long entries, bytes;
    sl_tree_usage(w.out, &entries, &bytes);
    ck_assert_msg(entries < 20000, "%lld files left", entries);
    sl_remove_tree(w.root, 1);
}
END_TEST

START_TEST(private_tmp_and_no_network)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "tmp");
    char script[1400];
    snprintf(script, sizeof script,
             "echo x > /tmp/synclab-from-sandbox-$$ && echo x > /dev/shm/synclab-from-sandbox-$$ "
             "&& echo $$ > %s/pid; grep -c ':' /proc/net/dev > %s/ifaces",
             w.out, w.out);
    sl_proc_result r;
    run_in(&w, script, 10, 0, 0, 16, 1 << 20, &r);
    ck_assert(r.exited && r.code == 0);
    char *pid = out_file(&w, "pid"), *ifaces = out_file(&w, "ifaces");
    ck_assert_ptr_nonnull(pid);
    ck_assert_ptr_nonnull(ifaces);
    char path[200];
    snprintf(path, sizeof path, "/tmp/synclab-from-sandbox-%ld", atol(pid));
    ck_assert(access(path, F_OK) != 0); /* its /tmp was its own */
    snprintf(path, sizeof path, "/dev/shm/synclab-from-sandbox-%ld", atol(pid));
    ck_assert(access(path, F_OK) != 0);
    ck_assert_int_eq(atoi(ifaces), 1); /* loopback only */
    free(pid);
    free(ifaces);
    sl_remove_tree(w.root, 1);
}
END_TEST

START_TEST(missing_bubblewrap_falls_back)
{
    /* a fresh process: the probe has not run yet */
    setenv("SYNCLAB_SANDBOX", "0", 1);
    ck_assert_int_eq(sl_sandbox_available(), 0);
    ck_assert_ptr_nonnull(strstr(sl_sandbox_status(), "sandbox: unavailable ("));
    ck_assert_ptr_nonnull(strstr(sl_sandbox_status(), "contained only by"));
    world w;
    make_world(&w, "fallback");
    char script[1400];
    snprintf(script, sizeof script, "cat %s/case0.in > %s/case0.out", w.in, w.out);
    sl_proc_result r;
    run_in(&w, script, 10, 0, 0, 16, 1 << 20, &r);
    ck_assert(r.exited && r.code == 0 && !r.spawn_failed);
    char *out = out_file(&w, "case0.out");
    ck_assert_str_eq(out, "input\n");
    free(out);
    sl_remove_tree(w.root, 1);
    unsetenv("SYNCLAB_SANDBOX");
}
END_TEST

START_TEST(sandbox_status_is_said)
{
    const char *s = sl_sandbox_status();
    ck_assert(strncmp(s, "sandbox: ", 9) == 0);
    ck_assert_int_eq(sl_sandbox_available(), strstr(s, "unavailable") == NULL);
}
END_TEST

START_TEST(status_of_bubblewrap)
{
    ck_assert(sl_sandbox_started("{ \"child-pid\": 12, \"mnt-namespace\": 1 }\n"));
    ck_assert(!sl_sandbox_started(""));
    ck_assert(!sl_sandbox_started(NULL));
    ck_assert_int_eq(sl_sandbox_child_pid("{ \"child-pid\": 12, \"mnt-namespace\": 1 }\n"
                                          "{ \"exit-code\": 0 }\n"),
                     12);
    ck_assert_int_eq(sl_sandbox_child_pid("{ \"exit-code\": 0 }\n"), -1);
    ck_assert_int_eq(sl_sandbox_child_pid("{ \"child-pid\": \"12\" }\n"), -1);
    ck_assert_int_eq(sl_sandbox_child_pid("{ \"child-pid\": 0 }\n"), -1);
    ck_assert_int_eq(sl_sandbox_child_pid(""), -1);
    ck_assert_int_eq(sl_sandbox_child_pid(NULL), -1);
}
END_TEST

/* A sandboxed run's CPU time is its command's: bubblewrap leaves its init
 * (which waited for the command) to the subreaper, which the grader is;
 * counted only through the outer bubblewrap, a busy run read about 0 s of
 * CPU (every sweep and compile in the trace, issue 29). */
START_TEST(sandboxed_cpu_time_is_counted)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "cpu");
    sl_proc_result r;
    run_in(&w, "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; echo done", 60, 0, 0, 16,
           1 << 20, &r);
    ck_assert_msg(r.exited && r.code == 0, "exit %d signal %d spawn_failed %d", r.code, r.sig,
                  r.spawn_failed);
    ck_assert_msg(r.cpu_seconds > 0.1 && r.cpu_seconds > 0.3 * r.seconds,
                  "%.2f s of CPU counted in %.2f s", r.cpu_seconds, r.seconds);
    /* nothing of it was left behind: the init was reaped, not orphaned */
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
    sl_remove_tree(w.root, 1);
}
END_TEST

/* grade.h: a tool run is clean only if it launched kernels ("@@launches N"
 * after each input; the last count of an input is the harness's). */
static int launched(const char *log)
{
    char path[96];
    snprintf(path, sizeof path, "/tmp/synclab_sandbox_launches.%ld.log", (long)getpid());
    sl_write_file(path, log);
    int ok = sl_log_launched(path);
    unlink(path);
    return ok;
}

START_TEST(tool_run_without_launches_is_not_clean)
{
    ck_assert(launched("@@case 0\n@@launches 2\n@@case 1\n@@launches 0\n"));
    ck_assert(!launched("@@case 0\n@@launches 0\n@@case 1\n@@launches 0\n"));
    /* the student printing a count before the harness's does not help */
    ck_assert(!launched("@@case 0\n@@launches 9\n@@launches 0\n"));
    /* a sweep: every exercise must have launched something */
    ck_assert(!launched("@@exercise a\n@@case 0\n@@launches 3\n"
                        "@@exercise b\n@@case 0\n@@launches 0\n"));
    ck_assert(launched("@@exercise a\n@@case 0\n@@launches 3\n"
                       "@@exercise b\n@@case 0\n@@launches 1\n"));
    /* a runner that does not count says nothing */
    ck_assert(launched("@@case 0\n@@case 1\n"));
}
END_TEST

/* An MPS client (the sweep's runs under --mps) sees the daemon's pipe
 * folder and the host's /dev/shm, and runs as any other run does (the
 * daemon has the sandbox's uid: mps.c); any other run sees none of it (its
 * /tmp and /dev/shm are its own). */
static void mps_probe(world *w, const char *pipes, const char *shm_mark, int client, char **report)
{
    sl_sandbox box = {0};
    sl_sandbox_ro(&box, w->in);
    sl_sandbox_rw(&box, w->out);
    box.mps_pipes = client ? pipes : NULL;
    sl_proc_opts o = {0};
    o.out_path = w->log;
    o.out_cap = 1 << 20;
    o.timeout_s = 10;
    o.box = &box;
    char script[2000];
    snprintf(script, sizeof script,
             "r=''; test -e %s/control && r=\"$r pipes\"; test -e %s && r=\"$r shm\"; "
             "echo \"$r uid=$(id -u)\" > %s/report",
             pipes, shm_mark, w->out);
    char *argv[] = {"/bin/sh", "-c", script, NULL};
    sl_proc_result r;
    sl_proc_run_opts(argv, &o, &r);
    ck_assert_msg(r.exited && r.code == 0, "exit %d", r.code);
    *report = out_file(w, "report");
    ck_assert_ptr_nonnull(*report);
}

START_TEST(mps_client_sees_the_daemon_only)
{
    NEED_SANDBOX();
    world w;
    make_world(&w, "mps");
    char pipes[200], control[300], shm_mark[200];
    snprintf(pipes, sizeof pipes, "/tmp/synclab-test-mps-%ld", (long)getpid());
    snprintf(control, sizeof control, "%s/control", pipes);
    snprintf(shm_mark, sizeof shm_mark, "/dev/shm/synclab-test-mps-%ld", (long)getpid());
    ck_assert_int_eq(sl_mkdirs(pipes), 0);
    ck_assert_int_eq(sl_write_file(control, "x"), 0);
    int have_shm = sl_write_file(shm_mark, "x") == 0;
    char *client = NULL, *other = NULL, uid[32];
    mps_probe(&w, pipes, shm_mark, 1, &client);
    mps_probe(&w, pipes, shm_mark, 0, &other);
    /* root drops every run to the sandbox's uid, the daemon's: clients too
     * (RLIMIT_NPROC binds them, they cannot signal the grader) */
    snprintf(uid, sizeof uid, "uid=%ld\n",
             sl_sandbox_uid() >= 0 ? sl_sandbox_uid() : (long)getuid());
    ck_assert_msg(strstr(client, " pipes") && strstr(client, uid), "%s", client);
    ck_assert_msg(!have_shm || strstr(client, " shm"), "%s", client);
    /* a run that is no client has its job's own uid (one per concurrent job) */
    snprintf(uid, sizeof uid, "uid=%ld\n",
             sl_sandbox_job_uid() >= 0 ? sl_sandbox_job_uid() : (long)getuid());
    ck_assert_msg(!strstr(other, "pipes") && !strstr(other, "shm") && strstr(other, uid), "%s",
                  other);
    free(client);
    free(other);
    unlink(shm_mark);
    sl_remove_tree(pipes, 1);
    sl_remove_tree(w.root, 1);
}
END_TEST

/* Only with a daemon of ours does a run become its client, and the
 * harness's mode stays in its environment beside the pipe folder. */
START_TEST(mps_client_environment)
{
    for (int tool = 0; tool < 2; tool++) {
        sl_sandbox box;
        sl_proc_opts o;
        unsetenv("SYNCLAB_MPS_PIPES");
        sl_runner_opts("/bin/true", "compute-sanitizer", tool ? SL_TOOL_RACECHECK : 0, NULL, "/tmp",
                       1, "/dev/null", 5, &box, &o);
        const char *const *env = o.env;
        ck_assert_int_eq(sl_runner_mps_client(&box, &o), 0);
        ck_assert(o.env == env && !box.mps_pipes);
        setenv("SYNCLAB_MPS_PIPES", "/tmp/synclab-mps-1/pipe", 1);
        ck_assert_str_eq(sl_mps_pipes(), "/tmp/synclab-mps-1/pipe");
        ck_assert_int_eq(sl_runner_mps_client(&box, &o), 1);
        ck_assert_str_eq(box.mps_pipes, "/tmp/synclab-mps-1/pipe");
        ck_assert_str_eq(o.env[0], env[0]); /* the mode */
        ck_assert_str_eq(o.env[1], env[1]); /* its device memory */
        ck_assert_str_eq(o.env[2], env[2]); /* one work queue (default levers) */
        ck_assert_str_eq(o.env[3], "CUDA_MPS_PIPE_DIRECTORY=/tmp/synclab-mps-1/pipe");
        ck_assert_ptr_null(o.env[4]);
        unsetenv("SYNCLAB_MPS_PIPES");
    }
}
END_TEST

/* What the memory levers give each kind of run; both kinds carry
 * the same names in their environment (a student's code cannot tell a tool
 * run by a name that is missing). */
static const char *env_of(int tool, const char *levers, int mps)
{
    sl_sandbox box;
    sl_proc_opts o;
    if (levers)
        setenv("SYNCLAB_LEVERS", levers, 1);
    else /* the default levers */
        unsetenv("SYNCLAB_LEVERS");
    if (mps)
        setenv("SYNCLAB_MPS_PIPES", "/tmp/synclab-mps-1/pipe", 1);
    sl_runner_opts("/bin/true", "compute-sanitizer", tool, NULL, "/tmp", 1, "/dev/null", 5, &box,
                   &o);
    sl_runner_mps_client(&box, &o);
    unsetenv("SYNCLAB_MPS_PIPES");
    unsetenv("SYNCLAB_LEVERS");
    static char joined[512];
    joined[0] = '\0';
    for (int i = 0; o.env[i]; i++)
        snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s", i ? " " : "",
                 o.env[i]);
    return joined;
}

/* Reuse where no check can tell: plain runs with "alloc"; racecheck and
 * synccheck runs with "toolalloc"; memcheck and initcheck never, whatever
 * the levers (they judge global memory by its allocations). */
START_TEST(device_memory_is_reused_where_no_check_sees_it)
{
    for (int mps = 0; mps < 2; mps++) {
        const char *pipe = mps ? " CUDA_MPS_PIPE_DIRECTORY=/tmp/synclab-mps-1/pipe" : "";
        char want[256];
        snprintf(want, sizeof want, "SYNCLAB_RUN_MODE=plain SYNCLAB_DEVICE_MEMORY=reuse%s", pipe);
        ck_assert_str_eq(env_of(0, "dedup,alloc", mps), want);
        snprintf(want, sizeof want, "SYNCLAB_RUN_MODE=plain SYNCLAB_DEVICE_MEMORY=exact%s", pipe);
        ck_assert_str_eq(env_of(0, "dedup,initcheck", mps), want);
        ck_assert_str_eq(env_of(0, "none", mps), want);
        ck_assert_str_eq(env_of(0, "toolalloc", mps), want);
        char exact[256], reuse[256];
        snprintf(exact, sizeof exact, "SYNCLAB_RUN_MODE=tools SYNCLAB_DEVICE_MEMORY=exact%s", pipe);
        snprintf(reuse, sizeof reuse, "SYNCLAB_RUN_MODE=tools SYNCLAB_DEVICE_MEMORY=reuse%s", pipe);
        for (int k = 0; k < SL_NTOOLS; k++) {
            int tool = SL_TOOL_ORDER[k];
            int blind = tool == SL_TOOL_RACECHECK || tool == SL_TOOL_SYNCCHECK;
            ck_assert_str_eq(env_of(tool, "dedup,alloc", mps), exact);
            ck_assert_str_eq(env_of(tool, "none", mps), exact);
            ck_assert_str_eq(env_of(tool, "alloc,toolalloc", mps), blind ? reuse : exact);
            ck_assert_str_eq(env_of(tool, "toolalloc", mps), blind ? reuse : exact);
        }
        ck_assert_str_eq(env_of(SL_TOOL_MEMCHECK, "toolalloc", mps), exact);
        ck_assert_str_eq(env_of(SL_TOOL_INITCHECK, "toolalloc", mps), exact);
    }
}
END_TEST

/* "connections": every run, plain or under any tool, MPS client or not,
 * makes its context with one work queue; without the lever, none is set. */
START_TEST(one_work_queue_with_connections)
{
    for (int mps = 0; mps < 2; mps++) {
        const char *pipe = mps ? " CUDA_MPS_PIPE_DIRECTORY=/tmp/synclab-mps-1/pipe" : "";
        char want[256];
        snprintf(want, sizeof want,
                 "SYNCLAB_RUN_MODE=plain SYNCLAB_DEVICE_MEMORY=reuse "
                 "CUDA_DEVICE_MAX_CONNECTIONS=1%s",
                 pipe);
        ck_assert_str_eq(env_of(0, "alloc,connections", mps), want);
        for (int k = 0; k < SL_NTOOLS; k++) {
            int tool = SL_TOOL_ORDER[k];
            int blind = tool == SL_TOOL_RACECHECK || tool == SL_TOOL_SYNCCHECK;
            snprintf(want, sizeof want,
                     "SYNCLAB_RUN_MODE=tools SYNCLAB_DEVICE_MEMORY=%s "
                     "CUDA_DEVICE_MAX_CONNECTIONS=1%s",
                     blind ? "reuse" : "exact", pipe);
            ck_assert_str_eq(env_of(tool, "toolalloc,connections", mps), want);
            ck_assert_ptr_null(strstr(env_of(tool, "toolalloc", mps), "CONNECTIONS"));
        }
        ck_assert_ptr_null(strstr(env_of(0, "alloc", mps), "CONNECTIONS"));
    }
}
END_TEST

/* "sleepwait": every run is told to wait for its kernels asleep after a
 * short spin, and the variable fits beside all the others, an MPS
 * client's pipe included; without the lever, none is set. */
START_TEST(sleep_wait_with_sleepwait)
{
    for (int mps = 0; mps < 2; mps++) {
        const char *pipe = mps ? " CUDA_MPS_PIPE_DIRECTORY=/tmp/synclab-mps-1/pipe" : "";
        char want[256];
        snprintf(want, sizeof want,
                 "SYNCLAB_RUN_MODE=plain SYNCLAB_DEVICE_MEMORY=reuse "
                 "CUDA_DEVICE_MAX_CONNECTIONS=1 SYNCLAB_GPU_WAIT=hybrid%s",
                 pipe);
        ck_assert_str_eq(env_of(0, "alloc,connections,sleepwait", mps), want);
        for (int k = 0; k < SL_NTOOLS; k++) {
            int tool = SL_TOOL_ORDER[k];
            ck_assert_ptr_nonnull(
                strstr(env_of(tool, "sleepwait", mps), "SYNCLAB_GPU_WAIT=hybrid"));
            ck_assert_ptr_null(strstr(env_of(tool, "toolalloc,connections", mps), "GPU_WAIT"));
        }
        ck_assert_ptr_null(strstr(env_of(0, NULL, mps), "GPU_WAIT"));
    }
}
END_TEST

Suite *sandbox_suite(void)
{
    Suite *s = suite_create("sandbox");
    TCase *tc = tcase_create("attacks");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, runs_and_writes_its_outputs);
    tcase_add_test(tc, cannot_write_outside_its_folder);
    tcase_add_test(tc, cannot_read_hidden_folders);
    tcase_add_test(tc, sees_only_what_a_runner_needs);
    tcase_add_test(tc, cannot_reach_the_gpu_turn_locks);
    tcase_add_test(tc, fork_bomb_is_bounded);
    tcase_add_test(tc, private_tree_is_staged_not_run_as_root);
    tcase_add_test(tc, concurrent_jobs_get_their_own_uids);
    tcase_add_test(tc, big_file_is_stopped);
    tcase_add_test(tc, many_big_files_are_stopped);
    tcase_add_test(tc, many_files_are_stopped);
    tcase_add_test(tc, private_tmp_and_no_network);
    tcase_add_test(tc, missing_bubblewrap_falls_back);
    tcase_add_test(tc, sandbox_status_is_said);
    tcase_add_test(tc, status_of_bubblewrap);
    tcase_add_test(tc, sandboxed_cpu_time_is_counted);
    tcase_add_test(tc, tool_run_without_launches_is_not_clean);
    tcase_add_test(tc, mps_client_sees_the_daemon_only);
    tcase_add_test(tc, mps_client_environment);
    tcase_add_test(tc, device_memory_is_reused_where_no_check_sees_it);
    tcase_add_test(tc, one_work_queue_with_connections);
    tcase_add_test(tc, sleep_wait_with_sleepwait);
    suite_add_tcase(s, tc);
    return s;
}
