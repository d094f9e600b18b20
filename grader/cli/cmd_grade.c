/* syncgrade grade, check, class, hint and progress. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "channel.h"
#include "class.h"
#include "contain.h"
#include "budget.h"
#include "files.h"
#include "gpu_keep.h"
#include "gpu_probe.h"
#include "gradescope.h"
#include "hint.h"
#include "hostobj.h"
#include "jobs.h"
#include "junit.h"
#include "lesson_run.h"
#include "locate.h"
#include "points.h"
#include "proc.h"
#include "progress.h"
#include "report.h"
#include "sandbox.h"
#include "synclab_config.h"

#include "cli.h"

/* ---------- grade / check ---------- */

typedef struct {
    const sl_lesson **lessons;
    sl_lesson_job *jobs;
    int count;
    int quiet, check_mode;
    int done;
    double t0;
} grade_state;

static int prepare_lesson(int i, void *arg)
{
    grade_state *g = arg;
    return sl_lesson_open_channels(g->lessons[i], &g->jobs[i]);
}

static int run_lesson(int i, void *arg)
{
    grade_state *g = arg;
    sl_lesson_run(g->lessons[i], &g->jobs[i]);
    return 0;
}

static void lesson_done(int i, int status, void *arg)
{
    grade_state *g = arg;
    (void)status;
    g->done++;
    if (!g->quiet && !g->check_mode)
        printf("[%d/%d] %s done, %.0f s\n", g->done, g->count, g->lessons[i]->name,
               sl_now() - g->t0);
}

/* Every outcome, in lesson order, with the instructor's points. */
static sl_outcome *collect_all(grade_state *g, const sl_points *points, int *count)
{
    int total = 0, n = 0;
    for (int i = 0; i < g->count; i++)
        total += g->lessons[i]->count;
    sl_outcome *all = calloc((size_t)(total ? total : 1), sizeof *all);
    sl_outcome *mine = calloc((size_t)(total ? total : 1), sizeof *mine);
    for (int i = 0; all && mine && i < g->count; i++) {
        sl_lesson_collect(g->lessons[i], &g->jobs[i], mine);
        sl_report_write_lesson(g->jobs[i].out_dir, g->jobs[i].source, g->jobs[i].seed, mine,
                               g->lessons[i]->count);
        sl_lesson_close_channels(g->lessons[i], &g->jobs[i]);
        for (int k = 0; k < g->lessons[i]->count; k++)
            if (mine[k].verdict != SL_V_COUNT)
                all[n++] = mine[k];
    }
    free(mine);
    sl_points_apply(points, all, n);
    *count = n;
    return all;
}

/* 0 when every result file was written whole; a file that cannot be
 * (planted, read-only, a folder in its place) is an error, said loudly:
 * a stale or forged file must never pass for this grading's. */
static int write_outputs(const options *o, const char *out, const sl_report *rep)
{
    char json[4200];
    int rc = 0;
    snprintf(json, sizeof json, "%s/results.json", out);
    if (sl_report_write_json(json, rep) != 0) {
        fprintf(stderr, "syncgrade: cannot write %s\n", json);
        rc = -1;
    } else if (!o->quiet && strcmp(o->command, "check") != 0) /* a student needs only the table */
        printf("\nresults: %s\n", json);
    if (o->gradescope && sl_gradescope_write(o->gradescope, rep, o->visibility) != 0) {
        fprintf(stderr, "syncgrade: cannot write %s\n", o->gradescope);
        rc = -1;
    }
    if (o->junit &&
        sl_junit_write(o->junit, rep->submission, rep->outcomes, rep->count, rep->seconds) != 0) {
        fprintf(stderr, "syncgrade: cannot write %s\n", o->junit);
        rc = -1;
    }
    return rc;
}

/* The table printed the ladder's first step: the next make hint goes on
 * from there (out/<lesson>/hint-<exercise>.step, as hint reads it). */
static void remember_first_hint(const char *out, const sl_outcome *o)
{
    if (o->verdict == SL_V_PASS || o->hint_step != 1)
        return;
    char state[8400];
    snprintf(state, sizeof state, "%s/%s/hint-%s.step", out, o->lesson, o->exercise);
    sl_hint_shown(state, o->verdict, 1);
}

int cli_grade(const options *o, int check_mode)
{
    sl_build_config baked = cli_build_config();
    if (cli_check_paths(&baked) != 0) /* the machine's fault: before any student */
        return 2;
    const sl_lesson *lessons[MAX_LESSONS] = {0};
    int nl = cli_select_lessons(o, lessons);
    sl_points points;
    if (nl < 0 || !cli_visibility_ok(o) || cli_load_points(o, &points) != 0)
        return 2;
    char submission[4096], out[4096];
    snprintf(submission, sizeof submission, "%s",
             o->submission ? o->submission : SYNCLAB_SOURCE_DIR "/starter");
    if (access(submission, R_OK) != 0) {
        fprintf(stderr, "syncgrade: %s: %s\n", submission, strerror(errno));
        return 2;
    }
    snprintf(out, sizeof out, "%s", cli_default_out(o));
    const char *no_gpu = getenv("SYNCLAB_GRADESCOPE_NO_GPU"); /* run_autograder's setting */
    if (sl_gradescope_set_no_gpu(no_gpu && *no_gpu ? no_gpu : NULL) != 0) {
        fprintf(stderr, "syncgrade: SYNCLAB_GRADESCOPE_NO_GPU=%s: want static or error\n", no_gpu);
        return 2;
    }
    if (!cli_out_ok(out))
        return 2;
    sl_gradescope_take_nonce(); /* before any child: no runner inherits it */
    /* runners see neither the submission's folder nor the results */
    sl_mkdirs(out);
    sl_sandbox_hide(out);
    sl_sandbox_hide(submission);
    if (o->gradescope)
        sl_sandbox_hide(o->gradescope);
    sl_build_config bc = cli_build_config();
    options eff = *o;
    if (!eff.have_seed)
        eff.seed = sl_seed_unpredictable(); /* a student cannot tune to it */

    sl_lesson_job jobs[MAX_LESSONS];
    char sources[MAX_LESSONS][4200], dirs[MAX_LESSONS][4096], notes[1024];
    /* the lesson files, found as class mode and Gradescope find them */
    static sl_located found[MAX_LESSONS];
    const char *names[MAX_LESSONS];
    sl_submission_scan scan;
    sl_locate_scan(submission, &scan);
    for (int i = 0; i < nl; i++) {
        names[i] = lessons[i]->name;
        sl_locate_lesson(&scan, lessons[i]->name, &found[i]);
        cli_job_defaults(&jobs[i], &eff, &bc);
        if (found[i].found)
            snprintf(sources[i], sizeof sources[i], "%s", found[i].path);
        else
            snprintf(sources[i], sizeof sources[i], "%s/%s.cu", submission, lessons[i]->name);
        snprintf(dirs[i], sizeof dirs[i], "%s/%s", out, lessons[i]->name);
        jobs[i].source = sources[i];
        jobs[i].out_dir = dirs[i];
        jobs[i].verbosity = check_mode ? 1 : 0;
        jobs[i].policy = 1; /* a student's files */
        jobs[i].shown_folder = found[i].folder;
        jobs[i].missing_note = found[i].found ? NULL : found[i].note;
    }
    sl_locate_summary(&scan, names, nl, notes, sizeof notes);
    sl_locate_scan_free(&scan);
    /* a student (check) sees the table and what explains it: the seed is on
     * its score line, the sandbox only when it is missing */
    if (!o->quiet && !check_mode)
        printf("grading %s (seed %" PRIu64 ")\n", submission, eff.seed);
    if (notes[0]) /* a student checking their file needs this line too */
        printf("note: %s\n", notes);
    /* the student's budgets, shared by the lessons' processes (budget.h) */
    sl_budget_begin();
    /* once, before the lessons fork: they inherit the probe's result */
    if ((!o->quiet && !check_mode) || !sl_sandbox_available())
        printf("%s\n", sl_sandbox_status());
    /* once: every lesson and student inherits the answer; the GPU stays
     * set up meanwhile (gpu_keep.h) */
    if (sl_gpu_probe() == SL_GPU_PRESENT)
        sl_gpu_keep_start(NULL);

    /* Lessons in parallel, each in its own process. */
    grade_state g = {lessons, jobs, nl, o->quiet, check_mode, 0, sl_now()};
    sl_jobs j = {nl,         check_mode ? 1 : o->jobs > 0 ? o->jobs : sl_jobs_default_parallel(),
                 &g,         prepare_lesson,
                 run_lesson, lesson_done,
                 0 /* no deadline: each stage of a lesson has its own limit */};
    sl_jobs_run(&j);
    sl_gpu_keep_stop();

    int n, failures = 0;
    sl_outcome *all = collect_all(&g, &points, &n);
    for (int i = 0; i < n; i++) {
        failures += all[i].verdict != SL_V_PASS;
        remember_first_hint(out, &all[i]);
    }
    sl_report rep = {submission, eff.seed, sl_now() - g.t0, all, n};
    printf("\n");
    sl_report_print(stdout, &rep, 1);
    int written = write_outputs(o, out, &rep) == 0;
    for (int i = 0; i < n; i++)
        sl_outcome_free(&all[i]);
    free(all);
    sl_points_free(&points);
    if (!written)
        return 2;
    /* grade: 0 once the results are written (Gradescope's script reads
     * them), unless asked for the verdict (make grade) */
    return (check_mode || o->exit_status) && failures ? 1 : 0;
}

/* ---------- class: cmd_class.c ---------- */

/* ---------- hint / progress ---------- */

/* Says so when the last results are of another folder than the one asked
 * about (or one inside it, where locate.h found the file). */
static void same_submission(const sl_lesson_status *st, const char *submission)
{
    char want[PATH_MAX], have[PATH_MAX];
    if (!submission || !st->checked || !realpath(submission, want))
        return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", st->last.submission);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    size_t n = strlen(want); /* a file found in a folder of it (locate.h) is its too */
    if (!realpath(dir, have) ||
        (strcmp(want, have) != 0 && !(strncmp(want, have, n) == 0 && have[n] == '/')))
        printf("(the last results of %s are of %s, not %s)\n", st->lesson->name,
               st->last.submission, submission);
}

int cli_hint(const options *o)
{
    if (o->nlessons != 1)
        return cli_usage();
    const sl_lesson *l = cli_lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    sl_lesson_status st;
    sl_progress_load(cli_default_out(o), &l, 1, &st);
    same_submission(&st, o->submission);
    char state_dir[4200];
    snprintf(state_dir, sizeof state_dir, "%s/%s", cli_default_out(o), l->name);
    int known = sl_hint_print(stdout, &st, o->exercise, st.checked ? state_dir : NULL) == 0;
    sl_progress_free(&st, 1);
    return known ? 0 : 2;
}

int cli_progress(const options *o)
{
    const sl_lesson *lessons[MAX_LESSONS] = {0};
    int n = cli_select_lessons(o, lessons);
    if (n < 0)
        return 2;
    sl_lesson_status st[MAX_LESSONS];
    sl_progress_load(cli_default_out(o), lessons, n, st);
    for (int i = 0; i < n; i++)
        same_submission(&st[i], o->submission);
    sl_progress_print(stdout, st, n);
    sl_progress_free(st, n);
    return 0;
}
