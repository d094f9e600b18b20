/* The verdicts a known submission must get: a bug-zoo file's
 *   // EXPECT <exercise> <VERDICT>[|<VERDICT>...] [static]
 * lines, or the "<exercise> <VERDICTS>" lines of an adversarial expect.txt.
 * "static": the verdict is one the PTX checks give, so a machine without a
 * GPU must reach it too. cmake/TestLabels.cmake reads the same lines to
 * label the tests. */
#ifndef SYNCLAB_ZOO_EXPECT_H
#define SYNCLAB_ZOO_EXPECT_H

typedef struct {
    char exercise[64];
    char verdicts[128]; /* "RACE|SYNC" */
    int by_static;      /* "... SYNC static": the static stages must give it */
} sl_expectation;

/* "<exercise> <VERDICTS> [static]" at the start of line (up to its end). 1 when
 * parsed, 0 when the line holds fewer than two words. */
int sl_expectation_parse(const char *line, sl_expectation *e);
/* Every "// EXPECT " line of a source's text, at most max: their count. */
int sl_expectations_in_source(const char *text, sl_expectation *ex, int max);
/* The verdicts of "RACE|SYNC" as a set of bits (1u << sl_verdict) in *set.
 * 0, or -1 when a name is no verdict. */
int sl_verdict_set(const char *verdicts, unsigned *set);

#endif
