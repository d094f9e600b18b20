/* Lesson 2: fences. CPU references (C11, no CUDA). */
#ifndef SYNCLAB_FENCES_REFERENCE_H
#define SYNCLAB_FENCES_REFERENCE_H

#include <stdint.h>

/* What the consumers of message_pass must deliver: pair p's words, unchanged,
 * for the first pairs pairs (out[i] = in[i] for i < pairs * words). */
void fences_ref_message(const int32_t *in, uint64_t pairs, uint64_t words, int32_t *out);

/* Exact sum of a[0..n) (the suite keeps it inside int32). */
int64_t fences_ref_sum(const int32_t *a, uint64_t n);

#endif
