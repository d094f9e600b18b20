/* `make hint`'s ladder: make check prints the first step (a question that
 * points into the doc); each make hint gives one more for the exercise's
 * current verdict (the rule, the code-level fix), then says there are no
 * more. The step reached is kept in a small file per exercise
 * and starts over when the verdict changes. */
#ifndef SYNCLAB_HINT_H
#define SYNCLAB_HINT_H

#include "exercise.h"
#include "text.h"

enum { SL_HINT_STEPS = 3 };

/* Step 1..3 of exercise e's ladder for verdict v: the lesson's own text,
 * else one built from the verdict, e->hint[v] and e->doc. */
void sl_hint_step(const sl_exercise *e, sl_verdict v, int step, sl_text *out);
/* The step to show now for verdict v, kept in state_path ("VERDICT STEP"):
 * one past the last shown for the same verdict, else 1; past the last
 * step, SL_HINT_STEPS + 1 (there are no more). Writes the new step back;
 * a NULL or unwritable path gives 1. */
int sl_hint_advance(const char *state_path, sl_verdict v);
/* Records that step (make check prints step 1) was shown for verdict v,
 * unless a later one of the same verdict was: the next make hint goes on
 * from there. */
void sl_hint_shown(const char *state_path, sl_verdict v, int step);

#endif
