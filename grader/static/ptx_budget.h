/* A budget for the static analyses of one exercise. Their cost grows with
 * the product of waits, flags and stores a kernel holds, so a file of
 * thousands of dead store/fence/flag triples could keep them busy for
 * hours. Every analysis charges its work here (a step: one instruction or
 * block visited, one pair of candidates tried); once the steps run out,
 * every later charge fails, the analyses return at once, and the caller
 * gives the verdict "too complex to analyse" (never a PASS).
 *
 * The steps make the verdict reproducible: the same file stops at the same
 * point on every machine. The wall clock is only a safety net for work
 * that no step counts (a loaded machine never changes a verdict unless the
 * steps did not catch it first). One budget per process at a time: the
 * static stages run one exercise after the other. */
#ifndef SYNCLAB_PTX_BUDGET_H
#define SYNCLAB_PTX_BUDGET_H

/* The budget of one exercise's static stages: about 1.5 s of one core of
 * a 2020s CPU. The largest of the reference solutions and bug zoos takes
 * about 220,000 steps, under 0.3% of it (SYNCLAB_TRACE=1 prints what each
 * exercise used); a file of 200 dead wait/store/fence/flag groups needs
 * more than 10^9. The seconds are wall-clock: 20 times the steps' time,
 * for a machine too loaded to keep it. */
#define SL_PTX_BUDGET_STEPS 100000000LL
#define SL_PTX_BUDGET_SECONDS 30.0
/* The largest PTX the reader takes (instructions in the module) and the
 * most basic blocks a function's control flow graph may have (its
 * post-dominator sets take blocks^2 / 8 bytes). */
#define SL_PTX_MAX_INSNS 400000
#define SL_PTX_MAX_BLOCKS 16384

/* Starts a budget (steps <= 0: unlimited, as when none was started). */
void sl_ptx_budget_start(long long steps, double seconds);
/* Charges n steps; 1 while the budget lasts, 0 once it has run out (and on
 * every later call). */
int sl_ptx_budget_spend(long long n);
/* Marks the budget spent: an input too large to analyse at all. what says
 * which limit ("the PTX has 500000 instructions"). */
void sl_ptx_budget_exhaust(const char *what);
/* Whether it ran out; why (may be NULL) gets what ran out. */
int sl_ptx_budget_exhausted(const char **why);
/* Steps used since the start. */
long long sl_ptx_budget_used(void);

#endif
