/* The static analyses' budget of steps and seconds (ptx_budget.h). */
#include "ptx_budget.h"

#include <stdio.h>

#include "proc.h"

static struct {
    long long limit, used;
    double seconds, deadline; /* sl_now() seconds; 0: none */
    int out;
    char why[160];
} budget;

void sl_ptx_budget_start(long long steps, double seconds)
{
    budget.limit = steps;
    budget.used = 0;
    budget.seconds = seconds;
    budget.deadline = steps > 0 && seconds > 0 ? sl_now() + seconds : 0;
    budget.out = 0;
    budget.why[0] = '\0';
}

void sl_ptx_budget_exhaust(const char *what)
{
    if (!budget.out)
        snprintf(budget.why, sizeof budget.why, "%s", what);
    budget.out = 1;
}

int sl_ptx_budget_spend(long long n)
{
    if (budget.out)
        return 0;
    if (budget.limit <= 0)
        return 1;
    long long before = budget.used;
    budget.used += n > 0 ? n : 0;
    if (budget.used > budget.limit) {
        snprintf(budget.why, sizeof budget.why, "its %lld steps of analysis", budget.limit);
        budget.out = 1;
        return 0;
    }
    /* the clock, about once every million steps */
    if (budget.deadline > 0 && (before >> 20) != (budget.used >> 20) &&
        sl_now() > budget.deadline) {
        snprintf(budget.why, sizeof budget.why, "its %.0f seconds of analysis", budget.seconds);
        budget.out = 1;
        return 0;
    }
    return 1;
}

int sl_ptx_budget_exhausted(const char **why)
{
    if (why)
        *why = budget.why;
    return budget.out;
}

long long sl_ptx_budget_used(void) { return budget.used; }
