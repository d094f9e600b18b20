/* One exercise's verdict as it travels from the Check test that judged it
 * to the report: a small JSON text per exercise, sent by the judging
 * process through a private channel (channel.h), read by the one that
 * prints the table. The same JSON is kept in reports for `hint` and
 * `progress`. */
#ifndef SYNCLAB_OUTCOME_H
#define SYNCLAB_OUTCOME_H

#include "grade.h"

typedef struct {
    char lesson[64];
    char exercise[64];
    char title[128];
    sl_verdict verdict;
    char *detail; /* malloc'd */
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
/* JSON text (malloc'd) and back; from_text/from_json return 0 ok, -1 for
 * anything malformed or an unknown verdict. */
char *sl_outcome_to_text(const sl_outcome *o);
int sl_outcome_from_text(const char *text, sl_outcome *o);
int sl_outcome_from_json(const void *json, sl_outcome *o);
/* 0 ok */
int sl_outcome_write(const char *path, const sl_outcome *o);
int sl_outcome_read(const char *path, sl_outcome *o);
void sl_outcome_free(sl_outcome *o);
/* cJSON object for reports (caller owns it); declared as void* so headers
 * need not pull cJSON in. */
void *sl_outcome_to_json(const sl_outcome *o);

#endif
