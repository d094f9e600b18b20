/* Lesson 5, worklist insertion: CPU reference. Sequential, in 64-bit sums. */
#include "reference.h"

int64_t worklist_ref_offsets(const int32_t *nelem, uint64_t n, int64_t *offsets)
{
    int64_t sum = 0;
    for (uint64_t t = 0; t < n; t++) {
        offsets[t] = sum;
        sum += nelem[t];
    }
    return sum;
}

int worklist_ref_keep(int32_t x, int32_t threshold) { return x >= threshold; }

uint64_t worklist_ref_compact(const int32_t *in, uint64_t n, int32_t threshold, int32_t *out)
{
    uint64_t kept = 0;
    for (uint64_t i = 0; i < n; i++)
        if (worklist_ref_keep(in[i], threshold))
            out[kept++] = in[i];
    return kept;
}
