#include "shapes.h"

int64_t sl_rng_congruent(sl_rng *r, int64_t lo, int64_t hi, int64_t m, int64_t res)
{
    if (m <= 1)
        return sl_rng_range(r, lo, hi);
    res = ((res % m) + m) % m;
    int64_t first = lo + ((res - lo % m) % m + m) % m; /* smallest >= lo with that residue */
    int64_t steps = first <= hi ? (hi - first) / m : 0;
    return first + m * sl_rng_range(r, 0, steps);
}

void sl_shuffle(sl_rng *r, int *v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)sl_rng_range(r, 0, i);
        int t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

int64_t sl_rng_partial_blocks(sl_rng *r, int block, int count)
{
    int64_t rest;
    do
        rest = sl_rng_range(r, 1, block - 1);
    while (rest % 32 == 0);
    return (int64_t)block * (count - 1) + rest;
}

/* A block of several warps that the rule allows, below 1024. */
static int middle_block(sl_rng *r, sl_block_rule rule)
{
    switch (rule) {
    case SL_BLOCKS_ANY: {
        int b;
        do
            b = (int)sl_rng_range(r, 33, 300); /* small: racecheck cost grows with it */
        while (b % 32 == 0);
        return b;
    }
    case SL_BLOCKS_WARPS: return 32 * (int)sl_rng_range(r, 2, 16);
    default: return 64 << sl_rng_range(r, 0, 3); /* 64 .. 512 */
    }
}

int sl_small_shapes(sl_rng *r, sl_block_rule rule, sl_shape *out)
{
    int mid = middle_block(r, rule);
    sl_shape_class mid_class = rule == SL_BLOCKS_ANY ? SL_SHAPE_ODD_BLOCK : SL_SHAPE_MID_BLOCK;
    out[0] =
        (sl_shape){sl_rng_partial_blocks(r, 32, (int)sl_rng_range(r, 2, 4)), 32, SL_SHAPE_ONE_WARP};
    out[1] = (sl_shape){sl_rng_partial_blocks(r, mid, (int)sl_rng_range(r, 2, 3)), mid, mid_class};
    out[2] = (sl_shape){sl_rng_partial_blocks(r, 1024, 2), 1024, SL_SHAPE_MAX_BLOCK};
    /* n = 1, 2, 3, each on one of the three blocks above, in a seeded order */
    int blocks[3] = {32, mid, 1024};
    sl_shuffle(r, blocks, 3);
    for (int k = 0; k < 3; k++)
        out[3 + k] = (sl_shape){k + 1, blocks[k], SL_SHAPE_TINY};
    return SL_SMALL_SHAPES;
}

void sl_rng_fill_i32(sl_rng *r, int32_t *x, uint64_t n, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    for (uint64_t i = 0; i < n; i++)
        x[i] = (int32_t)(lo + (int64_t)(((sl_rng_u64(r) >> 32) * span) >> 32));
}
