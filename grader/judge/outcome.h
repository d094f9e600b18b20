/* One exercise's verdict: the one type the judge (grade.h) fills in and the
 * reports print. It travels from the Check test that judged it to the
 * report as a small JSON text per exercise, sent by the judging process
 * through a private channel (channel.h) and read by the one that prints the
 * table. The same JSON is kept in reports for `hint` and `progress`. */
#ifndef SYNCLAB_OUTCOME_H
#define SYNCLAB_OUTCOME_H

#include "exercise.h"
#include "text.h"
#include "verdict.h"

typedef struct {
    char lesson[64];
    char exercise[64];
    char title[128];
    sl_verdict verdict;
    sl_text detail;  /* what went wrong, several lines */
    char where[512]; /* source line(s) when a tool or rule gave them */
    char hint[512];  /* one line; empty on PASS */
    int hint_step;   /* hint is this step of make hint's ladder (1: the question); 0: its own */
    char doc[256];   /* section to read */
    double seconds;
    int cases; /* inputs compared */
    double points, max_points;
    int have_bench;
    double student_gbps, reference_gbps, copy_gbps;
    char bench_reference[48];
} sl_outcome;

/* A fresh outcome for e: its names, doc and points, verdict PASS. */
void sl_outcome_init(sl_outcome *o, const sl_lesson *l, const sl_exercise *e);
/* Sets the verdict; points follow it (all on PASS, none otherwise). */
void sl_outcome_set(sl_outcome *o, sl_verdict v);
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
