#include "hint.h"

#include <stdio.h>
#include <string.h>

/* Step 1 when a lesson gives none: where to look, as a question. */
static const char *const QUESTIONS[SL_V_COUNT] = {
    [SL_V_WRONG] = "Which outputs come out wrong (the mismatches above), and what does %s say "
                   "each thread computes for them, in the last block too?",
    [SL_V_RACE] = "Which shared-memory slot does one thread write while another thread reads it, "
                  "and what does %s say must come between the two?",
    [SL_V_SYNC] = "Does every thread that a barrier waits for reach that barrier in your code? "
                  "Look at the lines above and at what %s says about barriers in branches.",
    [SL_V_MEMORY] = "Which index can run past n, past the shared tile, or read memory nobody "
                    "wrote? %s says which accesses each thread may make.",
    [SL_V_TIMEOUT] = "Which threads wait for something that never happens (a barrier some "
                     "threads skip, a flag nobody sets)? Read %s.",
    [SL_V_RULE] = "What does %s ask you to use here, and what did the compiler find in your "
                  "code instead (the lines above)?",
    [SL_V_LAUNCH] = "Which launch or CUDA call failed, and what shape does %s say it needs?",
    [SL_V_BUILD] = "What does the compiler's first error say, and does your code still match "
                   "the starter's signatures (%s)?",
    [SL_V_TODO] = "What does %s ask each thread to do in this exercise?",
    [SL_V_SKIP] = "Is there a GPU on this machine? The static checks passed; %s lists what the "
                  "dynamic checks look for, docs/students.md#no-gpu where to run them.",
    [SL_V_ERROR] = "The grader failed here, not your code: did the last check print why? "
                   "(%s describes the exercise)",
};

/* Step 2 where the verdict's one-line hint (verdict.c) is no rule: TODO's
 * and SKIP's say what happened, not what the code must obey. */
static const char *const RULES[SL_V_COUNT] = {
    [SL_V_TODO] = "The kernel keeps the starter's signature (the harness calls it as declared) "
                  "and meets the contract in the comment above it: which inputs and launch "
                  "shapes it gets, what every output element must hold; nothing of it is judged "
                  "while its SYNCLAB_TODO(...) line is there.",
    [SL_V_SKIP] = "The static checks (build, rules, barriers, memory order) passed; WRONG, RACE, "
                  "SYNC, MEMORY and TIMEOUT can only be found by running the kernel on a GPU.",
};

/* Step 3 when neither the ladder nor hint[] has one. */
static const char *const FIXES[SL_V_COUNT] = {
    [SL_V_TODO] = "Delete the SYNCLAB_TODO(...) line of this exercise and write the kernel the "
                  "section describes; the comments of the starter give its contract.",
    [SL_V_BUILD] = "Fix the first error the compiler printed (the lines after it often follow "
                   "from it), then run make check again.",
    [SL_V_SKIP] = "Move on to the next exercise (make progress), and run make check on a machine "
                  "with an NVIDIA GPU later: docs/students.md#no-gpu.",
    [SL_V_ERROR] = "Run make check again; if it says ERROR again, show its output to your "
                   "instructor.",
};
static const char FIX_FALLBACK[] =
    "Go through the lines the verdict names with the rule above in mind; change the one that "
    "breaks it and run make check again.";

void sl_hint_step(const sl_exercise *e, sl_verdict v, int step, sl_text *out)
{
    if ((unsigned)v >= SL_V_COUNT)
        v = SL_V_ERROR;
    const sl_hint_steps *own = &e->ladder[v];
    const char *doc = e->doc ? e->doc : "the lesson's doc";
    switch (step) {
    case 1:
        if (own->question)
            sl_text_printf(out, "%s", own->question);
        else if (QUESTIONS[v])
            sl_text_printf(out, QUESTIONS[v], doc);
        else
            sl_text_printf(out, "Read %s.", doc);
        break;
    case 2:
        sl_text_printf(out, "%s", own->rule ? own->rule : RULES[v] ? RULES[v] : sl_verdict_hint(v));
        break;
    default:
        sl_text_printf(out, "%s",
                       own->fix     ? own->fix
                       : e->hint[v] ? e->hint[v]
                       : FIXES[v]   ? FIXES[v]
                                    : FIX_FALLBACK);
        break;
    }
}

/* The last step shown for verdict v (0: none, or another verdict's). */
static int last_shown(const char *state_path, sl_verdict v)
{
    int last = 0;
    char name[32] = "";
    FILE *f = fopen(state_path, "r");
    if (f) {
        if (fscanf(f, "%31s %d", name, &last) != 2 || strcmp(name, sl_verdict_name(v)) != 0)
            last = 0;
        fclose(f);
    }
    return last < 0 ? 0 : last > SL_HINT_STEPS + 1 ? SL_HINT_STEPS + 1 : last;
}

static void remember(const char *state_path, sl_verdict v, int step)
{
    FILE *f = fopen(state_path, "w");
    if (f) {
        fprintf(f, "%s %d\n", sl_verdict_name(v), step);
        fclose(f);
    }
}

int sl_hint_advance(const char *state_path, sl_verdict v)
{
    if (!state_path)
        return 1;
    int step = last_shown(state_path, v) + 1;
    if (step > SL_HINT_STEPS + 1)
        step = SL_HINT_STEPS + 1;
    remember(state_path, v, step);
    return step;
}

void sl_hint_shown(const char *state_path, sl_verdict v, int step)
{
    if (state_path && last_shown(state_path, v) < step)
        remember(state_path, v, step);
}
