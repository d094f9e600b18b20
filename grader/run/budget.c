#include "budget.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { DEFAULT_ALONE_RERUNS = 4, DEFAULT_STUDENT_GPU_S = 1800 };

typedef struct {
    atomic_int alone;    /* exclusive reruns taken */
    atomic_llong gpu_ms; /* wall time of runs of student code */
} counters;

static counters *g_counters;

static long env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    return v && *v ? atol(v) : fallback;
}

void sl_budget_begin(void)
{
    /* the old mapping (a parent's) stays the parent's */
    counters *c = mmap(NULL, sizeof *c, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (c == MAP_FAILED)
        return;
    atomic_init(&c->alone, 0);
    atomic_init(&c->gpu_ms, 0);
    g_counters = c;
}

static counters *get(void)
{
    if (!g_counters)
        sl_budget_begin();
    return g_counters;
}

int sl_budget_alone_max(void)
{
    return (int)env_long("SYNCLAB_ALONE_RERUNS", DEFAULT_ALONE_RERUNS);
}

int sl_budget_take_alone(void)
{
    counters *c = get();
    if (!c)
        return 1;
    return atomic_fetch_add(&c->alone, 1) < sl_budget_alone_max();
}

void sl_budget_spend(double seconds)
{
    counters *c = get();
    if (c && seconds > 0)
        atomic_fetch_add(&c->gpu_ms, (long long)(seconds * 1000));
}

double sl_budget_gpu_max(void)
{
    return (double)env_long("SYNCLAB_STUDENT_GPU_S", DEFAULT_STUDENT_GPU_S);
}

double sl_budget_gpu_left(void)
{
    counters *c = get();
    return sl_budget_gpu_max() - (c ? (double)atomic_load(&c->gpu_ms) / 1000.0 : 0);
}
