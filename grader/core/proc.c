#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "contain.h"

/* Children started here and not yet waited for: in a subreaper, every
 * other child is a stray some runner left behind (see contain.h). */
enum { MAX_INFLIGHT = 64 };
static pid_t inflight[MAX_INFLIGHT];
static int ninflight;

static void track(pid_t pid)
{
    if (ninflight < MAX_INFLIGHT)
        inflight[ninflight++] = pid;
}

static void untrack(pid_t pid)
{
    for (int i = 0; i < ninflight; i++)
        if (inflight[i] == pid) {
            inflight[i] = inflight[--ninflight];
            return;
        }
}

/* Nothing the grader holds open (outcome channels, logs) may reach the
 * program: only stdin, stdout and stderr cross the exec. */
static void close_inherited_fds(void)
{
    if (close_range(3, ~0U, 0) == 0)
        return;
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (max > 0 ? max : 1024); fd++)
        close((int)fd);
}

double sl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int sl_proc_start(sl_proc *p, char *const argv[], const char *out_path,
                  size_t out_cap, double timeout_s)
{
    p->start = sl_now();
    p->timeout_s = timeout_s;
    p->idle_s = 0;
    p->watch = NULL;
    p->watched_size = -1;
    p->last_progress = p->start;
    p->pid = fork();
    if (p->pid < 0)
        return -1;
    if (p->pid == 0) {
        /* Own process group: a timeout kills the sanitizer and its target. */
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0)
            _exit(127);
        dup2(in, STDIN_FILENO);
        dup2(out, STDOUT_FILENO);
        dup2(out, STDERR_FILENO);
        if (out_cap) {
            /* A flood of output kills the child (SIGXFSZ), not the disk. */
            struct rlimit rl = {out_cap, out_cap};
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        signal(SIGXFSZ, SIG_DFL);
        close_inherited_fds();
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(p->pid, p->pid); /* also here: no race with the child's own call */
    track(p->pid);
    return 0;
}

/* No new output for idle_s seconds. */
static int stalled(sl_proc *p)
{
    if (p->idle_s <= 0 || !p->watch)
        return 0;
    double now = sl_now();
    struct stat st;
    if (stat(p->watch, &st) == 0 && (long long)st.st_size != p->watched_size) {
        p->watched_size = (long long)st.st_size;
        p->last_progress = now;
    }
    return now - p->last_progress > p->idle_s;
}

void sl_proc_wait(sl_proc *p, sl_proc_result *r)
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
            r->spawn_failed = 1;
            r->seconds = sl_now() - p->start;
            return;
        }
        if ((p->timeout_s > 0 && sl_now() - p->start > p->timeout_s) || stalled(p)) {
            kill(-p->pid, SIGKILL);
            kill(p->pid, SIGKILL);
            while (wait4(p->pid, &status, 0, &ru) < 0 && errno == EINTR)
                ;
            r->timed_out = 1;
            break;
        }
        struct timespec nap = {0, 2 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    /* Whatever the child left behind in its group goes too, and in a
     * subreaper whatever it detached (setsid) and orphaned. */
    kill(-p->pid, SIGKILL);
    untrack(p->pid);
    if (sl_contain_is_subreaper())
        sl_contain_kill_children(inflight, ninflight, 5.0);
    r->seconds = sl_now() - p->start;
    /* the child and the descendants it waited for (a sanitizer's target) */
    r->cpu_seconds = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                     (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    if (r->timed_out)
        return;
    if (WIFEXITED(status)) {
        r->exited = 1;
        r->code = WEXITSTATUS(status);
        if (r->code == 127)
            r->spawn_failed = 1;
    } else if (WIFSIGNALED(status)) {
        r->signaled = 1;
        r->sig = WTERMSIG(status);
    }
}

void sl_proc_run_watched(char *const argv[], const char *out_path, size_t out_cap,
                         double idle_s, double timeout_s, sl_proc_result *r)
{
    sl_proc p = {0};
    if (sl_proc_start(&p, argv, out_path, out_cap, timeout_s) != 0) {
        memset(r, 0, sizeof *r);
        r->spawn_failed = 1;
        return;
    }
    p.idle_s = idle_s;
    p.watch = out_path;
    sl_proc_wait(&p, r);
}

void sl_proc_run(char *const argv[], const char *out_path, size_t out_cap,
                 double timeout_s, sl_proc_result *r)
{
    sl_proc_run_watched(argv, out_path, out_cap, 0, timeout_s, r); /* no idle limit */
}

char *sl_read_file(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(max + 1);
    if (!buf) {
        fclose(f);
        return NULL;
    }
    size_t n = fread(buf, 1, max, f);
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int sl_write_file(const char *path, const char *text)
{
    FILE *f = text ? fopen(path, "w") : NULL;
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

int sl_mkdirs(const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
        return -1;
    for (char *s = tmp + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

const char *sl_base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}
