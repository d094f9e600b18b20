/* What the grader prints and writes: the per-lesson, per-exercise table and
 * results.json (machine-readable, written with cJSON). */
#ifndef SYNCLAB_REPORT_H
#define SYNCLAB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "outcome.h"

typedef struct {
    const char *submission;
    uint64_t seed;
    double seconds;
    const sl_outcome *outcomes;   /* graded ones only */
    int count;
} sl_report;

/* The table, then the details of every non-PASS verdict (where, what, hint,
 * doc). */
void sl_report_print(FILE *f, const sl_report *r, int details);
int sl_report_write_json(const char *path, const sl_report *r);
void sl_report_score(const sl_report *r, double *points, double *max_points);

#endif
