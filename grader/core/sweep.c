#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_turn.h"
#include "proc.h"
#include "sanitizer.h"
#include "trace.h"

enum { NCHECKS = 5 };   /* the plain run, then the four tools */
static const int CHECKS[NCHECKS] = {SL_SWEPT_SMALL, SL_TOOL_MEMCHECK, SL_TOOL_SYNCCHECK,
                                    SL_TOOL_RACECHECK, SL_TOOL_INITCHECK};

/* One swept exercise: its small inputs (sweep/in/<exercise>) and an output
 * folder per check (sweep/out-<check>/<exercise>): a check's runner sees
 * sweep/in read-only and its own sweep/out-<check> writable (sandbox.h). */
typedef struct {
    int index;
    const sl_exercise *e;
    int count;
    char count_text[16];
    char dir[4096];
    char small[4200];
    char out[NCHECKS][4200];
} member;

int sl_sweep_enabled(void)
{
    const char *v = getenv("SYNCLAB_SWEEP");
    return !(v && strcmp(v, "0") == 0);
}

static const char *check_name(int check)
{
    return check == SL_SWEPT_SMALL ? "plain" : sl_tool_name(check);
}

/* Whether a member's exercise asks for this check at all. */
static int wants(const member *x, int check)
{
    unsigned tools = x->e->tools ? x->e->tools : SL_TOOLS_ALL;
    return check == SL_SWEPT_SMALL || (tools & (unsigned)check);
}

/* "[sanitizer args] runner run|sanitize ex dir count out ..." over the
 * members that want the check; NULL when none does. */
static const char **check_argv(const sl_grade_ctx *ctx, int check, int c, const member *m, int n)
{
    int any = 0;
    for (int i = 0; i < n; i++)
        any |= wants(&m[i], check);
    const char **argv = any ? calloc((size_t)(16 + 3 + 4 * n), sizeof *argv) : NULL;
    if (!argv)
        return NULL;
    int k = check == SL_SWEPT_SMALL ? 0 : sl_sanitizer_args(check, ctx->sanitizer, argv);
    argv[k++] = ctx->runner;
    argv[k++] = "run"; /* under a tool too: the mode goes by the environment (grade.h) */
    for (int i = 0; i < n; i++) {
        if (!wants(&m[i], check))
            continue;
        argv[k++] = m[i].e->name;
        argv[k++] = m[i].small;
        argv[k++] = m[i].count_text;
        argv[k++] = m[i].out[c];
    }
    argv[k] = NULL;
    return argv;
}

/* Ended well and, under a tool, the report is clean. */
static int clean(const sl_grade_ctx *ctx, int check, const sl_proc_result *pr, const char *log)
{
    if (pr->spawn_failed || pr->timed_out || !pr->exited || pr->code != 0)
        return 0;
    if (!sl_log_launched(log))
        return 0; /* an exercise launched no kernel: proves nothing */
    if (check == SL_SWEPT_SMALL)
        return 1;
    char *text = sl_read_file(log, SL_RUN_LOG_READ, NULL);
    sl_text detail = {0};
    char where[512];
    int ok = text && sl_sanitizer_parse(check, text, sl_base_name(ctx->source), &detail, where,
                                        sizeof where) == SL_V_PASS;
    sl_text_free(&detail);
    free(text);
    return ok;
}

static void trace_check(const sl_lesson *l, int check, const sl_proc_result *pr, int ok)
{
    if (sl_tracing())
        fprintf(stderr, "[trace] sweep %s: %s %s, %.2f s wall, %.2f s cpu\n", l->name,
                check_name(check), ok ? "clean" : "not clean: each exercise runs it itself",
                pr->seconds, pr->cpu_seconds);
}

/* Writes each member's small inputs; a member that cannot be written is
 * left out of the sweep (it runs everything itself). Returns the number kept. */
static int prepare(const sl_lesson *l, const sl_grade_ctx *ctx, const int *which, int n,
                   member *m)
{
    int kept = 0;
    for (int k = 0; k < n; k++) {
        const sl_exercise *e = &l->exercises[which[k]];
        sl_result r = {0};
        int decided = sl_grade_static_of(l, e, ctx, &r);
        sl_result_free(&r);
        if (decided)
            continue; /* TODO, RULE, ...: its kernels are not run at all */
        member *x = &m[kept];
        memset(x, 0, sizeof *x);
        x->index = which[k];
        x->e = e;
        snprintf(x->dir, sizeof x->dir, "%s/sweep", ctx->workdir);
        snprintf(x->small, sizeof x->small, "%s/in/%s", x->dir, e->name);
        sl_inputs small = {0};
        sl_exercise_inputs(l, e, ctx->seed, &small, NULL);
        int ok = sl_write_inputs(&small, x->small) == 0;
        x->count = small.count;
        snprintf(x->count_text, sizeof x->count_text, "%d", small.count);
        for (int c = 0; ok && c < NCHECKS; c++) {
            snprintf(x->out[c], sizeof x->out[c], "%s/out-%s/%s", x->dir, check_name(CHECKS[c]),
                     e->name);
            ok = sl_mkdirs(x->out[c]) == 0;
        }
        sl_inputs_free(&small);
        if (ok)
            kept++;
    }
    return kept;
}

/* How a check's runner starts: sweep/in read-only, sweep/out-<check>
 * writable and size-limited (grade.h). */
static void check_opts(const sl_grade_ctx *ctx, int check, const member *m, int n,
                       const char *log, double timeout_s, sl_sandbox *box, sl_proc_opts *o,
                       char *in, char *out, size_t len)
{
    int cases = 0;
    for (int i = 0; i < n; i++)
        cases += m[i].count;
    snprintf(in, len, "%s/sweep/in", ctx->workdir);
    snprintf(out, len, "%s/sweep/out-%s", ctx->workdir, check_name(check));
    int tool = check == SL_SWEPT_SMALL ? 0 : check;
    sl_runner_opts(ctx, tool, in, out, cases + n, log, timeout_s, box, o);
}

void sl_sweep_lesson(const sl_lesson *l, const sl_grade_ctx *ctx, const int *which, int n,
                     unsigned *swept)
{
    if (!ctx->runner || !ctx->sanitizer || n <= 0)
        return;
    member *m = calloc((size_t)n, sizeof *m);
    if (!m)
        return;
    int count = prepare(l, ctx, which, n, m);
    double idle = 0;
    for (int i = 0; i < count; i++) {
        double own = sl_plain_idle_limit(ctx, m[i].e);
        if (own > idle)
            idle = own;
    }
    char logs[NCHECKS][4200];
    for (int c = 0; c < NCHECKS; c++)
        snprintf(logs[c], sizeof logs[c], "%s/sweep/%s.log", ctx->workdir, check_name(CHECKS[c]));
    unsigned found_clean = 0;
    if (count > 0) {
        sl_gpu_share();
        /* the plain run first: no tool ever runs a kernel that may hang */
        const char **argv = check_argv(ctx, CHECKS[0], 0, m, count);
        sl_proc_result pr = {0};
        if (argv) {
            sl_sandbox box;
            sl_proc_opts o;
            char in[4200], out[4200];
            check_opts(ctx, CHECKS[0], m, count, logs[0], idle * SL_PLAIN_CAP_FACTOR, &box, &o,
                       in, out, sizeof in);
            o.idle_s = idle;
            sl_proc_run_opts((char *const *)argv, &o, &pr);
            if (clean(ctx, CHECKS[0], &pr, logs[0]))
                found_clean |= SL_SWEPT_SMALL;
            trace_check(l, CHECKS[0], &pr, found_clean != 0);
        }
        free(argv);
    }
    if (found_clean) {
        sl_proc procs[NCHECKS];
        sl_sandbox boxes[NCHECKS];
        sl_proc_opts opts[NCHECKS];
        int started[NCHECKS] = {0};
        static char in[NCHECKS][4200], out[NCHECKS][4200]; /* they outlive the loop */
        for (int c = 1; c < NCHECKS; c++) {
            const char **argv = check_argv(ctx, CHECKS[c], c, m, count);
            check_opts(ctx, CHECKS[c], m, count, logs[c],
                       sl_grade_limit(ctx, SL_SANITIZER_TIMEOUT), &boxes[c], &opts[c], in[c],
                       out[c], sizeof in[c]);
            opts[c].box = &boxes[c];
            started[c] = argv && sl_proc_spawn(&procs[c], (char *const *)argv, &opts[c]) == 0;
            free(argv);
        }
        for (int c = 1; c < NCHECKS; c++) {
            if (!started[c])
                continue;
            sl_proc_result pr;
            sl_proc_wait(&procs[c], &pr);
            int ok = clean(ctx, CHECKS[c], &pr, logs[c]);
            if (ok)
                found_clean |= (unsigned)CHECKS[c];
            trace_check(l, CHECKS[c], &pr, ok);
        }
    }
    sl_gpu_leave();
    for (int i = 0; i < count; i++) {
        /* what each check computed is checked too: a check whose outputs
         * are wrong decides nothing, the exercise runs it itself */
        sl_inputs small = {0};
        sl_exercise_inputs(l, m[i].e, ctx->seed, &small, NULL);
        for (int c = 0; c < NCHECKS; c++)
            if ((found_clean & (unsigned)CHECKS[c]) && wants(&m[i], CHECKS[c]) &&
                sl_outputs_match(m[i].e, &small, m[i].out[c]))
                swept[m[i].index] |= (unsigned)CHECKS[c];
        sl_inputs_free(&small);
    }
    for (int c = 0; c < NCHECKS; c++)
        unlink(logs[c]);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/sweep", ctx->workdir);
    sl_remove_tree(dir, 1);
    free(m);
}
