/* CPU references of lesson 7 (C11, no CUDA). */
#ifndef SYNCLAB_AWBARRIER_REFERENCE_H
#define SYNCLAB_AWBARRIER_REFERENCE_H

#include <stdint.h>

/* split_arrive_wait: tiles of `block` elements, `iters` iterations of
 * h = h * 31 + v; v = left + 2 v + 3 right (0 outside the tile), mod 2^32. */
void ref_split_arrive_wait(const uint32_t *in, uint32_t *out, uint32_t *hist, int n, int block,
                           int iters);

/* Dot product of two float vectors in double; *sum_abs = sum |a[i] b[i]|. */
double ref_dot(const float *a, const float *b, int n, double *sum_abs);

/* tile_pipeline: tiles of `block` elements (the last may be shorter,
 * len = its length); out[base + j] = 3 x[j] + x[len - 1 - j], mod 2^32. */
void ref_tile_pipeline(const uint32_t *in, uint32_t *out, int n, int block);

#endif
