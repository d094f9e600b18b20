#include "together.h"

#include <stdio.h>
#include <stdlib.h>

#include "contain.h"
#include "files.h"
#include "jobs.h"
#include "proc.h"
#include "sweep.h"
#include "trace.h"

typedef struct {
    const sl_lesson *const *ls;
    const sl_lesson_job *jobs;
} prebuild_state;

static int prebuild_one(int k, void *arg)
{
    const prebuild_state *st = arg;
    sl_lesson_prebuild(st->ls[k], &st->jobs[k]);
    return 0;
}

/* The lessons' files built at once, up to parallel of them, each in a
 * child: the builds are nvcc's, one process each, and were most of a
 * student's wall time when built one after the other. With turns, in one
 * of them (*waited: how long it waited). Returns how many were built at
 * once: 1 when none was (each is built when prepared). */
static int prebuild(const sl_lesson *const *ls, const sl_lesson_job *jobs, int n, int parallel,
                    const sl_slots *turns, double *waited)
{
    *waited = 0;
    if (parallel < 2 || n < 2)
        return 1;
    prebuild_state st = {ls, jobs};
    /* each compiler step has its own limit (build.h); this one only frees
     * the slot of a child stuck where none reaches, and prepare builds
     * that lesson again with those limits */
    double limit = jobs[0].build->timeout_s > 0 ? jobs[0].build->timeout_s : 60.0;
    sl_jobs j = {n, parallel, &st, NULL, prebuild_one, NULL, 4 * limit + 60};
    /* a turn waits for the students before it, each within its deadline;
     * past that this one builds without a turn */
    int turn = turns ? sl_slots_take(turns, j.deadline_s * 4, waited) : -1;
    sl_jobs_run(&j);
    sl_slots_give(turn);
    return parallel;
}

int sl_lessons_run_together(const sl_lesson *const *ls, const sl_lesson_job *jobs, int n,
                            const char *dir, const sl_together_opts *o)
{
    sl_lesson_prep **p = calloc((size_t)(n > 0 ? n : 1), sizeof *p);
    if (!p)
        return 0;
    double start = sl_now();
    double waited;
    int at_once =
        prebuild(ls, jobs, n, o ? o->build_parallel : 1, o ? o->build_turns : NULL, &waited);
    double built_at = sl_now() - start;
    char turn_note[64] = "";
    if (o && o->build_turns && at_once > 1)
        snprintf(turn_note, sizeof turn_note, " (a turn to build after %.2f s)", waited);
    int reused = 0;
    for (int i = 0; i < n; i++) {
        p[i] = sl_lesson_prepare(ls[i], &jobs[i]);
        reused += p[i] && p[i]->built && p[i]->b.cached;
    }
    /* one lesson alone is a lesson's run: no "together" in its trace */
    int tracing = sl_tracing() && n >= 2;
    if (tracing)
        fprintf(stderr,
                "[trace] together: %d lessons built (%d at once) in %.2f s, %d found built when "
                "prepared, judged statically by %.2f s%s\n",
                n, at_once, built_at, reused, sl_now() - start, turn_note);
    for (int i = 0; o && i < n; i++) /* their sweeps, together or alone */
        if (p[i])
            p[i]->ctx.gpu_places = o->gpu;
    /* the lessons that can join: built, a runner for this GPU, something
     * to sweep */
    sl_sweep_lesson_in in[SL_SWEEP_MAX_LESSONS];
    const char *lessons[SL_SWEEP_MAX_LESSONS], *builds[SL_SWEEP_MAX_LESSONS];
    char *names[SL_SWEEP_MAX_LESSONS];
    int at[SL_SWEEP_MAX_LESSONS], k = 0;
    for (int i = 0; i < n && k < SL_SWEEP_MAX_LESSONS; i++) {
        if (!p[i] || !p[i]->sweepable || !p[i]->ctx.runner || p[i]->graded < 1)
            continue;
        names[k] = sl_build_dependency_names(p[i]->build_dir);
        in[k] = (sl_sweep_lesson_in){ls[i],       &p[i]->ctx,   p[i]->b.compiled, names[k],
                                     p[i]->which, p[i]->graded, p[i]->swept};
        lessons[k] = ls[i]->name;
        builds[k] = p[i]->build_dir;
        at[k++] = i;
    }
    int decided = 0;
    if (k >= 2) {
        char runner_dir[4200], runner[4300], work[4200];
        snprintf(runner_dir, sizeof runner_dir, "%s/runner", dir);
        snprintf(work, sizeof work, "%s/work", dir);
        sl_mkdirs(work);
        sl_text log = {0};
        double t0 = sl_now();
        int built = sl_build_lessons_runner(jobs[at[0]].build, jobs[at[0]].harness_lib_dir, lessons,
                                            builds, k, p[at[0]]->b.target.arch, runner_dir, runner,
                                            sizeof runner, &log);
        if (sl_tracing())
            fprintf(stderr, "[trace] together: a runner of %d lessons %s in %.2f s%s%s\n", k,
                    built ? "built" : "not built", sl_now() - t0, built ? "" : ": ",
                    built ? "" : sl_text_str(&log));
        sl_text_free(&log);
        if (built) {
            t0 = sl_now();
            unsigned undecided = sl_sweep_submission(in, k, runner, work);
            double share = (sl_now() - t0) / k;
            sl_contain_kill_children(NULL, 0, 5.0); /* nothing a sweep runner started stays */
            for (int j = 0; j < k; j++) {
                sl_lesson_prep *q = p[at[j]];
                if (undecided & (1u << j)) {
                    /* it sweeps alone, for what this sweep left: the checks
                     * it ran clean for this lesson (each a proof of its
                     * own, as for the lessons it decided) are not run again
                     * (sweep.c), nor a hang's exercise; a racecheck report
                     * it could not split cost every lesson's full inputs
                     * again, the GPU's longest part of a sweep */
                    if (sl_tracing())
                        fprintf(stderr, "[trace] together: %s sweeps alone what is left\n",
                                ls[at[j]]->name);
                    continue;
                }
                q->presweep = 1;
                q->ctx.sweep_seconds = share;
                decided++;
            }
            if (sl_tracing())
                fprintf(stderr, "[trace] together: %d of %d lessons swept together\n", decided, k);
        }
    }
    for (int j = 0; j < k; j++)
        free(names[j]);
    double judged_from = sl_now();
    for (int i = 0; i < n; i++)
        sl_lesson_judge(p[i]);
    if (tracing)
        fprintf(stderr, "[trace] together: %d lessons judged in %.2f s (%.2f s in all)\n", n,
                sl_now() - judged_from, sl_now() - start);
    free(p);
    return decided;
}
