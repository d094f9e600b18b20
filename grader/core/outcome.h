/* One exercise's verdict as it travels from the Check test that judged it
 * to the report: a small JSON file per exercise, written by the judging
 * process, read by the one that prints the table. */
#ifndef SYNCLAB_OUTCOME_H
#define SYNCLAB_OUTCOME_H

#include "grade.h"

typedef struct {
    char lesson[64];
    char exercise[64];
    char title[128];
    sl_verdict verdict;
    char *detail;        /* malloc'd */
    char where[512];
    char hint[512];
    char doc[256];
    double seconds;
    int cases;
    double points, max_points;
    int have_bench;
    double student_gbps, reference_gbps, copy_gbps;
    char bench_reference[48];
} sl_outcome;

void sl_outcome_from_result(sl_outcome *o, const sl_lesson *l, const sl_exercise *e,
                            const sl_result *r);
/* 0 ok */
int sl_outcome_write(const char *path, const sl_outcome *o);
int sl_outcome_read(const char *path, sl_outcome *o);
void sl_outcome_free(sl_outcome *o);
/* cJSON object for reports (caller owns it); declared as void* so headers
 * need not pull cJSON in. */
void *sl_outcome_to_json(const sl_outcome *o);

#endif
