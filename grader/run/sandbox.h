/* The sandbox every process that runs student code starts in (a plain run,
 * a sanitizer tool with its target, the sweep, the bench): bubblewrap
 * (Debian package `bubblewrap`) gives it
 *   - a read-only view of the machine, with the grader's folders hidden
 *     behind empty tmpfs mounts: the source tree (solutions, references),
 *     the build tree, every output folder of the grading (other lessons'
 *     PTX, reports, other students), the submissions, the GPU-turn locks;
 *   - the device nodes of its own GPU only, where that GPU can be told
 *     for sure ("gpunode" lever, gpu_node.h), else every GPU's;
 *   - its own /tmp and /dev/shm (small tmpfs), no network, its own pid
 *     namespace (it cannot see or signal the grader), a new session, and
 *     death with the grader;
 *   - back on top: the runner and its inputs read-only, its output
 *     folder(s) read-write, nothing else writable;
 *   - limits set before the exec: processes (RLIMIT_NPROC), bytes per
 *     file (RLIMIT_FSIZE, by proc.c), CPU time, data size, no core files.
 * Run as root, the grader drops the sandbox to an unprivileged uid
 * (SYNCLAB_SANDBOX_UID, default 65534 "nobody"): root ignores RLIMIT_NPROC,
 * and another uid cannot signal or trace the grader either.
 * Where bubblewrap is missing or cannot start (no user namespaces), runs
 * start as before (proc.c, contain.c) with the same rlimits, and
 * sl_sandbox_status() says so for the report. docs/integrity.md. */
#ifndef SYNCLAB_SANDBOX_H
#define SYNCLAB_SANDBOX_H

#include <stddef.h>
#include <sys/types.h>

enum { SL_SANDBOX_MAX_BINDS = 48 };

typedef struct {
    const char *ro[SL_SANDBOX_MAX_BINDS]; /* shown read-only: the runner, its inputs */
    int nro;
    const char *rw[SL_SANDBOX_MAX_BINDS]; /* shown read-write: its output folders */
    int nrw;
    double cpu_s; /* RLIMIT_CPU in seconds; 0: none */
    long nproc;   /* RLIMIT_NPROC; 0: the default (SYNCLAB_SANDBOX_NPROC or 4096) */
    /* A client of our MPS daemon (mps.h): its pipe folder, shown read-only,
     * and the host's /dev/shm and IPC namespace, which the daemon talks
     * through. The daemon runs as the sandbox's uid: a client drops to it
     * as any run does. NULL for every run but the lesson sweep's (--mps). */
    const char *mps_pipes;
} sl_sandbox;

/* Adds a read-only / read-write path (ignored when full). */
void sl_sandbox_ro(sl_sandbox *s, const char *path);
void sl_sandbox_rw(sl_sandbox *s, const char *path);

/* Probes bubblewrap once per process tree (the result is inherited by
 * forks): 1 when runs are sandboxed. SYNCLAB_SANDBOX=0 turns it off. */
int sl_sandbox_available(void);
/* The uid sandboxed runs drop to (a root grader's), or -1: they keep ours. */
long sl_sandbox_uid(void);
/* One line for the report: how runs are contained. */
const char *sl_sandbox_status(void);
/* Hides path (a folder or file) from every sandboxed run of this process
 * and its forks. The source and build trees and the GPU-turn locks are
 * hidden without asking. */
void sl_sandbox_hide(const char *path);

/* The uid runs of this process drop to (a root grader's: one per
 * concurrent job, SYNCLAB_SANDBOX_UID + 0..SYNCLAB_SANDBOX_UIDS-1, claimed
 * by a lock; the base uid under MPS), or -1. */
long sl_sandbox_job_uid(void);

/* Parent side, before the fork: gives the read-write folders to the
 * sandbox's uid when it differs from ours. A bind that uid cannot reach (a
 * private tree: a folder above it without o+x) is staged: copied (hard
 * links where it can) into a grader-owned 0711 folder under /tmp
 * (SYNCLAB_STAGE_DIR), shown at its own path in the sandbox over an empty
 * tmpfs; a writable one is the uid's, and what the run leaves there comes
 * back at sl_sandbox_release. 0 ok; -1 when the run must not start (said
 * on stderr, or in the status line: never as root instead). */
int sl_sandbox_prepare(const sl_sandbox *s);
/* Where a writable bind's files are while the run goes (its staged copy,
 * or path itself): what the quota watches. */
const char *sl_sandbox_seen_at(const sl_sandbox *s, const char *path);
/* After the run ended: staged outputs back (regular files only), staged
 * copies removed. Nothing when nothing was staged. */
void sl_sandbox_release(const sl_sandbox *s);
/* Child side, after the fork: limits, then exec of argv inside the sandbox
 * (or directly, when none is available). status_fd >= 0 receives
 * bubblewrap's JSON status (a "child-pid" line once the sandbox is up).
 * Returns only when the exec failed. */
void sl_sandbox_exec(const sl_sandbox *s, char *const argv[], int status_fd);
/* Whether bubblewrap's JSON status (text read from status_fd) says the
 * sandbox came up and started the command. */
int sl_sandbox_started(const char *status);
/* The pid, in the grader's namespace, of the process bubblewrap started
 * in the new pid namespace (its init, which waits for the command), from
 * the status's first object ({"child-pid": N, ...}); -1 when it has none. */
long sl_sandbox_child_pid(const char *status);

#endif
