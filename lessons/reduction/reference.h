/* CPU reference of lesson 3 (reduction). */
#ifndef SYNCLAB_REDUCTION_REFERENCE_H
#define SYNCLAB_REDUCTION_REFERENCE_H

#include <stdint.h>

/* Sum of x[0..n-1] modulo 2^32, as the GPU's int additions wrap. */
int32_t ref_sum_i32(const int32_t *x, uint64_t n);

/* out[b] = ref_sum_i32 of block b's elements x[b*block .. min(n, (b+1)*block) - 1],
 * for b < ceil(n / block). */
void ref_block_sums_i32(const int32_t *x, uint64_t n, uint64_t block, int32_t *out);

/* Sum of x[0..n-1] in double (exact enough to judge a float sum); the sum
 * of |x[i]| goes to *sum_abs (for the tolerance). */
double ref_sum_f32(const float *x, uint64_t n, double *sum_abs);

#endif
