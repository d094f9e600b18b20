/* The runner's system-call wall (syscall_wall.h). One rule per line below,
 * each with why; every rule traps (SIGSYS, reported by on_sigsys) except
 * where a caller must be able to fall back (ENOSYS). */
#define _GNU_SOURCE
#include "syscall_wall.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

enum { MAX_TRAPPED = 128, MSG_MAX = 512 };

/* What on_sigsys says per system call: filled before the filter is loaded,
 * read only after (a signal handler may not allocate). */
static struct {
    int nr;
    const char *name, *why;
} g_trapped[MAX_TRAPPED];
static int g_ntrapped;
static char g_why_both[MAX_TRAPPED][160];
static int g_exit_code = 1;

static size_t append(char *buf, size_t at, const char *s)
{
    while (*s && at < MSG_MAX - 2)
        buf[at++] = *s++;
    return at;
}

static int g_log_fd = -1;
static int g_inputs_base = 0;

void sl_syscall_wall_set_log(int fd) { g_log_fd = fd; }
void sl_syscall_wall_set_inputs(int base) { g_inputs_base = base; }

/* An int argument (a descriptor, a signal, a command) is the register's low
 * 32 bits to the kernel, while the filter sees all 64: compared on the low
 * half only, or upper bits set by hand would slip past an equality. */
static struct scmp_arg_cmp int_is(unsigned arg, scmp_datum_t value)
{
    struct scmp_arg_cmp c = {arg, SCMP_CMP_MASKED_EQ, 0xffffffffu, value & 0xffffffffu};
    return c;
}

/* `arg` is one of the run's input descriptors: the block [base, 2 base)
 * (input_files.h), one masked compare on the low 32 bits */
static struct scmp_arg_cmp is_input(unsigned arg)
{
    scmp_datum_t base = (scmp_datum_t)g_inputs_base;
    struct scmp_arg_cmp c = {arg, SCMP_CMP_MASKED_EQ, 0xffffffffu & ~(base - 1), base};
    return c;
}

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)ctx;
    const char *name = "a system call of another ABI", *why = "not the runner's own ABI";
    for (int i = 0; i < g_ntrapped; i++)
        if (g_trapped[i].nr == si->si_syscall) {
            name = g_trapped[i].name;
            why = g_trapped[i].why;
            break;
        }
    char msg[MSG_MAX];
    size_t k = append(msg, 0,
                      "CUDA error: cudaErrorNotPermitted: the runner made a forbidden "
                      "system call: ");
    k = append(msg, k, name);
    k = append(msg, k, " (");
    k = append(msg, k, why);
    k = append(msg, k, ")\n");
    ssize_t w = write(g_log_fd >= 0 ? g_log_fd : STDERR_FILENO, msg, k);
    (void)w;
    _exit(g_exit_code);
}

/* A rule: `name` with the argument tests (none: always) gets `action`. A
 * name this architecture lacks has nothing to filter. */
static int rule(scmp_filter_ctx ctx, uint32_t action, const char *name, const char *why,
                unsigned nargs, const struct scmp_arg_cmp *args)
{
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR)
        return 0;
    if (action == SCMP_ACT_TRAP) {
        int known = -1;
        for (int i = 0; i < g_ntrapped; i++)
            if (g_trapped[i].nr == nr)
                known = i;
        if (known < 0 && g_ntrapped < MAX_TRAPPED) {
            g_trapped[g_ntrapped].nr = nr;
            g_trapped[g_ntrapped].name = name;
            g_trapped[g_ntrapped].why = why;
            g_ntrapped++;
        } else if (known >= 0 && !strstr(g_trapped[known].why, why)) {
            /* one call, two rules (lseek on the log, on an input): the
             * handler knows the call, not which rule */
            snprintf(g_why_both[known], sizeof g_why_both[known], "%s, or %s", g_trapped[known].why,
                     why);
            g_trapped[known].why = g_why_both[known];
        }
    }
    return seccomp_rule_add_array(ctx, action, nr, nargs, args);
}

static int trap(scmp_filter_ctx ctx, const char *name, const char *why)
{
    return rule(ctx, SCMP_ACT_TRAP, name, why, 0, NULL);
}

/* Traps name when argument `arg` has any bit of `bits` set, one rule per
 * bit (rules of one call are or'ed). */
static int trap_bits(scmp_filter_ctx ctx, const char *name, unsigned arg, const int *bits,
                     const char *why)
{
    int rc = 0;
    for (int i = 0; bits[i] && rc == 0; i++) {
        struct scmp_arg_cmp c = {arg, SCMP_CMP_MASKED_EQ, (scmp_datum_t)bits[i],
                                 (scmp_datum_t)bits[i]};
        rc = rule(ctx, SCMP_ACT_TRAP, name, why, 1, &c);
    }
    return rc;
}

/* Traps name when argument `arg` is not `value`. */
static int trap_unless(scmp_filter_ctx ctx, const char *name, unsigned arg, scmp_datum_t value,
                       const char *why)
{
    struct scmp_arg_cmp c = {arg, SCMP_CMP_NE, value, 0};
    return rule(ctx, SCMP_ACT_TRAP, name, why, 1, &c);
}

/* The run's inputs (input_files.h): read(2)/readv(2) at the descriptor's
 * offset only, which moves it (the runner checks the offset when the
 * input's turn comes); nothing that reads elsewhere, rewinds, or makes a
 * second descriptor the rules below would not know. */
static int input_rules(scmp_filter_ctx ctx)
{
    if (g_inputs_base <= 0)
        return 0;
    static const char *const why = "an input read out of turn";
    static const struct {
        const char *name;
        unsigned arg; /* where the input descriptor would be */
    } reads[] = {{"pread64", 0},
                 {"preadv", 0},
                 {"preadv2", 0},
                 {"mmap", 4},
                 {"sendfile", 1},
                 {"splice", 0},
                 {"copy_file_range", 0},
                 {"dup", 0},
                 {"dup2", 0},
                 {"dup2", 1},
                 {"dup3", 0},
                 {"dup3", 1},
                 {NULL, 0}};
    int rc = 0;
    for (int i = 0; reads[i].name; i++) {
        struct scmp_arg_cmp c = is_input(reads[i].arg);
        rc |= rule(ctx, SCMP_ACT_TRAP, reads[i].name, why, 1, &c);
    }
    struct scmp_arg_cmp dupfd[2] = {is_input(0), int_is(1, F_DUPFD)};
    struct scmp_arg_cmp dupfd_cloexec[2] = {is_input(0), int_is(1, F_DUPFD_CLOEXEC)};
    rc |= rule(ctx, SCMP_ACT_TRAP, "fcntl", why, 2, dupfd);
    rc |= rule(ctx, SCMP_ACT_TRAP, "fcntl", why, 2, dupfd_cloexec);
    /* lseek(fd, 0, SEEK_CUR) asks where it stands (the runner's check);
     * anything else could put a read-ahead back */
    struct scmp_arg_cmp moved[2] = {is_input(0), {1, SCMP_CMP_NE, 0, 0}};
    struct scmp_arg_cmp whence[2] = {is_input(0), {2, SCMP_CMP_NE, SEEK_CUR, 0}};
    rc |= rule(ctx, SCMP_ACT_TRAP, "lseek", why, 2, moved);
    rc |= rule(ctx, SCMP_ACT_TRAP, "lseek", why, 2, whence);
    return rc;
}

static int add_rules(scmp_filter_ctx ctx, int mode)
{
    static const int write_bits[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, 0};
    const int write_mask = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC;
    static const int exec_bit[] = {PROT_EXEC, 0};
    scmp_datum_t self = (scmp_datum_t)getpid();
    struct scmp_arg_cmp no_thread = {0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0};
    struct scmp_arg_cmp sigsys = int_is(0, SIGSYS);
    int rc = 0;
    /* ---- other processes: the run is this process and its threads ---- */
    rc |= trap(ctx, "fork", "a new process");
    rc |= trap(ctx, "vfork", "a new process");
    /* CUDA makes threads (CLONE_THREAD); anything else is a new process */
    rc |=
        rule(ctx, SCMP_ACT_TRAP, "clone", "a new process: only threads may be made", 1, &no_thread);
    /* clone3's flags lie in memory the filter cannot read: glibc then falls
     * back to clone, which is judged above */
    rc |= rule(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3", "", 0, NULL);
    rc |= trap(ctx, "execve", "another program");
    rc |= trap(ctx, "execveat", "another program");
    /* another process's memory (the tool's, under compute-sanitizer) */
    rc |= trap(ctx, "ptrace", "another process's memory");
    rc |= trap(ctx, "process_vm_readv", "another process's memory");
    rc |= trap(ctx, "process_vm_writev", "another process's memory");
    rc |= trap(ctx, "kcmp", "another process's state");
    rc |= trap(ctx, "pidfd_open", "a handle on another process");
    rc |= trap(ctx, "pidfd_getfd", "another process's files");
    rc |= trap(ctx, "pidfd_send_signal", "a signal to another process");
    /* signals: only to itself (abort, CUDA's own threads: tgkill(pid, tid)) */
    rc |= trap_unless(ctx, "kill", 0, self, "a signal to another process");
    rc |= trap_unless(ctx, "tgkill", 0, self, "a signal to another process");
    rc |= trap(ctx, "tkill", "a signal to a thread it cannot name (glibc uses tgkill)");
    rc |= trap(ctx, "rt_sigqueueinfo", "a signal to another process");
    /* the grader kills the run by its process group and session */
    rc |= trap(ctx, "setsid", "leaving the session the grader stops");
    rc |= trap(ctx, "setpgid", "leaving the process group the grader stops");
    /* this wall's own report: a handler of the student's would hide it */
    rc |=
        rule(ctx, SCMP_ACT_TRAP, "rt_sigaction", "replacing the handler of this wall", 1, &sigsys);
    /* a filter of the student's own could answer for the kernel (a user
     * notification listener) to the runner's threads */
    rc |= trap(ctx, "seccomp", "a system-call filter of its own");
    struct scmp_arg_cmp set_seccomp = int_is(0, PR_SET_SECCOMP);
    rc |= rule(ctx, SCMP_ACT_TRAP, "prctl", "a system-call filter of its own", 1, &set_seccomp);
    /* ---- the sandbox itself ---- */
    rc |= trap(ctx, "unshare", "a new namespace");
    rc |= trap(ctx, "setns", "another namespace");
    rc |= trap(ctx, "mount", "a mount");
    rc |= trap(ctx, "umount2", "a mount");
    rc |= trap(ctx, "pivot_root", "a mount");
    rc |= trap(ctx, "chroot", "a new root");
    rc |= trap(ctx, "bpf", "kernel programs");
    rc |= trap(ctx, "perf_event_open", "kernel tracing");
    rc |= trap(ctx, "userfaultfd", "page faults handled by user code");
    rc |= trap(ctx, "personality", "a different ABI (executable data)");
    /* io_uring does file and socket work this filter would never see */
    rc |= trap(ctx, "io_uring_setup", "file work outside this filter");
    rc |= trap(ctx, "io_uring_enter", "file work outside this filter");
    rc |= trap(ctx, "io_uring_register", "file work outside this filter");
    rc |= trap(ctx, "open_by_handle_at", "a file by handle, past the sandbox's binds");
    rc |= trap(ctx, "name_to_handle_at", "a file by handle, past the sandbox's binds");
    /* a copy of a pipe's data that leaves it unread (inputs handed through
     * a pipe must reach the runner alone) */
    rc |= trap(ctx, "tee", "a pipe read without being emptied");
    /* ---- files that are not plain: a FIFO as an output stalls the grader ---- */
    rc |= trap(ctx, "mknod", "a FIFO or device node");
    rc |= trap(ctx, "mknodat", "a FIFO or device node");
    /* the runner's log (stdout, stderr) only grows: emptied or rewritten, it
     * would hide the "@@case" lines the grader reads */
    static const char *const log_rewrites[] = {"ftruncate", "fallocate", "lseek", "pwrite64",
                                               "pwritev",   "pwritev2",  "dup",   "dup2",
                                               "dup3",      NULL};
    scmp_datum_t logs[3] = {1, 2, (scmp_datum_t)(g_log_fd >= 0 ? g_log_fd : 2)};
    for (int i = 0; log_rewrites[i]; i++)
        for (int j = 0; j < 3; j++) {
            struct scmp_arg_cmp c = int_is(0, logs[j]);
            rc |= rule(ctx, SCMP_ACT_TRAP, log_rewrites[i], "the runner's log rewritten", 1, &c);
        }
    for (int j = 0; j < 3; j++) {
        scmp_datum_t fd = logs[j];
        struct scmp_arg_cmp dupfd[2] = {int_is(0, fd), int_is(1, F_DUPFD)};
        struct scmp_arg_cmp dupfd_cloexec[2] = {int_is(0, fd), int_is(1, F_DUPFD_CLOEXEC)};
        rc |= rule(ctx, SCMP_ACT_TRAP, "fcntl", "the runner's log rewritten", 2, dupfd);
        rc |= rule(ctx, SCMP_ACT_TRAP, "fcntl", "the runner's log rewritten", 2, dupfd_cloexec);
    }
    if (mode == SL_WALL_TOOL)
        return rc;
    /* ---- plain runs only: a tool's injected library keeps its own files,
     * sockets and code, made after our init ---- */
    /* the runner opened its outputs and its inputs before this wall:
     * opening for writing traps; opening for reading fails with EACCES,
     * every file alike (the inputs by path, /proc/self/fd/<n> and
     * /proc/self/map_files of them, other processes' memory): a path is not
     * something the filter can read, and an error is what code that merely
     * looks (glibc's locale files, a driver's /proc or /sys probe) already
     * copes with, where a trap would end a correct run */
    rc |= trap_bits(ctx, "open", 1, write_bits, "a file opened for writing");
    rc |= trap_bits(ctx, "openat", 2, write_bits, "a file opened for writing");
    struct scmp_arg_cmp open_read = {1, SCMP_CMP_MASKED_EQ, (scmp_datum_t)write_mask, 0};
    struct scmp_arg_cmp openat_read = {2, SCMP_CMP_MASKED_EQ, (scmp_datum_t)write_mask, 0};
    rc |= rule(ctx, SCMP_ACT_ERRNO(EACCES), "open", "", 1, &open_read);
    rc |= rule(ctx, SCMP_ACT_ERRNO(EACCES), "openat", "", 1, &openat_read);
    rc |= trap(ctx, "creat", "a new file");
    /* openat2's flags lie in memory: glibc's open never uses it */
    rc |= rule(ctx, SCMP_ACT_ERRNO(ENOSYS), "openat2", "", 0, NULL);
    rc |= trap(ctx, "open_tree", "a file opened past the wall");
    rc |= trap(ctx, "uselib", "a file opened past the wall");
    /* asynchronous reads name their file in memory the filter cannot read */
    rc |= trap(ctx, "io_setup", "file reads outside this filter");
    rc |= trap(ctx, "io_submit", "file reads outside this filter");
    rc |= input_rules(ctx);
    rc |= trap(ctx, "truncate", "a file truncated");
    rc |= trap(ctx, "rename", "a file renamed");
    rc |= trap(ctx, "renameat", "a file renamed");
    rc |= trap(ctx, "renameat2", "a file renamed");
    rc |= trap(ctx, "unlink", "a file removed");
    rc |= trap(ctx, "unlinkat", "a file removed");
    rc |= trap(ctx, "rmdir", "a folder removed");
    rc |= trap(ctx, "mkdir", "a new folder");
    rc |= trap(ctx, "mkdirat", "a new folder");
    rc |= trap(ctx, "link", "a new name for a file");
    rc |= trap(ctx, "linkat", "a new name for a file");
    rc |= trap(ctx, "symlink", "a symbolic link");
    rc |= trap(ctx, "symlinkat", "a symbolic link");
    rc |= trap(ctx, "chmod", "a file's mode changed");
    rc |= trap(ctx, "fchmod", "a file's mode changed");
    rc |= trap(ctx, "fchmodat", "a file's mode changed");
    rc |= trap(ctx, "chown", "a file's owner changed");
    rc |= trap(ctx, "fchown", "a file's owner changed");
    rc |= trap(ctx, "lchown", "a file's owner changed");
    rc |= trap(ctx, "fchownat", "a file's owner changed");
    /* the network is unshared; a socket reaches only other local processes */
    rc |= trap(ctx, "socket", "a socket");
    rc |= trap(ctx, "socketpair", "a socket");
    rc |= trap(ctx, "connect", "a connection");
    /* new executable code: the host code the object check read is all the
     * host code there is (a hidden `syscall` would still meet this filter) */
    rc |= trap_bits(ctx, "mmap", 2, exec_bit, "new executable memory");
    rc |= trap_bits(ctx, "mprotect", 2, exec_bit, "new executable memory");
    rc |= trap_bits(ctx, "pkey_mprotect", 2, exec_bit, "new executable memory");
    return rc;
}

int sl_syscall_wall_install(int mode, int exit_code, char *why, size_t n)
{
    g_exit_code = exit_code;
    g_ntrapped = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask); /* nothing runs between the trap and the report */
    if (sigaction(SIGSYS, &sa, NULL) != 0) {
        snprintf(why, n, "sigaction(SIGSYS): %s", strerror(errno));
        return -1;
    }
    sigset_t sys;
    sigemptyset(&sys);
    sigaddset(&sys, SIGSYS);
    pthread_sigmask(SIG_UNBLOCK, &sys, NULL);
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        snprintf(why, n, "seccomp_init failed");
        return -1;
    }
    int rc = 0;
    /* every thread, CUDA's included; a 32-bit call (int $0x80) is of
     * another ABI than the filter's and traps too */
    rc |= seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    rc |= seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRAP);
    rc |= add_rules(ctx, mode);
    if (rc != 0) {
        snprintf(why, n, "libseccomp refused a rule or attribute");
        seccomp_release(ctx);
        return -1;
    }
    rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc != 0) {
        snprintf(why, n, "seccomp_load: %s", strerror(-rc));
        return -1;
    }
    return 0;
}
