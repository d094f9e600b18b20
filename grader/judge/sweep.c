#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "budget.h"
#include "files.h"
#include "gpu_turn.h"
#include "levers.h"
#include "proc.h"
#include "race_filter.h"
#include "sanitizer.h"
#include "trace.h"

/* The plain run, then the tools in their judging order (sanitizer.h). */
enum { NCHECKS = 1 + SL_NTOOLS };
static int check_of(int c) { return c == 0 ? SL_SWEPT_SMALL : SL_TOOL_ORDER[c - 1]; }
enum { MAX_RUNS = 8 }; /* an exercise's repeats of its full inputs */
/* seconds without output in the small inputs before the sweep's plain run
 * counts as stalled (smalls_done) */
enum { SWEEP_SMALL_IDLE = 8 };

/* One swept exercise: its small inputs (sweep/in/small/<exercise>), its
 * full inputs (sweep/in/full/<exercise>) and an output folder per check
 * (sweep/out-<check>/<exercise>), plus one per run of the full inputs in
 * the plain check's folder (sweep/out-plain/<exercise>.full<k>): a
 * check's runner sees its inputs read-only and its own sweep/out-<check>
 * writable (sandbox.h). */
typedef struct {
    int index;
    int lesson; /* in the sweep's lessons */
    const sl_exercise *e;
    const sl_grade_ctx *ctx; /* its lesson's (limits, PTX, source) */
    char name[160];          /* as the runner knows it: "<lesson>/<exercise>" in one of several */
    unsigned tools;          /* the tools it runs (sl_grade_tools) */
    sl_inputs small, full;
    int runs; /* of the full inputs */
    char count_text[16], full_count_text[16];
    char small_dir[4200], full_dir[4200];
    char out[NCHECKS][4200];
    char full_out[MAX_RUNS][4200];
} member;

/* What one sweep runs over: one lesson, or every lesson of a submission
 * in one runner (sl_sweep_submission). */
typedef struct {
    int n;
    const sl_lesson *l[SL_SWEEP_MAX_LESSONS];
    const sl_grade_ctx *ctx[SL_SWEEP_MAX_LESSONS];
    sl_swept *swept[SL_SWEEP_MAX_LESSONS];
    /* each lesson's file as compiled (sanitizer.h: sl_sanitizer_files_split);
     * a lesson alone reads its report with its PTX instead */
    const char *file[SL_SWEEP_MAX_LESSONS];
    /* each lesson's files by base name (sl_sweep_lesson_in), for racecheck's
     * reports; names_known: every lesson's list is there */
    const char *names[SL_SWEEP_MAX_LESSONS];
    int names_known;
    const char *runner;       /* the runner of them all */
    const sl_grade_ctx *ctx0; /* the sanitizer, the scale of limits */
    char root[4200];          /* <workdir>/sweep */
    const char *what;         /* for the trace: the lesson, or "submission" */
    /* per lesson: a check the sweep could not judge for it (a report it
     * cannot split between the lessons): it sweeps again alone */
    unsigned undecided;
} sweep_set;

int sl_sweep_enabled(void)
{
    const char *v = getenv("SYNCLAB_SWEEP");
    return !(v && strcmp(v, "0") == 0);
}

/* SYNCLAB_SWEEP_FULL=0: the full inputs stay with each exercise. */
static int full_enabled(void)
{
    const char *v = getenv("SYNCLAB_SWEEP_FULL");
    return !(v && strcmp(v, "0") == 0);
}

static const char *check_name(int check)
{
    return check == SL_SWEPT_SMALL ? "plain" : sl_tool_name(check);
}

/* Whether a member's exercise asks for this check at all. */
static int wants(const member *x, int check)
{
    /* a tool no member runs starts no process (check_argv) */
    return check == SL_SWEPT_SMALL || (x->tools & (unsigned)check);
}

static sl_runner_group group_of(const char *name, const char *dir, const char *count,
                                const char *out)
{
    sl_runner_group g = {name, dir, count, out};
    return g;
}

/* "[sanitizer args] runner run ex dir count out ..." over the members that
 * want the check; NULL when none does. The plain check runs every small
 * input first, then the full inputs run by run ("groups": one
 * "@@exercise" each in the log); *groups gets their number. */
static const char **check_argv(const sweep_set *set, int check, int c, const member *m, int n,
                               int *groups)
{
    sl_runner_group *g = calloc((size_t)n * (1 + MAX_RUNS), sizeof *g);
    const char **argv = g ? calloc((size_t)SL_RUNNER_ARGV(n * (1 + MAX_RUNS)), sizeof *argv) : NULL;
    int k = 0;
    for (int i = 0; argv && i < n; i++)
        if (wants(&m[i], check))
            g[k++] = group_of(m[i].name, m[i].small_dir, m[i].count_text, m[i].out[c]);
    for (int run = 0; argv && check == SL_SWEPT_SMALL && run < MAX_RUNS; run++)
        for (int i = 0; i < n; i++)
            if (run < m[i].runs)
                g[k++] =
                    group_of(m[i].name, m[i].full_dir, m[i].full_count_text, m[i].full_out[run]);
    if (argv && k > 0)
        sl_runner_argv(set->runner, set->ctx0->sanitizer, check == SL_SWEPT_SMALL ? 0 : check, g, k,
                       argv);
    free(g);
    if (k == 0) {
        free(argv);
        argv = NULL;
    }
    if (groups)
        *groups = k;
    return argv;
}

/* Ended well and, under a tool, the report is clean: a bit per lesson of
 * the set that the check ran clean for. With several lessons a report
 * with findings is split by the files they name (sanitizer.h): a lesson
 * whose file none names is clean when the report accounts for every
 * finding, else undecided (set->undecided), like a lesson named in a
 * racecheck report, whose hazards its own sweep may dismiss (race_filter.h). */
static unsigned clean(sweep_set *set, int check, const sl_proc_result *pr, const char *log,
                      unsigned *retry)
{
    unsigned all = (1u << set->n) - 1;
    /* with several lessons, what blames no one lesson sends each to sweep
     * alone: its own sweep decides as it always did */
    unsigned blame_none = set->n > 1 ? all : 0;
    /* racecheck exits with SL_SANITIZER_FOUND for hazards that its report,
     * read below, may show to be ordered (race_filter.h) */
    int found = check != SL_SWEPT_SMALL && pr->exited && pr->code == SL_SANITIZER_FOUND;
    if (pr->spawn_failed || pr->timed_out || !pr->exited || (pr->code != 0 && !found) ||
        (found && check != SL_TOOL_RACECHECK && set->n == 1) ||
        !sl_log_launched(log) /* an exercise launched no kernel: proves nothing */) {
        set->undecided |= blame_none;
        return 0;
    }
    if (check == SL_SWEPT_SMALL)
        return all;
    char *text = sl_runner_log(log);
    sl_text detail = {0};
    char where[512];
    unsigned kept = 0;
    if (set->n == 1) {
        int dismissed = 0;
        const sl_grade_ctx *ctx = set->ctx[0];
        int ok = text &&
                 sl_race_filter_parse(ctx->ptx, check, text, sl_base_name(ctx->source), &dismissed,
                                      &detail, where, sizeof where) == SL_V_PASS &&
                 (!found || dismissed);
        kept = ok ? all : 0;
    } else if (text && !found &&
               sl_sanitizer_parse(check, text, NULL, &detail, where, sizeof where) == SL_V_PASS) {
        kept = all;
    } else if (text) {
        sl_sanitizer_split split;
        unsigned named = sl_sanitizer_files_split(text, set->file, set->n, &split);
        /* racecheck names its files by base name only: each finding then
         * names every lesson whose compile read a file of that name */
        if (!split.complete && check == SL_TOOL_RACECHECK && set->names_known)
            named = sl_sanitizer_names_split(text, set->names, set->n, &split);
        int complete = split.complete;
        unsigned quiet = all & ~named;
        if (!complete && sl_tracing())
            fprintf(stderr,
                    "[trace] sweep %s: %s report not split: %d findings printed, %d in its "
                    "summary%s, %d naming a lesson's file%s%s\n",
                    set->what, check_name(check), split.printed, split.total,
                    split.unprinted ? " (some not printed)" : "", split.attributed,
                    split.unnamed[0] ? "; none in: " : "", split.unnamed);
        kept = complete ? quiet : 0;
        /* the lessons it names out, the others may be told apart */
        if (!complete && retry && named)
            *retry |= quiet;
        else if (!complete)
            set->undecided |= quiet;
        if (check == SL_TOOL_RACECHECK)
            set->undecided |= named;
    } else {
        set->undecided |= all;
    }
    sl_text_free(&detail);
    free(text);
    return kept;
}

static void trace_check(const sweep_set *set, const char *what, const sl_proc_result *pr,
                        const char *found)
{
    if (!sl_tracing())
        return;
    char ready[48], rss[48];
    fprintf(stderr, "[trace] sweep %s: %s %s, %.2f s wall, %.2f s cpu%s%s\n", set->what, what,
            found, pr->seconds, pr->cpu_seconds, sl_proc_ready_note(pr, ready, sizeof ready),
            sl_proc_memory_note(pr, rss, sizeof rss));
}

/* What the sweep decided for one exercise: the checks it keeps (the
 * exercise does not run them again), or why none. */
static void trace_kept(const sl_lesson *l, int index, const sl_swept *s)
{
    char kept[128] = "";
    for (int c = 0; c < NCHECKS; c++)
        if (s->checks & (unsigned)check_of(c)) {
            strcat(kept, " ");
            strcat(kept, check_name(check_of(c)));
        }
    if (s->checks & SL_SWEPT_FULL)
        strcat(kept, " full");
    fprintf(stderr, "[trace] sweep %s: %s keeps%s%s%s\n", l->name, l->exercises[index].name,
            kept[0] ? kept : " nothing", s->hung ? " (hung)" : "",
            s->hung && s->early ? " (synccheck ran beside the sweep)" : "");
}

/* One exercise of one of the set's lessons. */
typedef struct {
    int lesson, index;
} pick;

/* Writes each member's inputs; a member that cannot be written is left out
 * of the sweep (it runs everything itself). Returns the number kept. */
static int prepare(const sweep_set *set, const pick *which, int n, int with_full, member *m)
{
    int kept = 0;
    for (int k = 0; k < n; k++) {
        const sl_lesson *l = set->l[which[k].lesson];
        const sl_grade_ctx *ctx = set->ctx[which[k].lesson];
        const sl_exercise *e = &l->exercises[which[k].index];
        sl_outcome r;
        unsigned tools_off;
        sl_outcome_init(&r, l, e);
        int decided = sl_grade_static_of(l, e, ctx, &r, &tools_off);
        sl_outcome_free(&r);
        if (decided)
            continue; /* TODO, RULE, ...: its kernels are not run at all */
        /* what an earlier sweep proved (a lesson the submission's sweep
         * left undecided keeps its clean checks): not run again; a hang it
         * saw runs everything itself */
        const sl_swept *had = &set->swept[which[k].lesson][which[k].index];
        unsigned tools = sl_grade_tools(
            e, sl_lever_on("racecheck") ? tools_off : tools_off & SL_TOOLS_NO_UNINIT);
        tools &= ~had->checks;
        int runs = !with_full || e->repeats > MAX_RUNS ? 0 : e->repeats < 1 ? 1 : e->repeats;
        if ((had->checks & SL_SWEPT_FULL) || had->hung_full)
            runs = 0;
        if (had->hung || (!tools && !runs && (had->checks & SL_SWEPT_SMALL)))
            continue;
        member *x = &m[kept];
        memset(x, 0, sizeof *x);
        x->index = which[k].index;
        x->lesson = which[k].lesson;
        x->e = e;
        x->ctx = ctx;
        /* one lesson: the exercise's name, its own runner's; several: the
         * lesson's too (runner.h), and a folder per lesson */
        if (set->n > 1)
            snprintf(x->name, sizeof x->name, "%s/%s", l->name, e->name);
        else
            snprintf(x->name, sizeof x->name, "%s", e->name);
        /* with the racecheck lever, a tool the exercise will not run
         * (tools_off) is not swept either; without it, as before but for
         * the initcheck lever's bit */
        x->tools = tools;
        /* more repeats than a sweep takes: the exercise runs them all itself */
        x->runs = runs;
        snprintf(x->small_dir, sizeof x->small_dir, "%s/in/small/%s", set->root, x->name);
        snprintf(x->full_dir, sizeof x->full_dir, "%s/in/full/%s", set->root, x->name);
        sl_grade_inputs(l, e, ctx->seed, &x->small, x->runs ? &x->full : NULL);
        int ok = sl_grade_write_inputs(&x->small, x->small_dir) == 0 &&
                 (!x->runs || sl_grade_write_inputs(&x->full, x->full_dir) == 0);
        snprintf(x->count_text, sizeof x->count_text, "%d", x->small.count);
        snprintf(x->full_count_text, sizeof x->full_count_text, "%d", x->full.count);
        for (int c = 0; ok && c < NCHECKS; c++) {
            snprintf(x->out[c], sizeof x->out[c], "%s/out-%s/%s", set->root,
                     check_name(check_of(c)), x->name);
            ok = sl_mkdirs(x->out[c]) == 0;
        }
        for (int run = 0; ok && run < x->runs; run++) {
            snprintf(x->full_out[run], sizeof x->full_out[run], "%s/out-plain/%s.full%d", set->root,
                     x->name, run);
            ok = sl_mkdirs(x->full_out[run]) == 0;
        }
        if (ok) {
            kept++;
        } else {
            sl_inputs_free(&x->small);
            sl_inputs_free(&x->full);
        }
    }
    return kept;
}

/* How a check's runner starts: its inputs read-only (the plain runner
 * sweep/in, a tool only sweep/in/small: its output room is reckoned from
 * the small inputs, as an exercise's own tool run), sweep/out-<check>
 * writable and size-limited (runner_call.h). */
static void check_opts(const sweep_set *set, int check, const member *m, int n, const char *log,
                       double timeout_s, sl_sandbox *box, sl_proc_opts *o, char *in, char *out,
                       size_t len)
{
    int cases = 0;
    for (int i = 0; i < n; i++) {
        cases += m[i].small.count + 1;
        if (check == SL_SWEPT_SMALL)
            cases += m[i].runs * (m[i].full.count + 1);
    }
    snprintf(in, len, "%s/in%s", set->root, check == SL_SWEPT_SMALL ? "" : "/small");
    snprintf(out, len, "%s/out-%s", set->root, check_name(check));
    int tool = check == SL_SWEPT_SMALL ? 0 : check;
    sl_runner_opts(set->runner, set->ctx0->sanitizer, tool, in, out, cases, log, timeout_s, box, o);
    sl_runner_mps_client(box, o); /* under --mps: what fails here runs again outside */
}

/* The plain runner has finished every small input: it started the first
 * group of full inputs. Or it has stalled in them: no new output for idle_s
 * seconds (hung = 1). Small inputs take well under a second each, so a
 * stall there is noticed long before the plain idle limit, which must
 * also cover a full input of 2^25 elements on a GPU shared by 8 graders.
 * A stall decides nothing (a neighbour's hang or load holds us up too): the
 * exercise runs its small inputs again with the GPU to itself. */
typedef struct {
    const char *log;
    int nsmall;
    double next_look;
    double idle_s;
    long long size;
    double last_growth; /* 0: no group started yet (the runner is still starting) */
    int hung;
} small_watch;

static int smalls_done(void *arg)
{
    small_watch *w = arg;
    double now = sl_now();
    if (now < w->next_look)
        return 0;
    w->next_look = now + 0.05;
    int groups = sl_log_read(w->log, 0).groups;
    if (groups > w->nsmall)
        return 1;
    if (groups < 1)
        return 0; /* still starting (a CUDA context): the runner's own limits */
    struct stat st;
    if (stat(w->log, &st) == 0 && (long long)st.st_size != w->size) {
        w->size = (long long)st.st_size;
        w->last_growth = now;
    }
    w->hung = w->last_growth > 0 && now - w->last_growth > w->idle_s;
    return w->hung;
}

/* The four tools on the small inputs, started together. */
typedef struct {
    sl_proc procs[NCHECKS];
    sl_sandbox boxes[NCHECKS];
    sl_proc_opts opts[NCHECKS];
    char in[NCHECKS][4200], out[NCHECKS][4200];
    int started[NCHECKS];
    int any;
    double limit; /* each tool's */
} tool_runs;

static void start_tool(const sweep_set *set, int c, const member *m, int n, char logs[][4200],
                       tool_runs *t)
{
    const char **argv = check_argv(set, check_of(c), c, m, n, NULL);
    check_opts(set, check_of(c), m, n, logs[c], t->limit, &t->boxes[c], &t->opts[c], t->in[c],
               t->out[c], sizeof t->in[c]);
    t->opts[c].box = &t->boxes[c];
    t->started[c] = argv && sl_proc_spawn(&t->procs[c], (char *const *)argv, &t->opts[c]) == 0;
    free(argv);
}

/* small_s: how long the plain run took over the same small inputs; the
 * tools' limit comes from it as an exercise's own does (grade.h). */
static void start_tools(const sweep_set *set, const member *m, int n, char logs[][4200],
                        double small_s, tool_runs *t)
{
    double limit = small_s * SL_TOOL_SLOWDOWN;
    if (limit < SL_TOOL_MIN_TIMEOUT)
        limit = SL_TOOL_MIN_TIMEOUT;
    if (limit > SL_SANITIZER_TIMEOUT)
        limit = SL_SANITIZER_TIMEOUT;
    t->any = 1;
    t->limit = sl_grade_limit(set->ctx0, limit);
    for (int c = 1; c < NCHECKS; c++)
        start_tool(set, c, m, n, logs, t);
}

static unsigned wait_tool(sweep_set *set, int c, char logs[][4200], tool_runs *t, unsigned *retry)
{
    sl_proc_result pr;
    sl_proc_wait(&t->procs[c], &pr);
    t->started[c] = 0;
    sl_budget_spend(pr.seconds);
    unsigned undecided = set->undecided, again = 0;
    unsigned kept = clean(set, check_of(c), &pr, logs[c], &again);
    unsigned all = (1u << set->n) - 1;
    trace_check(set, check_name(check_of(c)), &pr,
                kept == all ? "clean"
                : again     ? "cut short (print limit): again without the lessons it names"
                : kept || set->undecided != undecided
                    ? "clean for some lessons: the others decide it alone"
                    : "not clean: each exercise runs it itself");
    *retry = again;
    return kept;
}

/* For each tool, kept[c] gets the lessons its report is clean for. A
 * report cut short (more findings than the print limit) that names some
 * lessons runs the tool again without them, twice at most: a lesson with
 * a thousand bad reads costs the others one more process, not a sweep
 * each. */
static void wait_tools(sweep_set *set, const member *m, int n, char logs[][4200], tool_runs *t,
                       unsigned *kept)
{
    member *only = set->n > 1 ? calloc((size_t)n, sizeof *only) : NULL;
    for (int c = 1; c < NCHECKS; c++) {
        if (!t->started[c])
            continue;
        unsigned retry = 0;
        kept[c] = wait_tool(set, c, logs, t, &retry);
        for (int round = 0; retry && only && round < 2; round++) {
            int k = 0;
            for (int i = 0; i < n; i++)
                if ((retry & (1u << m[i].lesson)) && wants(&m[i], check_of(c)))
                    only[k++] = m[i];
            unsigned left = retry;
            retry = 0;
            if (k > 0)
                start_tool(set, c, only, k, logs, t);
            if (k > 0 && t->started[c])
                kept[c] |= wait_tool(set, c, logs, t, &retry) & left;
            else if (k == 0)
                kept[c] |= left; /* none of them runs this tool */
            else
                retry = left; /* it did not start */
            retry &= left;
        }
        set->undecided |= retry; /* still cut short: those sweep alone */
    }
    free(only);
}

/* The last line of text that starts with prefix, appended to out (after
 * sep when out is not empty); text is freed. For the trace. */
static void append_last_line(char *text, const char *prefix, const char *sep, char *out, size_t n)
{
    const char *last = NULL;
    for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
        if (strncmp(s, prefix, strlen(prefix)) == 0)
            last = s;
    size_t at = strlen(out);
    if (last)
        snprintf(out + at, n - at, "%s%.*s", at ? sep : "", (int)strcspn(last, "\n"), last);
    free(text);
}

/* The runner's own last word before any group started ("runner: cannot
 * write ..."), for the trace: why a sweep decided nothing (its file of
 * program output, where the harness writes before any student code). */
static void runner_said(const char *log, char *out, size_t n)
{
    char path[4300];
    sl_runner_program_log(log, path, sizeof path);
    append_last_line(sl_read_file(path, 64 * 1024, NULL), "runner: ", "", out, n);
}

/* How a run that did not start every group ended, for the trace: its
 * exit, and the last CUDA error its log names (a crash in one member's
 * full input leaves the rest of the full inputs to each lesson alone). */
static void ended_how(const sl_proc_result *pr, const char *log, char *out, size_t n)
{
    if (pr->timed_out)
        snprintf(out, n, "stopped at its limit after %.1f s", pr->seconds);
    else if (pr->over_quota)
        snprintf(out, n, "stopped for the files it left");
    else if (pr->signaled)
        snprintf(out, n, "killed by signal %d", pr->sig);
    else if (pr->exited)
        snprintf(out, n, "exit %d", pr->code);
    else
        snprintf(out, n, "not started");
    append_last_line(sl_read_ends(log, SL_RUN_LOG_READ, SL_RUN_LOG_TAIL), "CUDA error: ", ", ", out,
                     n);
}

/* The plain runner: every small input, then the full inputs run by run.
 * The tools start once it has finished the small inputs, cleanly, while
 * it goes on with the full ones. Returns the lessons whose small inputs
 * ran clean (all or none). *hung gets the member whose small inputs
 * stalled, or -1; *broke the member in whose small inputs it ended
 * otherwise (a crash, a flood of output stopped at its cap, an exit), or
 * -1; *hung_full the member whose full input hit the plain idle limit. */
static unsigned run_plain(sweep_set *set, const member *m, int n, char logs[][4200], tool_runs *t,
                          int *hung, int *broke, int *hung_full)
{
    *hung = *broke = *hung_full = -1;
    double idle = 0, cap = 0;
    for (int i = 0; i < n; i++) {
        double own = sl_grade_plain_idle_limit(m[i].ctx, m[i].e);
        if (own > idle)
            idle = own;
        cap += own * SL_PLAIN_CAP_FACTOR * (1 + m[i].runs);
    }
    int groups = 0;
    const char **argv = check_argv(set, check_of(0), 0, m, n, &groups);
    if (!argv)
        return 0;
    sl_sandbox box;
    sl_proc_opts o;
    char in[4200], out[4200];
    check_opts(set, check_of(0), m, n, logs[0], cap, &box, &o, in, out, sizeof in);
    o.idle_s = idle;
    sl_proc proc;
    sl_proc_result pr = {0};
    sl_log_progress p = {0, 0};
    double started = sl_now();
    if (sl_proc_spawn(&proc, (char *const *)argv, &o) != 0) {
        pr.spawn_failed = 1;
    } else {
        small_watch w = {logs[0], n, 0, sl_grade_limit(set->ctx0, SWEEP_SMALL_IDLE), 0, 0, 0};
        int ended = sl_proc_wait_until(&proc, &pr, smalls_done, &w);
        if (!ended && w.hung) {
            sl_proc_stop(&proc);
            sl_proc_wait(&proc, &pr);
            p = sl_log_read(logs[0], n);
            *hung = p.groups >= 1 && p.groups <= n ? p.groups - 1 : -1;
            trace_check(set, "plain", &pr, "stalled in the small inputs");
            free(argv);
            return 0;
        }
        if (!ended) {
            p = sl_log_read(logs[0], n);
            if (p.groups > n && p.launched)
                start_tools(set, m, n, logs, sl_now() - started, t);
            sl_proc_wait(&proc, &pr);
        }
        p = sl_log_read(logs[0], n);
        sl_budget_spend(pr.seconds);
    }
    free(argv);
    if (pr.timed_out && p.groups > n) {
        /* stalled in a full input: whose (the groups run as check_argv
         * lists them), so that exercise runs it alone at once */
        int g = n;
        for (int run = 0; run < MAX_RUNS && *hung_full < 0; run++)
            for (int i = 0; i < n && *hung_full < 0; i++)
                if (run < m[i].runs && ++g == p.groups)
                    *hung_full = i;
    }
    /* ended well, or went past the small inputs, each of which launched
     * (outputs are compared afterwards either way) */
    unsigned all = (1u << set->n) - 1;
    unsigned found =
        clean(set, check_of(0), &pr, logs[0], NULL) || (p.groups > n && p.launched) ? all : 0;
    /* died or gave up in a group of small inputs (an exit 0 that is not
     * clean, a group that launched nothing, blames no one group) */
    if (!found && !pr.spawn_failed && !pr.not_ready && !(pr.exited && pr.code == 0) &&
        p.groups >= 1 && p.groups <= n)
        *broke = p.groups - 1; /* the groups run as check_argv lists them */
    if (found && !t->any)
        start_tools(set, m, n, logs, pr.seconds, t); /* it ended before the full inputs */
    char what[1400], said[512] = "", ended[600] = "";
    if (!found && p.groups == 0 && sl_tracing())
        runner_said(logs[0], said, sizeof said);
    if (p.groups < groups && sl_tracing())
        ended_how(&pr, logs[0], ended, sizeof ended);
    snprintf(what, sizeof what, "%s (%d of %d groups started)%s%s%s%s",
             found ? "clean" : "not clean: each exercise runs it itself", p.groups, groups,
             said[0] ? ": " : "", said, ended[0] ? "; it ended: " : "", ended);
    trace_check(set, "plain", &pr, what);
    return found;
}

/* How long a sweep waits for a place on the GPU before it runs without
 * one: the places' holders each end within their own limits long before. */
#define GPU_PLACE_WAIT_S 1800.0

/* One of the GPU's places (stagger lever), once the inputs are written:
 * -1 without places. */
static int take_place(const sweep_set *set)
{
    if (!set->ctx0->gpu_places)
        return -1;
    double waited = 0;
    int place = sl_slots_take(set->ctx0->gpu_places, GPU_PLACE_WAIT_S, &waited);
    if (sl_tracing())
        fprintf(stderr, "[trace] sweep %s: %s a place on the GPU after %.1f s\n", set->what,
                place >= 0 ? "took" : "runs without", waited);
    return place;
}

/* One sweep of which[0..n-1]; returns the position in which of an
 * exercise whose small inputs stopped the plain run, or -1: *stalled says
 * whether it stalled there (else it crashed, flooded, exited). The GPU
 * turn it takes is left to the caller. */
static int sweep_once(sweep_set *set, const pick *which, int n, int *stalled_there)
{
    int hung = -1;
    *stalled_there = 0;
    member *m = calloc((size_t)n, sizeof *m);
    tool_runs *t = calloc(1, sizeof *t);
    if (!m || !t) {
        free(m);
        free(t);
        return -1;
    }
    set->undecided = 0; /* what the last sweep of the loop left (sweep_set_run) */
    int count = prepare(set, which, n, full_enabled(), m);
    char logs[NCHECKS][4200];
    for (int c = 0; c < NCHECKS; c++)
        snprintf(logs[c], sizeof logs[c], "%s/%s.log", set->root, check_name(check_of(c)));
    unsigned kept[NCHECKS] = {0};
    if (count > 0) {
        int place = take_place(set);
        sl_gpu_share();
        int stalled = -1, broke = -1, stalled_full = -1;
        kept[0] = run_plain(set, m, count, logs, t, &stalled, &broke, &stalled_full);
        if (stalled_full >= 0)
            set->swept[m[stalled_full].lesson][m[stalled_full].index].hung_full = 1;
        wait_tools(set, m, count, logs, t, kept);
        sl_slots_give(place); /* the outputs are checked without the GPU */
        int out = stalled >= 0 ? stalled : broke;
        *stalled_there = stalled >= 0;
        for (int k = 0; out >= 0 && k < n; k++)
            if (which[k].lesson == m[out].lesson && which[k].index == m[out].index)
                hung = k;
    }
    /* What each check computed is checked too: a check whose outputs are
     * wrong decides nothing, the exercise runs it itself. A run of the full
     * inputs counts when every output it wrote matches, whatever happened
     * after it (a later exercise's crash or hang): the runner writes an
     * output only after the kernels it launched finished without error. */
    for (int i = 0; i < count; i++) {
        sl_swept *s = &set->swept[m[i].lesson][m[i].index];
        unsigned bit = 1u << m[i].lesson;
        for (int c = 0; c < NCHECKS; c++)
            if ((kept[c] & bit) && wants(&m[i], check_of(c)) &&
                sl_grade_outputs_match(m[i].e, &m[i].small, m[i].out[c]))
                s->checks |= (unsigned)check_of(c);
        int full_ok = m[i].runs > 0;
        for (int run = 0; full_ok && run < m[i].runs; run++)
            full_ok = sl_grade_outputs_match(m[i].e, &m[i].full, m[i].full_out[run]);
        if (full_ok) {
            s->checks |= SL_SWEPT_FULL;
            s->full_cases = m[i].runs * m[i].full.count;
        }
        sl_inputs_free(&m[i].small);
        sl_inputs_free(&m[i].full);
    }
    if (sl_tracing() && count > 0) { /* its inputs and outputs: a class's disk */
        long long files, bytes;
        sl_tree_usage(set->root, &files, &bytes);
        fprintf(stderr, "[trace] sweep %s: work files %.1f MB in %lld files at the end\n",
                set->what, bytes / 1e6, files);
    }
    for (int c = 0; c < NCHECKS; c++) {
        unlink(logs[c]);
        char program[4300];
        sl_runner_program_log(logs[c], program, sizeof program);
        unlink(program);
    }
    sl_remove_tree(set->root, 1);
    free(m);
    free(t);
    return hung;
}

/* Sweeps which[0..n-1] of the set's lessons. An exercise that stops the
 * plain run in its small inputs is left out and the sweep runs again for
 * the others: one hang, crash or flood costs the others one short stop,
 * not every check of the sweep (a fault in the first exercise's small
 * inputs made every exercise of the lesson run its six processes itself).
 * A stall also starts that exercise's synccheck at once, beside the sweeps
 * that follow, in the same turn on the GPU: a hang's diagnosis then waits
 * for no other grader's turn alone (grade.h). */
static void sweep_set_run(sweep_set *set, const pick *which, int n)
{
    pick *rest = malloc((size_t)n * sizeof *rest);
    sl_early_diag **early = calloc((size_t)n, sizeof *early);
    int *early_lesson = calloc((size_t)n, sizeof *early_lesson);
    if (!rest || !early || !early_lesson) {
        free(rest);
        free(early);
        free(early_lesson);
        return;
    }
    memcpy(rest, which, (size_t)n * sizeof *rest);
    int nearly = 0, left_none = 0;
    for (int left = n; left > 0;) {
        int stalled = 0;
        int k = sweep_once(set, rest, left, &stalled);
        if (k < 0)
            break;
        if (stalled) {
            int li = rest[k].lesson;
            set->swept[li][rest[k].index].hung = 1;
            early[nearly] = sl_grade_diagnose_start(
                set->l[li], &set->l[li]->exercises[rest[k].index], set->ctx[li]);
            if (early[nearly])
                early_lesson[nearly++] = li;
        }
        memmove(rest + k, rest + k + 1, (size_t)(left - k - 1) * sizeof *rest);
        left--;
        left_none = left == 0;
    }
    if (left_none)
        set->undecided = 0; /* each left out: it runs everything itself */
    for (int i = 0; i < nearly; i++)
        sl_grade_diagnose_finish(set->ctx[early_lesson[i]], early[i], set->swept[early_lesson[i]]);
    sl_gpu_leave();
    for (int k = 0; k < n && sl_tracing(); k++)
        trace_kept(set->l[which[k].lesson], which[k].index,
                   &set->swept[which[k].lesson][which[k].index]);
    free(early_lesson);
    free(early);
    free(rest);
}

void sl_sweep_lesson(const sl_lesson *l, const sl_grade_ctx *ctx, const int *which, int n,
                     sl_swept *swept)
{
    if (!ctx->runner || !ctx->sanitizer || n <= 0)
        return;
    sweep_set set = {0};
    set.n = 1;
    set.l[0] = l;
    set.ctx[0] = ctx;
    set.swept[0] = swept;
    set.runner = ctx->runner;
    set.ctx0 = ctx;
    set.what = l->name;
    snprintf(set.root, sizeof set.root, "%s/sweep", ctx->workdir);
    pick *picks = malloc((size_t)n * sizeof *picks);
    for (int k = 0; picks && k < n; k++)
        picks[k] = (pick){0, which[k]};
    if (picks)
        sweep_set_run(&set, picks, n);
    free(picks);
}

unsigned sl_sweep_submission(const sl_sweep_lesson_in *in, int n, const char *runner,
                             const char *workdir)
{
    unsigned all = n >= 1 && n <= SL_SWEEP_MAX_LESSONS ? (1u << n) - 1 : 0;
    if (!all || !runner || !in[0].ctx->sanitizer)
        return all;
    sweep_set set = {0};
    set.n = n;
    int total = 0;
    for (int i = 0; i < n; i++) {
        set.l[i] = in[i].l;
        set.ctx[i] = in[i].ctx;
        set.swept[i] = in[i].swept;
        set.file[i] = in[i].compiled;
        set.names[i] = in[i].names;
        total += in[i].n;
    }
    set.names_known = 1;
    for (int i = 0; i < n; i++)
        set.names_known &= set.names[i] != NULL;
    set.runner = runner;
    set.ctx0 = in[0].ctx;
    set.what = "submission";
    snprintf(set.root, sizeof set.root, "%s/sweep", workdir);
    pick *picks = malloc((size_t)(total ? total : 1) * sizeof *picks);
    if (!picks)
        return all;
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < in[i].n; j++)
            picks[k++] = (pick){i, in[i].which[j]};
    if (k > 0)
        sweep_set_run(&set, picks, k);
    free(picks);
    return set.undecided;
}
