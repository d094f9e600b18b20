/* Child processes with a time limit. The runner (student code) is always a
 * child: a hang, crash or flood of output costs that run, never the grader. */
#ifndef SYNCLAB_PROC_H
#define SYNCLAB_PROC_H

#include <stddef.h>
#include <sys/types.h>

typedef struct {
    int exited;      /* normal exit: code is valid */
    int code;
    int signaled;    /* killed by a signal other than our timeout */
    int sig;
    int timed_out;   /* we killed it at the time limit */
    int spawn_failed;
    double seconds;
    double cpu_seconds;   /* user + system time of the child and its waited-for children */
} sl_proc_result;

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
} sl_proc;

/* Starts argv in its own process group with stdout+stderr sent to out_path
 * (truncated, capped at out_cap bytes), stdin from /dev/null. 0 ok. */
int sl_proc_start(sl_proc *p, char *const argv[], const char *out_path,
                  size_t out_cap, double timeout_s);
/* Waits, killing the whole group at the time limit. */
void sl_proc_wait(sl_proc *p, sl_proc_result *r);
/* start + wait, killing the child when its output stops growing for
 * idle_s seconds or at timeout_s overall. */
void sl_proc_run_watched(char *const argv[], const char *out_path, size_t out_cap,
                         double idle_s, double timeout_s, sl_proc_result *r);
/* start + wait. */
void sl_proc_run(char *const argv[], const char *out_path, size_t out_cap,
                 double timeout_s, sl_proc_result *r);

/* Reads at most max bytes of a file (head). NULL when unreadable. The result
 * is NUL-terminated; *len (may be NULL) gets the byte count. */
char *sl_read_file(const char *path, size_t max, size_t *len);
double sl_now(void);
/* The part of path after its last '/'. */
const char *sl_base_name(const char *path);
/* Writes text as the whole content of path. 0 ok, -1 on any failure. */
int sl_write_file(const char *path, const char *text);
/* mkdir -p. 0 ok. */
int sl_mkdirs(const char *path);

#endif
