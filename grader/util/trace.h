/* SYNCLAB_TRACE=1: the grader says what it does and how long it takes, on
 * stderr. One switch for every module. */
#ifndef SYNCLAB_TRACE_H
#define SYNCLAB_TRACE_H

#include <stdlib.h>

static inline int sl_tracing(void)
{
    const char *on = getenv("SYNCLAB_TRACE");
    return on && *on && *on != '0';
}

#endif
