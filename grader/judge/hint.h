/* `make hint`'s ladder: each call gives one more step for an exercise's
 * current verdict (a question that points into the doc, the rule, the
 * code-level fix). The step reached is kept in a small file per exercise
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
 * one past the last shown for the same verdict (at most 3), else 1.
 * Writes the new step back; a NULL or unwritable path gives 1. */
int sl_hint_advance(const char *state_path, sl_verdict v);

#endif
