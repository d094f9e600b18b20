#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "case.h"
#include "files.h"
#include "memory.h"
#include "proc.h"
#include "text.h"
#include "unit.h"

static char log_path[4200]; /* in unit_tmp_dir(), set by proc_suite */

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

START_TEST(stopped_child_is_killed_as_timed_out)
{
    /* a tool the grader no longer needs (the plain run already hung) */
    char *argv[] = {"sh", "-c", "sleep 100 & sleep 100", NULL};
    sl_proc p;
    sl_proc_opts o = {0};
    o.out_path = log_path;
    o.out_cap = 1 << 20;
    o.timeout_s = 60;
    ck_assert_int_eq(sl_proc_spawn(&p, argv, &o), 0);
    double t0 = sl_now();
    sl_proc_stop(&p);
    sl_proc_result r;
    sl_proc_wait(&p, &r);
    ck_assert(r.timed_out);
    ck_assert(sl_now() - t0 < 5.0);
}
END_TEST

START_TEST(stopping_an_ended_child_keeps_its_end)
{
    char *argv[] = {"sh", "-c", "exit 4", NULL};
    sl_proc p;
    sl_proc_opts o = {0};
    o.out_path = log_path;
    o.out_cap = 1 << 20;
    o.timeout_s = 60;
    ck_assert_int_eq(sl_proc_spawn(&p, argv, &o), 0);
    usleep(500 * 1000);
    sl_proc_stop(&p);
    sl_proc_result r;
    sl_proc_wait(&p, &r);
    ck_assert(!r.timed_out);
    ck_assert(r.exited && r.code == 4);
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

/* A run whose limits count from a ready line (a runner under a tool on a
 * loaded machine starts slowly; its own work is what the limits time). */
static void run_ready(const char *script, double timeout_s, double idle_s, double start_s,
                      sl_proc_result *r)
{
    char *argv[] = {"sh", "-c", (char *)script, NULL};
    sl_proc_opts o = {0};
    o.out_path = log_path;
    o.out_cap = 1 << 20;
    o.timeout_s = timeout_s;
    o.idle_s = idle_s;
    o.ready_mark = "@@ready";
    o.start_s = start_s;
    sl_proc_run_opts(argv, &o, r);
}

START_TEST(slow_start_is_not_counted)
{
    /* 1.5 s silent before the mark, then quick: a 0.5 s limit holds */
    sl_proc_result r;
    run_ready("sleep 1.5; echo @@ready; echo done", 0.5, 0.4, 30, &r);
    ck_assert(!r.timed_out && !r.not_ready);
    ck_assert(r.exited && r.code == 0);
    ck_assert(r.seconds >= 1.5); /* seconds stay the whole run's */
}
END_TEST

/* The start (until the ready line) is told apart from the run: the bench
 * shows how long runners wait for their CUDA context (issue 29). */
START_TEST(the_start_is_measured)
{
    sl_proc_result r;
    run_ready("sleep 0.5; echo @@ready; sleep 0.5", 30, 0, 30, &r);
    ck_assert(r.exited && r.code == 0);
    ck_assert_msg(r.ready_s >= 0.45 && r.ready_s < 0.9, "ready after %.2f s", r.ready_s);
    ck_assert(r.seconds >= 1.0);
    char note[48];
    ck_assert(strncmp(sl_proc_ready_note(&r, note, sizeof note), ", ready after 0.", 16) == 0);
    run_ready("sleep 0.2", 30, 0, 30, &r); /* never ready: no start time */
    ck_assert(r.exited && r.ready_s == 0);
    ck_assert_str_eq(sl_proc_ready_note(&r, note, sizeof note), "");
}
END_TEST

/* The mark is a whole line: the watch (proc.c) and the judge (grade.c's
 * said_ready) read it alike. */
/* A grader program's answer, read back (nvidia-smi's, the probe's). */
START_TEST(output_is_read_back)
{
    sl_proc_result r;
    char *echo[] = {"sh", "-c", "echo 42 7; echo oops >&2", NULL};
    char *text = sl_proc_output(echo, 4096, 10, &r);
    ck_assert(r.exited && r.code == 0);
    ck_assert_str_eq(text, "42 7\noops\n");
    free(text);
    char *quiet[] = {"true", NULL};
    text = sl_proc_output(quiet, 4096, 10, &r);
    ck_assert_str_eq(text, "");
    free(text);
    char *missing[] = {"/nonexistent/synclab-tool", NULL};
    text = sl_proc_output(missing, 4096, 10, &r);
    ck_assert(r.spawn_failed);
    free(text);
    /* nowhere to catch it: nothing runs */
    setenv("TMPDIR", "/nonexistent/synclab-tmp", 1);
    ck_assert_ptr_null(sl_proc_output(echo, 4096, 10, &r));
    unsetenv("TMPDIR");
}
END_TEST

START_TEST(ready_mark_is_a_whole_line)
{
    ck_assert(sl_has_line("@@ready\n", "@@ready"));
    ck_assert(sl_has_line("runner: start\n@@ready", "@@ready"));
    ck_assert(!sl_has_line("@@readyX\n", "@@ready"));
    ck_assert(!sl_has_line("say @@ready\n", "@@ready"));
    ck_assert(!sl_has_line("", "@@ready"));
    ck_assert(!sl_has_line(NULL, "@@ready"));
    sl_proc_result r;
    run_ready("echo @@readyX; sleep 0.3", 30, 0, 30, &r);
    ck_assert(r.exited && r.ready_s == 0);
    run_ready("echo start; echo @@ready; sleep 0.3", 30, 0, 30, &r);
    ck_assert(r.exited && r.ready_s > 0);
}
END_TEST

START_TEST(work_after_ready_is_timed)
{
    sl_proc_result r;
    double t0 = sl_now();
    run_ready("echo @@ready; sleep 100", 0.5, 0, 30, &r);
    ck_assert(r.timed_out && !r.not_ready);
    ck_assert(sl_now() - t0 < 5.0);
}
END_TEST

START_TEST(silence_after_ready_is_a_hang)
{
    sl_proc_result r;
    run_ready("sleep 1; echo @@ready; sleep 100", 30, 0.5, 30, &r);
    ck_assert(r.timed_out && !r.not_ready);
    ck_assert(r.seconds < 5.0);
}
END_TEST

START_TEST(no_ready_line_meets_the_start_limit)
{
    /* the mark must start a line: a program cannot print it mid-line */
    sl_proc_result r;
    double t0 = sl_now();
    run_ready("echo x@@ready; echo @@readyy; sleep 100", 0.2, 0.2, 1.0, &r);
    ck_assert(r.timed_out && r.not_ready);
    ck_assert(sl_now() - t0 >= 1.0 && sl_now() - t0 < 5.0);
}
END_TEST

/* Two children, as a tool batch beside a plain run: `first` (30 s) is
 * waited for, then `second` (second_s, its folder quota if any), which
 * was watched meanwhile. */
static void run_pair(const char *first, const char *second, double second_s, const char *quota_dir,
                     sl_proc_result *ra, sl_proc_result *rb)
{
    const char *scripts[2] = {first, second};
    sl_proc p[2];
    for (int i = 0; i < 2; i++) {
        char *argv[] = {"sh", "-c", (char *)scripts[i], NULL};
        sl_proc_opts o = {0};
        static char out_path[2][4200]; /* the watch may keep the path */
        snprintf(out_path[i], sizeof out_path[i], "%s/proc_test_%c.log", unit_tmp_dir(), "ab"[i]);
        o.out_path = out_path[i];
        o.out_cap = 1 << 20;
        o.timeout_s = i ? second_s : 30;
        o.quota_dir = i ? quota_dir : NULL;
        o.quota_entries = quota_dir ? 16 : 0;
        ck_assert_int_eq(sl_proc_spawn(&p[i], argv, &o), 0);
    }
    sl_proc_wait(&p[0], ra);
    sl_proc_wait(&p[1], rb);
}

START_TEST(the_other_child_meets_its_limit)
{
    sl_proc_result ra, rb;
    run_pair("sleep 4", "sleep 100", 0.5, NULL, &ra, &rb);
    ck_assert(ra.exited && ra.code == 0 && ra.seconds >= 4.0);
    /* killed at 0.5 s while the other was waited for, and it says so */
    ck_assert(rb.timed_out && !rb.exited);
    ck_assert_msg(rb.seconds < 2.5, "%.2f s", rb.seconds);
}
END_TEST

START_TEST(the_other_childs_end_is_its_own)
{
    sl_proc_result ra, rb;
    run_pair("sleep 4", "exit 3", 30, NULL, &ra, &rb);
    ck_assert(rb.exited && rb.code == 3);
    ck_assert_msg(rb.seconds < 2.5, "%.2f s", rb.seconds); /* not when it was reaped */
}
END_TEST

START_TEST(the_other_child_meets_its_quota)
{
    char dir[100], script[300];
    snprintf(dir, sizeof dir, "/tmp/synclab_proc_test_quota_%ld", (long)getpid());
    sl_remove_tree(dir, 1);
    ck_assert_int_eq(sl_mkdirs(dir), 0);
    snprintf(script, sizeof script, "i=0; while :; do : > %s/f$i; i=$((i+1)); done", dir);
    sl_proc_result ra, rb;
    run_pair("sleep 4", script, 30, dir, &ra, &rb);
    long long entries = 0, bytes = 0;
    sl_tree_usage(dir, &entries, &bytes);
    ck_assert(rb.over_quota);
    /* stopped at the next tenth-of-a-second check, not 4 s later when its
     * own wait began. Time is the claim: how many files a shell makes in a
     * tenth of a second depends on the machine (CI made 6210); the margin
     * is for a machine busy compiling beside the suite. */
    ck_assert_msg(rb.seconds < 2.5, "%.2f s, %lld files", rb.seconds, entries);
    sl_remove_tree(dir, 1);
}
END_TEST

/* until() for the tests below: the log holds "half" */
static int log_says_half(void *arg)
{
    char *text = sl_read_file(arg, 1024, NULL);
    int yes = text && strstr(text, "half");
    free(text);
    return yes;
}

START_TEST(wait_until_returns_while_the_child_runs)
{
    /* the lesson sweep starts its tools once the plain runner is halfway */
    char *argv[] = {"sh", "-c", "echo half; sleep 3; echo done; exit 4", NULL};
    sl_proc_opts o = {0};
    o.out_path = log_path;
    o.out_cap = 1 << 20;
    o.timeout_s = 10;
    sl_proc p;
    ck_assert_int_eq(sl_proc_spawn(&p, argv, &o), 0);
    sl_proc_result r;
    double t0 = sl_now();
    ck_assert_int_eq(sl_proc_wait_until(&p, &r, log_says_half, (void *)log_path), 0);
    ck_assert(sl_now() - t0 < 2.5); /* before the child's sleep ended */
    sl_proc_wait(&p, &r);
    ck_assert(r.exited);
    ck_assert_int_eq(r.code, 4);
    char *out = sl_read_file(log_path, 1024, NULL);
    ck_assert_str_eq(out, "half\ndone\n");
    free(out);
}
END_TEST

START_TEST(wait_until_reports_a_child_that_ended_first)
{
    char *argv[] = {"sh", "-c", "echo nothing; exit 2", NULL};
    sl_proc_opts o = {0};
    o.out_path = log_path;
    o.out_cap = 1 << 20;
    o.timeout_s = 10;
    sl_proc p;
    ck_assert_int_eq(sl_proc_spawn(&p, argv, &o), 0);
    sl_proc_result r;
    ck_assert_int_eq(sl_proc_wait_until(&p, &r, log_says_half, (void *)log_path), 1);
    ck_assert(r.exited);
    ck_assert_int_eq(r.code, 2);
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

START_TEST(exit_127_is_the_programs)
{
    /* a program may exit with any code: only a failed exec is ours */
    char *argv[] = {"sh", "-c", "exit 127", NULL};
    sl_proc_result r;
    sl_proc_run(argv, log_path, 1 << 20, 10, &r);
    ck_assert(!r.spawn_failed);
    ck_assert(r.exited && r.code == 127);
}
END_TEST

START_TEST(environment_reaches_the_child)
{
    const char *env[] = {"SYNCLAB_RUN_MODE=tools", NULL};
    sl_proc_opts o = {0};
    o.out_path = log_path;
    o.timeout_s = 10;
    o.env = env;
    char *argv[] = {"sh", "-c", "printf %s \"$SYNCLAB_RUN_MODE\"", NULL};
    sl_proc_result r;
    sl_proc_run_opts(argv, &o, &r);
    ck_assert(r.exited && r.code == 0);
    char *out = sl_read_file(log_path, 1024, NULL);
    ck_assert_str_eq(out, "tools");
    free(out);
    ck_assert_ptr_null(getenv("SYNCLAB_RUN_MODE")); /* the grader's own is untouched */
}
END_TEST

/* A runner's protocol and its program output go to two files through
 * descriptors at random numbers (SL_PROTO_FDS): a line printed on stdout
 * is the program's, never the protocol's. */
START_TEST(protocol_and_program_output_are_apart)
{
    sl_proc_opts o = {0};
    o.out_path = log_path;
    o.timeout_s = 10;
    snprintf(o.program_path, sizeof o.program_path, "%s.program", log_path);
    char *argv[] = {"bash", "-c",
                    "set -- $" SL_PROTO_FDS "; test $1 -ge 100 && test $2 -ge 100 && "
                    "echo '@@case 0' >&$1 && echo 'CUDA error: printed' >&$2 && "
                    "exec 1>&$2 && echo '@@case 7'",
                    NULL};
    sl_proc_result r;
    sl_proc_run_opts(argv, &o, &r);
    ck_assert(r.exited && r.code == 0);
    char *proto = sl_read_file(log_path, 1024, NULL),
         *program = sl_read_file(o.program_path, 1024, NULL);
    ck_assert_str_eq(proto, "@@case 0\n");
    ck_assert_str_eq(program, "CUDA error: printed\n@@case 7\n");
    free(proto);
    free(program);
    unlink(o.program_path);
    ck_assert_ptr_null(getenv(SL_PROTO_FDS));
}
END_TEST

/* per process: several runs of these tests may share /tmp */
static char dir[64];
static void use_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/synclab_proc_test_dir.%ld", (long)getpid());
}

START_TEST(atomic_write_replaces_our_file)
{
    use_dir();
    sl_remove_tree(dir, 1);
    sl_mkdirs(dir);
    char path[256];
    snprintf(path, sizeof path, "%s/results.json", dir);
    ck_assert_int_eq(sl_write_file(path, "old"), 0);
    ck_assert_int_eq(sl_write_file(path, "new"), 0);
    char *text = sl_read_file(path, 100, NULL);
    ck_assert_str_eq(text, "new");
    free(text);
    long long entries, bytes;
    sl_tree_usage(dir, &entries, &bytes);
    ck_assert_int_eq(entries, 1); /* no temporary file left */
    sl_remove_tree(dir, 1);
}
END_TEST

START_TEST(atomic_write_refuses_planted_files)
{
    use_dir();
    sl_remove_tree(dir, 1);
    sl_mkdirs(dir);
    char path[256];
    /* read-only: planted by someone to keep a forged result */
    snprintf(path, sizeof path, "%s/results.json", dir);
    ck_assert_int_eq(sl_write_file(path, "{score: 250}"), 0);
    chmod(path, 0444);
    ck_assert_int_eq(sl_write_file(path, "ours"), -1);
    char *text = sl_read_file(path, 100, NULL);
    ck_assert_str_eq(text, "{score: 250}");
    free(text);
    /* a folder, a link */
    snprintf(path, sizeof path, "%s/gradescope.json", dir);
    sl_mkdirs(path);
    ck_assert_int_eq(sl_write_file(path, "ours"), -1);
    snprintf(path, sizeof path, "%s/junit.xml", dir);
    char target[96];
    snprintf(target, sizeof target, "%s.target", dir);
    ck_assert_int_eq(symlink(target, path), 0);
    ck_assert_int_eq(sl_write_file(path, "ours"), -1);
    ck_assert(access(target, F_OK) != 0);
    long long entries, bytes;
    sl_tree_usage(dir, &entries, &bytes);
    ck_assert_int_eq(entries, 3); /* nothing partial left behind */
    sl_remove_tree(dir, 1);
    ck_assert(access(dir, F_OK) != 0);
}
END_TEST

START_TEST(remove_tree_opens_locked_folders)
{
    use_dir();
    sl_remove_tree(dir, 1);
    char sub[256], file[300];
    snprintf(sub, sizeof sub, "%s/a/b", dir);
    sl_mkdirs(sub);
    snprintf(file, sizeof file, "%s/f", sub);
    sl_write_file(file, "x");
    snprintf(sub, sizeof sub, "%s/a", dir);
    chmod(sub, 0);
    sl_remove_tree(dir, 0);
    long long entries, bytes;
    sl_tree_usage(dir, &entries, &bytes);
    ck_assert_int_eq(entries, 0);
    ck_assert(access(dir, F_OK) == 0);
    sl_remove_tree(dir, 1);
}
END_TEST

/* ---------- the machine's memory (memory.h) ---------- */

static char oom_file[4200]; /* stands in for memory.events (SYNCLAB_OOM_KILLS_FILE) */

/* Runs script with the kernel's count of OOM kills at 3 before it. */
static void run_counted(const char *script, sl_proc_result *r)
{
    ck_assert_int_eq(sl_write_file(oom_file, "oom 0\noom_kill 3\noom_group_kill 0\n"), 0);
    setenv("SYNCLAB_OOM_KILLS_FILE", oom_file, 1);
    char cmd[8600];
    snprintf(cmd, sizeof cmd, "F='%s'; %s", oom_file, script);
    char *argv[] = {"sh", "-c", cmd, NULL};
    sl_proc_run(argv, log_path, 1 << 20, 10, r);
}

#define OOM_KILL "printf 'oom 1\\noom_kill 4\\n' >\"$F\""

START_TEST(oom_kill_is_a_sigkill_while_the_kernel_counts_one)
{
    sl_proc_result r;
    run_counted(OOM_KILL "; kill -KILL $$", &r);
    ck_assert(r.signaled && r.sig == SIGKILL);
    ck_assert_int_eq(r.oom_kills, 1);
    ck_assert(sl_proc_oom_killed(&r));
    /* bubblewrap reports its command's SIGKILL as 128 + 9 */
    run_counted(OOM_KILL "; exit 137", &r);
    ck_assert(r.exited && r.code == 137);
    ck_assert(sl_proc_oom_killed(&r));
}
END_TEST

START_TEST(other_ends_are_not_oom_kills)
{
    sl_proc_result r;
    run_counted("kill -KILL $$", &r); /* the program's own SIGKILL */
    ck_assert(r.signaled && r.sig == SIGKILL);
    ck_assert_int_eq(r.oom_kills, 0);
    ck_assert(!sl_proc_oom_killed(&r));
    run_counted(OOM_KILL "; exit 0", &r); /* another process was killed */
    ck_assert_int_eq(r.oom_kills, 1);
    ck_assert(!sl_proc_oom_killed(&r));
    run_counted(OOM_KILL "; kill -SEGV $$", &r);
    ck_assert(!sl_proc_oom_killed(&r));
    run_counted(OOM_KILL "; exit 3", &r);
    ck_assert(!sl_proc_oom_killed(&r));
    /* a count that cannot be read is unknown, never a kill */
    setenv("SYNCLAB_OOM_KILLS_FILE", "/nonexistent/memory.events", 1);
    ck_assert_int_eq(sl_oom_kills(), -1);
    char *argv[] = {"sh", "-c", "kill -KILL $$", NULL};
    sl_proc_run(argv, log_path, 1 << 20, 10, &r);
    ck_assert_int_eq(r.oom_kills, -1);
    ck_assert(!sl_proc_oom_killed(&r));
}
END_TEST

START_TEST(a_runs_memory_peak_is_measured)
{
    /* dd fills one 64 MiB buffer; sh waits for it, so its peak is sh's */
    char *argv[] = {"sh", "-c", "dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null", NULL};
    sl_proc_result r;
    sl_proc_run(argv, log_path, 1 << 20, 10, &r);
    ck_assert(r.exited && r.code == 0);
    ck_assert_msg(r.max_rss_kb >= 64 * 1024 && r.max_rss_kb < 1024 * 1024, "%ld KiB", r.max_rss_kb);
    char note[48];
    sl_proc_memory_note(&r, note, sizeof note);
    ck_assert_msg(strstr(note, " MiB at most") && atol(note + 2) >= 64, "%s", note);
    char *small[] = {"true", NULL};
    sl_proc_run(small, log_path, 1 << 20, 10, &r);
    ck_assert_int_lt(r.max_rss_kb, 64 * 1024);
}
END_TEST

START_TEST(memory_files_are_read_by_field)
{
    const char *events = "low 0\nhigh 0\nmax 7\noom 2\noom_kill 5\noom_group_kill 1\n";
    ck_assert_int_eq(sl_memory_field(events, "oom_kill"), 5);
    ck_assert_int_eq(sl_memory_field(events, "oom"), 2); /* not oom_kill's line */
    ck_assert_int_eq(sl_memory_field("oom_kill_disable 1\n", "oom_kill"), -1);
    ck_assert_int_eq(sl_memory_field("oom_kill\n", "oom_kill"), -1);
    ck_assert_int_eq(sl_memory_field("", "oom_kill"), -1);
    const char *meminfo = "MemTotal:       131072000 kB\nMemAvailable:   98765432 kB\n";
    ck_assert_int_eq(sl_memory_field(meminfo, "MemAvailable:"), 98765432);
    ck_assert_int_eq(sl_memory_field(meminfo, "MemAvailable"), -1);
    /* this machine's, which has /proc/meminfo: something, and no more
     * than all of its memory */
    long long avail = sl_memory_available();
    char *info = sl_read_file("/proc/meminfo", 1 << 16, NULL);
    long long total = info ? sl_memory_field(info, "MemTotal:") << 10 : -1;
    free(info);
    ck_assert_msg(avail > 0 && (total < 0 || avail <= total), "%lld of %lld", avail, total);
}
END_TEST

Suite *proc_suite(void)
{
    snprintf(log_path, sizeof log_path, "%s/proc_test.log", unit_tmp_dir());
    Suite *s = suite_create("proc");
    TCase *tc = tcase_create("children");
    /* the limits under test are a few seconds: room for a loaded machine */
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, exit_code_and_output);
    tcase_add_test(tc, protocol_and_program_output_are_apart);
    tcase_add_test(tc, hang_is_killed_with_its_children);
    tcase_add_test(tc, crash_is_reported);
    tcase_add_test(tc, wait_until_returns_while_the_child_runs);
    tcase_add_test(tc, wait_until_reports_a_child_that_ended_first);
    tcase_add_test(tc, stopped_child_is_killed_as_timed_out);
    tcase_add_test(tc, stopping_an_ended_child_keeps_its_end);
    tcase_add_test(tc, slow_progress_is_not_a_hang);
    tcase_add_test(tc, silence_is_a_hang);
    tcase_add_test(tc, slow_start_is_not_counted);
    tcase_add_test(tc, the_start_is_measured);
    tcase_add_test(tc, output_is_read_back);
    tcase_add_test(tc, ready_mark_is_a_whole_line);
    tcase_add_test(tc, work_after_ready_is_timed);
    tcase_add_test(tc, silence_after_ready_is_a_hang);
    tcase_add_test(tc, the_other_child_meets_its_limit);
    tcase_add_test(tc, the_other_childs_end_is_its_own);
    tcase_add_test(tc, the_other_child_meets_its_quota);
    tcase_add_test(tc, no_ready_line_meets_the_start_limit);
    tcase_add_test(tc, output_flood_is_capped);
    tcase_add_test(tc, missing_program);
    tcase_add_test(tc, exit_127_is_the_programs);
    tcase_add_test(tc, environment_reaches_the_child);
    tcase_add_test(tc, atomic_write_replaces_our_file);
    tcase_add_test(tc, atomic_write_refuses_planted_files);
    tcase_add_test(tc, remove_tree_opens_locked_folders);
    suite_add_tcase(s, tc);
    snprintf(oom_file, sizeof oom_file, "%s/memory.events", unit_tmp_dir());
    TCase *mem = tcase_create("memory");
    tcase_set_timeout(mem, 30);
    tcase_add_test(mem, oom_kill_is_a_sigkill_while_the_kernel_counts_one);
    tcase_add_test(mem, other_ends_are_not_oom_kills);
    tcase_add_test(mem, a_runs_memory_peak_is_measured);
    tcase_add_test(mem, memory_files_are_read_by_field);
    suite_add_tcase(s, mem);
    return s;
}
