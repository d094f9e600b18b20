#include "grade.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "levers.h"
#include "demangle.h"
#include "build.h"
#include "files.h"
#include "gpu_probe.h"
#include "gpu_turn.h"
#include "hint.h"
#include "hostobj.h"
#include "proc.h"
#include "ptx_budget.h"
#include "ptx_shared.h"
#include "ptx_order.h"
#include "ptx_warp.h"
#include "race_filter.h"
#include "sanitizer.h"
#include "sweep.h"
#include "trace.h"

enum {
    CASE_OUT_CAP = 1u << 30, /* largest output file we accept */
    /* No new input for this long is a stall (each decides nothing until a
     * run alone). A run of an exercise's full inputs (2^25 elements) takes
     * 0.5 s alone (H100); 30 s let a kernel that stalls there take a
     * neighbour's GPU time-slices that long (huge_output: 1.54x its
     * neighbour, 1.36x at 10 s). */
    DEFAULT_PLAIN_TIMEOUT = 10,
    /* The GPU is held alone for these two, so every other grader waits:
     * short, but alone the small inputs take under a second (H100). */
    DIAGNOSE_TIMEOUT = 6,       /* synccheck after a hang or launch failure */
    DIAGNOSE_FULL_TIMEOUT = 60, /* one full input (up to 2^25 elements) under a tool */
    /* No progress for this long with the GPU to itself: hung. Every other
     * grader waits meanwhile, and eight hangs at once confirm one after
     * another (3 s each took the last of eight lessons to 61.5 s, H100). */
    ALONE_IDLE = 2,
    MIN_PLAIN_TIMEOUT = 8, /* the floor of an exercise's own limit (the sweep's small inputs') */
    /* The bench holds the GPU alone: every other grader waits for it. One
     * call measures 2^28 elements a few times (a second or two on an H100);
     * the limit is scaled, but never past BENCH_TIMEOUT_MAX. */
    BENCH_TIMEOUT = 30,
    BENCH_TIMEOUT_MAX = 60,
    /* All runs of one exercise (plain, tools, full inputs, diagnosis):
     * every solution takes well under a minute even under the tools; a
     * correct kernel that takes 20 s a launch does not get hours. Scaled
     * by --timeout-scale; SYNCLAB_EXERCISE_BUDGET_S sets another. */
    EXERCISE_BUDGET_S = 300,
};

/* When the exercise being judged must be done (sl_grade_exercise), and
 * whether a rerun with the GPU alone was refused for the student's budget
 * (budget.h). */
static double g_deadline;
static int g_alone_denied;

/* Seconds left of the exercise's budget; a large number when none is set. */
static double budget_left(void) { return g_deadline > 0 ? g_deadline - sl_now() : 1e9; }

/* A time limit within what is left of the exercise's budget. */
static double within_budget(double limit)
{
    double left = budget_left();
    return limit > left ? (left > 0.5 ? left : 0.5) : limit;
}

/* An exclusive rerun, if the student has one left (budget.h). */
static int may_rerun_alone(void)
{
    if (budget_left() <= 0 || !sl_budget_take_alone()) {
        g_alone_denied = 1;
        return 0;
    }
    return 1;
}

/* ---------- small helpers ---------- */

static void trace_line(const char *what)
{
    if (sl_tracing())
        fprintf(stderr, "[trace] %s\n", what);
}

/* Stopped for printing or leaving too much: a diagnosis under a tool
 * would flood again, and no line of a tool's explains a flood. */
static int past_output_cap(const sl_proc_result *p)
{
    return p->over_quota || (p->signaled && p->sig == SIGXFSZ);
}

/* One child process: wall and CPU time (a sanitizer's includes its target). */
static void trace_proc(const char *exercise, const char *what, const sl_proc_result *p)
{
    if (!sl_tracing())
        return;
    char ready[48], rss[48];
    fprintf(stderr, "[trace] %s: %s %.2f s wall, %.2f s cpu%s%s%s\n", exercise, what, p->seconds,
            p->cpu_seconds, sl_proc_ready_note(p, ready, sizeof ready),
            sl_proc_memory_note(p, rss, sizeof rss),
            p->not_ready         ? " (no CUDA context in time)"
            : p->timed_out       ? " (time limit)"
            : past_output_cap(p) ? " (stopped: output past its cap)"
                                 : "");
}

static void set(sl_outcome *r, sl_verdict v) { sl_outcome_set(r, v); }

double sl_grade_limit(const sl_grade_ctx *ctx, double seconds)
{
    return seconds * (ctx->timeout_scale > 0 ? ctx->timeout_scale : 1.0);
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

static void path_join(char *out, size_t n, const char *dir, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

/* The last "@@case i" the runner wrote (at a line's start): the input it
 * was on. */
static int last_case(const char *log)
{
    int c = -1;
    for (const char *s = strstr(log, "@@case "); s; s = strstr(s + 1, "@@case "))
        if (s == log || s[-1] == '\n')
            c = atoi(s + 7);
    return c;
}

/* The runner's "CUDA error: <name>: <text>" line, if any, as the grader
 * quotes it: only what the CUDA runtime or the runner could have said, never
 * the rest of a line student code may have printed (it could carry a file's
 * content). The name must look like cudaGetErrorName's (cudaError<Word>,
 * letters only, short); the text is kept only when it begins with one of
 * the runtime's or the runner's known messages (its wrappers, system-call
 * wall and driver watch: grader/runner/README.md), and only that message. */
static void cuda_error_line(const char *log, char *out, size_t n)
{
    static const char *const known[] = {
        "an illegal memory access was encountered",
        "misaligned address",
        "unspecified launch failure",
        "out of memory",
        "invalid argument",
        "invalid configuration argument",
        "too many resources requested for launch",
        "too many blocks in cooperative launch",
        "the launch timed out and was terminated",
        "an illegal instruction was encountered",
        "device-side assert triggered",
        "operation not permitted",
        "invalid device function",
        "invalid program counter",
        "no kernel image is available for execution on the device",
        "the provided PTX was compiled with an unsupported toolchain.",
        "a PTX JIT compilation failed",
        "device kernel image is invalid",
        "no CUDA-capable device is detected",
        "a launcher may copy only from device memory to device memory",
        "the launcher launched no kernel for a non-empty input",
        "the runner made a forbidden system call",
        "the launcher made a driver call a launcher may not make",
        "the launcher turned off the runner's driver watch",
        "the launcher read an input out of its turn",
        NULL};
    enum { NAME_MAX_LEN = 48 };
    out[0] = '\0';
    for (const char *s = strstr(log, "CUDA error: "); s; s = strstr(s + 1, "CUDA error: ")) {
        const char *name = s + 12, *p = name;
        if (strncmp(name, "cudaError", 9) != 0)
            continue;
        p += 9;
        while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
            p++;
        size_t len = (size_t)(p - name);
        if (len <= 9 || len > NAME_MAX_LEN || !(name[9] >= 'A' && name[9] <= 'Z') ||
            !(*p == ':' || *p == '\n' || *p == '\0' || *p == '\r'))
            continue;
        const char *text = "";
        if (p[0] == ':' && p[1] == ' ')
            for (const char *const *k = known; *k; k++)
                if (strncmp(p + 2, *k, strlen(*k)) == 0) {
                    text = *k;
                    break;
                }
        snprintf(out, n, "CUDA error: %.*s%s%s", (int)len, name, *text ? ": " : "", text);
        return;
    }
}

static int is_memory_error(const char *cuda_line)
{
    return strstr(cuda_line, "illegal address") || strstr(cuda_line, "misaligned") ||
           strstr(cuda_line, "out of bounds") || strstr(cuda_line, "IllegalAddress") ||
           strstr(cuda_line, "MisalignedAddress");
}

int sl_grade_write_inputs(const sl_inputs *in, const char *dir)
{
    char path[4096];
    if (sl_mkdirs(dir) != 0)
        return -1;
    for (int i = 0; i < in->count; i++) {
        snprintf(path, sizeof path, "%s/case%d.in", dir, i);
        if (sl_case_write(path, &in->v[i].in) != 0)
            return -1;
    }
    return 0;
}

void sl_grade_remove_cases(const char *dir, int count)
{
    char path[4096];
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/case%d.in", dir, i);
        unlink(path);
        snprintf(path, sizeof path, "%s/case%d.out", dir, i);
        unlink(path);
    }
}

/* ---------- running the runner ---------- */

typedef struct {
    sl_proc_result pr;
    char *log;      /* head of stdout+stderr */
    double alone_s; /* > 0: timed out again when run alone with this limit */
    int alone;      /* failed again with the GPU to itself */
    int no_rerun;   /* not run again alone: the student's budget was spent */
} run_out;

/* The input the runner was on when it ended (its last "@@case i"), as
 * a verdict names it; "?" before any. */
static const char *case_label(const run_out *o, const sl_inputs *in)
{
    int c = last_case(o->log ? o->log : "");
    return c >= 0 && c < in->count ? in->v[c].label : "?";
}

static void run_free(run_out *o)
{
    free(o->log);
    o->log = NULL;
}

/* argv for "runner run <exercise> <dir> <count> <outdir>", optionally
 * behind a sanitizer (runner_call.h). */
static int runner_argv(const sl_grade_ctx *ctx, int tool, const char *exercise, const char *dir,
                       const char *count, const char *outdir, const char **argv)
{
    sl_runner_group one = {exercise, dir, count, outdir};
    return sl_runner_argv(ctx->runner, ctx->sanitizer, tool, &one, 1, argv);
}

static void finish_run(run_out *o, const char *logpath)
{
    sl_budget_spend(o->pr.seconds);
    o->log = sl_runner_log(logpath);
}

/* Why a failure was not run again alone: the student's budgets. */
static const char *budget_note(void)
{
    static char note[300];
    if (budget_left() <= 0)
        snprintf(note, sizeof note, " (not run again: the exercise used its time budget)");
    else
        snprintf(note, sizeof note,
                 " (not run again with the GPU to itself: this submission used its %d "
                 "exclusive reruns)",
                 sl_budget_alone_max());
    return note;
}

/* A run that failed while the disk under the work folder was all but full
 * may have failed for that alone (a runner that cannot write its outputs
 * exits as a failed input would): ERROR, the grader's failure, never a
 * verdict on the student. The disk is the grader's to judge, not anything
 * the runner says. 1 when it was. */
static int disk_was_full(const sl_grade_ctx *ctx, const char *what, sl_outcome *r)
{
    long long room;
    if (!sl_disk_low(ctx->workdir, &room))
        return 0;
    set(r, SL_V_ERROR);
    sl_text_printf(&r->detail,
                   "%s: the grader's disk was full (%lld MB free under the work folder) when it "
                   "failed: not judged (grade it again with more room under the output folder)\n",
                   what, room / 1000000);
    return 1;
}

/* Whether the OOM killer stopped this run: the runner itself (SIGKILL),
 * or under a tool its target, which the tool reports as a process that
 * "didn't terminate successfully" (as it does any killed target). */
static int oom_killed(const run_out *o)
{
    if (sl_proc_oom_killed(&o->pr))
        return 1;
    return o->pr.oom_kills > 0 && o->pr.exited && o->log &&
           strstr(o->log, "process didn't terminate successfully");
}

/* A runner the OOM killer stopped: the student's doing when it held more
 * host memory than a runner ever needs (the harness's arrays, a CUDA
 * context, a sanitizer's shadow), else the class's want of memory,
 * which is the grader's (ERROR). Its peak is measured by the kernel
 * (wait4), never told by the runner. 1 when it was stopped so. */
static int memory_ran_out(const run_out *o, const char *what, const char *label, sl_outcome *r)
{
    const sl_proc_result *p = &o->pr;
    if (!oom_killed(o))
        return 0;
    long mib = sl_proc_peak_mib(p);
    if (mib > SL_RUNNER_MEMORY_MIB) {
        set(r, SL_V_LAUNCH);
        sl_text_printf(&r->detail,
                       "%s: the kernel stopped the program for want of memory on input %s: it "
                       "held %ld MiB of host memory, where a runner needs under %d MiB\n",
                       what, label, mib, SL_RUNNER_MEMORY_MIB);
        return 1;
    }
    char own[64] = "its own use unknown";
    if (p->max_rss_kb > 0)
        snprintf(own, sizeof own, "%ld MiB of its own", mib);
    set(r, SL_V_ERROR);
    sl_text_printf(&r->detail,
                   "%s: the grader's machine ran out of memory and the kernel stopped the "
                   "program (%s): not judged (grade it again with fewer students at once, "
                   "--jobs, or more memory)\n",
                   what, own);
    return 1;
}

/* Whether the runner said SL_RUNNER_READY (at the start of a line of its
 * log): the harness says it before any of the submission's code runs
 * (constructors are refused: hostobj.h), so a runner that never said it
 * ran none. Read from the log too: the watch may miss a mark said just
 * before a quick end. */
static int said_ready(const run_out *o) { return sl_has_line(o->log, SL_RUNNER_READY); }

/* A runner that failed before it was ready: its CUDA context, its driver
 * watch or its system-call wall could not be made, or its tool could
 * not start it; none of the submission's code ran, so it is the
 * machine's failure (ERROR). 1 when it was. */
static int failed_before_ready(const run_out *o, const char *what, sl_outcome *r)
{
    const sl_proc_result *p = &o->pr;
    /* ready by its log or by the watch: a log emptied later (a tool's
     * target may reopen it) does not unsay what the watch saw */
    if ((p->exited && p->code == 0) || said_ready(o) || p->ready_s > 0)
        return 0;
    char why[600], line[512];
    cuda_error_line(o->log ? o->log : "", line, sizeof line);
    if (line[0])
        snprintf(why, sizeof why, "%s", line);
    else if (p->exited)
        snprintf(why, sizeof why, "it exited with code %d", p->code);
    else
        snprintf(why, sizeof why, "it was killed (%s)", strsignal(p->sig));
    set(r, SL_V_ERROR);
    sl_text_printf(&r->detail,
                   "%s: the runner failed before any of the submission's code ran (%s): not "
                   "judged (the GPU or its driver: grade it again)\n",
                   what, why);
    return 1;
}

/* A run that ran out of GPU memory while another process held it: the
 * grader asks its own probe how much is free once the run has ended (the
 * student's allocations are gone with its process), and under
 * SL_GPU_FREE_MIN_MIB it is the GPU's sharer's doing, not the student's
 * (ERROR). 1 when it was. */
static int gpu_memory_taken(const char *what, sl_outcome *r)
{
    long long total, avail = sl_gpu_free_memory(&total);
    if (avail < 0 || avail >= (long long)SL_GPU_FREE_MIN_MIB << 20)
        return 0;
    set(r, SL_V_ERROR);
    sl_text_printf(&r->detail,
                   "%s: the GPU ran out of memory, and once the run had ended it still had only "
                   "%lld MiB free of %lld: another process holds it: not judged (grade it again "
                   "on a GPU of its own)\n",
                   what, avail >> 20, total >> 20);
    return 1;
}

/* Outcome of a runner process that did not end normally with code 0:
 * fills r and returns 1, or returns 0 when it ended well. Every way the
 * program itself ends is the student's (student code can exit with any
 * code); only a runner that never started, or one that failed on a full
 * disk (disk_was_full) or for the machine's want of memory
 * (memory_ran_out), is the grader's (ERROR). */
static int judge_process(const sl_grade_ctx *ctx, const run_out *o, const sl_inputs *in,
                         const char *what, double timeout_s, sl_outcome *r)
{
    const sl_proc_result *p = &o->pr;
    const char *label = case_label(o, in);
    const char *again = o->alone      ? ", again with the GPU to itself"
                        : o->no_rerun ? budget_note()
                                      : "";
    if (p->spawn_failed) {
        set(r, SL_V_ERROR);
        sl_text_printf(&r->detail, "could not start the runner (%s)\n%.500s\n", what, o->log);
        return 1;
    }
    if (!(p->exited && p->code == 0) && disk_was_full(ctx, what, r))
        return 1;
    if (memory_ran_out(o, what, label, r))
        return 1;
    if (p->timed_out && p->not_ready) {
        /* before any student code: the machine's doing, not the program's */
        set(r, SL_V_ERROR);
        sl_text_printf(&r->detail,
                       "%s: the runner did not get a CUDA context within %d s, before any of "
                       "the submission's code ran (an overloaded machine or an unwell GPU): "
                       "grade it again\n",
                       what, SL_RUNNER_START_S);
        return 1;
    }
    if (p->timed_out) {
        set(r, SL_V_TIMEOUT);
        if (o->alone_s > 0)
            sl_text_printf(&r->detail,
                           "%s: stopped at its time limit (%.0f s) on input %s, and "
                           "again with the GPU to itself (%.0f s without progress)\n",
                           what, timeout_s, label, o->alone_s);
        else
            sl_text_printf(&r->detail, "%s: stopped at its time limit (%.0f s) on input %s%s\n",
                           what, timeout_s, label, again);
        return 1;
    }
    /* "No GPU" before ready with no GPU found by the grader's own probe is
     * SKIP, below; any other failure before ready is the machine's */
    if (!(p->exited && p->code == SL_EXIT_NO_GPU && sl_gpu_probe() == SL_GPU_NONE) &&
        failed_before_ready(o, what, r))
        return 1;
    if (p->over_quota) {
        set(r, SL_V_LAUNCH);
        sl_text_printf(&r->detail,
                       "%s: the program left more files or bytes in its output "
                       "folder than the outputs need (on input %s) and was stopped\n",
                       what, label);
        return 1;
    }
    if (p->signaled) {
        set(r, p->sig == SIGSEGV || p->sig == SIGBUS ? SL_V_MEMORY : SL_V_LAUNCH);
        if (p->sig == SIGXFSZ)
            sl_text_printf(&r->detail,
                           "%s: the program wrote a file or printed more than %d MiB "
                           "and was stopped\n",
                           what, SL_RUN_LOG_CAP >> 20);
        else
            sl_text_printf(&r->detail, "%s: the program crashed (%s) on input %s\n", what,
                           strsignal(p->sig), label);
        return 1;
    }
    /* "No GPU" is the grader's own probe's to say (gpu_probe.h): a runner
     * is student code, and its exit code proves nothing */
    if (p->exited && p->code == SL_EXIT_NO_GPU) {
        sl_gpu_state gpu = sl_gpu_probe();
        if (gpu == SL_GPU_NONE) {
            set(r, SL_V_SKIP);
            sl_text_printf(&r->detail,
                           "static checks passed; the rest needs a GPU (no CUDA device: %s)\n",
                           sl_gpu_probe_detail());
        } else if (gpu == SL_GPU_UNKNOWN) {
            set(r, SL_V_ERROR);
            sl_text_printf(&r->detail,
                           "%s: the runner found no CUDA device, and %s: grade it again\n", what,
                           sl_gpu_probe_detail());
        } else {
            set(r, SL_V_LAUNCH);
            sl_text_printf(&r->detail,
                           "%s: the program exited with code %d (the runner's \"no GPU\") on "
                           "input %s, but %s%s\n",
                           what, p->code, label, sl_gpu_probe_detail(), again);
        }
        return 1;
    }
    if (p->exited && p->code == SL_EXIT_CUDA) {
        char line[512], why[1024];
        cuda_error_line(o->log, line, sizeof line);
        if (strstr(line, "out of memory") && gpu_memory_taken(what, r))
            return 1;
        /* code the GPU could not load: the grader's when its own facts
         * (the GPU, the archs it built) say so, never on the line alone */
        if (ctx->target && sl_arch_mismatch(ctx->target, ctx->harness_archs, ctx->cuda_version,
                                            line, why, sizeof why)) {
            set(r, SL_V_ERROR);
            sl_text_printf(&r->detail, "%s: %s\n%s\n", what, line, why);
            return 1;
        }
        set(r, is_memory_error(line) ? SL_V_MEMORY : SL_V_LAUNCH);
        sl_text_printf(&r->detail, "%s: %s on input %s%s\n", what, line[0] ? line : "CUDA error",
                       label, again);
        return 1;
    }
    if (p->exited && p->code != 0) {
        set(r, SL_V_LAUNCH);
        sl_text_printf(&r->detail, "%s: the program exited with code %d on input %s%s\n", what,
                       p->code, label, again);
        return 1;
    }
    return 0;
}

/* A failure another process may have caused: a CUDA error that is not a
 * bad address (out of memory, a launch the GPU could not take while a
 * neighbour held it). Judged only after a run with the GPU alone. */
static int maybe_neighbour(const run_out *o)
{
    /* under a tool the runner's code may come back as the tool's */
    if (!o->pr.exited || (o->pr.code != SL_EXIT_CUDA && o->pr.code != SL_SANITIZER_FOUND))
        return 0;
    char line[512];
    cuda_error_line(o->log, line, sizeof line);
    if (!line[0] || is_memory_error(line))
        return 0;
    /* what a neighbour holding the GPU, its memory or the machine's
     * threads can cause; not the harness's own refusals (NotPermitted) */
    static const char *const shared[] = {"out of memory",        "MemoryAllocation",
                                         "LaunchOutOfResources", "too many resources",
                                         "LaunchFailure",        "unspecified launch failure",
                                         "LaunchTimeout",        "OperatingSystem",
                                         "DevicesUnavailable",   "busy or unavailable",
                                         "InitializationError",  "NoDevice",
                                         "cudaErrorUnknown",     NULL};
    for (int i = 0; shared[i]; i++)
        if (strstr(line, shared[i]))
            return 1;
    return 0;
}

/* The runner prints "@@case i" before each input: a run is hung when no
 * new input starts within idle_s, however slow a shared GPU makes the
 * whole batch. */
static void run_watched(const sl_grade_ctx *ctx, const char **argv, const char *dir, int count,
                        const char *outdir, const char *logpath, double idle_s, run_out *o)
{
    sl_sandbox box;
    sl_proc_opts opts;
    sl_runner_opts(ctx->runner, ctx->sanitizer, 0, dir, outdir, count, logpath,
                   within_budget(idle_s * SL_PLAIN_CAP_FACTOR), &box, &opts);
    opts.idle_s = idle_s;
    sl_proc_run_opts((char *const *)argv, &opts, &o->pr);
    finish_run(o, logpath);
}

/* hung_before: a shared run of these inputs (the lesson sweep's) already
 * made no progress; only the run alone is left to do, and it goes straight
 * to its turn alone: a shared turn taken first is a wait behind every
 * grader queued to be alone, and when it ends every blocked sharer gets in
 * with it, so the turn alone then waits their sweeps out too (eight hangs
 * at once: 11.7 s a turn for a 4.3 s run, H200). */
static void run_plain(const sl_grade_ctx *ctx, const sl_exercise *e, const char *dir, int count,
                      const char *outdir, const char *logpath, double timeout_s, int hung_before,
                      run_out *o)
{
    const char *argv[SL_RUNNER_ARGV(1)];
    char n[16];
    snprintf(n, sizeof n, "%d", count);
    runner_argv(ctx, 0, e->name, dir, n, outdir, argv);
    /* With no run alone left to the student, the sweep's stall is not the
     * verdict: a loaded GPU stalls correct kernels too, so the exercise
     * makes its own shared run, as without a sweep. */
    int straight_alone = hung_before && may_rerun_alone();
    if (straight_alone) {
        trace_line("the sweep's plain run hung here: running it alone at once");
        o->pr.timed_out = 1;
        o->log = calloc(1, 1);
    } else {
        if (hung_before)
            trace_line("the sweep's plain run hung here; no run alone is left: a shared run");
        sl_gpu_share(); /* (again: after a run that needed the GPU alone) */
        run_watched(ctx, argv, dir, count, outdir, logpath, timeout_s, o);
        trace_proc(e->name, "plain run", &o->pr);
    }
    if (!straight_alone && maybe_neighbour(o)) {
        /* out of memory or a refused launch: maybe a neighbour's doing.
         * It counts only when it fails again with the GPU to itself. */
        if (!may_rerun_alone()) {
            o->no_rerun = 1; /* the failure stands */
            return;
        }
        trace_line("plain run failed to launch: running it again alone");
        sl_gpu_alone();
        run_free(o);
        sl_remove_tree(outdir, 0);
        run_watched(ctx, argv, dir, count, outdir, logpath, timeout_s, o);
        o->alone = 1;
        trace_proc(e->name, "plain run alone", &o->pr);
        return;
    }
    if (!o->pr.timed_out)
        return;
    /* Another process's hung kernel, or just a busy GPU, holds ours up
     * (gpu_turn.h): a time limit only counts when the run hits it again
     * with the GPU to itself.
     * The caller stays alone for the diagnosis; sl_gpu_share() ends that. */
    if (!straight_alone && !may_rerun_alone()) {
        o->no_rerun = 1;
        return;
    }
    trace_line("plain run hit its time limit: running it again alone");
    sl_gpu_alone();
    run_free(o);
    /* alone, every input of every lesson takes well under a second */
    double alone = sl_grade_limit(ctx, ALONE_IDLE);
    if (alone > timeout_s)
        alone = timeout_s;
    sl_remove_tree(outdir, 0);
    run_watched(ctx, argv, dir, count, outdir, logpath, alone, o);
    o->alone_s = alone;
    trace_proc(e->name, "plain run alone", &o->pr);
}

static int compare_outputs(const sl_exercise *e, const sl_inputs *in, const char *outdir, int run,
                           int runs, sl_outcome *r);

/* The sanitizers of one exercise, started together on the small inputs. */
typedef struct {
    const sl_exercise *e;
    const char *exercise;
    const char *dir;
    unsigned mask;
    int no_rerun; /* a diagnosis in the sweep's turn: a failed launch is not run alone */
    double timeout_s;
    char count[16];
    sl_proc procs[SL_NTOOLS];
    int started[SL_NTOOLS];
    char logs[SL_NTOOLS][4096], outs[SL_NTOOLS][4096];
    const char *argv[SL_NTOOLS][SL_RUNNER_ARGV(1)];
    sl_sandbox boxes[SL_NTOOLS];
    sl_proc_opts opts[SL_NTOOLS];
} sanitizer_batch;

static void sanitizers_start(const sl_grade_ctx *ctx, const sl_exercise *e, const sl_inputs *small,
                             const char *dir, unsigned mask, const char *workdir, double timeout_s,
                             sanitizer_batch *b)
{
    memset(b, 0, sizeof *b);
    b->e = e;
    b->exercise = e->name;
    b->dir = dir;
    b->mask = mask;
    timeout_s = within_budget(timeout_s);
    b->timeout_s = timeout_s;
    snprintf(b->count, sizeof b->count, "%d", small->count);
    for (int i = 0; i < SL_NTOOLS; i++) {
        if (!(mask & (unsigned)SL_TOOL_ORDER[i]))
            continue;
        char name[64];
        snprintf(name, sizeof name, "%s.log", sl_tool_name(SL_TOOL_ORDER[i]));
        path_join(b->logs[i], sizeof b->logs[i], workdir, name);
        snprintf(name, sizeof name, "out-%s", sl_tool_name(SL_TOOL_ORDER[i]));
        path_join(b->outs[i], sizeof b->outs[i], workdir, name);
        sl_mkdirs(b->outs[i]);
        runner_argv(ctx, SL_TOOL_ORDER[i], e->name, dir, b->count, b->outs[i], b->argv[i]);
        sl_runner_opts(ctx->runner, ctx->sanitizer, SL_TOOL_ORDER[i], dir, b->outs[i], small->count,
                       b->logs[i], timeout_s, &b->boxes[i], &b->opts[i]);
        b->opts[i].box = &b->boxes[i];
        b->started[i] = sl_proc_spawn(&b->procs[i], (char *const *)b->argv[i], &b->opts[i]) == 0;
    }
}

/* Waits for the batch and judges the reports in a fixed order (memcheck,
 * synccheck, racecheck, initcheck), so the verdict does not depend on which
 * tool finished first. Returns 1 when one of them found something. */
static int sanitizers_finish(const sl_grade_ctx *ctx, const sl_inputs *small, sanitizer_batch *b,
                             sl_outcome *r)
{
    run_out res[SL_NTOOLS];
    memset(res, 0, sizeof res);
    for (int i = 0; i < SL_NTOOLS; i++)
        if (b->started[i]) {
            sl_proc_wait(&b->procs[i], &res[i].pr);
            finish_run(&res[i], b->logs[i]);
            trace_proc(b->exercise, sl_tool_name(SL_TOOL_ORDER[i]), &res[i].pr);
        }
    for (int i = 0; i < SL_NTOOLS; i++)
        if (b->started[i] && !b->no_rerun && maybe_neighbour(&res[i])) {
            /* as for plain runs: judged only when it fails again alone */
            if (!may_rerun_alone()) {
                res[i].no_rerun = 1;
                continue;
            }
            trace_line("a tool run failed to launch: running it again alone");
            sl_gpu_alone();
            run_free(&res[i]);
            sl_remove_tree(b->outs[i], 0);
            sl_proc_run_opts((char *const *)b->argv[i], &b->opts[i], &res[i].pr);
            finish_run(&res[i], b->logs[i]);
            res[i].alone = 1;
            trace_proc(b->exercise, sl_tool_name(SL_TOOL_ORDER[i]), &res[i].pr);
        }
    /* Two passes: a tool's finding (a race, a barrier error, an access,
     * with its line) outranks how another tool's run ended: a racy kernel
     * often also computes a wrong result under synccheck, and RACE at the
     * line is what the student can act on. */
    int found = 0;
    /* A tool whose target the OOM killer stopped says so as an error it
     * found ("process didn't terminate successfully", read as a finding):
     * the machine's doing (or a hog's) comes first, and what the tool
     * printed before the kill is not judged */
    for (int i = 0; i < SL_NTOOLS && !found; i++)
        if ((b->mask & (unsigned)SL_TOOL_ORDER[i]) && b->started[i]) {
            char what[64];
            snprintf(what, sizeof what, "under %s", sl_tool_name(SL_TOOL_ORDER[i]));
            found = memory_ran_out(&res[i], what, case_label(&res[i], small), r);
        }
    for (int i = 0; i < SL_NTOOLS && !found; i++) {
        if (!(b->mask & (unsigned)SL_TOOL_ORDER[i]) || !b->started[i])
            continue;
        sl_text detail = {0};
        char where[512];
        /* racecheck's hazards that the PTX proves ordered (a warp's lane 0
         * arriving for it on a cuda::barrier: ptx_warp_arrive.h) are read,
         * each one, and dismissed */
        int dismissed = 0;
        sl_verdict v =
            sl_race_filter_parse(ctx->ptx, SL_TOOL_ORDER[i], res[i].log, sl_base_name(ctx->source),
                                 &dismissed, &detail, where, sizeof where);
        if (v == SL_V_PASS && !dismissed && res[i].pr.exited &&
            res[i].pr.code == SL_SANITIZER_FOUND) {
            /* the tool says it found errors we could not read: never a PASS */
            v = sl_tool_verdict(SL_TOOL_ORDER[i]);
            sl_text_printf(&detail, "%s reported errors:\n%.1500s\n",
                           sl_tool_name(SL_TOOL_ORDER[i]), res[i].log);
            where[0] = '\0';
        }
        if (v != SL_V_PASS) {
            set(r, v);
            sl_text_printf(&r->detail, "%s", sl_text_str(&detail));
            snprintf(r->where, sizeof r->where, "%s", where);
            found = 1;
        }
        sl_text_free(&detail);
    }
    for (int i = 0; i < SL_NTOOLS && !found; i++) {
        if (!(b->mask & (unsigned)SL_TOOL_ORDER[i]))
            continue;
        char what[64];
        snprintf(what, sizeof what, "under %s", sl_tool_name(SL_TOOL_ORDER[i]));
        if (!b->started[i]) {
            set(r, SL_V_ERROR);
            sl_text_printf(&r->detail, "could not start %s\n", ctx->sanitizer);
            found = 1;
            break;
        }
        if (res[i].pr.timed_out || res[i].pr.over_quota || res[i].pr.spawn_failed ||
            (res[i].pr.exited && res[i].pr.code != 0 && res[i].pr.code != SL_SANITIZER_FOUND) ||
            res[i].pr.signaled) {
            /* the runner failed under the tool without a finding */
            found = judge_process(ctx, &res[i], small, what, b->timeout_s, r);
        } else if (!sl_log_launched(b->logs[i])) {
            /* a clean report of no kernel at all proves nothing */
            set(r, SL_V_WRONG);
            sl_text_printf(&r->detail,
                           "%s: no kernel was launched, where plain runs launch "
                           "them: a run under a tool must do what a plain run does\n",
                           what);
            found = 1;
        } else {
            /* what it computed under the tool is checked like a plain run's */
            sl_outcome w = {0};
            w.verdict = SL_V_PASS;
            if (!compare_outputs(b->e, small, b->outs[i], 0, 1, &w)) {
                set(r, w.verdict);
                sl_text_printf(&r->detail, "%s: %s", what, sl_text_str(&w.detail));
                found = 1;
            }
            sl_outcome_free(&w);
        }
    }
    for (int i = 0; i < SL_NTOOLS; i++) {
        run_free(&res[i]);
        if (b->started[i])
            sl_remove_tree(b->outs[i], 1);
    }
    return found;
}

/* The plain runs already hung (TIMEOUT, confirmed alone): the tools still
 * running are stopped rather than waited for up to their limits, since a
 * kernel that hangs in a plain run usually hangs under a tool too. A tool
 * that had already finished is judged as usual, so its finding still
 * outranks the TIMEOUT; one that was stopped decides nothing. */
static void sanitizers_stop(sanitizer_batch *b)
{
    for (int i = 0; i < SL_NTOOLS; i++) {
        if (!b->started[i])
            continue;
        sl_proc_stop(&b->procs[i]);
        if (b->procs[i].killed) {
            b->mask &= ~(unsigned)SL_TOOL_ORDER[i];
            trace_line("plain run hung: a tool still running is stopped");
        }
    }
}

/* A tool's limit (grade.h): from the plain run of the same small inputs
 * when this exercise ran it (plain_s > 0), else the most a tool gets. */
static double tool_limit(const sl_grade_ctx *ctx, double plain_s)
{
    double s = SL_SANITIZER_TIMEOUT;
    if (plain_s > 0) {
        s = plain_s * SL_TOOL_SLOWDOWN;
        if (s < SL_TOOL_MIN_TIMEOUT)
            s = SL_TOOL_MIN_TIMEOUT;
        if (s > SL_SANITIZER_TIMEOUT)
            s = SL_SANITIZER_TIMEOUT;
    }
    return sl_grade_limit(ctx, s);
}

static int run_sanitizers(const sl_grade_ctx *ctx, const sl_exercise *e, const sl_inputs *small,
                          const char *dir, unsigned mask, const char *workdir, double timeout_s,
                          sl_outcome *r)
{
    sanitizer_batch b;
    sanitizers_start(ctx, e, small, dir, mask, workdir, timeout_s, &b);
    return sanitizers_finish(ctx, small, &b, r);
}

int sl_grade_memcheck_names_access(const char *found, const char *where, const char *plain_detail)
{
    if (!where || !where[0]) /* a failed API call only, or a report we could not read */
        return 0;
    if (strstr(found, "Invalid __") || strstr(found, "Misaligned") ||
        strstr(found, "Out-of-range") || strstr(found, "ddress"))
        return 1;
    return (strstr(found, "llegal Instruction") || strstr(found, "llegal instruction")) &&
           strstr(plain_detail, "IllegalInstruction");
}

/* After a LAUNCH, MEMORY or TIMEOUT in a plain run: ask synccheck, then
 * memcheck, for a line to show. A barrier error turns a TIMEOUT into SYNC: it
 * names the cause. A LAUNCH that memcheck pins on a bad access at a line
 * (illegal address or instruction, "unspecified launch failure") becomes
 * MEMORY: the student gets the line, not a bare launch error. */
static void diagnose(const sl_grade_ctx *ctx, const sl_exercise *e, const sl_inputs *small,
                     const char *dir, const char *workdir, double timeout_s, sl_outcome *r)
{
    if (!ctx->sanitizer)
        return;
    if (r->verdict == SL_V_TIMEOUT && (g_alone_denied || budget_left() <= 0))
        return; /* its budget spent: the time limit stands unexplained */
    /* A hang was confirmed with the GPU alone; this run only names its
     * cause (SYNC or TIMEOUT, both worth nothing), so it shares the GPU: held
     * alone, eight hangs graded at once queued behind each other's
     * diagnoses (H100: a lesson took 83 to 119 s). */
    if (r->verdict == SL_V_TIMEOUT)
        sl_gpu_share();
    static const int order[2] = {SL_TOOL_SYNCCHECK, SL_TOOL_MEMCHECK};
    for (int k = 0; k < 2; k++) {
        int tool = order[k];
        if ((tool == SL_TOOL_SYNCCHECK && r->verdict == SL_V_MEMORY) ||
            (tool == SL_TOOL_MEMCHECK && r->verdict == SL_V_TIMEOUT))
            continue;
        sl_outcome d = {0};
        run_sanitizers(ctx, e, small, dir, (unsigned)tool, workdir, timeout_s, &d);
        int named = d.verdict == SL_V_SYNC ||
                    (d.verdict == SL_V_MEMORY &&
                     (r->verdict == SL_V_MEMORY ||
                      sl_grade_memcheck_names_access(sl_text_str(&d.detail), d.where,
                                                     sl_text_str(&r->detail))));
        if (named) {
            if (r->verdict == SL_V_TIMEOUT && d.verdict == SL_V_SYNC)
                set(r, SL_V_SYNC);
            if (r->verdict == SL_V_LAUNCH && d.verdict == SL_V_MEMORY)
                set(r, SL_V_MEMORY);
            sl_text_printf(&r->detail, "%s", sl_text_str(&d.detail));
            snprintf(r->where, sizeof r->where, "%s", d.where);
        }
        sl_outcome_free(&d);
        if (named)
            break;
    }
}

struct sl_early_diag {
    int index; /* the exercise's, in its lesson (and in the sweep's array) */
    sl_inputs small;
    char workdir[4200], dir[4300];
    sanitizer_batch b;
};

sl_early_diag *sl_grade_diagnose_start(const sl_lesson *l, const sl_exercise *e,
                                       const sl_grade_ctx *ctx)
{
    if (!ctx->sanitizer)
        return NULL;
    sl_early_diag *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->index = (int)(e - l->exercises);
    snprintf(d->workdir, sizeof d->workdir, "%s/early-%s", ctx->workdir, e->name);
    path_join(d->dir, sizeof d->dir, d->workdir, "small");
    sl_grade_inputs(l, e, ctx->seed, &d->small, NULL);
    if (sl_grade_write_inputs(&d->small, d->dir) != 0) {
        sl_inputs_free(&d->small);
        sl_remove_tree(d->workdir, 1);
        free(d);
        return NULL;
    }
    trace_line("the sweep's plain run hung: its synccheck starts now, beside the sweep");
    sanitizers_start(ctx, e, &d->small, d->dir, SL_TOOL_SYNCCHECK, d->workdir,
                     sl_grade_limit(ctx, DIAGNOSE_TIMEOUT), &d->b);
    d->b.no_rerun = 1;
    return d;
}

void sl_grade_diagnose_finish(const sl_grade_ctx *ctx, sl_early_diag *d, sl_swept *swept)
{
    if (!d)
        return;
    sl_swept *sw = &swept[d->index];
    sl_outcome o = {0};
    sanitizers_finish(ctx, &d->small, &d->b, &o); /* (its time counts: finish_run) */
    sw->early = 1;
    if (o.verdict == SL_V_SYNC) {
        sw->early_detail = strdup(sl_text_str(&o.detail));
        snprintf(sw->early_where, sizeof sw->early_where, "%s", o.where);
    }
    sl_outcome_free(&o);
    sl_inputs_free(&d->small);
    sl_remove_tree(d->workdir, 1);
    free(d);
}

void sl_grade_swept_free(sl_swept *sw, int count)
{
    for (int i = 0; sw && i < count; i++) {
        free(sw[i].early_detail);
        sw[i].early_detail = NULL;
    }
}

/* diagnose() on the one full input a plain run died on (a kernel may fail
 * only past 2^24 elements, where the small inputs never go): that input alone
 * under the tools, with a longer leash than a hang gets. */
static void diagnose_full(const sl_grade_ctx *ctx, const sl_exercise *e, const sl_inputs *full,
                          int failed, const char *workdir, sl_outcome *r)
{
    char dir[4096];
    path_join(dir, sizeof dir, workdir, "diagnose");
    sl_inputs one = {&full->v[failed], 1, 1};
    if (sl_grade_write_inputs(&one, dir) == 0)
        diagnose(ctx, e, &one, dir, workdir, sl_grade_limit(ctx, DIAGNOSE_FULL_TIMEOUT), r);
    sl_grade_remove_cases(dir, 1);
    rmdir(dir);
}

/* Reads and checks every output of a plain run. Returns 1 if all match. */
static int compare_outputs(const sl_exercise *e, const sl_inputs *in, const char *outdir, int run,
                           int runs, sl_outcome *r)
{
    char path[4096], err[256];
    for (int i = 0; i < in->count; i++) {
        sl_case out;
        snprintf(path, sizeof path, "%s/case%d.out", outdir, i);
        if (sl_case_read(path, &out, CASE_OUT_CAP, err, sizeof err) != 0) {
            set(r, SL_V_WRONG);
            sl_text_printf(&r->detail, "input %s: %s\n", in->v[i].label, err);
            return 0;
        }
        sl_text why = {0};
        int ok = e->check(&in->v[i].in, &out, &why);
        sl_case_free(&out);
        r->cases++;
        if (!ok) {
            set(r, SL_V_WRONG);
            sl_text_printf(&r->detail, "input %s", in->v[i].label);
            if (runs > 1)
                sl_text_printf(&r->detail, " (run %d of %d)", run + 1, runs);
            sl_text_printf(&r->detail, ":\n%s", sl_text_str(&why));
            sl_text_free(&why);
            return 0;
        }
        sl_text_free(&why);
    }
    return 1;
}

int sl_grade_outputs_match(const sl_exercise *e, const sl_inputs *in, const char *outdir)
{
    sl_outcome r = {0};
    r.verdict = SL_V_PASS;
    int ok = compare_outputs(e, in, outdir, 0, 1, &r);
    sl_outcome_free(&r);
    return ok;
}

static void read_bench(const sl_grade_ctx *ctx, const sl_exercise *e, const char *workdir,
                       sl_outcome *r)
{
    char dir[4096], out[4200], log[4096], log2n[16], seed[32], err[256];
    path_join(dir, sizeof dir, workdir, "bench");
    path_join(out, sizeof out, dir, "bench.out");
    path_join(log, sizeof log, workdir, "bench.log");
    if (sl_mkdirs(dir) != 0)
        return;
    snprintf(log2n, sizeof log2n, "%d", ctx->bench_log2n > 0 ? ctx->bench_log2n : 28);
    /* a hash, not the grading seed: student code runs here and must not
     * learn the seed while other exercises are still being judged */
    uint64_t bench_seed = hash_name("bench") ^ (ctx->seed * UINT64_C(0x9e3779b97f4a7c15));
    snprintf(seed, sizeof seed, "%" PRIu64, bench_seed);
    const char *argv[] = {ctx->runner, "bench", e->name, log2n, seed, out, NULL};
    /* it holds the GPU alone: a bound that does not grow without limit */
    double limit = sl_grade_limit(ctx, BENCH_TIMEOUT);
    if (limit > BENCH_TIMEOUT_MAX)
        limit = BENCH_TIMEOUT_MAX;
    sl_sandbox box;
    sl_proc_opts opts;
    sl_runner_opts(ctx->runner, ctx->sanitizer, 0, NULL, dir, 1, log, limit, &box, &opts);
    sl_proc_result pr;
    sl_proc_run_opts((char *const *)argv, &opts, &pr);
    sl_case c;
    if ((pr.exited && pr.code == SL_EXIT_CUDA) ||
        (pr.signaled && (pr.sig == SIGSEGV || pr.sig == SIGBUS))) {
        /* the student's code failed at 2^log2n elements, which the contract
         * allows: a verdict, not a note */
        char *text = sl_runner_log(log);
        char line[512] = "";
        cuda_error_line(text ? text : "", line, sizeof line);
        free(text);
        set(r, pr.signaled || is_memory_error(line) ? SL_V_MEMORY : SL_V_LAUNCH);
        sl_text_printf(&r->detail, "bench at 2^%s elements: %s\n", log2n,
                       line[0] ? line : "the program crashed");
        sl_remove_tree(dir, 1);
        return;
    }
    if (!pr.exited || pr.code != 0 || sl_case_read(out, &c, 1 << 20, err, sizeof err) != 0) {
        sl_text_printf(&r->detail, "bench did not complete%s (informative only)\n",
                       pr.timed_out ? " in its time limit" : "");
        sl_remove_tree(dir, 1);
        return;
    }
    if (c.narrays == 1 && c.array[0].type == SL_F64 && c.array[0].count >= 4) {
        const double *v = c.array[0].data;
        r->have_bench = 1;
        r->student_gbps = v[0];
        r->reference_gbps = v[1];
        r->copy_gbps = v[2];
        if (v[3] != 1.0) {
            /* the harness compared the student's output with the reference
             * (CUB) on the device, in its own code, not the student's */
            set(r, SL_V_WRONG);
            sl_text_printf(&r->detail,
                           "input n=2^%s (the bench's; data made on the device from "
                           "a hash of the index): the result differs from the "
                           "reference's (CUB)\n",
                           log2n);
        }
        char *text = sl_runner_log(log);
        const char *ref = text ? strstr(text, "@@reference ") : NULL;
        if (ref)
            snprintf(r->bench_reference, sizeof r->bench_reference, "%.*s",
                     (int)strcspn(ref + 12, "\n"), ref + 12);
        free(text);
    }
    sl_case_free(&c);
    sl_remove_tree(dir, 1);
}

/* ---------- static stages ---------- */

static void build_failure(const sl_grade_ctx *ctx, sl_outcome *r)
{
    set(r, ctx->build_no_disk || ctx->build_no_memory ? SL_V_ERROR : SL_V_BUILD);
    if (ctx->build_no_disk)
        sl_text_printf(&r->detail, "the grader's disk was full while this file was built: not "
                                   "judged (grade it again with more room under the output "
                                   "folder)\n");
    else if (ctx->build_no_memory)
        sl_text_printf(&r->detail, "the grader's machine ran out of memory while this file was "
                                   "built: not judged (grade it again with fewer students at "
                                   "once, --jobs, or more memory)\n");
    const char *log = ctx->build_log ? ctx->build_log : "";
    int shown = 0;
    for (const char *s = log; *s && shown < 12;) {
        size_t len = strcspn(s, "\n");
        if (memmem(s, len, "error", 5) || memmem(s, len, "Error", 5)) {
            sl_text_printf(&r->detail, "%.*s\n", (int)len, s);
            if (!r->where[0]) {
                /* nvcc: "path/file.cu(12): error: ..."; not the grader's
                 * own "error: ... (72745 MB free ...)" */
                const char *paren = memchr(s, '(', len);
                size_t digits = paren ? strspn(paren + 1, "0123456789") : 0;
                if (paren && digits > 0 && strncmp(paren + 1 + digits, "): ", 3) == 0) {
                    char file[256];
                    snprintf(file, sizeof file, "%.*s", (int)(paren - s), s);
                    snprintf(r->where, sizeof r->where, "%s:%d", sl_base_name(file),
                             atoi(paren + 1));
                }
            }
            shown++;
        }
        s += len + (s[len] == '\n');
    }
    if (!shown)
        sl_text_printf(&r->detail, "%.1500s\n", log);
}

/* Which PTX functions belong to an exercise: those named after it; for an
 * exercise without a kernel of its name (a launcher and helper kernels),
 * every function not named after another exercise of the lesson. The checks
 * add every function these call (sl_ptx_scope: a __noinline__ helper is the
 * exercise's too). */
typedef struct {
    const sl_lesson *lesson;
    const sl_exercise *exercise;
    int named; /* some function carries the exercise's name */
} scope;

static int exercise_scope(const char *function, void *arg)
{
    const scope *s = arg;
    if (strstr(function, s->exercise->name))
        return 1;
    if (s->named)
        return 0;
    for (int i = 0; i < s->lesson->count; i++)
        if (strstr(function, s->lesson->exercises[i].name))
            return 0;
    return 1;
}

/* The exercise's kernel itself, by its C++ name (_Z<length><name>...) or its
 * extern "C" one, and what it calls: not a renamed copy of the reference in
 * the same file, as in a bug-zoo mutant. */
/* An exercise about cuda::barrier: one of its REQUIRE rules accepts mbarrier. */
static int requires_cuda_barrier(const sl_rule *rules)
{
    for (const sl_rule *r = rules; r && r->kind != SL_RULE_END; r++)
        if (r->kind == SL_RULE_REQUIRE && strstr(r->pattern, "mbarrier."))
            return 1;
    return 0;
}

static int exercise_kernel(const char *function, void *arg)
{
    const scope *s = arg;
    const char *name = s->exercise->name;
    char mangled[128];
    snprintf(mangled, sizeof mangled, "_Z%zu%s", strlen(name), name);
    return strcmp(function, name) == 0 || strncmp(function, mangled, strlen(mangled)) == 0;
}

/* The static analyses ran out of their budget (ptx_budget.h): RULE, never
 * a PASS and never a hang. A correct solution is thousands of times below
 * the budget; a file this large or this tangled cannot be checked, and the
 * grader does not give credit for what it cannot check. */
static void too_complex(sl_outcome *r)
{
    const char *what = "";
    sl_ptx_budget_exhausted(&what);
    set(r, SL_V_RULE);
    sl_text_printf(&r->detail,
                   "the PTX of this file is too large or too complex for the grader's static "
                   "analysis: it used up %s. The reference solutions need a small fraction "
                   "of that: write each kernel once, without long unrolled or generated "
                   "copies of the same code, and without code that never runs\n",
                   what);
}

/* Every buffer the harness hands a launcher is written first
 * (sl_device_alloc fills, sl_to_device copies: runner.h), so only memory
 * the student allocates can be uninitialised: on the host (hostobj.h) or
 * in a kernel (device-side malloc or new, cudaMalloc from the device: any
 * such name in the PTX counts, even in a comment or a kernel's name). */
int sl_grade_may_read_uninitialized(const sl_grade_ctx *ctx, const char *ptx)
{
    static const char *const device_alloc[] = {"malloc", "Malloc", "Alloc", "_Znw", "_Zna", NULL};
    for (const char *const *a = device_alloc; *a; a++)
        if (strstr(ptx, *a))
            return 1;
    return !ctx->object || sl_hostobj_allocates(ctx->object) != 0;
}

int sl_grade_static(const sl_lesson *l, const sl_exercise *e, const sl_grade_ctx *ctx,
                    sl_outcome *r, unsigned *tools_off)
{
    *tools_off = 0;
    if (!ctx->runner) {
        build_failure(ctx, r);
        return 1;
    }
    char *ptx = ctx->ptx ? sl_read_file(ctx->ptx, 64u << 20, NULL) : NULL;
    if (!ptx) {
        set(r, SL_V_ERROR);
        sl_text_printf(&r->detail, "no PTX for %s\n", ctx->source ? ctx->source : "?");
        return 1;
    }
    int decided = 0;
    if (sl_ptx_has_todo(ptx, e->name)) {
        set(r, SL_V_TODO);
        sl_text_printf(&r->detail, "SYNCLAB_TODO(%s) is still in the code\n", e->name);
        decided = 1;
    } else {
        sl_ptx p;
        /* every static analysis of this exercise shares one budget */
        sl_ptx_budget_start(SL_PTX_BUDGET_STEPS, SL_PTX_BUDGET_SECONDS);
        sl_ptx_parse(ptx, &p);
        char list_path[4200];
        snprintf(list_path, sizeof list_path, "%s%s", ctx->ptx, SL_BUILD_LIBRARY_SUFFIX);
        char *library = sl_read_file(list_path, 8 << 20, NULL);
        sl_ptx_mark_library(&p, library); /* none listed: no code is library code */
        free(library);
        scope sc = {l, e, 0};
        for (int i = 0; i < p.nfunc; i++)
            sc.named |= strstr(p.func[i].name, e->name) != NULL;
        if (sl_ptx_budget_exhausted(NULL)) {
            too_complex(r);
            decided = 1;
        } else if (e->rules &&
                   !sl_rules_check(&p, e->rules, &r->detail, r->where, sizeof r->where)) {
            set(r, SL_V_RULE);
            sl_text_printf(&r->detail, "\n");
            decided = 1;
        } else if (sl_ptx_order_violation(&p, exercise_scope, &sc, e->rules, &r->detail, r->where,
                                          sizeof r->where)) {
            /* memory order between blocks: every exercise of every lesson */
            set(r, SL_V_RULE);
            sl_text_printf(&r->detail, "\n");
            decided = 1;
        } else if (sl_ptx_divergent_barrier(&p, exercise_scope, &sc, &r->detail, r->where,
                                            sizeof r->where)) {
            set(r, SL_V_SYNC);
            sl_text_printf(&r->detail, "\n");
            decided = 1;
        } else if (sl_ptx_partial_warp_collective(&p, exercise_scope, &sc, &r->detail, r->where,
                                                  sizeof r->where) ||
                   sl_ptx_activemask_shuffle(&p, exercise_scope, &sc, &r->detail, r->where,
                                             sizeof r->where) ||
                   sl_ptx_inplace_exchange(&p, exercise_scope, &sc, &r->detail, r->where,
                                           sizeof r->where)) {
            set(r, SL_V_SYNC);
            sl_text_printf(&r->detail, "\n");
            decided = 1;
        } else if (sl_ptx_atomic_block_barrier(&p, exercise_kernel, &sc) ||
                   (requires_cuda_barrier(e->rules) &&
                    sl_ptx_atomic_barrier_any_scope(&p, exercise_kernel, &sc))) {
            *tools_off |= SL_TOOL_RACECHECK;
        }
        if (!decided && sl_lever_on("racecheck") && !sl_ptx_may_touch_shared(&p, NULL, NULL, 0))
            *tools_off |= SL_TOOLS_NO_SHARED;
        if (!decided && sl_lever_on("initcheck") && !sl_grade_may_read_uninitialized(ctx, ptx))
            *tools_off |= SL_TOOLS_NO_UNINIT;
        /* a verdict reached after the budget ran out rests on analyses
         * that stopped half-way: none is given but this one */
        if (sl_ptx_budget_exhausted(NULL)) {
            sl_text_clear(&r->detail);
            r->where[0] = '\0';
            *tools_off = 0;
            too_complex(r);
            decided = 1;
        }
        if (sl_tracing())
            fprintf(stderr, "[trace] %s/%s: static analysis used %lld of %lld steps\n", l->name,
                    e->name, sl_ptx_budget_used(), (long long)SL_PTX_BUDGET_STEPS);
        sl_ptx_free(&p);
    }
    free(ptx);
    sl_demangle_in(&r->detail); /* kernels by the names the student wrote */
    return decided;
}

unsigned sl_grade_tools(const sl_exercise *e, unsigned tools_off)
{
    unsigned tools = e->tools ? e->tools : SL_TOOLS_ALL;
    if (tools_off & SL_TOOLS_NO_SHARED)
        tools &= ~(unsigned)SL_TOOL_RACECHECK;
    if (tools_off & SL_TOOLS_NO_UNINIT)
        tools &= ~(unsigned)SL_TOOL_INITCHECK;
    return tools & ~tools_off & SL_TOOLS_ALL;
}

void sl_grade_statics(const sl_lesson *l, const sl_grade_ctx *ctx, sl_static_verdict *out)
{
    for (int i = 0; i < l->count; i++) {
        sl_outcome r;
        sl_outcome_init(&r, l, &l->exercises[i]);
        sl_static_verdict *v = &out[i];
        memset(v, 0, sizeof *v);
        v->decided = sl_grade_static(l, &l->exercises[i], ctx, &r, &v->tools_off);
        v->verdict = r.verdict;
        v->detail = strdup(sl_text_str(&r.detail));
        snprintf(v->where, sizeof v->where, "%s", r.where);
        sl_outcome_free(&r);
    }
}

void sl_grade_statics_free(sl_static_verdict *s, int count)
{
    for (int i = 0; s && i < count; i++) {
        free(s[i].detail);
        s[i].detail = NULL;
    }
}

int sl_grade_static_of(const sl_lesson *l, const sl_exercise *e, const sl_grade_ctx *ctx,
                       sl_outcome *r, unsigned *tools_off)
{
    if (!ctx->statics)
        return sl_grade_static(l, e, ctx, r, tools_off);
    const sl_static_verdict *v = &ctx->statics[e - l->exercises];
    *tools_off = v->tools_off;
    if (!v->decided)
        return 0;
    set(r, (sl_verdict)v->verdict);
    sl_text_printf(&r->detail, "%s", v->detail ? v->detail : "");
    snprintf(r->where, sizeof r->where, "%s", v->where);
    return 1;
}

/* ---------- the pipeline ---------- */

/* How long each stage took. */
static void trace(const sl_lesson *l, const sl_exercise *e, const char *stage, double t0)
{
    if (sl_tracing())
        fprintf(stderr, "[trace] %s/%s: %s done at %.2f s\n", l->name, e->name, stage,
                sl_now() - t0);
}

void sl_grade_inputs(const sl_lesson *l, const sl_exercise *e, uint64_t seed, sl_inputs *small,
                     sl_inputs *full)
{
    sl_rng rng;
    sl_rng_seed(&rng, seed ^ hash_name(l->name) ^ (hash_name(e->name) << 1));
    e->make_inputs(&rng, SL_INPUTS_SMALL, small);
    if (full)
        e->make_inputs(&rng, SL_INPUTS_FULL, full);
}

double sl_grade_plain_idle_limit(const sl_grade_ctx *ctx, const sl_exercise *e)
{
    double base = e->timeout_s > 0 ? e->timeout_s : DEFAULT_PLAIN_TIMEOUT;
    return sl_grade_limit(ctx, base > MIN_PLAIN_TIMEOUT ? base : MIN_PLAIN_TIMEOUT);
}

void sl_grade_exercise(const sl_lesson *l, const sl_exercise *e, const sl_grade_ctx *ctx,
                       sl_outcome *r)
{
    double t0 = sl_now();
    sl_outcome_init(r, l, e);
    unsigned tools_off = 0;
    int ran = 0; /* its inputs written: what fails now may be the disk's */
    sl_inputs small = {0}, full = {0};
    char workdir[4096], smalldir[4096], fulldir[4096], outdir[4096], logpath[4096];
    snprintf(workdir, sizeof workdir, "%s/%s", ctx->workdir, e->name);
    path_join(smalldir, sizeof smalldir, workdir, "small");
    path_join(fulldir, sizeof fulldir, workdir, "full");
    path_join(outdir, sizeof outdir, workdir, "out");
    path_join(logpath, sizeof logpath, workdir, "plain.log");

    /* decided before any student code ran (lesson_run.c) */
    if (sl_grade_static_of(l, e, ctx, r, &tools_off))
        goto done;
    if (ctx->static_only) {
        set(r, SL_V_SKIP);
        sl_text_printf(&r->detail, "static stages only: no run\n");
        goto done;
    }
    if (ctx->arch_error) { /* the runner cannot run on this GPU (lesson_run.c) */
        set(r, SL_V_ERROR);
        sl_text_printf(&r->detail, "%s\n", ctx->arch_error);
        goto done;
    }
    if (sl_gpu_probe() == SL_GPU_NONE) {
        /* the grader's own probe, before any runner (gpu_probe.h) */
        set(r, SL_V_SKIP);
        sl_text_printf(&r->detail,
                       "static checks passed; the rest needs a GPU (no CUDA device: %s)\n",
                       sl_gpu_probe_detail());
        goto done;
    }

    /* the budgets (budget.h): this exercise's time, the student's GPU time */
    const char *budget = getenv("SYNCLAB_EXERCISE_BUDGET_S");
    g_alone_denied = 0;
    g_deadline =
        t0 + sl_grade_limit(ctx, budget && atof(budget) > 0 ? atof(budget) : EXERCISE_BUDGET_S);
    if (sl_budget_gpu_left() <= 0) {
        set(r, SL_V_TIMEOUT);
        sl_text_printf(&r->detail,
                       "not run: this submission used its GPU time budget (%.0f s) on "
                       "earlier exercises\n",
                       sl_budget_gpu_max());
        goto done;
    }

    /* what the lesson sweep already ran clean for this exercise */
    const sl_swept *sw = ctx->swept ? &ctx->swept[e - l->exercises] : NULL;
    unsigned swept = sw ? sw->checks : 0;
    sl_grade_inputs(l, e, ctx->seed, &small, (swept & SL_SWEPT_FULL) ? NULL : &full);
    if (sl_grade_write_inputs(&small, smalldir) != 0 ||
        sl_grade_write_inputs(&full, fulldir) != 0 || sl_mkdirs(outdir) != 0) {
        set(r, SL_V_ERROR);
        sl_text_printf(&r->detail, "cannot write inputs under %s: %s\n", workdir, strerror(errno));
        goto done;
    }
    ran = 1;
    double plain_timeout = sl_grade_plain_idle_limit(ctx, e);

    /* 4. a plain run of the small inputs: launch failures and hangs first.
     * A GPU turn is taken before each run (run_plain; step 5's tools), none
     * where nothing runs (the sweep ran it clean): the exercises of a lesson
     * that the sweep ran queued behind every hang of the class to read
     * their results. */
    double plain_small_s = 0; /* the small plain run's wall time, when this exercise ran it */
    if (sw && sw->hung && sw->early_detail) {
        /* synccheck, run beside the sweep once its plain run hung here,
         * named a barrier error: SYNC, whatever a run alone would show */
        set(r, SL_V_SYNC);
        sl_text_printf(&r->detail,
                       "plain run: no progress on the small inputs (the lesson's sweep), and "
                       "synccheck names the cause:\n%s",
                       sw->early_detail);
        snprintf(r->where, sizeof r->where, "%s", sw->early_where);
        goto done;
    }
    if (!(swept & SL_SWEPT_SMALL)) {
        run_out o = {0};
        run_plain(ctx, e, smalldir, small.count, outdir, logpath, plain_timeout, sw && sw->hung,
                  &o);
        plain_small_s = o.pr.seconds;
        int failed = judge_process(ctx, &o, &small, "plain run", plain_timeout, r);
        int flooded = past_output_cap(&o.pr);
        run_free(&o);
        sl_remove_tree(outdir, 0);
        if (failed) {
            /* a hang that synccheck already ran on beside the sweep (it
             * named nothing, or the SYNC above would have been given) */
            int diagnosed = sw && sw->hung && sw->early && r->verdict == SL_V_TIMEOUT;
            if ((r->verdict == SL_V_LAUNCH || r->verdict == SL_V_TIMEOUT ||
                 r->verdict == SL_V_MEMORY) &&
                !flooded && !diagnosed)
                /* a kernel that hung in a plain run hangs here too: a short leash */
                diagnose(ctx, e, &small, smalldir, workdir, sl_grade_limit(ctx, DIAGNOSE_TIMEOUT),
                         r);
            goto done;
        }
    }

    /* 5. the sanitizers on the small inputs, and meanwhile 6. plain runs
     * of the full inputs. A sanitizer's finding outranks whatever the full
     * runs saw, exactly as if they had run one after the other. */
    if (!ctx->sanitizer) {
        set(r, SL_V_ERROR);
        sl_text_printf(&r->detail, "compute-sanitizer not found: race and sync checks cannot "
                                   "run (set SYNCLAB_SANITIZER)\n");
        goto done;
    }
    sanitizer_batch batch;
    unsigned own_tools = sl_grade_tools(e, tools_off) & ~swept;
    if (own_tools)
        sl_gpu_share(); /* (again: after a run that needed the GPU alone) */
    if (tools_off & SL_TOOL_RACECHECK)
        sl_text_printf(&r->detail, "note: your barrier is built from shared-memory atomics (a "
                                   "cuda::barrier with a completion function); racecheck cannot "
                                   "follow such a barrier, so no race check ran: the outputs and "
                                   "the other tools still judge this exercise\n");
    sanitizers_start(ctx, e, &small, smalldir, own_tools, workdir, tool_limit(ctx, plain_small_s),
                     &batch);
    trace(l, e, "small plain run", t0);
    sl_outcome full_r;
    sl_outcome_init(&full_r, l, e);
    int runs = (swept & SL_SWEPT_FULL) ? 0 : e->repeats > 0 ? e->repeats : 1, full_failed = -1;
    int full_flooded = 0;
    if (swept & SL_SWEPT_FULL)
        full_r.cases = sw->full_cases; /* compared in the sweep */
    for (int k = 0; k < runs && full_r.verdict == SL_V_PASS; k++) {
        run_out f = {0};
        run_plain(ctx, e, fulldir, full.count, outdir, logpath, plain_timeout,
                  k == 0 && sw && sw->hung_full, &f);
        if (judge_process(ctx, &f, &full, "plain run", plain_timeout, &full_r)) {
            full_failed = last_case(f.log);
            full_flooded = past_output_cap(&f.pr);
        } else
            compare_outputs(e, &full, outdir, k, runs, &full_r);
        run_free(&f);
        sl_remove_tree(outdir, 0);
    }
    r->cases = full_r.cases;
    trace(l, e, "full plain runs", t0);
    if (full_r.verdict == SL_V_TIMEOUT)
        sanitizers_stop(&batch);
    int found = sanitizers_finish(ctx, &small, &batch, r);
    trace(l, e, "sanitizers", t0);
    if (!found && full_r.verdict != SL_V_PASS) {
        set(r, full_r.verdict);
        sl_text_printf(&r->detail, "%s", sl_text_str(&full_r.detail));
        if (full_flooded) {
            /* no diagnosis: see past_output_cap */
        } else if (r->verdict == SL_V_LAUNCH || r->verdict == SL_V_MEMORY) {
            if (full_failed >= 0 && full_failed < full.count)
                diagnose_full(ctx, e, &full, full_failed, workdir, r);
            else
                diagnose(ctx, e, &small, smalldir, workdir, sl_grade_limit(ctx, DIAGNOSE_TIMEOUT),
                         r);
        } else if (r->verdict == SL_V_TIMEOUT) {
            diagnose(ctx, e, &small, smalldir, workdir, sl_grade_limit(ctx, DIAGNOSE_TIMEOUT), r);
        }
    }
    sl_outcome_free(&full_r);
    if (r->verdict != SL_V_PASS)
        goto done;

    /* 7. informative bandwidth */
    if (ctx->bench && e->bench) {
        sl_gpu_alone(); /* with neighbours it would measure them too */
        read_bench(ctx, e, workdir, r);
    }

done:
    if (ran && r->verdict != SL_V_PASS && r->verdict != SL_V_ERROR)
        disk_was_full(ctx, "judged", r); /* a tool's run, or the outputs' */
    g_deadline = 0;
    sl_gpu_leave();
    sl_grade_remove_cases(smalldir, small.count);
    sl_grade_remove_cases(fulldir, full.count);
    rmdir(smalldir);
    rmdir(fulldir);
    sl_remove_tree(outdir, 1);
    sl_inputs_free(&small);
    sl_inputs_free(&full);
    /* the ladder's first step, a question: the fix is make hint's last */
    r->hint[0] = '\0';
    r->hint_step = 0;
    if (r->verdict != SL_V_PASS) {
        sl_text q = {0};
        sl_hint_step(e, r->verdict, 1, &q);
        snprintf(r->hint, sizeof r->hint, "%s", sl_text_str(&q));
        r->hint_step = 1;
        sl_text_free(&q);
    }
    /* the time to its verdict: what ran for it in the lesson's sweep (all
     * the lesson's exercises at once) counts too, else a swept exercise
     * would show the 0.0 s of reading the sweep's results */
    const sl_swept *sw_done = ctx->swept ? &ctx->swept[e - l->exercises] : NULL;
    r->seconds = sl_now() - t0 + (sw_done && sw_done->checks ? ctx->sweep_seconds : 0);
}
