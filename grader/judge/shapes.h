/* Seeded launch shapes for the sanitizer inputs (SL_INPUTS_SMALL). Which
 * extreme shapes an exercise gets is guaranteed (one-warp blocks, blocks
 * that are not a multiple of 32 where the contract allows them, 1024-thread
 * blocks, n = 1, 2, 3, a partial last block whose last warp is partial too);
 * the exact sizes, and which block goes with which tiny n, come from the
 * seed, so no fixed public shape can be special-cased. */
#ifndef SYNCLAB_SHAPES_H
#define SYNCLAB_SHAPES_H

#include <stdint.h>
#include "rng.h"

/* The block sizes an exercise's contract allows. */
typedef enum {
    SL_BLOCKS_ANY,   /* any blockDim.x in [32, 1024], multiples of 32 or not */
    SL_BLOCKS_WARPS, /* multiples of 32 in [32, 1024] */
    SL_BLOCKS_POW2   /* powers of two in [32, 1024] */
} sl_block_rule;

/* The shape class a small input stands for, for labels and the tests. */
typedef enum {
    SL_SHAPE_ONE_WARP,  /* blockDim.x = 32, several blocks, the last partial */
    SL_SHAPE_ODD_BLOCK, /* blockDim.x not a multiple of 32 (SL_BLOCKS_ANY) */
    SL_SHAPE_MID_BLOCK, /* a block of several warps, the last block partial */
    SL_SHAPE_MAX_BLOCK, /* blockDim.x = 1024, two blocks, the second partial */
    SL_SHAPE_TINY       /* n = 1, 2 or 3 (one each) */
} sl_shape_class;

typedef struct {
    int64_t n;
    int block;
    sl_shape_class cls;
} sl_shape;

enum { SL_SMALL_SHAPES = 6 };

/* The largest n of the exercises whose full inputs go past 2^24 elements
 * (2^24 + 2^20 - 1: odd, so the last block and the last warp are partial):
 * their contracts stop there and one full input is exactly that size. */
#define SL_N_BIG (((int64_t)1 << 24) + ((int64_t)1 << 20) - 1)

/* Fills out[SL_SMALL_SHAPES] with the sanitizer shapes of a kernel launched
 * with ceil(n / block) blocks of `block` threads: one-warp blocks, an odd
 * block (SL_BLOCKS_ANY) or a block of several warps (else), 1024, and
 * n = 1, 2, 3 on a seeded choice of those blocks. Every n > 3 leaves a
 * partial last block whose last warp is partial. Returns SL_SMALL_SHAPES. */
int sl_small_shapes(sl_rng *r, sl_block_rule rule, sl_shape *out);

/* A value in [lo, hi] congruent to res modulo m (m >= 1; hi - lo >= m - 1). */
int64_t sl_rng_congruent(sl_rng *r, int64_t lo, int64_t hi, int64_t m, int64_t res);
/* v[0..n) in a seeded order. */
void sl_shuffle(sl_rng *r, int *v, int n);
/* count blocks of `block` elements, the last one partial with a partial last
 * warp: block * (count - 1) + rest, 0 < rest < block, rest % 32 != 0. */
int64_t sl_rng_partial_blocks(sl_rng *r, int block, int count);

/* x[0..n) uniform in [lo, hi] (hi - lo < 2^32), one multiply per element
 * instead of sl_rng_range's division: the inputs above 2^24 elements are
 * made at every grading. The bias, below 2^-32, does not matter for data. */
void sl_rng_fill_i32(sl_rng *r, int32_t *x, uint64_t n, int64_t lo, int64_t hi);

#endif
