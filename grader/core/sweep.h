/* The lesson sweep. Every runner process is a CUDA context, and the driver
 * creates contexts about 0.2 s apart however many processes ask at once
 * (H100): one exercise used six of them (small run, four sanitizer tools,
 * full run). So before a lesson's exercises are judged one by one, the
 * exercises that passed the static stages run their small inputs together
 * in one runner process and, if that ended well, under each sanitizer tool
 * in one process per tool.
 *
 * Only "clean" is taken from the sweep: a check that ran every input of
 * every swept exercise and ended well is not run again per exercise. Any
 * other outcome (a finding, a crash, a hang, no GPU) decides nothing: the
 * exercises run those checks themselves, exactly as without a sweep, so
 * every verdict and its report come from the exercise's own runs.
 * SYNCLAB_SWEEP=0 turns the sweep off. */
#ifndef SYNCLAB_SWEEP_H
#define SYNCLAB_SWEEP_H

#include "grade.h"

/* A bit beside the sanitizer tools' (SL_TOOL_*): the small plain run. */
enum { SL_SWEPT_SMALL = 16 };

/* 0 when SYNCLAB_SWEEP=0. */
int sl_sweep_enabled(void);

/* Sweeps exercises which[0..n-1] of l; swept (l->count entries, zeroed by
 * the caller) gets the clean checks of each, as ctx->swept wants them. */
void sl_sweep_lesson(const sl_lesson *l, const sl_grade_ctx *ctx, const int *which, int n,
                     unsigned *swept);

#endif
