/* How the grader calls a runner, the one place that spells it out for the
 * per-exercise runs (grade.c) and the lesson sweep (sweep.c):
 *   [compute-sanitizer <tool args>] runner run <exercise> <dir> <count> <outdir> ...
 * one group of four per exercise (and per run of its full inputs), in the
 * runners' sandbox with its limits. Plain runs and tool runs have the same
 * argv and the same environment names: the harness reads its mode in a
 * constructor before any student code and wipes it (runner_main.cu). The
 * runner's log protocol: SL_RUNNER_READY (case.h) once it holds a CUDA
 * context, "@@exercise x" starts a group (when there are several),
 * "@@case i" an input, "@@launches N" ends one, "CUDA error: ..." before a
 * failure. The harness writes it to the log through a descriptor of its
 * own (SL_PROTO_FDS), and what the program prints to <log>.program: the
 * log holds only the protocol and, under a tool, the tool's report. */
#ifndef SYNCLAB_RUNNER_CALL_H
#define SYNCLAB_RUNNER_CALL_H

#include "proc.h"
#include "sandbox.h"

/* Limits shared by every runner process. */
enum {
    SL_RUN_LOG_CAP = 64 << 20,   /* a runner printing more is killed */
    SL_RUN_LOG_READ = 256 << 10, /* what is read back of a log: its head */
    SL_RUN_LOG_TAIL = 64 << 10,  /* and its end, where a tool's summary is */
    /* Seconds a runner may take to say SL_RUNNER_READY: a tool's start on
     * a loaded machine. Its time limits count from there. */
    SL_RUNNER_START_S = 120,
    /* Host memory a runner never needs more of, a tool's included (its
     * peak, wait4's ru_maxrss): a runner the OOM killer stops under it was
     * stopped for the class's want of memory, not its own (grade.c). */
    SL_RUNNER_MEMORY_MIB = 4096,
    /* GPU memory free once a run that ran out of it has ended, under which
     * another process holds the GPU: no exercise needs 1 GiB of it, and
     * the smallest MIG slice (5 GB) has more free */
    SL_GPU_FREE_MIN_MIB = 2048,
};

typedef struct {
    const char *exercise, *dir, *count, *out;
} sl_runner_group;

/* Fills argv (SL_RUNNER_ARGV(n) entries) for tool (0: a plain run; else an
 * SL_TOOL_*) over groups g[0..n-1]. Returns the number of entries before
 * the terminating NULL. */
#define SL_RUNNER_ARGV(n) (24 + 4 * (n))
int sl_runner_argv(const char *runner, const char *sanitizer, int tool, const sl_runner_group *g,
                   int n, const char **argv);

/* How a runner starts (sandbox.h): the runner and in_dir read-only (and
 * the tool's folder under a tool), out_dir writable with a quota of about
 * `cases` files, the log capped, the CPU limited to timeout_s times a few
 * cores, counted from SL_RUNNER_READY; under a tool the mode reaches the harness through its
 * environment, never argv. box and o are filled; box must outlive the run. */
void sl_runner_opts(const char *runner, const char *sanitizer, int tool, const char *in_dir,
                    const char *out_dir, int cases, const char *logpath, double timeout_s,
                    sl_sandbox *box, sl_proc_opts *o);
/* Where a run's program output goes (<logpath>.program): what the student's
 * code printed, shown to the student by `syncgrade run`, never read for a
 * verdict. */
void sl_runner_program_log(const char *logpath, char *out, size_t n);
/* A run's log as the grader reads it: its head and its end (sl_read_ends);
 * never NULL (an empty string when unreadable). */
char *sl_runner_log(const char *logpath);
/* After sl_runner_opts: under --mps (mps.h) the run becomes a client of
 * our MPS daemon. Only for runs whose every result but "clean" is thrown
 * away (the lesson sweep's): a neighbour's fatal fault reaches every
 * client. Returns 1 when it did, 0 when no daemon runs. */
int sl_runner_mps_client(sl_sandbox *box, sl_proc_opts *o);

/* How far a runner's log got: groups started ("@@exercise" lines), and
 * launched = 0 when one of the groups up to number `upto` (every group:
 * upto < 0; lines before the first "@@exercise" are group 0) counted
 * launches and all of them were 0, else 1. */
typedef struct {
    int groups;
    int launched;
} sl_log_progress;
sl_log_progress sl_log_read(const char *logpath, int upto);
/* sl_log_read over every group: 0 when an exercise launched no kernel (a
 * clean run of it proves nothing), else 1. */
int sl_log_launched(const char *logpath);

#endif
