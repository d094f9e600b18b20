#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "contain.h"
#include "files.h"
#include "memory.h"
#include "text.h"

/* Children started here and not yet waited for: in a subreaper, every
 * other child is a stray some runner left behind (see contain.h). */
enum { MAX_INFLIGHT = 64 };
static pid_t inflight[MAX_INFLIGHT];
static int ninflight;

/* The same children as sl_procs, so that while one is waited for the
 * others are watched too: a tool run beside a long plain run must meet its
 * time limit and its folder quota then, not once its own wait begins, and
 * its wall time ends when it ends. Only this process's: a fork inherits
 * the list, not the children. */
static sl_proc *watched[MAX_INFLIGHT];
static int nwatched;
static pid_t watched_by;

static void watch(sl_proc *p)
{
    if (watched_by != getpid()) {
        nwatched = 0;
        watched_by = getpid();
    }
    if (nwatched < MAX_INFLIGHT)
        watched[nwatched++] = p;
}

static void unwatch(sl_proc *p)
{
    for (int i = 0; i < nwatched; i++)
        if (watched[i] == p) {
            watched[i] = watched[--nwatched];
            return;
        }
}

static void track(pid_t pid)
{
    if (ninflight < MAX_INFLIGHT)
        inflight[ninflight++] = pid;
}

static int tracked(pid_t pid)
{
    for (int i = 0; i < ninflight; i++)
        if (inflight[i] == pid)
            return 1;
    return 0;
}

static void untrack(pid_t pid)
{
    for (int i = 0; i < ninflight; i++)
        if (inflight[i] == pid) {
            inflight[i] = inflight[--ninflight];
            return;
        }
}

/* In the child: stdin, stdout and stderr, then at most the sandbox's
 * status pipe at fd 3 and the exec-failure pipe at fd 4 (close-on-exec),
 * and a runner's two descriptors at keep[0], keep[1] (>= 10; -1: none).
 * Nothing else the grader holds open (outcome channels, logs) crosses the
 * exec. */
/* Closes descriptors first..last (last ~0U: all above first). */
static void close_from_to(unsigned first, unsigned last)
{
    if (first > last || close_range(first, last, 0) == 0)
        return;
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = first; fd < (max > 0 ? max : 1024) && (unsigned long)fd <= last; fd++)
        close((int)fd);
}

static void child_fds(int in, int out, int status_w, int exec_w, const int keep[2])
{
    int sw = status_w >= 0 ? fcntl(status_w, F_DUPFD, 10) : -1;
    int ew = fcntl(exec_w, F_DUPFD_CLOEXEC, 10);
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    if (sw >= 0)
        dup2(sw, 3);
    else
        close(3);
    dup2(ew, 4);
    fcntl(4, F_SETFD, FD_CLOEXEC);
    int lo = keep[0] < keep[1] ? keep[0] : keep[1], hi = keep[0] < keep[1] ? keep[1] : keep[0];
    if (lo < 0) /* one kept at most */
        lo = hi;
    if (lo < 0) {
        close_from_to(5, ~0U);
        return;
    }
    close_from_to(5, (unsigned)lo - 1);
    if (hi > lo)
        close_from_to((unsigned)lo + 1, (unsigned)hi - 1);
    close_from_to((unsigned)hi + 1, ~0U);
}

/* A runner's descriptors (proc.h program_path): the protocol (a second
 * descriptor of out) and the program's output, at numbers drawn at random
 * from [SL_PROTO_FD_MIN, SL_PROTO_FD_MAX): a student's write to a guessed
 * number misses. Told to the harness in SL_PROTO_FDS, which it reads and
 * wipes before any student code runs. 0 ok. */
static int runner_fds(const char *program_path, int out, int keep[2])
{
    unsigned r = 0;
    int rnd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (rnd < 0 || read(rnd, &r, sizeof r) != (ssize_t)sizeof r)
        r = (unsigned)getpid() * 2654435761u ^ (unsigned)(sl_now() * 1e6);
    if (rnd >= 0)
        close(rnd);
    /* two numbers nothing uses here yet (the status and exec pipes stay) */
    unsigned span = SL_PROTO_FD_MAX - SL_PROTO_FD_MIN;
    keep[0] = keep[1] = -1;
    for (int k = 0, tries = 0; k < 2 && tries < 4 * (int)span; tries++) {
        int fd = SL_PROTO_FD_MIN + (int)((r >> 8) % span);
        r = r * 1664525u + 1013904223u;
        if (fcntl(fd, F_GETFD) < 0 && (k == 0 || fd != keep[0]))
            keep[k++] = fd;
    }
    if (keep[0] < 0 || keep[1] < 0) {
        errno = EMFILE;
        return -1;
    }
    int prog = open(program_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (prog < 0 || dup2(out, keep[0]) < 0 || dup2(prog, keep[1]) < 0)
        return -1;
    close(prog);
    static char var[64];
    snprintf(var, sizeof var, "%s=%d %d", SL_PROTO_FDS, keep[0], keep[1]);
    return putenv(var);
}

double sl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int sl_proc_spawn(sl_proc *p, char *const argv[], const sl_proc_opts *o)
{
    memset(p, 0, sizeof *p);
    p->start = sl_now();
    p->timeout_s = o->timeout_s;
    p->idle_s = o->idle_s;
    p->watch = o->idle_s > 0 ? o->out_path : NULL;
    p->watched_size = -1;
    p->last_progress = p->limits_from = p->start;
    p->ready_mark = o->out_path ? o->ready_mark : NULL;
    p->watch_ready = p->ready_mark ? o->out_path : NULL;
    p->start_s = o->start_s;
    p->ready = !p->ready_mark;
    p->quota_dir = o->quota_dir;
    p->quota_bytes = o->quota_bytes;
    p->quota_entries = o->quota_entries;
    p->last_quota_check = p->start;
    p->status_fd = -1;
    p->came_up = 1; /* no status to read (no sandbox): it is up */
    p->inner = -1;
    p->oom_before = sl_oom_kills();
    int status[2] = {-1, -1}, exec_err[2];
    if (o->box) {
        if (sl_sandbox_prepare(o->box) != 0)
            return -1; /* never unsandboxed nor as root instead */
        p->box = o->box;
        p->quota_dir = sl_sandbox_seen_at(o->box, o->quota_dir);
        if (sl_sandbox_available() && pipe2(status, O_CLOEXEC) != 0) {
            sl_sandbox_release(o->box);
            return -1;
        }
    }
    if (pipe2(exec_err, O_CLOEXEC) != 0) {
        close(status[0]);
        close(status[1]);
        sl_sandbox_release(o->box);
        return -1;
    }
    p->pid = fork();
    if (p->pid < 0) {
        close(status[0]);
        close(status[1]);
        close(exec_err[0]);
        close(exec_err[1]);
        sl_sandbox_release(o->box);
        return -1;
    }
    if (p->pid == 0) {
        /* Own process group: a timeout kills the sanitizer and its target. */
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        int out = open(o->out_path ? o->out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0)
            _exit(127);
        int keep[2] = {-1, -1};
        if (o->program_path[0] && runner_fds(o->program_path, out, keep) != 0) {
            int e = errno; /* ours, not the program's: like a failed exec */
            if (write(exec_err[1], &e, sizeof e) < 0)
                _exit(127);
            _exit(127);
        }
        child_fds(in, out, status[1], exec_err[1], keep);
        if (o->out_cap) {
            /* A flood of output kills the child (SIGXFSZ), not the disk. */
            struct rlimit rl = {o->out_cap, o->out_cap};
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        signal(SIGXFSZ, SIG_DFL);
        for (int i = 0; o->env && o->env[i]; i++)
            putenv((char *)o->env[i]);
        if (o->box)
            sl_sandbox_exec(o->box, argv, status[1] >= 0 ? 3 : -1);
        else
            execvp(argv[0], argv);
        int e = errno;
        if (write(4, &e, sizeof e) < 0)
            _exit(127);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(e));
        _exit(127);
    }
    setpgid(p->pid, p->pid); /* also here: no race with the child's own call */
    close(status[1]);
    close(exec_err[1]);
    p->status_fd = status[0];
    int e = 0;
    ssize_t got;
    while ((got = read(exec_err[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(exec_err[0]);
    if (got > 0) {
        /* the exec itself failed: nothing of argv ever ran */
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        close(p->status_fd);
        p->status_fd = -1;
        sl_sandbox_release(p->box);
        errno = e;
        return -1;
    }
    track(p->pid);
    watch(p);
    return 0;
}

int sl_proc_start(sl_proc *p, char *const argv[], const char *out_path, size_t out_cap,
                  double timeout_s)
{
    sl_proc_opts o = {0};
    o.out_path = out_path;
    o.out_cap = out_cap;
    o.timeout_s = timeout_s;
    return sl_proc_spawn(p, argv, &o);
}

/* More files or bytes in the quota folder than allowed. Checked ten times
 * a second: a runner writes at most that much more before it is killed. */
static int over_quota(sl_proc *p)
{
    if (!p->quota_dir)
        return 0;
    double now = sl_now();
    if (now - p->last_quota_check < 0.1)
        return 0;
    p->last_quota_check = now;
    long long entries = 0, bytes = 0;
    sl_tree_usage(p->quota_dir, &entries, &bytes);
    return (p->quota_entries > 0 && entries > p->quota_entries) ||
           (p->quota_bytes > 0 && bytes > p->quota_bytes);
}

/* What the sandbox said, read once the child is gone (it wrote all it
 * will): whether it came up, and its init's pid. The open descriptor is
 * what is left to read: closed, came_up and inner stay as they are. */
static void read_status(sl_proc *p)
{
    if (p->status_fd < 0)
        return;
    char buf[4096];
    size_t n = 0;
    int flags = fcntl(p->status_fd, F_GETFL);
    fcntl(p->status_fd, F_SETFL, flags | O_NONBLOCK);
    for (ssize_t got;
         n < sizeof buf - 1 && (got = read(p->status_fd, buf + n, sizeof buf - 1 - n)) > 0;)
        n += (size_t)got;
    buf[n] = '\0';
    close(p->status_fd);
    p->status_fd = -1;
    p->came_up = sl_sandbox_started(buf);
    p->inner = (pid_t)sl_sandbox_child_pid(buf);
}

static int sandbox_came_up(sl_proc *p)
{
    read_status(p);
    return p->came_up;
}

/* User and system time, in seconds. */
static double cpu_seconds(const struct rusage *ru)
{
    return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) +
           (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1e-6;
}

/* bubblewrap (with a pid namespace) exits once its init says the command
 * ended, without waiting for that init: the init, and with it the CPU time
 * of the command it waited for, goes to the nearest subreaper. When that
 * is this process, it is reaped here and its time counted. Only a stray
 * child of ours is touched, as sl_contain_kill_children would: never one
 * of the runs in flight, which the pid would name had the init been
 * reaped before (by that kill) and its pid reused; an init that lingers is
 * killed first, its command being over. */
static void reap_inner(sl_proc *p)
{
    read_status(p);
    pid_t inner = p->inner;
    p->inner = -1; /* looked at once */
    if (inner <= 0 || tracked(inner))
        return;
    siginfo_t si;
    si.si_pid = 0;
    if (waitid(P_PID, (id_t)inner, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
        return; /* not ours: adopted by another process, or gone */
    if (si.si_pid != inner)
        kill(inner, SIGKILL);
    struct rusage ru;
    int status;
    pid_t w;
    while ((w = wait4(inner, &status, 0, &ru)) < 0 && errno == EINTR)
        ;
    if (w == inner) {
        p->inner_cpu = cpu_seconds(&ru);
        p->inner_rss_kb = ru.ru_maxrss;
    }
}

/* Whether the child has said ready_mark at the start of a line yet: then
 * its time limits start now. Only the output's first 64 KiB is read: the
 * mark comes before any work. */
static int became_ready(sl_proc *p)
{
    double now = sl_now();
    if (p->ready || now - p->last_ready_check < 0.01)
        return 0;
    p->last_ready_check = now;
    char *buf = sl_read_file(p->watch_ready, 65535, NULL);
    if (!buf)
        return 0;
    int ready = sl_has_line(buf, p->ready_mark);
    free(buf);
    if (ready) {
        p->ready = 1;
        p->limits_from = p->last_progress = now;
    }
    return ready;
}

/* Past the time limit: start_s while not ready, else timeout_s. */
static int past_limit(sl_proc *p)
{
    if (!p->ready && !became_ready(p))
        return p->start_s > 0 && sl_now() - p->start > p->start_s;
    return p->timeout_s > 0 && sl_now() - p->limits_from > p->timeout_s;
}

/* No new output for idle_s seconds. */
static int stalled(sl_proc *p)
{
    if (p->idle_s <= 0 || !p->watch || !p->ready)
        return 0;
    double now = sl_now();
    struct stat st;
    if (stat(p->watch, &st) == 0 && (long long)st.st_size != p->watched_size) {
        p->watched_size = (long long)st.st_size;
        p->last_progress = now;
    }
    return now - p->last_progress > p->idle_s;
}

/* Which of its limits a running child has passed (SL_PROC_KILLED_*), or 0;
 * the folder quota first. */
static int limit_passed(sl_proc *p)
{
    if (over_quota(p))
        return SL_PROC_KILLED_QUOTA;
    return past_limit(p) || stalled(p) ? SL_PROC_KILLED_TIME : 0;
}

/* One look at a child not being waited for: notes when it ended (without
 * reaping it), or kills it at its limits as its own wait would. */
static void police(sl_proc *q)
{
    if (q->ended > 0)
        return;
    siginfo_t si;
    si.si_pid = 0;
    if (waitid(P_PID, (id_t)q->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == q->pid) {
        q->ended = sl_now();
        return;
    }
    q->killed = limit_passed(q);
    if (q->killed) {
        kill(-q->pid, SIGKILL);
        kill(q->pid, SIGKILL);
        q->ended = sl_now();
    }
}

/* police() for every child of this process but skip; how many still run. */
static int police_all_but(const sl_proc *skip)
{
    int running = 0;
    if (watched_by == getpid())
        for (int i = 0; i < nwatched; i++)
            if (watched[i] != skip) {
                police(watched[i]);
                running += watched[i]->ended <= 0;
            }
    return running;
}

int sl_proc_watch_children(void) { return police_all_but(NULL); }

void sl_proc_stop(sl_proc *p)
{
    police(p); /* notes an end that came first */
    if (p->ended <= 0 && !p->killed)
        p->killed = SL_PROC_KILLED_TIME;
}

const char *sl_proc_ready_note(const sl_proc_result *r, char *buf, size_t n)
{
    if (n > 0)
        buf[0] = '\0';
    if (r->ready_s > 0)
        snprintf(buf, n, ", ready after %.2f s", r->ready_s);
    return buf;
}

long sl_proc_peak_mib(const sl_proc_result *r) { return (r->max_rss_kb + 1023) / 1024; }

const char *sl_proc_memory_note(const sl_proc_result *r, char *buf, size_t n)
{
    if (n > 0)
        buf[0] = '\0';
    if (r->max_rss_kb > 0)
        snprintf(buf, n, ", %ld MiB at most", sl_proc_peak_mib(r));
    return buf;
}

int sl_proc_wait_until(sl_proc *p, sl_proc_result *r, int (*until)(void *), void *arg)
{
    memset(r, 0, sizeof *r);
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    for (;;) {
        pid_t w = wait4(p->pid, &status, WNOHANG, &ru);
        if (w == p->pid)
            break;
        if (w < 0 && errno != EINTR) {
            untrack(p->pid);
            unwatch(p);
            sl_sandbox_release(p->box);
            r->spawn_failed = 1;
            r->seconds = sl_now() - p->start;
            return 1;
        }
        police_all_but(p);
        if (until && until(arg))
            return 0;
        if (!p->killed) /* else killed while another was waited for */
            p->killed = limit_passed(p);
        if (p->killed) {
            kill(-p->pid, SIGKILL);
            kill(p->pid, SIGKILL);
            while (wait4(p->pid, &status, 0, &ru) < 0 && errno == EINTR)
                ;
            break;
        }
        struct timespec nap = {0, 2 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (p->killed == SL_PROC_KILLED_QUOTA) {
        r->over_quota = 1;
    } else if (p->killed) {
        r->timed_out = 1;
        r->not_ready = !p->ready;
    }
    unwatch(p);
    /* Whatever the child left behind in its group goes too, and in a
     * subreaper whatever it detached (setsid) and orphaned: first the
     * sandboxes' inits, this child's and those of the children that ended
     * by themselves meanwhile (their status is whole), each reaped with its
     * CPU time counted for its own child. */
    kill(-p->pid, SIGKILL);
    untrack(p->pid);
    if (sl_contain_is_subreaper()) {
        reap_inner(p);
        for (int i = 0; watched_by == getpid() && i < nwatched; i++)
            if (watched[i]->ended > 0 && !watched[i]->killed)
                reap_inner(watched[i]);
        sl_contain_kill_children(inflight, ninflight, 5.0);
    }
    sl_sandbox_release(p->box); /* staged outputs back where the grader reads */
    r->seconds = (p->ended > 0 ? p->ended : sl_now()) - p->start;
    if (p->ready_mark && p->ready)
        r->ready_s = p->limits_from - p->start;
    /* the child and the descendants it waited for (a sanitizer's target) */
    r->cpu_seconds = cpu_seconds(&ru) + p->inner_cpu;
    r->max_rss_kb = ru.ru_maxrss > p->inner_rss_kb ? ru.ru_maxrss : p->inner_rss_kb;
    long long oom_after = p->oom_before >= 0 ? sl_oom_kills() : -1;
    r->oom_kills = oom_after >= 0 && oom_after >= p->oom_before ? oom_after - p->oom_before : -1;
    int came_up = sandbox_came_up(p);
    if (r->timed_out || r->over_quota)
        return 1;
    if (!came_up) {
        /* bubblewrap failed before it started the program: ours, not the
         * program's (its complaint is in the log) */
        r->spawn_failed = 1;
        return 1;
    }
    if (WIFEXITED(status)) {
        /* any code, 127 included, is the program's own: exec failures
         * were seen in sl_proc_spawn */
        r->exited = 1;
        r->code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r->signaled = 1;
        r->sig = WTERMSIG(status);
    }
    return 1;
}

int sl_proc_oom_killed(const sl_proc_result *r)
{
    int killed = (r->signaled && r->sig == SIGKILL) || (r->exited && r->code == 128 + SIGKILL);
    return killed && r->oom_kills > 0;
}

void sl_proc_wait(sl_proc *p, sl_proc_result *r) { sl_proc_wait_until(p, r, NULL, NULL); }

void sl_proc_run_opts(char *const argv[], const sl_proc_opts *o, sl_proc_result *r)
{
    sl_proc p;
    if (sl_proc_spawn(&p, argv, o) != 0) {
        memset(r, 0, sizeof *r);
        r->spawn_failed = 1;
        return;
    }
    sl_proc_wait(&p, r);
}

void sl_proc_run_watched(char *const argv[], const char *out_path, size_t out_cap, double idle_s,
                         double timeout_s, sl_proc_result *r)
{
    sl_proc_opts o = {0};
    o.out_path = out_path;
    o.out_cap = out_cap;
    o.idle_s = idle_s;
    o.timeout_s = timeout_s;
    sl_proc_run_opts(argv, &o, r);
}

char *sl_proc_output(char *const argv[], size_t cap, double timeout_s, sl_proc_result *r)
{
    memset(r, 0, sizeof *r);
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/synclab-output-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    close(fd);
    sl_proc_run(argv, path, cap, timeout_s, r);
    char *text = sl_read_file(path, cap, NULL);
    unlink(path);
    return text ? text : strdup("");
}

void sl_proc_run(char *const argv[], const char *out_path, size_t out_cap, double timeout_s,
                 sl_proc_result *r)
{
    sl_proc_run_watched(argv, out_path, out_cap, 0, timeout_s, r); /* no idle limit */
}
