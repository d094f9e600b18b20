#include "together.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contain.h"
#include "files.h"
#include "proc.h"
#include "sweep.h"
#include "trace.h"

int sl_lessons_run_together(const sl_lesson *const *ls, const sl_lesson_job *jobs, int n,
                            const char *dir)
{
    sl_lesson_prep **p = calloc((size_t)(n > 0 ? n : 1), sizeof *p);
    if (!p)
        return 0;
    for (int i = 0; i < n; i++)
        p[i] = sl_lesson_prepare(ls[i], &jobs[i]);
    /* the lessons that can join: built, a runner for this GPU, something
     * to sweep */
    sl_sweep_lesson_in in[SL_SWEEP_MAX_LESSONS];
    const char *names[SL_SWEEP_MAX_LESSONS], *builds[SL_SWEEP_MAX_LESSONS];
    int at[SL_SWEEP_MAX_LESSONS], k = 0;
    for (int i = 0; i < n && k < SL_SWEEP_MAX_LESSONS; i++) {
        if (!p[i] || !p[i]->sweepable || !p[i]->ctx.runner || p[i]->graded < 1)
            continue;
        in[k] = (sl_sweep_lesson_in){ls[i],       &p[i]->ctx,   p[i]->b.compiled,
                                     p[i]->which, p[i]->graded, p[i]->swept};
        names[k] = ls[i]->name;
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
        int built = sl_build_lessons_runner(jobs[at[0]].build, jobs[at[0]].harness_lib_dir, names,
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
                    /* it sweeps alone, from nothing */
                    sl_grade_swept_free(q->swept, ls[at[j]]->count);
                    memset(q->swept, 0, (size_t)ls[at[j]]->count * sizeof *q->swept);
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
    for (int i = 0; i < n; i++)
        sl_lesson_judge(p[i]);
    free(p);
    return decided;
}
