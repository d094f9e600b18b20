/* Lesson 1, barriers: the Check suite. Inputs, comparisons with the CPU
 * reference, PTX rules and hints. No CUDA here. */
#include <stdlib.h>
#include <string.h>
#include "exercise.h"
#include "exercises.h"
#include "reference.h"
#include "shapes.h"

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Sizes around warp and block boundaries, and odd ones: the last block is
 * partial for most (size, block) pairs. */
static const int64_t small_sizes[] = {1,    2,    5,    31,   32,   33,    63,    64,    65,
                                      96,   100,  127,  128,  129,  255,   256,   257,   1000,
                                      1023, 1024, 1025, 2047, 4097, 12345, 65537, 100003};
/* Block sizes for tile_reverse, halo_diff and block_vote (100: not a multiple
 * of the warp). warp_step needs multiples of 32. */
static const int any_blocks[] = {32, 64, 96, 100, 128, 256, 512, 1024};
static const int warp_blocks[] = {32, 64, 96, 128, 256, 512, 1024};

typedef struct {
    int64_t n;
    int block;
} shape;

/* ---- case construction ------------------------------------------------- */

typedef enum { DATA_ANY, DATA_HALO, DATA_SMALL } data_kind;

static int32_t draw(sl_rng *rng, data_kind kind)
{
    switch (kind) {
    case DATA_HALO: return (int32_t)sl_rng_range(rng, -30000, 30000); /* x*x fits an int */
    case DATA_SMALL: return (int32_t)sl_rng_range(rng, -1000, 1000);  /* 32 of them fit */
    default: return (int32_t)(uint32_t)sl_rng_u64(rng);
    }
}

/* One input: params N, BLOCK, GRID = 0 (the harness uses ceil(N/BLOCK)),
 * and array 0 = in. Returns the data for callers that shape it further. */
static int32_t *add_case(sl_inputs *out, sl_rng *rng, shape s, data_kind kind)
{
    sl_input *c = sl_inputs_add(out, "n=%lld block=%d", (long long)s.n, s.block);
    if (!c)
        return NULL;
    c->in.param[SL_P_N] = s.n;
    c->in.param[SL_P_BLOCK] = s.block;
    c->in.param[SL_P_GRID] = 0;
    int32_t *data = sl_case_add(&c->in, SL_I32, (uint64_t)s.n);
    if (data)
        for (int64_t i = 0; i < s.n; i++)
            data[i] = draw(rng, kind);
    return data;
}

/* Every small size with every block size, then the large shapes. */
static void add_grid_of_cases(sl_inputs *out, sl_rng *rng, const int *blocks, int nblocks,
                              const shape *large, int nlarge, data_kind kind)
{
    for (int b = 0; b < nblocks; b++)
        for (int k = 0; k < COUNT_OF(small_sizes); k++)
            add_case(out, rng, (shape){small_sizes[k], blocks[b]}, kind);
    for (int k = 0; k < nlarge; k++)
        add_case(out, rng, large[k], kind);
}

/* The sanitizer inputs (shapes.h): one-warp blocks, an odd block (or one of
 * several warps where blocks are multiples of 32), 1024, n = 1, 2, 3; every
 * other size ends in a partial block whose last warp is partial too, so a
 * barrier skipped by the threads past n splits a warp, which synccheck
 * reports. Sizes and pairings come from the seed. */
static void add_small_cases(sl_inputs *out, sl_rng *rng, sl_block_rule rule, data_kind kind)
{
    sl_shape s[SL_SMALL_SHAPES];
    int count = sl_small_shapes(rng, rule, s);
    for (int k = 0; k < count; k++)
        add_case(out, rng, (shape){s[k].n, s[k].block}, kind);
}

static int64_t grid_of(const sl_case *in)
{
    int64_t n = in->param[SL_P_N], block = in->param[SL_P_BLOCK];
    return (n + block - 1) / block;
}

/* Compares out array 0 with n expected ints. */
static int expect_ints(const int32_t *expected, const sl_case *out, int64_t n, sl_text *why)
{
    if (!sl_expect_shape(out, 0, SL_I32, (uint64_t)n, why))
        return 0;
    return sl_expect_i32(expected, &out->array[0], (uint64_t)n, why);
}

/* ---- tile_reverse ------------------------------------------------------- */

static void tile_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    static const shape large[] = {{(1 << 22) + 3, 1024}, {3000017, 256}, {(1 << 21) - 1, 100}};
    if (set == SL_INPUTS_SMALL)
        add_small_cases(out, rng, SL_BLOCKS_ANY, DATA_ANY);
    else
        add_grid_of_cases(out, rng, any_blocks, COUNT_OF(any_blocks), large, COUNT_OF(large),
                          DATA_ANY);
}

static int tile_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int64_t n = in->param[SL_P_N];
    int32_t *expected = malloc((size_t)n * sizeof *expected);
    if (!expected) {
        sl_text_printf(why, "out of memory in the check\n");
        return 0;
    }
    ref_tile_reverse(in->array[0].data, expected, n, in->param[SL_P_BLOCK]);
    int ok = expect_ints(expected, out, n, why);
    free(expected);
    return ok;
}

/* ---- halo_diff ---------------------------------------------------------- */

static void halo_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    /* Small blocks and millions of elements: far more blocks than the GPU
     * holds at once, so a block that reads its neighbour's results often
     * finds them not written yet. */
    static const shape large[] = {
        {(1 << 22) + 3, 32}, {3000017, 64}, {(1 << 21) + 1, 96}, {(1 << 20) + 7, 1024}};
    if (set == SL_INPUTS_SMALL)
        add_small_cases(out, rng, SL_BLOCKS_ANY, DATA_HALO);
    else
        add_grid_of_cases(out, rng, any_blocks, COUNT_OF(any_blocks), large, COUNT_OF(large),
                          DATA_HALO);
}

static int halo_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int64_t n = in->param[SL_P_N];
    int32_t *expected = malloc((size_t)n * sizeof *expected);
    if (!expected) {
        sl_text_printf(why, "out of memory in the check\n");
        return 0;
    }
    ref_halo_diff(in->array[0].data, expected, n);
    int ok = expect_ints(expected, out, n, why);
    free(expected);
    return ok;
}

/* ---- block_vote --------------------------------------------------------- */

enum { VOTE_MAX = 999 }; /* data in [0, VOTE_MAX] */

/* Runs of equal tendency (above, below, mixed) so that whole blocks pass or
 * fail: "all" and "any" are then 1 and 0 in places, not always 0 and 1. */
static void shape_vote_data(sl_rng *rng, int32_t *data, int64_t n, int32_t threshold)
{
    int64_t i = 0;
    while (i < n) {
        int64_t run = sl_rng_range(rng, 1, 2048);
        int mode = (int)sl_rng_range(rng, 0, 2);
        int64_t lo = 0, hi = VOTE_MAX;
        if (mode == 1 && threshold < VOTE_MAX)
            lo = threshold + 1; /* all above */
        else if (mode == 2 && threshold >= 0)
            hi = threshold; /* all below or equal */
        for (int64_t k = 0; k < run && i < n; k++, i++)
            data[i] = (int32_t)sl_rng_range(rng, lo, hi);
    }
}

static void add_vote_case(sl_inputs *out, sl_rng *rng, shape s, int32_t threshold)
{
    sl_input *c =
        sl_inputs_add(out, "n=%lld block=%d threshold=%d", (long long)s.n, s.block, (int)threshold);
    if (!c)
        return;
    c->in.param[SL_P_N] = s.n;
    c->in.param[SL_P_BLOCK] = s.block;
    c->in.param[SL_P_GRID] = 0;
    c->in.param[BLOCK_VOTE_P_THRESHOLD] = threshold;
    int32_t *data = sl_case_add(&c->in, SL_I32, (uint64_t)s.n);
    if (data)
        shape_vote_data(rng, data, s.n, threshold);
}

/* -1: every element passes (a partial last block must still say all = 1);
 * VOTE_MAX: none does; otherwise a threshold inside the data's range. */
static int32_t pick_threshold(sl_rng *rng, int which)
{
    switch (which % 3) {
    case 0: return -1;
    case 1: return VOTE_MAX;
    default: return (int32_t)sl_rng_range(rng, 0, VOTE_MAX - 1);
    }
}

static void vote_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    static const shape large[] = {{(1 << 22) + 3, 32}, {3000017, 1024}, {1000003, 100}};
    int which = 0;
    if (set == SL_INPUTS_SMALL) {
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(rng, SL_BLOCKS_ANY, s);
        for (int k = 0; k < count; k++) /* every threshold kind, the tiny sizes too */
            add_vote_case(out, rng, (shape){s[k].n, s[k].block}, pick_threshold(rng, 2 + k));
        return;
    }
    for (int b = 0; b < COUNT_OF(any_blocks); b++)
        for (int k = 0; k < COUNT_OF(small_sizes); k++)
            add_vote_case(out, rng, (shape){small_sizes[k], any_blocks[b]},
                          pick_threshold(rng, which++));
    for (int k = 0; k < COUNT_OF(large); k++)
        add_vote_case(out, rng, large[k], pick_threshold(rng, 2));
}

static int vote_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    static const char *const what[3] = {"count", "all", "any"};
    int64_t grid = grid_of(in), nout = 3 * grid;
    int32_t *expected = malloc((size_t)nout * sizeof *expected);
    if (!expected) {
        sl_text_printf(why, "out of memory in the check\n");
        return 0;
    }
    ref_block_vote(in->array[0].data, expected, in->param[SL_P_N], in->param[SL_P_BLOCK],
                   (int32_t)in->param[BLOCK_VOTE_P_THRESHOLD]);
    int ok = sl_expect_shape(out, 0, SL_I32, (uint64_t)nout, why);
    if (ok) {
        const int32_t *got = out->array[0].data;
        int shown = 0, wrong = 0;
        for (int64_t k = 0; k < nout; k++) {
            if (got[k] == expected[k])
                continue;
            if (shown++ < 3)
                sl_text_printf(why, "index %lld (block %lld%s, %s): expected %d, got %d\n",
                               (long long)k, (long long)(k / 3),
                               k / 3 == grid - 1 ? ", the last" : "", what[k % 3], (int)expected[k],
                               (int)got[k]);
            wrong++;
        }
        if (wrong > 3)
            sl_text_printf(why, "... %d wrong values of %lld\n", wrong, (long long)nout);
        ok = wrong == 0;
    }
    free(expected);
    return ok;
}

static const sl_rule vote_rules[] = {
    {SL_RULE_REQUIRE, "block_vote", "bar.red.|barrier.red.|barrier.cta.red.",
     "block_vote is about the voting barriers: count, all and any must come from "
     "__syncthreads_count, __syncthreads_and and __syncthreads_or (no bar.red in the PTX).",
     "the voting barriers __syncthreads_count, __syncthreads_and and __syncthreads_or"},
    {SL_RULE_FORBID, "block_vote", SL_ATOMIC_OPCODES "|mbarrier.",
     "block_vote must not use atomics (an mbarrier's arrival count is one too): the voting "
     "barriers count for you, in one step.",
     "atomics (an mbarrier, whose arrivals are counted atomically, included)"},
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

/* ---- warp_step ---------------------------------------------------------- */

static void warp_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    static const shape large[] = {{(1 << 22) + 3, 1024}, {3000017, 32}, {2000003, 96}};
    if (set == SL_INPUTS_SMALL)
        add_small_cases(out, rng, SL_BLOCKS_WARPS, DATA_SMALL);
    else
        add_grid_of_cases(out, rng, warp_blocks, COUNT_OF(warp_blocks), large, COUNT_OF(large),
                          DATA_SMALL);
}

static int warp_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int64_t n = in->param[SL_P_N];
    int32_t *expected = malloc((size_t)n * sizeof *expected);
    if (!expected) {
        sl_text_printf(why, "out of memory in the check\n");
        return 0;
    }
    ref_warp_step(in->array[0].data, expected, n);
    int ok = expect_ints(expected, out, n, why);
    free(expected);
    return ok;
}

/* What warp_step is for: the lanes exchange their values through shared
 * memory, with plain stores and loads that __syncwarp() orders. So every
 * other way for data to cross lanes is refused by class, not by the names
 * of a few: shuffles, warp reductions and matches; the tensor-core
 * instructions, whose fragments are spread over the lanes of a warp (mma,
 * wmma, wgmma, tcgen05, ldmatrix, stmatrix, movmatrix); bulk and tensor
 * copies and multimem; and atomics, which racecheck does not follow (an
 * exchange by atomicExch needs the same __syncwarp() and would not be
 * checked). Votes stay allowed: __syncwarp(__ballot_sync(...)) computes a
 * mask (heldout/README.md: warp_ballot_exchange). */
#define WARP_CROSS_LANE_OPCODES                                                                    \
    "shfl.|redux.|match.|mma.|wmma.|wgmma.|tcgen05.|ldmatrix.|stmatrix.|movmatrix.|"               \
    "cp.async.bulk|cp.reduce.async|multimem.|" SL_ATOMIC_OPCODES

static const sl_rule warp_rules[] = {
    /* and what it must do: exchange through shared memory. Slots in global
     * memory, where racecheck sees nothing, or no exchange at all (each lane
     * reading its warp's 32 inputs) compute the same sums and skip the
     * exercise. A missing __syncwarp() is the race the exercise teaches, left
     * to the race checks (SYNC or RACE, with its lines), not to this rule. */
    {SL_RULE_REQUIRE, "warp_step", "~shared",
     "warp_step exchanges values through shared memory: each lane stores its value to its "
     "slot in shared memory, __syncwarp(), then reads its partner's slot (no shared-memory "
     "access in the PTX). Slots in global memory, or each lane reading its warp's inputs "
     "itself, compute the same sums without the exchange the exercise is about.",
     "an exchange through shared memory"},
    {SL_RULE_FORBID, "warp_step", WARP_CROSS_LANE_OPCODES,
     "warp_step exchanges values through shared memory: each lane stores its value, "
     "__syncwarp(), then reads its partner's slot. Any other way for data to cross lanes "
     "(shuffles, warp reductions, tensor-core mma/wmma fragments, ldmatrix, bulk copies, "
     "atomics) skips the exchange the exercise is about; shuffles and warp reductions "
     "are taught later.",
     "a way for data to cross lanes other than shared memory (a shuffle, a warp reduction, "
     "a tensor-core fragment, ldmatrix, a bulk copy or an atomic)"},
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

/* ---- the playground (make run) ----------------------------------------- */

static void tile_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    add_case(out, rng, (shape){n, block}, DATA_SMALL); /* small numbers read well */
}

static void halo_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    add_case(out, rng, (shape){n, block}, DATA_SMALL);
}

static void vote_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    add_vote_case(out, rng, (shape){n, block}, pick_threshold(rng, 2));
}

static void warp_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    add_case(out, rng, (shape){n, block}, DATA_SMALL);
}

/* The reference's output of one input as a case with one int array. */
static int32_t *expected_array(const sl_case *in, sl_case *out, int64_t count)
{
    sl_expected_start(in, out);
    return sl_case_add(out, SL_I32, (uint64_t)count);
}

static int tile_expected(const sl_case *in, sl_case *out)
{
    int64_t n = in->param[SL_P_N];
    int32_t *e = expected_array(in, out, n);
    if (e)
        ref_tile_reverse(in->array[0].data, e, n, in->param[SL_P_BLOCK]);
    return e ? 0 : -1;
}

static int halo_expected(const sl_case *in, sl_case *out)
{
    int64_t n = in->param[SL_P_N];
    int32_t *e = expected_array(in, out, n);
    if (e)
        ref_halo_diff(in->array[0].data, e, n);
    return e ? 0 : -1;
}

static int vote_expected(const sl_case *in, sl_case *out)
{
    int32_t *e = expected_array(in, out, 3 * grid_of(in));
    if (e)
        ref_block_vote(in->array[0].data, e, in->param[SL_P_N], in->param[SL_P_BLOCK],
                       (int32_t)in->param[BLOCK_VOTE_P_THRESHOLD]);
    return e ? 0 : -1;
}

static int warp_expected(const sl_case *in, sl_case *out)
{
    int64_t n = in->param[SL_P_N];
    int32_t *e = expected_array(in, out, n);
    if (e)
        ref_warp_step(in->array[0].data, e, n);
    return e ? 0 : -1;
}

/* ---- the lesson --------------------------------------------------------- */

static const sl_exercise exercises[] = {
    {.name = SL_NAME(tile_reverse),
     .shape = {SL_BLOCKS_ANY, 0, (1 << 22) + 3,
               "blocks of 32 to 1024 threads, not always a multiple of 32; n from 1 to 2^22 + 3 "
               "(barriers.h)"},
     .title = "Reverse each block's tile through shared memory",
     .doc = "docs/01-barriers.md#tile-reverse",
     .points = 10,
     .make_inputs = tile_inputs,
     .check = tile_check,
     .make_input = tile_input,
     .expected = tile_expected,
     .ladder =
         {
             [SL_V_WRONG] = {"Look at the rows that differ: are they all in the last block? What "
                             "does docs/01-barriers.md#tile-reverse say the last, shorter tile "
                             "reverses to?",
                             "Each block reverses only its valid elements: the last tile holds "
                             "n - base of them, not blockDim.x.",
                             NULL},
             [SL_V_RACE] = {"Thread t reads the slot thread blockDim.x - 1 - t wrote: what makes "
                            "sure that write has happened? (docs/01-barriers.md#what-a-barrier-is)",
                            "A shared-memory slot written by one thread and read by another needs "
                            "a barrier between the write and the read.",
                            NULL},
             [SL_V_SYNC] = {"Which threads skip the branch around your __syncthreads()? Read "
                            "docs/01-barriers.md#what-a-barrier-is on barriers in branches.",
                            "__syncthreads() must be reached by every thread of the block, the "
                            "threads past n too.",
                            NULL},
         },
     .hint =
         {
             [SL_V_WRONG] = "In the last block use valid = min(blockDim.x, n - base) and read "
                            "tile[valid - 1 - t], not tile[blockDim.x - 1 - t].",
             [SL_V_RACE] =
                 "A thread reads a slot another thread writes: put __syncthreads() between "
                 "the writes to the tile and the reads from it.",
             [SL_V_SYNC] =
                 "Every thread of the block must reach the same __syncthreads(): move it out "
                 "of the thread-dependent branch and guard only the work around it.",
             [SL_V_TIMEOUT] = "A barrier that some threads never reach can wait forever: keep "
                              "__syncthreads() outside every thread-dependent branch.",
             [SL_V_MEMORY] = "Touch in[i] and out[i] only when i < n, and the tile only at slots "
                             "0 .. blockDim.x - 1.",
         }},
    {.name = SL_NAME(halo_diff),
     .shape = {SL_BLOCKS_ANY, 0, (1 << 22) + 3,
               "blocks of 32 to 1024 threads, not always a multiple of 32; n from 1 to 2^22 + 3 "
               "(barriers.h)"},
     .title = "Central difference with a halo across block boundaries",
     .doc = "docs/01-barriers.md#halo-difference",
     .points = 15,
     .make_inputs = halo_inputs,
     .check = halo_check,
     .make_input = halo_input,
     .expected = halo_expected,
     .repeats = 3,
     .ladder =
         {
             [SL_V_WRONG] = {"Do the wrong rows sit at block edges? Where does "
                             "docs/01-barriers.md#halo-difference say the two halo values come "
                             "from?",
                             "No barrier orders two blocks: a block may read only what it "
                             "computed itself (or in[]).",
                             NULL},
             [SL_V_RACE] = {"Which ys[] slots does a thread read that other threads write, "
                            "including the halo slots? (docs/01-barriers.md#halo-difference)",
                            "Every write to ys[] must be separated by a barrier from every read "
                            "of it by another thread.",
                            NULL},
             [SL_V_SYNC] = {"Is your __syncthreads() inside if (i < n) or if (t == 0)? Read "
                            "docs/01-barriers.md#what-a-barrier-is on barriers in branches.",
                            "Every thread of the block reaches the same __syncthreads(); only the "
                            "work around it is guarded.",
                            NULL},
         },
     .hint =
         {
             [SL_V_WRONG] =
                 "Blocks do not synchronize, only the end of the kernel (or grid.sync) "
                 "does: compute the two halo y values from in[] in your own block instead "
                 "of reading another block's results.",
             [SL_V_RACE] = "Write the whole ys[] (tile and both halo slots), then __syncthreads(), "
                           "then read ys[t] and ys[t + 2].",
             [SL_V_SYNC] = "Every thread of the block must reach the same __syncthreads(): not "
                           "inside if (i < n) nor if (t == 0).",
             [SL_V_TIMEOUT] = "A barrier that some threads never reach can wait forever: keep "
                              "__syncthreads() outside every thread-dependent branch.",
             [SL_V_MEMORY] =
                 "Load in[j] only for 0 <= j < n: outside the array y is 0, not a load.",
         }},
    {.name = SL_NAME(block_vote),
     .shape = {SL_BLOCKS_ANY, 0, (1 << 22) + 3,
               "blocks of 32 to 1024 threads, not always a multiple of 32; n from 1 to 2^22 + 3 "
               "(barriers.h)"},
     .title = "Count, all and any per block with the voting barriers",
     .doc = "docs/01-barriers.md#block-vote",
     .points = 10,
     .make_inputs = vote_inputs,
     .check = vote_check,
     .make_input = vote_input,
     .expected = vote_expected,
     .rules = vote_rules,
     .ladder =
         {
             [SL_V_WRONG] = {"Is only the last block wrong, or only one of count, all, any? What "
                             "does docs/01-barriers.md#block-vote say threads past n vote?",
                             "Threads with i >= n still call the voting barriers, with the "
                             "neutral vote of each: false for count and any, true for all.",
                             NULL},
             [SL_V_SYNC] = {"Do the threads with i >= n call __syncthreads_count/_and/_or? Read "
                            "docs/01-barriers.md#the-voting-barriers.",
                            "The voting barriers are barriers: every thread of the block calls "
                            "each of them.",
                            NULL},
             [SL_V_RULE] = {"What does docs/01-barriers.md#the-voting-barriers give you in one "
                            "call, and what did your code build by hand (the lines above)?",
                            "block_vote counts with the voting barriers only: no atomics, and "
                            "bar.red must be in the compiled code.",
                            NULL},
         },
     .hint =
         {
             [SL_V_WRONG] =
                 "Threads with i >= n vote false for count and any but true for all (the "
                 "neutral element of AND); store all and any as 0 or 1.",
             [SL_V_RACE] =
                 "If you use shared memory, put a barrier between its writes and its reads "
                 "(the voting barriers themselves need none).",
             [SL_V_SYNC] =
                 "__syncthreads_count/_and/_or are barriers: every thread of the block calls "
                 "them, the threads with i >= n too (with a predicate, not by skipping).",
             [SL_V_TIMEOUT] =
                 "A voting barrier that some threads skip can wait forever: call it from "
                 "every thread of the block.",
             [SL_V_MEMORY] = "Read in[i] only when i < n; only thread 0 writes the block's three "
                             "outputs.",
             [SL_V_RULE] = "Use __syncthreads_count, __syncthreads_and and __syncthreads_or, no "
                           "atomics.",
         }},
    {.name = SL_NAME(warp_step),
     .shape = {SL_BLOCKS_WARPS, 0, (1 << 22) + 3,
               "warp_step needs blocks of a multiple of 32 threads, 32 to 1024; n from 1 to 2^22 + "
               "3 (barriers.h)"},
     .title = "Warp all-reduce through shared memory with __syncwarp",
     .doc = "docs/01-barriers.md#warp-step",
     .points = 15,
     .make_inputs = warp_inputs,
     .check = warp_check,
     .make_input = warp_input,
     .expected = warp_expected,
     .rules = warp_rules,
     .ladder =
         {
             [SL_V_WRONG] = {"Does each lane still take part in every step d = 1, 2, 4, 8, 16, "
                             "the lanes past n too? (docs/01-barriers.md#warp-step)",
                             "A lane past n contributes 0 but stays in the exchange: its partners "
                             "read its slot.",
                             NULL},
             [SL_V_RACE] =
                 {"Between writing your slot and your partner reading it, and between "
                  "that read and your next write, what orders the lanes? Read "
                  "docs/01-barriers.md#warps-independent-thread-scheduling-and-__syncwarp",
                  "Lanes of a warp are not in lockstep: each shared-memory hand-off "
                  "between lanes needs __syncwarp().",
                  NULL},
             [SL_V_SYNC] = {"Which lanes leave the loop or return before a __syncwarp() the "
                            "others wait at? (docs/01-barriers.md#warp-step)",
                            "Every lane of the mask that has not exited must reach the same "
                            "__syncwarp(mask); a running lane that skips it is undefined.",
                            NULL},
         },
     .hint =
         {
             [SL_V_WRONG] =
                 "Every lane stays in the loop (lanes past n add 0); after d = 1, 2, 4, 8, "
                 "16 each lane holds its warp's sum.",
             [SL_V_RACE] =
                 "Lanes of a warp are not in lockstep: __syncwarp() after writing your slot "
                 "AND after reading your partner's, before the next write.",
             [SL_V_SYNC] = "Every lane of the mask that has not exited must call the same "
                           "__syncwarp(mask): a running lane that skips one (a branch, a shorter "
                           "loop) is undefined. Keep every lane in the loop, adding 0 past n.",
             [SL_V_TIMEOUT] =
                 "A lane that is still running but skips a __syncwarp() of its mask is "
                 "undefined and may hang the warp: keep every lane in the loop (0 past n).",
             [SL_V_MEMORY] = "Each warp owns 32 slots starting at threadIdx.x - lane: read "
                             "slot (lane ^ d) of those.",
             [SL_V_RULE] = "Exchange the values through shared memory and __syncwarp(), not with "
                           "__shfl_*.",
         }},
};

SL_SUITE_COVERS(exercises);
static const sl_declared declared[] = SL_DECLARED(SL_LESSON_EXERCISES);

const sl_lesson sl_lesson_barriers = {"barriers", "Barriers",          "docs/01-barriers.md",
                                      exercises,  COUNT_OF(exercises), declared};
