/* racecheck's hazards that the student's PTX proves ordered: the callback
 * sanitizer.c's report reader asks (sl_hazard_dismiss), backed by
 * ptx_warp_arrive.h. The PTX is read once, on the first hazard. */
#ifndef SYNCLAB_RACE_FILTER_H
#define SYNCLAB_RACE_FILTER_H

#include "ptx.h"

typedef struct {
    const char *ptx_path; /* the student's PTX */
    int state;            /* 0 unread, 1 read, -1 unreadable or too complex */
    sl_ptx ptx;
} sl_race_filter;

/* An sl_hazard_dismiss: arg is an sl_race_filter. */
int sl_race_filter_dismiss(const char *file_a, int line_a, const char *file_b, int line_b,
                           void *arg);
void sl_race_filter_free(sl_race_filter *rf);

#endif
