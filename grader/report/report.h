/* What the grader prints and writes: the per-lesson, per-exercise table and
 * results.json (machine-readable, written with cJSON). */
#ifndef SYNCLAB_REPORT_H
#define SYNCLAB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "outcome.h"
#include "text.h"

typedef struct {
    const char *submission;
    uint64_t seed;
    double seconds;
    const sl_outcome *outcomes; /* graded ones only */
    int count;
} sl_report;

/* The table, then the details of every non-PASS verdict (where, what, hint,
 * doc). */
void sl_report_print(FILE *f, const sl_report *r, int details);
int sl_report_write_json(const char *path, const sl_report *r);
/* out_dir/results.json: one lesson's latest verdicts (those not SL_V_COUNT:
 * not graded this time), which hint and progress read. */
void sl_report_write_lesson(const char *out_dir, const char *source, uint64_t seed,
                            const sl_outcome *outcomes, int count);
/* One outcome in words: verdict and place, detail, hint, doc (for the
 * outputs of other formats). */
void sl_report_explain(sl_text *out, const sl_outcome *o);
/* An outcome's detail for a student: for SYNC and RULE, the student's
 * source lines at its places first, then the explanation, then the PTX on
 * one "ptx:" line. submission: the folder or the lesson file graded. */
void sl_report_detail(sl_text *out, const sl_outcome *o, const char *submission);
/* The same JSON as text (malloc'd). */
char *sl_report_to_text(const sl_report *r);

/* A report read back (results.json of a lesson, a student's report sent
 * through a channel). */
typedef struct {
    char submission[4096];
    uint64_t seed;
    double seconds;
    sl_outcome *outcomes;
    int count;
} sl_report_data;
int sl_report_parse(const char *text, sl_report_data *d);
int sl_report_read_json(const char *path, sl_report_data *d);
void sl_report_data_free(sl_report_data *d);
void sl_report_score(const sl_report *r, double *points, double *max_points);

#endif
