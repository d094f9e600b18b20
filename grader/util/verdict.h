/* The verdicts a student sees, in the order the grader reports them. */
#ifndef SYNCLAB_VERDICT_H
#define SYNCLAB_VERDICT_H

typedef enum {
    SL_V_PASS = 0,
    SL_V_WRONG,   /* output differs from the CPU reference */
    SL_V_RACE,    /* racecheck hazard (errors and warnings) */
    SL_V_SYNC,    /* synccheck: barrier misuse */
    SL_V_MEMORY,  /* memcheck/initcheck, illegal address, host crash */
    SL_V_TIMEOUT, /* killed after its time limit: likely deadlock */
    SL_V_RULE,    /* the PTX breaks a static rule (fences, atomics) */
    SL_V_LAUNCH,  /* the launch or a CUDA call failed */
    SL_V_BUILD,   /* the submission does not compile */
    SL_V_TODO,    /* exercise not started */
    SL_V_SKIP,    /* needs a GPU and none is present */
    SL_V_ERROR,   /* the grader itself failed: not the student's fault */
    SL_V_COUNT
} sl_verdict;

const char *sl_verdict_name(sl_verdict v);
/* -1 when the name is unknown. */
int sl_verdict_parse(const char *name);
/* One line telling what the verdict usually means. */
const char *sl_verdict_hint(sl_verdict v);

#endif
