/* The runner's system-call wall (grader/runner/syscall_wall.c) on a plain C
 * program: each test forks a child that installs the wall and tries one
 * thing; the parent reads its exit status and what it printed. No GPU. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input_files.h"
#include "syscall_wall.h"

enum { WALL_EXIT = 42, DONE = 7 };

typedef void (*attempt_fn)(const char *dir);

static char g_dir[64];
static FILE *g_preopened;
/* set: the child opens g_dir/case0.in and case1.in as the runner does,
 * before its wall (input_files.h) */
static int g_with_inputs;
static sl_input_files g_inputs;

/* Runs attempt in a child behind the wall; *out gets its stderr. Returns
 * its exit code, or 128 + signal. */
static int behind_wall(int mode, attempt_fn attempt, char *out, size_t n)
{
    int err[2];
    ck_assert_int_eq(pipe(err), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(err[1], STDERR_FILENO);
        close(err[0]);
        char why[256];
        sl_syscall_wall_set_inputs(0);
        if (g_with_inputs) {
            char p0[128], p1[128];
            snprintf(p0, sizeof p0, "%s/case0.in", g_dir);
            snprintf(p1, sizeof p1, "%s/case1.in", g_dir);
            const char *paths[] = {p0, p1};
            if (sl_input_files_open(&g_inputs, paths, 2, 0, why, sizeof why) != 0) {
                fprintf(stderr, "inputs: %s\n", why);
                _exit(1);
            }
            sl_syscall_wall_set_inputs(g_inputs.base);
        }
        if (sl_syscall_wall_install(mode, WALL_EXIT, why, sizeof why) != 0) {
            fprintf(stderr, "install: %s\n", why);
            _exit(1);
        }
        attempt(g_dir);
        _exit(DONE);
    }
    close(err[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < n && (r = read(err[0], out + got, n - 1 - got)) > 0)
        got += (size_t)r;
    out[got] = '\0';
    close(err[0]);
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void assert_stopped(int mode, attempt_fn attempt, const char *call)
{
    char out[1024];
    int rc = behind_wall(mode, attempt, out, sizeof out);
    ck_assert_msg(rc == WALL_EXIT, "exit %d, printed: %s", rc, out);
    char want[128];
    snprintf(want, sizeof want,
             "CUDA error: cudaErrorNotPermitted: the runner made a forbidden system call: %s (",
             call);
    ck_assert_msg(strstr(out, want) != NULL, "wanted \"%s\", printed: %s", want, out);
}

static void assert_allowed(int mode, attempt_fn attempt)
{
    char out[1024];
    int rc = behind_wall(mode, attempt, out, sizeof out);
    ck_assert_msg(rc == DONE, "exit %d, printed: %s", rc, out);
}

static void do_fork(const char *d)
{
    (void)d;
    if (fork() == 0)
        _exit(0);
}
static void do_raw_fork(const char *d)
{
    (void)d;
    syscall(SYS_fork);
}
static void do_vfork(const char *d)
{
    (void)d;
    syscall(SYS_vfork);
}
static void do_exec(const char *d)
{
    (void)d;
    char *argv[] = {"/bin/true", NULL};
    execv(argv[0], argv);
}
static void do_open_write(const char *d)
{
    char p[128];
    snprintf(p, sizeof p, "%s/new", d);
    open(p, O_WRONLY | O_CREAT, 0600);
}
static void do_open_rdwr(const char *d)
{
    char p[128];
    snprintf(p, sizeof p, "%s/existing", d);
    open(p, O_RDWR);
}
static void do_mkfifo(const char *d)
{
    char p[128];
    snprintf(p, sizeof p, "%s/fifo", d);
    mkfifo(p, 0600);
}
static void do_exec_map(const char *d)
{
    (void)d;
    mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}
static void do_mprotect_exec(const char *d)
{
    (void)d;
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED)
        mprotect(p, 4096, PROT_READ | PROT_EXEC);
}
static void do_kill_parent(const char *d)
{
    (void)d;
    kill(getppid(), 0);
}
static void do_own_sigsys_handler(const char *d)
{
    (void)d;
    signal(SIGSYS, SIG_IGN);
}
static void do_setsid(const char *d)
{
    (void)d;
    setsid();
}
static void do_unlink(const char *d)
{
    char p[128];
    snprintf(p, sizeof p, "%s/existing", d);
    unlink(p);
}
static void do_empty_log(const char *d)
{
    (void)d;
    if (ftruncate(STDOUT_FILENO, 0) == 0)
        _exit(3);
}
static void do_rewind_log(const char *d)
{
    (void)d;
    lseek(STDERR_FILENO, 0, SEEK_SET);
}
static void do_copy_log_fd(const char *d)
{
    (void)d;
    fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 10);
}
static void do_own_filter(const char *d)
{
    (void)d;
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    syscall(SYS_seccomp, 1 /* SECCOMP_SET_MODE_FILTER */, 0, NULL);
}
static void do_socket(const char *d)
{
    (void)d;
    syscall(SYS_socket, 1 /* AF_UNIX */, 1 /* SOCK_STREAM */, 0);
}

/* what a runner and CUDA keep doing behind the wall */
static void *thread_body(void *arg) { return arg; }
static void do_threads(const char *d)
{
    (void)d;
    for (int i = 0; i < 4; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, thread_body, NULL) != 0 || pthread_join(t, NULL) != 0)
            _exit(2);
    }
}
/* plain runs: every open for reading fails (EACCES), and nothing stops */
static void do_read_files(const char *d)
{
    char p[128];
    snprintf(p, sizeof p, "%s/existing", d);
    int fd = open(p, O_RDONLY);
    if (fd >= 0 || errno != EACCES)
        _exit(2);
    if (open("/proc/self/status", O_RDONLY | O_CLOEXEC) >= 0 || errno != EACCES)
        _exit(2);
    if (open("/proc/self/fd/0", O_RDONLY | O_PATH) >= 0 || errno != EACCES)
        _exit(2);
    if (syscall(SYS_open, p, O_RDONLY) >= 0 || errno != EACCES)
        _exit(2);
}
/* under a tool, whose library reads its own files */
static void do_read_files_under_tool(const char *d)
{
    char p[128];
    snprintf(p, sizeof p, "%s/existing", d);
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        _exit(2);
    close(fd);
}

/* ---- the run's inputs: g_inputs, descriptors base and base + 1 ---- */
static int input_fd(int i) { return g_inputs.base + i; }

/* what the runner does behind the wall: each input in its turn */
static void take_both(void)
{
    char why[256];
    for (int i = 0; i < 2; i++) {
        sl_case c;
        if (sl_input_files_take(&g_inputs, i, &c, 1 << 20, why, sizeof why) != SL_INPUT_OK) {
            fprintf(stderr, "take %d: %s\n", i, why);
            _exit(2);
        }
        int32_t *v = (int32_t *)c.array[0].data;
        if (c.param[0] != 10 + i || c.narrays != 1 || c.array[0].count != 3 || v[2] != 100 * i + 2)
            _exit(2);
        sl_case_free(&c);
    }
}
static void do_inputs_in_turn(const char *d)
{
    char p[128], link[64];
    snprintf(p, sizeof p, "%s/case1.in", d);
    /* the next input by path, through /proc/self/fd: refused */
    if (open(p, O_RDONLY) >= 0 || errno != EACCES)
        _exit(2);
    snprintf(link, sizeof link, "/proc/self/fd/%d", input_fd(1));
    if (open(link, O_RDONLY) >= 0 || errno != EACCES)
        _exit(2);
    take_both();
}
static void do_take_in_turn(const char *d)
{
    (void)d;
    take_both();
}
/* the first input in turn, then code between two turns tries the second */
static void do_pread_ahead(const char *d)
{
    (void)d;
    char buf[16];
    if (pread(input_fd(1), buf, sizeof buf, 0) == (ssize_t)sizeof buf)
        _exit(3);
}
static void do_pread_ahead_high_bits(const char *d)
{
    (void)d;
    char buf[16];
    syscall(SYS_pread64, (long)input_fd(1) | (1L << 32), buf, sizeof buf, 0L);
}
static void do_preadv_ahead(const char *d)
{
    (void)d;
    char buf[16];
    struct iovec v = {buf, sizeof buf};
    preadv(input_fd(1), &v, 1, 0);
}
static void do_map_ahead(const char *d)
{
    (void)d;
    mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, input_fd(1), 0);
}
static void do_dup_ahead(const char *d)
{
    (void)d;
    dup(input_fd(1));
}
static void do_dup2_ahead(const char *d)
{
    (void)d;
    dup2(input_fd(1), 50);
}
static void do_dupfd_ahead(const char *d)
{
    (void)d;
    fcntl(input_fd(1), F_DUPFD, 50);
}
static void do_sendfile_ahead(const char *d)
{
    (void)d;
    int p[2];
    off_t at = 0;
    if (pipe(p) == 0)
        sendfile(p[1], input_fd(1), &at, 16);
}
static void do_splice_ahead(const char *d)
{
    (void)d;
    int p[2];
    loff_t at = 0;
    if (pipe(p) == 0)
        splice(input_fd(1), &at, p[1], NULL, 16, 0);
}
static void do_copy_range_ahead(const char *d)
{
    (void)d;
    loff_t at = 0;
    copy_file_range(input_fd(1), &at, STDOUT_FILENO, NULL, 16, 0);
}
static void do_rewind_after_read(const char *d)
{
    (void)d;
    char buf[16];
    if (read(input_fd(1), buf, sizeof buf) != (ssize_t)sizeof buf)
        _exit(2);
    lseek(input_fd(1), 0, SEEK_SET);
}
/* read ahead with read(2), which the wall lets through: seen in its turn */
static void expect_tampered_second(void)
{
    char why[256];
    sl_case c;
    if (sl_input_files_take(&g_inputs, 0, &c, 1 << 20, why, sizeof why) != SL_INPUT_OK)
        _exit(2);
    sl_case_free(&c);
    int rc = sl_input_files_take(&g_inputs, 1, &c, 1 << 20, why, sizeof why);
    if (rc != SL_INPUT_TAMPERED || !strstr(why, "input 1 was read before its turn"))
        _exit(4);
}
static void do_read_ahead(const char *d)
{
    (void)d;
    char buf[16];
    if (read(input_fd(1), buf, sizeof buf) != (ssize_t)sizeof buf)
        _exit(2);
    expect_tampered_second();
}
static void do_readv_ahead(const char *d)
{
    (void)d;
    char buf[16];
    struct iovec v = {buf, sizeof buf};
    if (readv(input_fd(1), &v, 1) != (ssize_t)sizeof buf)
        _exit(2);
    expect_tampered_second();
}
static void do_close_input(const char *d)
{
    (void)d;
    close(input_fd(1));
    char why[256];
    sl_case c;
    if (sl_input_files_take(&g_inputs, 1, &c, 1 << 20, why, sizeof why) != SL_INPUT_TAMPERED)
        _exit(4);
}
static void do_log_rewind_high_bits(const char *d)
{
    (void)d;
    syscall(SYS_ftruncate, 1L | (1L << 32), 0L);
}
static void do_own_sigsys_handler_high_bits(const char *d)
{
    (void)d;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    syscall(SYS_rt_sigaction, (long)SIGSYS | (1L << 32), &sa, NULL, 8L);
}
static void do_write_preopened(const char *d)
{
    (void)d;
    if (fprintf(g_preopened, "output\n") < 0 || fclose(g_preopened) != 0)
        _exit(2);
}
static void do_memory_and_self_signals(const char *d)
{
    (void)d;
    void *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || mprotect(p, 4096, PROT_READ) != 0 || kill(getpid(), 0) != 0)
        _exit(2);
    char *big = malloc(64 << 20);
    if (!big)
        _exit(2);
    memset(big, 1, 64 << 20);
    free(big);
}
static void do_clone3(const char *d)
{
    (void)d;
#ifdef SYS_clone3
    long r = syscall(SYS_clone3, NULL, 0);
    if (!(r == -1 && errno == ENOSYS))
        _exit(2);
#endif
}

static void setup(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/synclab-wall-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(g_dir));
    char p[128];
    snprintf(p, sizeof p, "%s/existing", g_dir);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs("data\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/preopened", g_dir);
    g_preopened = fopen(p, "w");
    ck_assert_ptr_nonnull(g_preopened);
    for (int i = 0; i < 2; i++) {
        sl_case c;
        memset(&c, 0, sizeof c);
        c.param[0] = 10 + i;
        int32_t *v = (int32_t *)sl_case_add(&c, SL_I32, 3);
        ck_assert_ptr_nonnull(v);
        for (int k = 0; k < 3; k++)
            v[k] = 100 * i + k;
        snprintf(p, sizeof p, "%s/case%d.in", g_dir, i);
        ck_assert_int_eq(sl_case_write(p, &c), 0);
        sl_case_free(&c);
    }
    g_with_inputs = 0;
}

static void teardown(void)
{
    char cmd[128];
    if (g_preopened)
        fclose(g_preopened);
    g_preopened = NULL;
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", g_dir);
}

START_TEST(new_processes_are_stopped)
{
    /* glibc's fork is clone without CLONE_THREAD */
    assert_stopped(SL_WALL_STRICT, do_fork, "clone");
    assert_stopped(SL_WALL_STRICT, do_raw_fork, "fork");
    assert_stopped(SL_WALL_STRICT, do_vfork, "vfork");
    assert_stopped(SL_WALL_STRICT, do_exec, "execve");
    assert_stopped(SL_WALL_TOOL, do_fork, "clone");
    assert_stopped(SL_WALL_TOOL, do_exec, "execve");
}
END_TEST

START_TEST(threads_still_work)
{
    assert_allowed(SL_WALL_STRICT, do_threads);
    assert_allowed(SL_WALL_STRICT, do_clone3);
}
END_TEST

START_TEST(files_are_read_only)
{
    assert_stopped(SL_WALL_STRICT, do_open_write, "openat");
    assert_stopped(SL_WALL_STRICT, do_open_rdwr, "openat");
    assert_stopped(SL_WALL_STRICT, do_unlink, "unlink");
    assert_allowed(SL_WALL_STRICT, do_read_files);
    assert_allowed(SL_WALL_TOOL, do_read_files_under_tool);
    assert_allowed(SL_WALL_STRICT, do_write_preopened);
    struct stat st;
    char p[128];
    snprintf(p, sizeof p, "%s/new", g_dir);
    ck_assert_int_ne(stat(p, &st), 0);
    snprintf(p, sizeof p, "%s/existing", g_dir);
    ck_assert_int_eq(stat(p, &st), 0);
}
END_TEST

START_TEST(inputs_are_read_in_turn_only)
{
    g_with_inputs = 1;
    assert_allowed(SL_WALL_STRICT, do_inputs_in_turn);
    assert_allowed(SL_WALL_TOOL, do_take_in_turn); /* the runner's own reads */
}
END_TEST

START_TEST(an_input_read_out_of_turn_traps)
{
    g_with_inputs = 1;
    assert_stopped(SL_WALL_STRICT, do_pread_ahead, "pread64");
    assert_stopped(SL_WALL_STRICT, do_pread_ahead_high_bits, "pread64");
    assert_stopped(SL_WALL_STRICT, do_preadv_ahead, "preadv");
    assert_stopped(SL_WALL_STRICT, do_map_ahead, "mmap");
    assert_stopped(SL_WALL_STRICT, do_dup_ahead, "dup");
    assert_stopped(SL_WALL_STRICT, do_dup2_ahead, "dup2");
    assert_stopped(SL_WALL_STRICT, do_dupfd_ahead, "fcntl");
    assert_stopped(SL_WALL_STRICT, do_sendfile_ahead, "sendfile");
    assert_stopped(SL_WALL_STRICT, do_splice_ahead, "splice");
    assert_stopped(SL_WALL_STRICT, do_copy_range_ahead, "copy_file_range");
    assert_stopped(SL_WALL_STRICT, do_rewind_after_read, "lseek");
}
END_TEST

START_TEST(an_input_read_ahead_is_seen_in_its_turn)
{
    g_with_inputs = 1;
    assert_allowed(SL_WALL_STRICT, do_read_ahead);
    assert_allowed(SL_WALL_STRICT, do_readv_ahead);
    assert_allowed(SL_WALL_STRICT, do_close_input);
}
END_TEST

START_TEST(descriptor_budget)
{
    /* the soft limit is raised as far as the inputs need */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rlimit r;
        getrlimit(RLIMIT_NOFILE, &r);
        if (r.rlim_max != RLIM_INFINITY && r.rlim_max < 2048)
            _exit(DONE); /* nothing to raise to here */
        r.rlim_cur = 64;
        setrlimit(RLIMIT_NOFILE, &r);
        char p0[128], why[256];
        snprintf(p0, sizeof p0, "%s/case0.in", g_dir);
        const char *paths[] = {p0};
        sl_input_files in;
        _exit(sl_input_files_open(&in, paths, 1, 0, why, sizeof why) == 0 && in.base == 1024 ? DONE
                                                                                             : 2);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_int_eq(WEXITSTATUS(status), DONE);
    /* a hard limit too low: one clear line, nothing opened */
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rlimit r = {256, 256};
        setrlimit(RLIMIT_NOFILE, &r);
        char p0[128], why[256] = "";
        snprintf(p0, sizeof p0, "%s/case0.in", g_dir);
        const char *paths[] = {p0};
        sl_input_files in;
        _exit(sl_input_files_open(&in, paths, 1, 0, why, sizeof why) != 0 &&
                      strstr(why, "RLIMIT_NOFILE's hard limit is 256")
                  ? DONE
                  : 2);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_int_eq(WEXITSTATUS(status), DONE);
}
END_TEST

START_TEST(no_fifo_even_under_a_tool)
{
    assert_stopped(SL_WALL_STRICT, do_mkfifo, "mknodat");
    assert_stopped(SL_WALL_TOOL, do_mkfifo, "mknodat");
    char p[128];
    struct stat st;
    snprintf(p, sizeof p, "%s/fifo", g_dir);
    ck_assert_int_ne(stat(p, &st), 0);
}
END_TEST

START_TEST(the_log_only_grows)
{
    assert_stopped(SL_WALL_STRICT, do_empty_log, "ftruncate");
    assert_stopped(SL_WALL_TOOL, do_empty_log, "ftruncate");
    assert_stopped(SL_WALL_STRICT, do_rewind_log, "lseek");
    assert_stopped(SL_WALL_STRICT, do_copy_log_fd, "fcntl");
    /* an int argument is its low 32 bits to the kernel */
    assert_stopped(SL_WALL_STRICT, do_log_rewind_high_bits, "ftruncate");
}
END_TEST

START_TEST(tool_runs_may_write_files)
{
    /* the tool's injected library keeps its own files */
    assert_allowed(SL_WALL_TOOL, do_open_write);
}
END_TEST

START_TEST(no_new_code)
{
    assert_stopped(SL_WALL_STRICT, do_exec_map, "mmap");
    assert_stopped(SL_WALL_STRICT, do_mprotect_exec, "mprotect");
    assert_allowed(SL_WALL_STRICT, do_memory_and_self_signals);
}
END_TEST

START_TEST(other_processes_and_the_wall_itself)
{
    assert_stopped(SL_WALL_STRICT, do_kill_parent, "kill");
    assert_stopped(SL_WALL_TOOL, do_kill_parent, "kill");
    assert_stopped(SL_WALL_STRICT, do_own_sigsys_handler, "rt_sigaction");
    assert_stopped(SL_WALL_STRICT, do_own_sigsys_handler_high_bits, "rt_sigaction");
    assert_stopped(SL_WALL_STRICT, do_setsid, "setsid");
    assert_stopped(SL_WALL_STRICT, do_socket, "socket");
    assert_stopped(SL_WALL_TOOL, do_own_filter, "seccomp");
}
END_TEST

static Suite *wall_suite(void)
{
    Suite *s = suite_create("syscall_wall");
    TCase *tc = tcase_create("wall");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, new_processes_are_stopped);
    tcase_add_test(tc, threads_still_work);
    tcase_add_test(tc, files_are_read_only);
    tcase_add_test(tc, inputs_are_read_in_turn_only);
    tcase_add_test(tc, an_input_read_out_of_turn_traps);
    tcase_add_test(tc, an_input_read_ahead_is_seen_in_its_turn);
    tcase_add_test(tc, descriptor_budget);
    tcase_add_test(tc, no_fifo_even_under_a_tool);
    tcase_add_test(tc, the_log_only_grows);
    tcase_add_test(tc, tool_runs_may_write_files);
    tcase_add_test(tc, no_new_code);
    tcase_add_test(tc, other_processes_and_the_wall_itself);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(wall_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
