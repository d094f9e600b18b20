/* CPU references of lesson 7. */
#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One tile of len values, iterated in place; next is scratch of len values. */
static void tile_iterate(uint32_t *v, uint32_t *next, uint32_t *h, int len, int iters)
{
    for (int t = 0; t < iters; t++) {
        for (int j = 0; j < len; j++) {
            uint32_t left = j > 0 ? v[j - 1] : 0u;
            uint32_t right = j + 1 < len ? v[j + 1] : 0u;
            h[j] = h[j] * 31u + v[j];
            next[j] = left + 2u * v[j] + 3u * right;
        }
        memcpy(v, next, (size_t)len * sizeof *v);
    }
}

void ref_split_arrive_wait(const uint32_t *in, uint32_t *out, uint32_t *hist, int n, int block,
                           int iters)
{
    uint32_t *next = malloc((size_t)block * sizeof *next);
    if (!next)
        abort();
    for (int base = 0; base < n; base += block) {
        int len = n - base < block ? n - base : block;
        memcpy(out + base, in + base, (size_t)len * sizeof *out);
        memset(hist + base, 0, (size_t)len * sizeof *hist);
        tile_iterate(out + base, next, hist + base, len, iters);
    }
    free(next);
}

double ref_dot(const float *a, const float *b, int n, double *sum_abs)
{
    double dot = 0.0, abs_sum = 0.0;
    for (int i = 0; i < n; i++) {
        double p = (double)a[i] * (double)b[i];
        dot += p;
        abs_sum += fabs(p);
    }
    *sum_abs = abs_sum;
    return dot;
}

void ref_tile_pipeline(const uint32_t *in, uint32_t *out, int n, int block)
{
    for (long long base = 0; base < n; base += block) {
        int len = n - base < block ? (int)(n - base) : block;
        const uint32_t *x = in + base;
        for (int j = 0; j < len; j++)
            out[base + j] = 3u * x[j] + x[len - 1 - j];
    }
}
