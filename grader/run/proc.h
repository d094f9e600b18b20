/* Child processes with a time limit. The runner (student code) is always a
 * child: a hang, crash or flood of output costs that run, never the grader. */
#ifndef SYNCLAB_PROC_H
#define SYNCLAB_PROC_H

#include <stddef.h>
#include <sys/types.h>

#include "sandbox.h"

typedef struct {
    int exited; /* normal exit: code is valid */
    int code;
    int signaled; /* killed by a signal other than our timeout */
    int sig;
    int timed_out;    /* we killed it at the time limit */
    int not_ready;    /* ...before it said ready_mark: its start, not its work, was slow */
    int spawn_failed; /* it never started: fork, exec or the sandbox failed */
    int over_quota;   /* killed for leaving too many files or bytes in quota_dir */
    double seconds;
    double cpu_seconds; /* user + system time of the child and its waited-for children */
    /* From the start to its ready_mark line, where one was asked for and
     * seen while the grader watched (0 otherwise): for a runner, making its
     * CUDA context, most of it waiting for the driver (issue 29) */
    double ready_s;
    /* The most memory the child, or a process under it that was waited
     * for (a sanitizer's target, a sandbox's command), held at once: KiB,
     * 0 unknown. */
    long max_rss_kb;
    /* How many processes the OOM killer stopped in this process's cgroup
     * (or the machine) while the child ran (memory.h); -1 unknown. */
    long long oom_kills;
} sl_proc_result;

/* Whether r ended the way the OOM killer ends a process (SIGKILL, which
 * we did not send, or a sandbox's 128 + 9 for it) while the OOM killer
 * stopped something: the kernel took it for want of memory. Whose want
 * is the caller's to weigh (max_rss_kb). */
int sl_proc_oom_killed(const sl_proc_result *r);

enum { SL_PROC_KILLED_TIME = 1, SL_PROC_KILLED_QUOTA = 2 };

/* ", ready after X s" when r->ready_s is known, else "": the trace lines'
 * one spelling of it (scripts/bench-class.sh reads it). Returns buf. */
const char *sl_proc_ready_note(const sl_proc_result *r, char *buf, size_t n);
/* r->max_rss_kb in MiB, rounded up (0 unknown). */
long sl_proc_peak_mib(const sl_proc_result *r);
/* ", N MiB at most" when r->max_rss_kb is known, else "": the memory a
 * run held at its peak, beside its time in the trace lines. Returns buf. */
const char *sl_proc_memory_note(const sl_proc_result *r, char *buf, size_t n);

typedef struct {
    pid_t pid;
    double start;
    double timeout_s;
    /* Optional: a hang is no growth of watch (the child's output) for
     * idle_s seconds; timeout_s stays the overall cap. A busy GPU shared by
     * many processes slows every run down, a deadlock stops it. */
    double idle_s;
    const char *watch;
    long long watched_size;
    double last_progress;
    /* Optional: the limits above count from the first ready_mark line in
     * watch_ready (the child's output), start_s the wait for it. */
    const char *ready_mark;
    const char *watch_ready;
    double start_s;
    int ready;
    double limits_from; /* the start, or when ready_mark came */
    double last_ready_check;
    /* Seen while another child was waited for (proc.c watches them all):
     * when it ended, and why we killed it (SL_PROC_KILLED_*), if we did. */
    double ended;
    int killed;
    /* Optional: the child is killed when quota_dir holds more than
     * quota_entries files and folders or quota_bytes bytes. */
    const char *quota_dir;
    long long quota_bytes;
    int quota_entries;
    double last_quota_check;
    int status_fd;         /* the sandbox's status (sandbox.h); -1 none */
    const sl_sandbox *box; /* released once the child is reaped (sandbox.h) */
    /* Read from the status once the child is gone: whether the sandbox
     * came up, and the pid of bubblewrap's init, which a subreaper adopts
     * when bubblewrap exits without waiting for it: its CPU time (the
     * command's, which it waited for) is counted with the child's. */
    int came_up;
    pid_t inner; /* -1 once reap_inner looked at it */
    double inner_cpu;
    long inner_rss_kb;
    long long oom_before; /* sl_oom_kills() at the start */
} sl_proc;

/* How to start a child: everything but argv. */
typedef struct {
    const char *out_path; /* stdout+stderr (truncated); NULL: /dev/null */
    size_t out_cap;       /* RLIMIT_FSIZE: a larger file kills the child (SIGXFSZ) */
    double timeout_s;     /* overall time limit; 0 none */
    double idle_s;        /* > 0: killed when out_path stops growing this long */
    /* Optional: a line in out_path after which timeout_s and idle_s start
     * counting; until it appears the limit is start_s. A program under a
     * tool on a loaded machine may take long to start: that is not the
     * time its own work took. */
    const char *ready_mark;
    double start_s;
    const sl_sandbox *box;  /* NULL: not sandboxed (the grader's own tools) */
    const char *const *env; /* NULL-ended "NAME=value" set in the child */
    const char *quota_dir;  /* see sl_proc */
    long long quota_bytes;
    int quota_entries;
    /* A runner of ours (runner_call.h): where its program output goes once
     * its harness takes over, before any student code runs. out_path then
     * keeps only what the harness itself says (the protocol: SL_PROTO_FDS
     * in case.h) and, under a tool, the tool's report: nothing student code
     * prints reaches it. Empty: the child's stdout stays out_path. */
    char program_path[4200];
} sl_proc_opts;

/* Starts argv with o in its own process group, stdin from /dev/null.
 * 0 ok; -1 when it could not be started at all. */
int sl_proc_spawn(sl_proc *p, char *const argv[], const sl_proc_opts *o);
/* spawn + wait. */
void sl_proc_run_opts(char *const argv[], const sl_proc_opts *o, sl_proc_result *r);

/* Starts argv in its own process group with stdout+stderr sent to out_path
 * (truncated, capped at out_cap bytes), stdin from /dev/null. 0 ok. */
int sl_proc_start(sl_proc *p, char *const argv[], const char *out_path, size_t out_cap,
                  double timeout_s);
/* Waits, killing the whole group at the time limit. */
void sl_proc_wait(sl_proc *p, sl_proc_result *r);
/* sl_proc_wait that returns 0 as soon as until(arg) holds while the child
 * still runs (wait for it later), 1 when the child ended first (r filled).
 * until is asked every few milliseconds. */
int sl_proc_wait_until(sl_proc *p, sl_proc_result *r, int (*until)(void *), void *arg);
/* Asks for a running child to be killed: its next wait kills its group and
 * reports it as timed out. A child that has already ended is left as it is. */
void sl_proc_stop(sl_proc *p);
/* One look at every child of this process not yet waited for: kills those
 * past their limits, notes those that ended. Any wait here does it all the
 * while; a caller blocked elsewhere (a lock) calls it. Returns how many
 * still run. */
int sl_proc_watch_children(void);
/* start + wait, killing the child when its output stops growing for
 * idle_s seconds or at timeout_s overall. */
void sl_proc_run_watched(char *const argv[], const char *out_path, size_t out_cap, double idle_s,
                         double timeout_s, sl_proc_result *r);
/* start + wait. */
void sl_proc_run(char *const argv[], const char *out_path, size_t out_cap, double timeout_s,
                 sl_proc_result *r);

/* Runs one of the grader's own programs (never student code) with its
 * stdout and stderr caught in a file of TMPDIR (else /tmp), and reads back
 * at most cap bytes: the text (malloc'd; "" when nothing was printed), or
 * NULL when no such file could be made (nothing ran). */
char *sl_proc_output(char *const argv[], size_t cap, double timeout_s, sl_proc_result *r);

/* Seconds on a monotonic clock. */
double sl_now(void);

#endif
