/* The lesson sweep. Every runner process is a CUDA context, and the driver
 * creates contexts about 0.2 s apart however many processes ask at once
 * (H100): one exercise used six of them (small run, four sanitizer tools,
 * full runs). So before a lesson's exercises are judged one by one, the
 * exercises that passed the static stages run in five processes for the
 * whole lesson: one plain runner takes every small input, then every full
 * input (each exercise's repeats too); once it is past the small inputs,
 * each sanitizer tool runs the small inputs in a process of its own.
 *
 * Only "clean" is taken from the sweep: a check that ran every input of
 * a swept exercise with the right outputs is not run again by that
 * exercise. Any other outcome (a finding, a crash, a hang, no GPU) decides
 * nothing: the exercises run those checks themselves, exactly as without a
 * sweep, so every verdict and its report come from the exercise's own
 * runs. A crash or hang in one exercise's full inputs costs only the
 * exercises whose full runs had not finished: they run them again alone.
 * A stall in the small inputs (SWEEP_SMALL_IDLE without output) stops the
 * sweep's runner early: that exercise is marked hung (it runs its small
 * inputs with the GPU to itself at once), its synccheck starts beside the
 * sweeps that follow (the hang's diagnosis: sl_grade_diagnose_start) and
 * the others are swept again without it; a runner that dies or exits in an
 * exercise's small inputs (a fault, output past its cap) leaves that one
 * out the same way, unmarked; a full input that hits the idle limit marks
 * its exercise hung_full. The trace ends with what each exercise keeps.
 * SYNCLAB_SWEEP=0 turns the sweep off; SYNCLAB_SWEEP_FULL=0 leaves the
 * full inputs to each exercise. */
#ifndef SYNCLAB_SWEEP_H
#define SYNCLAB_SWEEP_H

#include "grade.h"

/* 0 when SYNCLAB_SWEEP=0. */
int sl_sweep_enabled(void);

/* Sweeps exercises which[0..n-1] of l; swept (l->count entries) gets the
 * clean checks of each, as ctx->swept wants them. What swept holds already
 * (a submission's sweep that left the lesson undecided) is not run again:
 * its clean checks, and an exercise it saw hang. */
void sl_sweep_lesson(const sl_lesson *l, const sl_grade_ctx *ctx, const int *which, int n,
                     sl_swept *swept);

/* The submission's sweep: every lesson's exercises in one runner of all
 * of them (build.h: sl_build_lessons_runner), so a submission makes five
 * CUDA contexts where seven lessons made up to 35; the driver makes them
 * one at a time for the whole machine (scripts/bench-contexts.sh), which
 * made them most of a class's time. The same rules as a lesson's sweep;
 * a tool's report with findings is split between the lessons by the files
 * it names (sanitizer.h): a lesson it names loses that check, as in its
 * own sweep, and the others keep it when the report accounts for every
 * finding. What it cannot split (and a racecheck report naming a lesson,
 * whose hazards only that lesson's own sweep may dismiss) leaves those
 * lessons undecided: they sweep again alone, what it left (each keeps the
 * checks this sweep ran clean for it). */
enum { SL_SWEEP_MAX_LESSONS = 16 };
typedef struct {
    const sl_lesson *l;
    const sl_grade_ctx *ctx; /* its own: its PTX, source and runner (early diagnoses) */
    const char *compiled;    /* its file as the compiler named it (build.h): reports' locations */
    /* the base names of every file its compile read, one a line (build.h:
     * sl_build_dependency_names), for racecheck, whose reports name files
     * by base name only; NULL: unknown (its reports are not split) */
    const char *names;
    const int *which; /* the exercises to sweep, which[0..n-1] */
    int n;
    sl_swept *swept; /* l->count entries, zeroed by the caller */
} sl_sweep_lesson_in;
/* Returns a bit per lesson of in[0..n-1] the sweep left undecided (all of
 * them when it could not run: no sanitizer); their swept entries must be
 * cleared before they sweep alone. */
unsigned sl_sweep_submission(const sl_sweep_lesson_in *in, int n, const char *runner,
                             const char *workdir);

#endif
