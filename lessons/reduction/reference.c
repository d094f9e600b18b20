/* CPU reference of lesson 3 (reduction). */
#include <string.h>
#include "reference.h"

int32_t ref_sum_i32(const int32_t *x, uint64_t n)
{
    uint32_t s = 0; /* unsigned: wraps modulo 2^32 without undefined behaviour */
    for (uint64_t i = 0; i < n; i++)
        s += (uint32_t)x[i];
    int32_t r;
    memcpy(&r, &s, sizeof r); /* the same bits, read as an int */
    return r;
}

void ref_block_sums_i32(const int32_t *x, uint64_t n, uint64_t block, int32_t *out)
{
    for (uint64_t b = 0; b * block < n; b++) {
        uint64_t len = n - b * block < block ? n - b * block : block;
        out[b] = ref_sum_i32(x + b * block, len);
    }
}

double ref_sum_f32(const float *x, uint64_t n, double *sum_abs)
{
    double s = 0, a = 0;
    for (uint64_t i = 0; i < n; i++) {
        s += x[i];
        a += x[i] < 0 ? -(double)x[i] : (double)x[i];
    }
    *sum_abs = a;
    return s;
}
