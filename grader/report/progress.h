/* The student loop beside `check`: what passes so far, what to do next,
 * and the hint for an exercise. Both read the verdicts the last `check`
 * (or `grade`) left in <out>/<lesson>/results.json; they judge nothing. */
#ifndef SYNCLAB_PROGRESS_H
#define SYNCLAB_PROGRESS_H

#include <stdio.h>

#include "exercise.h"
#include "report.h"

typedef struct {
    const sl_lesson *lesson;
    int checked;         /* a results.json was found */
    sl_report_data last; /* its content */
} sl_lesson_status;

/* Reads out/<lesson>/results.json of each lesson (n of them). */
void sl_progress_load(const char *out, const sl_lesson *const *lessons, int n,
                      sl_lesson_status *st);
void sl_progress_free(sl_lesson_status *st, int n);
/* The last verdict of an exercise, or NULL if it was never checked. */
const sl_outcome *sl_progress_outcome(const sl_lesson_status *st, const char *exercise);
/* The first exercise, in curriculum order (lessons, then exercises in the
 * suite's order), that has not passed and does not wait for a GPU (SKIP:
 * its static checks passed, done for now): 1 with *lesson, *exercise set,
 * or 0 when nothing else is left. */
int sl_progress_next(const sl_lesson_status *st, int n, int *lesson, int *exercise);
/* One line per lesson, then what to do next. */
void sl_progress_print(FILE *f, const sl_lesson_status *st, int n);
/* The hint of one exercise (NULL: the first one not passing): its last
 * verdict with place and detail, then the hint ladder (hint.h) up to one
 * step more than the last call showed for that verdict, kept in
 * state_dir/hint-<exercise>.step (NULL: step 1 only); never checked, only
 * the first step; past the last step, all of them and "no more steps".
 * Returns -1 (after listing the lesson's exercises) for an unknown one. */
int sl_hint_print(FILE *f, const sl_lesson_status *st, const char *exercise, const char *state_dir);

#endif
