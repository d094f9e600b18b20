#include "verdict.h"

#include <string.h>

static const char *const NAMES[SL_V_COUNT] = {
    "PASS", "WRONG",  "RACE",  "SYNC", "MEMORY", "TIMEOUT",
    "RULE", "LAUNCH", "BUILD", "TODO", "SKIP",   "ERROR",
};

static const char *const HINTS[SL_V_COUNT] = {
    "",
    "The output differs from the CPU reference: check indices, the tail past n, and what each "
    "block may read.",
    "Two threads touch the same shared memory without a barrier between them: separate the write "
    "from the read with __syncthreads() (or __syncwarp() inside a warp).",
    "A barrier is reached by only part of the threads it waits for: move it out of the branch so "
    "every thread reaches it.",
    "An access outside an allocation (or of memory never written): check bounds against n before "
    "every load and store.",
    "The kernel never finished: likely a deadlock (a barrier some threads never reach) or a spin "
    "on a value that never changes.",
    "The compiled code breaks a rule of the exercise (see what the PTX shows).",
    "A launch or CUDA call failed: check the launch shape, cooperative launch, and barrier counts.",
    "The file does not compile: fix the first error the compiler reports.",
    "Not started yet: remove SYNCLAB_TODO(...) and write the exercise.",
    "No GPU here: the dynamic checks were skipped.",
    "The grader failed on this exercise: not your fault, tell your instructor.",
};

const char *sl_verdict_name(sl_verdict v) { return (unsigned)v < SL_V_COUNT ? NAMES[v] : "?"; }

int sl_verdict_parse(const char *name)
{
    for (int v = 0; v < SL_V_COUNT; v++)
        if (strcmp(NAMES[v], name) == 0)
            return v;
    return -1;
}

const char *sl_verdict_hint(sl_verdict v) { return (unsigned)v < SL_V_COUNT ? HINTS[v] : ""; }
