/* Lesson 5, worklist insertion: CPU reference (C11, no CUDA). */
#ifndef SYNCLAB_WORKLIST_REFERENCE_H
#define SYNCLAB_WORKLIST_REFERENCE_H

#include <stdint.h>

/* Exclusive scan of the counts: offsets[t] = nelem[0] + ... + nelem[t-1].
 * Returns the total, nelem[0] + ... + nelem[n-1]. */
int64_t worklist_ref_offsets(const int32_t *nelem, uint64_t n, int64_t *offsets);

/* compact's predicate, the same as compact_keep in worklist.h. */
int worklist_ref_keep(int32_t x, int32_t threshold);

/* The kept elements of in[0..n), in input order, into out; returns how many. */
uint64_t worklist_ref_compact(const int32_t *in, uint64_t n, int32_t threshold, int32_t *out);

#endif
