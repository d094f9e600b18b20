/* racecheck's hazards that the student's PTX proves ordered: the callback
 * sanitizer.c's report reader asks (sl_hazard_dismiss), backed by
 * ptx_warp_arrive.h. The PTX is read once, on the first hazard. */
#ifndef SYNCLAB_RACE_FILTER_H
#define SYNCLAB_RACE_FILTER_H

#include <stddef.h>

#include "ptx.h"
#include "sanitizer.h"
#include "text.h"
#include "verdict.h"

typedef struct {
    const char *ptx_path; /* the student's PTX */
    int state;            /* 0 unread, 1 read, -1 unreadable or too complex */
    sl_ptx ptx;
} sl_race_filter;

/* An sl_hazard_dismiss: arg is an sl_race_filter. */
int sl_race_filter_dismiss(const char *file_a, int line_a, const char *file_b, int line_b,
                           void *arg);
void sl_race_filter_free(sl_race_filter *rf);

/* A tool's report read as sl_sanitizer_parse_dismissing reads it, with
 * ptx_path (the student's PTX) as the judge of racecheck's hazards; the
 * one call the judge and the lesson sweep make. A dismissed report is
 * said on the trace. */
sl_verdict sl_race_filter_parse(const char *ptx_path, int tool, const char *report,
                                const char *prefer_file, int *dismissed, sl_text *detail,
                                char *where, size_t wherelen);

#endif
