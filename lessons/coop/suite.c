/* Lesson 6, cooperative groups: the Check suite (inputs, checks, hints). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "exercises.h"
#include "reference.h"
#include "shapes.h"

#define COOP_DOC "docs/06-coop.md"

/* ---- inputs ----------------------------------------------------------------- */

typedef enum {
    FILL_RANDOM,    /* uniform in [-range, range] */
    FILL_NEGATIVE,  /* all < 0 */
    FILL_POSITIVE,  /* all > 0 */
    FILL_EQUAL,     /* one value everywhere */
    FILL_HALF,      /* agg_filter: each element kept with probability 1/2 */
    FILL_ALL,       /* agg_filter: every element kept */
    FILL_NONE,      /* agg_filter: nothing kept */
    FILL_SPARSE,    /* agg_filter: about 2% kept */
    FILL_LANE0_OFF, /* agg_filter: i % 32 == 0 never kept, the rest 70%:
                        the warp's lane 0 is outside the coalesced group */
    FILL_ONE_LANE,  /* agg_filter: only i % 32 == 17 kept */
    FILL_SINGLE     /* agg_filter: exactly one element kept */
} fill_kind;

static const char *const FILL_NAME[] = {
    "random",    "all negative", "all positive",      "all equal",         "half kept", "all kept",
    "none kept", "2% kept",      "lane 0 never kept", "only lane 17 kept", "one kept",
};

static int32_t kept_value(sl_rng *r) { return (int32_t)sl_rng_range(r, 1, 1000000); }

static int32_t dropped_value(sl_rng *r) { return (int32_t)sl_rng_range(r, -1000000, 0); }

static void fill(sl_rng *r, fill_kind kind, int32_t range, int32_t *v, int64_t n)
{
    int64_t single = sl_rng_range(r, 0, n - 1);
    int32_t same = (int32_t)sl_rng_range(r, -range, range);
    if (kind == FILL_RANDOM) { /* uniform in [-range, range] */
        sl_rng_fill_i32(r, v, (uint64_t)n, -range, range);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        int keep;
        switch (kind) {
        case FILL_NEGATIVE: v[i] = (int32_t)sl_rng_range(r, -range, -1); continue;
        case FILL_POSITIVE: v[i] = (int32_t)sl_rng_range(r, 1, range); continue;
        case FILL_EQUAL: v[i] = same; continue;
        case FILL_HALF: keep = sl_rng_range(r, 0, 1); break;
        case FILL_ALL: keep = 1; break;
        case FILL_NONE: keep = 0; break;
        case FILL_SPARSE: keep = sl_rng_range(r, 0, 49) == 0; break;
        case FILL_LANE0_OFF: keep = i % 32 != 0 && sl_rng_range(r, 0, 9) < 7; break;
        case FILL_ONE_LANE: keep = i % 32 == 17; break;
        case FILL_SINGLE: keep = i == single; break;
        default: keep = 0; break;
        }
        v[i] = keep ? kept_value(r) : dropped_value(r);
    }
}

/* One input: params N, BLOCK, GRID, the tile size (tile_reduce; 0 for the
 * others) and one I32 array filled by kind. */
static void add_input(sl_inputs *out, sl_rng *r, int64_t n, int block, int grid, int tile,
                      fill_kind kind, int32_t range, const char *label)
{
    sl_input *in = sl_inputs_add(out, "%s, %s", label, FILL_NAME[kind]);
    if (!in)
        return;
    in->in.param[SL_P_N] = n;
    in->in.param[SL_P_BLOCK] = block;
    in->in.param[SL_P_GRID] = grid;
    in->in.param[TILE_REDUCE_P_TILE] = tile;
    int32_t *v = (int32_t *)sl_case_add(&in->in, SL_I32, (uint64_t)n);
    if (v)
        fill(r, kind, range, v, n);
}

/* Sizes shared by the exercises: 1, below a block, around a warp, not
 * powers of two, not multiples of the grid, large. */
static const int64_t SIZES[] = {1, 5, 31, 32, 33, 100, 1000, 4097, 65537, 1000003};
#define NSIZES ((int)(sizeof SIZES / sizeof SIZES[0]))

/* ---- helpers for checks ------------------------------------------------------ */

static int64_t param(const sl_case *c, int slot) { return c->param[slot]; }

/* sl_expect_* with the name of the output in front of its mismatches. */
static int expect_i32(const char *what, const int32_t *want, const sl_array *got, uint64_t n,
                      sl_text *why)
{
    sl_text t = {0};
    int ok = sl_expect_i32(want, got, n, &t);
    if (!ok)
        sl_text_printf(why, "%s: %s", what, sl_text_str(&t));
    sl_text_free(&t);
    return ok;
}

static int expect_u32(const char *what, const uint32_t *want, const sl_array *got, uint64_t n,
                      sl_text *why)
{
    sl_text t = {0};
    int ok = sl_expect_u32(want, got, n, &t);
    if (!ok)
        sl_text_printf(why, "%s: %s", what, sl_text_str(&t));
    sl_text_free(&t);
    return ok;
}

static const int32_t *input_of(const sl_case *in) { return (const int32_t *)in->array[0].data; }

/* ---- tile_reduce ----------------------------------------------------------- */

static const int TILES[] = {4, 8, 16, 32};

static void tile_inputs(sl_rng *r, sl_input_set set, sl_inputs *out)
{
    char label[96];
    if (set == SL_INPUTS_SMALL) {
        /* shapes.h (multiples of 32): one-warp blocks, several warps, 1024,
         * n = 1, 2, 3, partial last blocks; every tile size at least once
         * (racecheck sees each tile's temp), in a seeded order. */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(r, SL_BLOCKS_WARPS, s);
        int tiles[4] = {0, 1, 2, 3};
        sl_shuffle(r, tiles, 4);
        for (int k = 0; k < count; k++) {
            int tile = TILES[k < 4 ? tiles[k] : sl_rng_range(r, 0, 3)];
            snprintf(label, sizeof label, "n=%lld block=%d tile=%d", (long long)s[k].n, s[k].block,
                     tile);
            add_input(out, r, s[k].n, s[k].block, 0, tile, FILL_RANDOM, 1000, label);
        }
        return;
    }
    static const int blocks[] = {32, 64, 96, 128, 256, 512, 1024};
    for (int t = 0; t < 4; t++) {
        for (int k = 0; k < NSIZES; k++) {
            int block = blocks[(k + 3 * t) % 7];
            snprintf(label, sizeof label, "n=%lld block=%d tile=%d", (long long)SIZES[k], block,
                     TILES[t]);
            add_input(out, r, SIZES[k], block, 0, TILES[t], FILL_RANDOM, 1000, label);
        }
    }
    snprintf(label, sizeof label, "n=%d block=%d tile=%d", 3000000, 1024, 4);
    add_input(out, r, 3000000, 1024, 0, 4, FILL_RANDOM, 1000, label);
    snprintf(label, sizeof label, "n=%d block=%d tile=%d", 2000001, 256, 32);
    add_input(out, r, 2000001, 256, 0, 32, FILL_RANDOM, 1000, label);
    snprintf(label, sizeof label, "n=%d block=%d tile=%d", 10000, 256, 32);
    add_input(out, r, 10000, 256, 0, 32, FILL_NEGATIVE, 1000, label);
    snprintf(label, sizeof label, "n=%d block=%d tile=%d", 10007, 128, 16);
    add_input(out, r, 10007, 128, 0, 16, FILL_POSITIVE, 1000, label);
}

static int tile_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int64_t n = param(in, SL_P_N), block = param(in, SL_P_BLOCK);
    int tile = (int)param(in, TILE_REDUCE_P_TILE);
    int64_t grid = (n + block - 1) / block;
    uint64_t tiles = (uint64_t)(grid * block / tile);
    if (!sl_expect_shape(out, 0, SL_I32, tiles, why) ||
        !sl_expect_shape(out, 1, SL_I32, tiles, why) ||
        !sl_expect_shape(out, 2, SL_U32, tiles, why))
        return 0;

    int32_t *sums = malloc(tiles * sizeof *sums);
    uint32_t *masks = malloc(tiles * sizeof *masks);
    if (!sums || !masks) {
        free(sums);
        free(masks);
        sl_text_printf(why, "grader out of memory");
        return 0;
    }
    coop_tile_reduce(input_of(in), n, (int64_t)tiles, tile, sums, masks);
    int ok = expect_i32("sums_shared (reduce_shared: shared temp + g.sync())", sums, &out->array[0],
                        tiles, why) &&
             expect_i32("sums_shfl (shfl_down on thread_block_tile<N>)", sums, &out->array[1],
                        tiles, why) &&
             expect_u32("neg_mask (tile.ballot(v < 0), bit = tile rank)", masks, &out->array[2],
                        tiles, why);
    free(sums);
    free(masks);
    return ok;
}

/* ---- half_block ------------------------------------------------------------ */

static const int HALF_BLOCKS[] = {32, 64, 128, 256, 512, 1024};

static void half_inputs(sl_rng *r, sl_input_set set, sl_inputs *out)
{
    char label[96];
    if (set == SL_INPUTS_SMALL) {
        /* shapes.h (powers of two). Block 32: the half is 16 threads, half a
         * warp, so a barrier that only the half reaches is a divergent
         * barrier synccheck names. */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(r, SL_BLOCKS_POW2, s);
        for (int k = 0; k < count; k++) {
            snprintf(label, sizeof label, "n=%lld block=%d", (long long)s[k].n, s[k].block);
            add_input(out, r, s[k].n, s[k].block, 0, 0, FILL_RANDOM, 100000, label);
        }
        return;
    }
    for (int b = 0; b < 6; b++) {
        for (int k = 0; k < NSIZES; k++) {
            /* The million-element size once per two block sizes: data budget. */
            if (SIZES[k] > 100000 && b % 2)
                continue;
            snprintf(label, sizeof label, "n=%lld block=%d", (long long)SIZES[k], HALF_BLOCKS[b]);
            add_input(out, r, SIZES[k], HALF_BLOCKS[b], 0, 0, FILL_RANDOM, 100000, label);
        }
    }
    snprintf(label, sizeof label, "n=%d block=%d", 3000000, 1024);
    add_input(out, r, 3000000, 1024, 0, 0, FILL_RANDOM, 100000, label);
    snprintf(label, sizeof label, "n=%d block=%d", 50001, 128);
    add_input(out, r, 50001, 128, 0, 0, FILL_EQUAL, 100000, label);
}

static int half_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int64_t n = param(in, SL_P_N);
    int block = (int)param(in, SL_P_BLOCK);
    if (!sl_expect_shape(out, 0, SL_I32, (uint64_t)n, why))
        return 0;
    int32_t *want = malloc((size_t)n * sizeof *want);
    if (!want) {
        sl_text_printf(why, "grader out of memory");
        return 0;
    }
    coop_half_block(input_of(in), n, block, want);
    int ok = expect_i32("out (chunk sum - in[i])", want, &out->array[0], (uint64_t)n, why);
    free(want);
    return ok;
}

/* ---- agg_filter -------------------------------------------------------------
 * How the AGGREGATION is checked, not only the output:
 * every output slot must be reserved through filter_reserve() (coop.h), which
 * counts its own calls in a second counter the harness reads back. A
 * warp-aggregated kernel calls it once per coalesced group, i.e. at most once
 * per (grid-stride iteration, block, warp) that has an element to keep; the
 * CPU counts those triples from the input and the launch shape
 * (coop_filter_groups). Per-thread atomics call it once per kept element,
 * which is more as soon as a warp keeps two elements in one iteration: the
 * inputs include dense ones (all kept, half kept) where it is ~16-32 times
 * more. The count is exact and does not depend on timing, unlike measuring
 * contention or speed; and unlike a PTX rule it cannot be fooled by where
 * the atomic sits in the code, and it allows a kernel that aggregates even
 * more (per block). Bypassing filter_reserve() leaves the call count at 0,
 * which is reported too. The output order is free (atomics), so the kept
 * values are compared as a multiset (both sides sorted) plus the count. */

static void filter_inputs(sl_rng *r, sl_input_set set, sl_inputs *out)
{
    char label[96];
    struct shape {
        int64_t n;
        int block, grid;
    } full[] = {
        {1, 32, 1},        {31, 32, 1},       {33, 64, 1},         {100, 100, 1},
        {1000, 128, 2},    {4097, 96, 3},     {10000, 100, 7},     {65537, 256, 16},
        {65536, 1024, 64}, {262147, 32, 512}, {1000003, 512, 132}, {3000000, 1024, 264},
    };
    static const fill_kind small_fill[] = {FILL_LANE0_OFF, FILL_HALF, FILL_ALL};
    static const fill_kind cycle[] = {FILL_LANE0_OFF, FILL_ALL,  FILL_SPARSE,
                                      FILL_ONE_LANE,  FILL_NONE, FILL_SINGLE};
    if (set == SL_INPUTS_SMALL) {
        /* shapes.h (any block): one-warp blocks, a block that is not a
         * multiple of 32 (a warp of the block is partial), 1024, n = 1, 2, 3;
         * any grid from 1 to the blocks n needs, from the seed. */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(r, SL_BLOCKS_ANY, s);
        for (int k = 0; k < count; k++) {
            int64_t need = (s[k].n + s[k].block - 1) / s[k].block;
            int grid = (int)sl_rng_range(r, 1, need);
            fill_kind kind = k < 3 ? small_fill[k] : FILL_HALF;
            snprintf(label, sizeof label, "n=%lld block=%d grid=%d", (long long)s[k].n, s[k].block,
                     grid);
            add_input(out, r, s[k].n, s[k].block, grid, 0, kind, 0, label);
        }
        return;
    }
    int nfull = (int)(sizeof full / sizeof full[0]);
    for (int k = 0; k < nfull; k++) {
        snprintf(label, sizeof label, "n=%lld block=%d grid=%d", (long long)full[k].n,
                 full[k].block, full[k].grid);
        add_input(out, r, full[k].n, full[k].block, full[k].grid, 0, FILL_HALF, 0, label);
        /* The largest shape once only: data budget. */
        if (full[k].n < 3000000)
            add_input(out, r, full[k].n, full[k].block, full[k].grid, 0, cycle[k % 6], 0, label);
    }
    /* above 2^24 elements (sparse: the check sorts what was kept) */
    int64_t big = SL_N_BIG; /* the contract's largest n */
    int big_grid = 2 * (int)sl_rng_range(r, 100, 400) + 1;
    snprintf(label, sizeof label, "n=%lld block=256 grid=%d", (long long)big, big_grid);
    add_input(out, r, big, 256, big_grid, 0, FILL_SPARSE, 0, label);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int filter_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int64_t n = param(in, SL_P_N);
    int block = (int)param(in, SL_P_BLOCK), grid = (int)param(in, SL_P_GRID);
    if (!sl_expect_shape(out, 0, SL_I32, (uint64_t)n, why) ||
        !sl_expect_shape(out, 1, SL_I32, 1, why) || !sl_expect_shape(out, 2, SL_I32, 1, why))
        return 0;
    int32_t count = *(const int32_t *)out->array[1].data;
    int32_t calls = *(const int32_t *)out->array[2].data;

    int32_t *want = malloc((size_t)n * sizeof *want);
    int32_t *got = malloc((size_t)n * sizeof *got);
    if (!want || !got) {
        free(want);
        free(got);
        sl_text_printf(why, "grader out of memory");
        return 0;
    }
    int64_t nkeep = coop_filter(input_of(in), n, want);
    int ok = 0;
    if (count != nkeep) {
        sl_text_printf(why,
                       "count: expected %lld kept elements, got %d (the sum of the sizes "
                       "passed to filter_reserve)",
                       (long long)nkeep, count);
        goto done;
    }
    memcpy(got, out->array[0].data, (size_t)count * sizeof *got);
    qsort(want, (size_t)nkeep, sizeof *want, cmp_i32);
    qsort(got, (size_t)count, sizeof *got, cmp_i32);
    for (int64_t k = 0; k < nkeep; k++) {
        if (want[k] != got[k]) {
            sl_text_printf(why,
                           "out[0..%d) as a sorted multiset: position %lld: expected %d, "
                           "got %d (some kept value is missing, duplicated or overwritten)",
                           count, (long long)k, want[k], got[k]);
            goto done;
        }
    }
    int64_t groups = coop_filter_groups(input_of(in), n, block, grid);
    if (calls > groups) {
        sl_text_printf(why,
                       "not aggregated: %d filter_reserve() calls for %lld warp iteration(s) "
                       "that had elements to keep (at most one call per coalesced group)",
                       calls, (long long)groups);
        goto done;
    }
    if (nkeep > 0 && calls < 1) {
        sl_text_printf(why,
                       "filter_reserve() was never called (%d calls) although %lld elements "
                       "were kept: reserve output slots only through filter_reserve()",
                       calls, (long long)nkeep);
        goto done;
    }
    ok = 1;
done:
    free(want);
    free(got);
    return ok;
}

/* ---- grid_two_phase -------------------------------------------------------- */

/* A case the harness launches itself, cooperatively, with `grid` blocks
 * (GRID > 0; capped at the blocks that are co-resident and that n needs):
 * the contract says any grid works, not only the one the launcher picks.
 * The maximum sits in the second block's first pass (elements block ..
 * 2 * block - 1), which block 0 never visits with 2 blocks or more: a
 * kernel that only works with one block cannot pass by luck. */
static void add_grid_case(sl_rng *r, sl_inputs *out, int64_t n, int block, int grid)
{
    char label[96];
    snprintf(label, sizeof label, "n=%lld block=%d grid=%d (launched by the grader)", (long long)n,
             block, grid);
    add_input(out, r, n, block, grid, 0, FILL_RANDOM, 1000000, label);
    int32_t *v = out->v[out->count - 1].in.array[0].data;
    if (v && n >= 2 * (int64_t)block)
        v[block + sl_rng_range(r, 0, block - 1)] = 1000001;
}

static void grid_inputs(sl_rng *r, sl_input_set set, sl_inputs *out)
{
    char label[96];
    static const int blocks[] = {32, 64, 128, 256, 512, 1024};
    if (set == SL_INPUTS_SMALL) {
        /* shapes.h (powers of two) through the student's launcher, and one
         * grid of 2 blocks launched by the grader (any grid must work). */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(r, SL_BLOCKS_POW2, s);
        for (int k = 0; k < count; k++) {
            snprintf(label, sizeof label, "n=%lld block=%d", (long long)s[k].n, s[k].block);
            add_input(out, r, s[k].n, s[k].block, 0, 0, FILL_RANDOM, 1000000, label);
        }
        add_grid_case(r, out, sl_rng_range(r, 300, 3000), 64 << sl_rng_range(r, 0, 2), 2);
        return;
    }
    for (int k = 0; k < NSIZES; k++) {
        for (int b = k % 2; b < 6; b += 2) {
            snprintf(label, sizeof label, "n=%lld block=%d", (long long)SIZES[k], blocks[b]);
            add_input(out, r, SIZES[k], blocks[b], 0, 0, FILL_RANDOM, 1000000, label);
        }
    }
    snprintf(label, sizeof label, "n=%d block=%d", 3000000, 256);
    add_input(out, r, 3000000, 256, 0, 0, FILL_RANDOM, 1000000, label);
    snprintf(label, sizeof label, "n=%d block=%d", 100003, 128);
    add_input(out, r, 100003, 128, 0, 0, FILL_NEGATIVE, 1000000, label);
    snprintf(label, sizeof label, "n=%d block=%d", 70001, 512);
    add_input(out, r, 70001, 512, 0, 0, FILL_EQUAL, 1000000, label);
    int64_t big = SL_N_BIG; /* the contract's largest n */
    snprintf(label, sizeof label, "n=%lld block=%d", (long long)big, 1024);
    add_input(out, r, big, 1024, 0, 0, FILL_RANDOM, 1000000, label);
    /* grids the launcher did not choose: 1, 2 and an odd count */
    add_grid_case(r, out, sl_rng_range(r, 4096, 100000), blocks[sl_rng_range(r, 0, 5)], 1);
    add_grid_case(r, out, sl_rng_range(r, 4096, 100000), blocks[sl_rng_range(r, 0, 5)], 2);
    add_grid_case(r, out, sl_rng_range(r, 200000, 1000000), blocks[sl_rng_range(r, 0, 3)],
                  2 * (int)sl_rng_range(r, 1, 40) + 1);
}

static int grid_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int64_t n = param(in, SL_P_N);
    if (!sl_expect_shape(out, 0, SL_I32, (uint64_t)n, why))
        return 0;
    int32_t *want = malloc((size_t)n * sizeof *want);
    if (!want) {
        sl_text_printf(why, "grader out of memory");
        return 0;
    }
    coop_distance_to_max(input_of(in), n, want);
    int ok = expect_i32("out (max - in[i])", want, &out->array[0], (uint64_t)n, why);
    if (!ok && out->narrays > 1 && out->array[1].type == SL_I32 && out->array[1].count == 1)
        sl_text_printf(why,
                       "\n(the grader launched grid_two_phase itself with %d blocks: any "
                       "grid must work, not only the one your launcher picks)",
                       *(const int32_t *)out->array[1].data);
    free(want);
    return ok;
}

/* ---- the lesson ---------------------------------------------------------------- */

/* ---- the playground (make run) ------------------------------------------ */

/* Tiles of 8: a tiny input still shows several tiles per warp. */
static void tile_input(int64_t n, int block, sl_rng *r, sl_inputs *out)
{
    char label[96];
    snprintf(label, sizeof label, "n=%lld block=%d tile=8", (long long)n, block);
    add_input(out, r, n, block, 0, 8, FILL_RANDOM, 1000, label);
}

static int tile_expected(const sl_case *in, sl_case *out)
{
    int64_t n = param(in, SL_P_N), block = param(in, SL_P_BLOCK);
    int tile = (int)param(in, TILE_REDUCE_P_TILE);
    uint64_t tiles = (uint64_t)((n + block - 1) / block * block / tile);
    sl_expected_start(in, out);
    int32_t *shared = sl_case_add(out, SL_I32, tiles);
    int32_t *shfl = sl_case_add(out, SL_I32, tiles);
    uint32_t *masks = sl_case_add(out, SL_U32, tiles);
    if (!shared || !shfl || !masks)
        return -1;
    coop_tile_reduce(input_of(in), n, (int64_t)tiles, tile, shared, masks);
    memcpy(shfl, shared, tiles * sizeof *shfl);
    return 0;
}

static int half_expected(const sl_case *in, sl_case *out)
{
    int64_t n = param(in, SL_P_N);
    sl_expected_start(in, out);
    int32_t *e = sl_case_add(out, SL_I32, (uint64_t)n);
    if (!e)
        return -1;
    coop_half_block(input_of(in), n, (int)param(in, SL_P_BLOCK), e);
    return 0;
}

/* One valid output (the order is free): the kept values in input order, the
 * count, and the most filter_reserve() calls allowed. */
static int filter_expected(const sl_case *in, sl_case *out)
{
    int64_t n = param(in, SL_P_N);
    sl_expected_start(in, out);
    int32_t *kept = malloc((size_t)n * sizeof *kept);
    if (!kept)
        return -1;
    int64_t nkeep = coop_filter(input_of(in), n, kept);
    int32_t *e = sl_case_add(out, SL_I32, (uint64_t)n);
    int32_t *count = sl_case_add(out, SL_I32, 1);
    int32_t *calls = sl_case_add(out, SL_I32, 1);
    if (!e || !count || !calls) {
        free(kept);
        return -1;
    }
    memcpy(e, kept, (size_t)nkeep * sizeof *e);
    for (int64_t i = nkeep; i < n; i++)
        e[i] = -1; /* the harness's 0xFF fill, never written */
    free(kept);
    count[0] = (int32_t)nkeep;
    calls[0] = (int32_t)coop_filter_groups(input_of(in), n, (int)param(in, SL_P_BLOCK),
                                           (int)param(in, SL_P_GRID));
    return 0;
}

static int grid_expected(const sl_case *in, sl_case *out)
{
    int64_t n = param(in, SL_P_N);
    sl_expected_start(in, out);
    int32_t *e = sl_case_add(out, SL_I32, (uint64_t)n);
    if (!e)
        return -1;
    coop_distance_to_max(input_of(in), n, e);
    return 0;
}

static const sl_exercise exercises[] = {
    {
        .name = SL_NAME(tile_reduce),
        .shape = {SL_BLOCKS_WARPS, 0, 3000000,
                  "blocks of a multiple of 32 threads, 32 to 1024; n from 1 to 3000000 (coop.h)"},
        .make_input = tile_input,
        .expected = tile_expected,
        .title = "Tile reduce: shared temp + g.sync(), then shuffles",
        .doc = COOP_DOC "#tile-reduce",
        .points = 10,
        .make_inputs = tile_inputs,
        .check = tile_check,
        .ladder =
            {
                [SL_V_RACE] =
                    {"In reduce_shared, which temp slots are read by one thread of the tile after "
                     "another wrote them? Read docs/06-coop.md#tile-reduce.",
                     "The threads of a tile are not in lockstep: g.sync() between the writes to "
                     "temp "
                     "and the reads, and before temp is written again.",
                     NULL},
                [SL_V_SYNC] =
                    {"Do threads past n return before g.sync() or a shuffle? Read "
                     "docs/06-coop.md#the-vocabulary.",
                     "A group collective (g.sync(), shfl) must be reached by every thread of the "
                     "group.",
                     NULL},
            },
        .hint =
            {
                [SL_V_WRONG] = "Tile t = global thread / tile_size; threads past n hold 0 but "
                               "still take part; reduce_shared leaves the sum in rank 0 only.",
                [SL_V_RACE] = "In reduce_shared, call g.sync() after writing temp and again after "
                              "reading it: a tile's threads do not run in lockstep.",
                [SL_V_SYNC] = "Every thread of the tile must reach g.sync() and the shuffles: no "
                              "early return for threads past n.",
                [SL_V_MEMORY] = "Each tile uses its own slice of temp: temp + (block rank - tile "
                                "rank); temp has blockDim.x ints.",
                [SL_V_TIMEOUT] = "A tile collective that part of the tile never reaches: keep "
                                 "g.sync()/shfl_down out of branches.",
            },
    },
    {
        .name = SL_NAME(half_block),
        .shape = {SL_BLOCKS_POW2, 0, 3000000,
                  "blocks of 32, 64, 128, 256, 512 or 1024 threads; n from 1 to 3000000 (coop.h)"},
        .expected = half_expected,
        .title = "Half-block sum through a group parameter",
        .doc = COOP_DOC "#half-block",
        .points = 10,
        .repeats = 2,
        .make_inputs = half_inputs,
        .check = half_check,
        .ladder =
            {
                [SL_V_SYNC] = {"Which threads call the function that holds your barrier? Read "
                               "docs/06-coop.md#half-block.",
                               "A barrier waits for the whole group it names: inside code only "
                               "half the block "
                               "runs, synchronize the tile passed in, not the block.",
                               NULL},
                [SL_V_WRONG] = {"When does the second half read the first half's tile sums, and "
                                "what made them "
                                "ready? Read docs/06-coop.md#half-block.",
                                "A result crosses from one half to the other only through a "
                                "block-wide barrier "
                                "that every thread reaches, outside the branch.",
                                NULL},
            },
        .hint =
            {
                [SL_V_WRONG] = "The second half must wait at a block.sync() OUTSIDE the branch "
                               "until every tile of the first half has stored its sum.",
                [SL_V_RACE] = "Store the tile sums before block.sync() and read them after; the "
                              "tile function needs g.sync() between temp writes and reads.",
                [SL_V_SYNC] = "No __syncthreads()/block.sync() inside a function only half the "
                              "block calls: pass the tile and call g.sync().",
                [SL_V_TIMEOUT] =
                    "A block-wide barrier inside the half's code waits for threads that never come "
                    "(measured: it hangs): synchronize the group passed in.",
                [SL_V_MEMORY] = "Threads past n add 0 and write nothing; the half's temp has "
                                "blockDim.x / 2 ints.",
            },
    },
    {
        .name = SL_NAME(agg_filter),
        .shape = {SL_BLOCKS_ANY, 0, SL_N_BIG,
                  "blocks of 32 to 1024 threads, not always a multiple of 32; n from 1 to 2^24 + "
                  "2^20 - 1 (coop.h)"},
        .expected = filter_expected,
        .title = "Warp-aggregated filter with coalesced_threads()",
        .doc = COOP_DOC "#aggregated-filter",
        .points = 15,
        .repeats = 2,
        .make_inputs = filter_inputs,
        .check = filter_check,
        .ladder =
            {
                [SL_V_WRONG] =
                    {"Who reserves the slots for a coalesced group, and how does every thread "
                     "learn "
                     "the base? Read docs/06-coop.md#aggregated-filter.",
                     "One reservation per coalesced group by its rank 0, shared with g.shfl(base, "
                     "0); each thread writes at base + its rank.",
                     NULL},
            },
        .hint =
            {
                [SL_V_WRONG] =
                    "One filter_reserve(ctr, g.size()) by rank 0 of coalesced_threads() (lane 0 "
                    "may be absent), base = g.shfl(base, 0), slot = base + g.thread_rank().",
                [SL_V_MEMORY] = "Write out[base + rank] only with the base the leader reserved, "
                                "never past the reserved slots.",
                [SL_V_SYNC] = "All threads of the coalesced group must reach its shfl(): do not "
                              "branch between coalesced_threads() and shfl().",
                [SL_V_TIMEOUT] = "Nothing here should wait: no spin on the counter, one "
                                 "reservation per coalesced group.",
            },
    },
    {
        .name = SL_NAME(grid_two_phase),
        .shape = {SL_BLOCKS_POW2, 0, SL_N_BIG,
                  "blocks of 32, 64, 128, 256, 512 or 1024 threads; n from 1 to 2^24 + 2^20 - 1 "
                  "(coop.h)"},
        .expected = grid_expected,
        .title = "Two phases separated by this_grid().sync()",
        .doc = COOP_DOC "#grid-two-phase",
        .points = 15,
        .repeats = 2,
        .make_inputs = grid_inputs,
        .check = grid_check,
        .ladder =
            {
                [SL_V_LAUNCH] =
                    {"How must a kernel that calls grid.sync() be launched, and how many blocks "
                     "can "
                     "it have? Read docs/06-coop.md#grid-two-phase.",
                     "grid.sync() needs a cooperative launch with no more blocks than can be "
                     "resident at once.",
                     NULL},
                [SL_V_TIMEOUT] =
                    {"Does every thread of every block reach grid.sync(), also those without "
                     "elements? Read docs/06-coop.md#grid-two-phase.",
                     "grid.sync() waits for every thread of the grid: no early return before it.",
                     NULL},
            },
        .hint =
            {
                [SL_V_LAUNCH] = "Launch through cudaLaunchCooperativeKernel (with <<<>>> "
                                "grid.sync() traps) with at most occupancy x SMs blocks (more: "
                                "cudaErrorCooperativeLaunchTooLarge).",
                [SL_V_WRONG] =
                    "Read partials only after grid.sync(), exactly gridDim.x of them; walk in[] "
                    "with a grid-stride loop: the grid is far smaller than n / block.",
                [SL_V_TIMEOUT] = "Every thread of every block must reach grid.sync(): no early "
                                 "return for blocks or threads without elements.",
                [SL_V_RACE] = "Reusing the shared scratch for the second block reduction needs a "
                              "block.sync() after the first one's reads.",
                [SL_V_MEMORY] = "partials has partials_cap entries, one per block: index it with "
                                "blockIdx.x and read only gridDim.x of them.",
            },
    },
};

SL_SUITE_COVERS(exercises);
static const sl_declared declared[] = SL_DECLARED(SL_LESSON_EXERCISES);

const sl_lesson sl_lesson_coop = {
    "coop",  "Cooperative groups", COOP_DOC, exercises, sizeof exercises / sizeof exercises[0],
    declared};
