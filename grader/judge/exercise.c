#include "exercise.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

sl_input *sl_inputs_add(sl_inputs *s, const char *fmt, ...)
{
    if (s->count == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        sl_input *v = realloc(s->v, (size_t)cap * sizeof *v);
        if (!v)
            abort();
        s->v = v;
        s->cap = cap;
    }
    sl_input *in = &s->v[s->count++];
    memset(in, 0, sizeof *in);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->label, sizeof in->label, fmt, ap);
    va_end(ap);
    return in;
}

void sl_inputs_free(sl_inputs *s)
{
    for (int i = 0; i < s->count; i++)
        sl_case_free(&s->v[i].in);
    free(s->v);
    memset(s, 0, sizeof *s);
}

enum { MAX_SHOWN = 3 };

int sl_expect_shape(const sl_case *out, int index, int type, uint64_t n, sl_text *why)
{
    if (index >= out->narrays) {
        sl_text_printf(why, "output %d is missing (the runner returned %d arrays)", index,
                       out->narrays);
        return 0;
    }
    const sl_array *a = &out->array[index];
    if (a->type != type || a->count < n) {
        sl_text_printf(why,
                       "output %d has the wrong shape (%" PRIu64 " elements of type %d, "
                       "expected %" PRIu64 " of type %d)",
                       index, a->count, a->type, n, type);
        return 0;
    }
    return 1;
}

/* Shared tail of the comparisons: counts mismatches, shows the first few. */
#define COMPARE_LOOP(differs, show)                                                                \
    uint64_t bad = 0;                                                                              \
    for (uint64_t i = 0; i < n; i++) {                                                             \
        if (differs) {                                                                             \
            if (bad < MAX_SHOWN)                                                                   \
                show;                                                                              \
            bad++;                                                                                 \
        }                                                                                          \
    }                                                                                              \
    if (bad > MAX_SHOWN)                                                                           \
        sl_text_printf(why, "... %" PRIu64 " of %" PRIu64 " elements differ\n", bad, n);           \
    return bad == 0

static int shape_ok(const sl_array *got, int type, uint64_t n, sl_text *why)
{
    if (!got || got->type != type || got->count < n) {
        sl_text_printf(why, "output has the wrong shape (expected %" PRIu64 " elements)\n", n);
        return 0;
    }
    return 1;
}

int sl_expect_i32(const int32_t *expected, const sl_array *got, uint64_t n, sl_text *why)
{
    if (!shape_ok(got, SL_I32, n, why))
        return 0;
    const int32_t *g = got->data;
    COMPARE_LOOP(g[i] != expected[i],
                 sl_text_printf(why, "index %" PRIu64 ": expected %" PRId32 ", got %" PRId32 "\n",
                                i, expected[i], g[i]));
}

int sl_expect_u32(const uint32_t *expected, const sl_array *got, uint64_t n, sl_text *why)
{
    if (!shape_ok(got, SL_U32, n, why))
        return 0;
    const uint32_t *g = got->data;
    COMPARE_LOOP(g[i] != expected[i],
                 sl_text_printf(why, "index %" PRIu64 ": expected %" PRIu32 ", got %" PRIu32 "\n",
                                i, expected[i], g[i]));
}

int sl_expect_f32(const double *expected, const sl_array *got, uint64_t n, double abs_tol,
                  sl_text *why)
{
    if (!shape_ok(got, SL_F32, n, why))
        return 0;
    const float *g = got->data;
    /* NaN never equals anything: !(diff <= tol) catches it */
    COMPARE_LOOP(!(fabs((double)g[i] - expected[i]) <= abs_tol),
                 sl_text_printf(why,
                                "index %" PRIu64 ": expected %.9g, got %.9g (tolerance %.3g)\n", i,
                                expected[i], (double)g[i], abs_tol));
}

double sl_sum_tolerance(uint64_t n, double sum_abs)
{
    /* Rounding errors of a float sum behave like a random walk: about
     * sqrt(n) roundings of the running sum's size for the worst common
     * order (one atomicAdd per element), log2(n) for a tree. Any correct
     * order fits; a lost element shows up at small and medium n, a lost
     * warp or block at every size the lessons use below 2^24. */
    double terms = (double)(n ? n : 1);
    return FLT_EPSILON * (sum_abs > 1.0 ? sum_abs : 1.0) * (sqrt(terms) + 2.0 * log2(terms) + 8.0);
}

int sl_shape_allows(const sl_exercise *e, int64_t n, int block, sl_text *why)
{
    const sl_shape_rule *r = &e->shape;
    const char *says = r->says ? r->says : "";
    if (n < 1) {
        sl_text_printf(why, "n must be at least 1\n");
        return 0;
    }
    if (r->n_max > 0 && n > r->n_max) {
        sl_text_printf(why, "n = %" PRId64 " is past the %" PRId64 " the contract allows: %s\n", n,
                       r->n_max, says);
        return 0;
    }
    if (r->launcher_picks)
        return 1;
    const char *bad = NULL;
    if (block < 32 || block > 1024)
        bad = "not between 32 and 1024";
    else if (r->blocks == SL_BLOCKS_WARPS && block % 32 != 0)
        bad = "not a multiple of 32";
    else if (r->blocks == SL_BLOCKS_POW2 && (block & (block - 1)) != 0)
        bad = "not a power of two";
    if (bad)
        sl_text_printf(why, "a block of %d threads is %s: %s\n", block, bad, says);
    return bad == NULL;
}

void sl_expected_start(const sl_case *in, sl_case *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->param, in->param, sizeof out->param);
}
