/* Lesson 4, scan: the Check suite. Inputs, comparisons with the CPU
 * reference, PTX rules and hints. No CUDA here. */
#include <stdlib.h>
#include "exercise.h"
#include "exercises.h"
#include "reference.h"
#include "shapes.h"

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

typedef struct {
    int64_t n;
    int block;
} shape;

/* ---- data ---------------------------------------------------------------- */

typedef enum { DATA_FULL, DATA_SMALL, DATA_ONES } data_kind;

static const char *const data_name[] = {"random", "small", "ones"};

/* FULL: any int, so the sums wrap modulo 2^32. SMALL: 1024 of them fit an
 * int without wrapping. ONES: the inclusive scan is 1, 2, 3, ...: a wrong
 * value shows at a glance which elements were missed. */
static void fill(sl_rng *rng, int32_t *data, int64_t n, data_kind kind)
{
    for (int64_t i = 0; i < n; i++) {
        switch (kind) {
        case DATA_SMALL: data[i] = (int32_t)sl_rng_range(rng, -1000, 1000); break;
        case DATA_ONES: data[i] = 1; break;
        default: data[i] = (int32_t)(uint32_t)sl_rng_u64(rng); break;
        }
    }
}

/* Compares out array 0 with n expected ints. */
static int expect_ints(const int32_t *expected, const sl_case *out, int64_t n, sl_text *why)
{
    if (!sl_expect_shape(out, 0, SL_I32, (uint64_t)n, why))
        return 0;
    return sl_expect_i32(expected, &out->array[0], (uint64_t)n, why);
}

static int32_t *alloc_expected(int64_t n, sl_text *why)
{
    int32_t *expected = malloc((size_t)(n > 0 ? n : 1) * sizeof *expected);
    if (!expected)
        sl_text_printf(why, "out of memory in the check\n");
    return expected;
}

/* ---- block scans ------------------------------------------------------- */

/* Sizes around warp and block boundaries and odd ones: for most (size,
 * block) pairs the last tile is partial. */
static const int64_t block_sizes[] = {1,    2,    5,    31,   32,    33,    63,    64,   65,
                                      100,  127,  128,  129,  255,   256,   257,   1000, 1023,
                                      1024, 1025, 2047, 4097, 12345, 65537, 100003};
/* Powers of two only (scan.h): the work-efficient scan needs them. */
static const int blocks[] = {32, 64, 128, 256, 512, 1024};
static const shape block_large[] = {{(1 << 22) + 3, 1024}, {3000017, 256}, {(1 << 21) - 1, 32},
                                    {1000003, 128},        {300007, 512},  {200003, 64}};

static void add_block_case(sl_inputs *out, sl_rng *rng, shape s, data_kind kind)
{
    sl_input *c =
        sl_inputs_add(out, "n=%lld block=%d values=%s", (long long)s.n, s.block, data_name[kind]);
    if (!c)
        return;
    c->in.param[SL_P_N] = s.n;
    c->in.param[SL_P_BLOCK] = s.block;
    c->in.param[SL_P_GRID] = 0; /* the harness uses ceil(n / block) */
    int32_t *data = sl_case_add(&c->in, SL_I32, (uint64_t)s.n);
    if (data)
        fill(rng, data, s.n, kind);
}

static void block_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        /* shapes.h: one-warp tiles (a scan with no barrier when the block is
         * one warp races there), tiles of several warps and of 1024 (steps
         * of 32 and more cross warps), n = 1, 2, 3, partial last tiles whose
         * last warp is partial too. Sizes and pairings from the seed. */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(rng, SL_BLOCKS_POW2, s);
        for (int k = 0; k < count; k++)
            add_block_case(out, rng, (shape){s[k].n, s[k].block}, DATA_SMALL);
        return;
    }
    int which = 0;
    for (int b = 0; b < COUNT_OF(blocks); b++)
        for (int k = 0; k < COUNT_OF(block_sizes); k++)
            add_block_case(out, rng, (shape){block_sizes[k], blocks[b]},
                           which++ % 4 == 3 ? DATA_ONES : DATA_SMALL);
    for (int k = 0; k < COUNT_OF(block_large); k++)
        add_block_case(out, rng, block_large[k], DATA_FULL);
}

static int block_check(const sl_case *in, const sl_case *out, sl_text *why, int inclusive)
{
    int64_t n = in->param[SL_P_N];
    int32_t *expected = alloc_expected(n, why);
    if (!expected)
        return 0;
    scan_ref_tiles(in->array[0].data, expected, n, in->param[SL_P_BLOCK], inclusive);
    int ok = expect_ints(expected, out, n, why);
    free(expected);
    return ok;
}

static int inclusive_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    return block_check(in, out, why, 1);
}

static int exclusive_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    return block_check(in, out, why, 0);
}

/* ---- scan_any_n ---------------------------------------------------------- */

/* Around every power-of-two tile size a student may pick, 1 to many tiles;
 * (1 << 22) + 1 has more tile sums than one 1024-thread block holds one per
 * thread for tiles of up to 4096. The 2^28 run is the bench's. */
static const int64_t any_sizes[] = {1,
                                    2,
                                    3,
                                    4,
                                    5,
                                    7,
                                    31,
                                    32,
                                    33,
                                    100,
                                    127,
                                    128,
                                    129,
                                    1000,
                                    1023,
                                    1024,
                                    1025,
                                    2047,
                                    2048,
                                    2049,
                                    4095,
                                    4096,
                                    4097,
                                    8191,
                                    8192,
                                    8193,
                                    12289,
                                    16385,
                                    65535,
                                    65537,
                                    100003,
                                    262144,
                                    262147,
                                    1000001,
                                    (1 << 20) + 5,
                                    3000017,
                                    (1 << 22) + 1};
/* Past every level boundary a two- or three-level design may have: tiles
 * of 256 to 8192 elements and one block scanning up to 4096 tile sums
 * (2^23, 2^24 = 256^3, 2^25 = 8192 x 4096). The 2^28 run is the bench's. */
static const int64_t any_level_sizes[] = {1 << 23, 1 << 24, 1 << 25};
/* The contract's largest n (scan.h): the last level size reaches it. */
enum { SCAN_ANY_N_MAX = (1 << 25) + (1 << 16) - 1 };

static void add_any_case(sl_inputs *out, sl_rng *rng, int64_t n, data_kind kind, int calls)
{
    sl_input *c =
        sl_inputs_add(out, "n=%lld values=%s calls=%d", (long long)n, data_name[kind], calls);
    if (!c)
        return;
    c->in.param[SL_P_N] = n;
    c->in.param[SCAN_ANY_N_P_CALLS] = calls; /* scan_exclusive_int calls on one scratch */
    int32_t *data = sl_case_add(&c->in, SL_I32, (uint64_t)n);
    if (data)
        fill(rng, data, n, kind);
}

static void any_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        /* For the sanitizers: n = 1, 2, 3; every residue of n mod 4 (a
         * vectorised tail that touches past n shows at one of them), over
         * one tile, a partial second tile and several tiles of any size a
         * student may pick; one size scanned twice on the same scratch.
         * Sizes and the residue order come from the seed. */
        static const int64_t lo[] = {100, 2049, 8193, 16385}, hi[] = {1023, 6000, 12000, 20000};
        int residues[4] = {0, 1, 2, 3};
        sl_shuffle(rng, residues, 4);
        int twice = (int)sl_rng_range(rng, 0, 3);
        for (int n = 1; n <= 3; n++)
            add_any_case(out, rng, n, DATA_FULL, 1);
        for (int k = 0; k < 4; k++)
            add_any_case(out, rng, sl_rng_congruent(rng, lo[k], hi[k], 4, residues[k]), DATA_FULL,
                         k == twice ? 2 : 1);
        return;
    }
    static const data_kind cycle[] = {DATA_FULL, DATA_SMALL, DATA_FULL, DATA_ONES};
    for (int k = 0; k < COUNT_OF(any_sizes); k++)
        add_any_case(out, rng, any_sizes[k], cycle[k % COUNT_OF(cycle)], 2);
    for (int k = 0; k < COUNT_OF(any_level_sizes); k++)
        add_any_case(out, rng,
                     k == COUNT_OF(any_level_sizes) - 1
                         ? SCAN_ANY_N_MAX
                         : any_level_sizes[k] + sl_rng_range(rng, 1, 1 << 16),
                     DATA_FULL, k == 0 ? 2 : 1);
}

static int any_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int64_t n = in->param[SL_P_N];
    int32_t *expected = alloc_expected(n, why);
    if (!expected)
        return 0;
    scan_ref_exclusive(in->array[0].data, expected, n);
    int ok = expect_ints(expected, out, n, why);
    free(expected);
    return ok;
}

/* A multi-pass scan has no flags and passes trivially. A single-pass
 * (chained) scan publishes a tile's sum to later blocks: the sum must be
 * visible before the flag that announces it. */
/* The exercises are the scans CUB and thrust would do for you. */
#define NO_LIBRARY                                                                                 \
    SL_RULES_NO_LIBRARY("CUB and thrust are not allowed in this lesson: the exercise is to write " \
                        "the scan yourself (scan the tiles, scan the tile sums, add them back)")

static const sl_rule block_rules[] = {
    NO_LIBRARY,
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

static const sl_rule any_rules[] = {
    NO_LIBRARY,
    /* a single-pass (chained) scan is judged by the memory-order analysis */
    {SL_RULE_ORDER_NOTE, NULL, NULL,
     "In a single-pass scan a block that writes a tile sum with a plain store and then sets a "
     "flag (volatile store or atomic) must put __threadfence() between them, or publish with a "
     "release store; the block that waits for the flag needs __threadfence() (or an acquire "
     "load) before it reads the sum; and it may wait only for tiles that running blocks took "
     "(an atomic tile counter, not blockIdx.x). No test run shows these on an H100, so they "
     "are checked in the PTX.",
     NULL},
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

/* ---- the lesson --------------------------------------------------------- */

#define BLOCK_SCAN_HINTS                                                                           \
    [SL_V_RACE] = "One Hillis-Steele step must read s[tid - off] into a register, "                \
                  "__syncthreads(), then write s[tid], then __syncthreads() again; never "         \
                  "update in place between two barriers.",                                         \
    [SL_V_SYNC] = "Every thread must reach every __syncthreads(): put the barriers outside "       \
                  "if (tid >= off), and never return early for threads past n.",                   \
    [SL_V_TIMEOUT] = "A barrier that only part of the block reaches can wait forever: keep "       \
                     "__syncthreads() outside every thread-dependent branch.",                     \
    [SL_V_MEMORY] = "Threads with i >= n must not read in[i] or write out[i] (they put 0 in "      \
                    "shared memory); shared indices stay in 0 .. 2 * blockDim.x - 1."

/* ---- the playground (make run) ------------------------------------------ */

static int tiles_expected(const sl_case *in, sl_case *out, int inclusive)
{
    int64_t n = in->param[SL_P_N];
    sl_expected_start(in, out);
    int32_t *e = sl_case_add(out, SL_I32, (uint64_t)n);
    if (!e)
        return -1;
    scan_ref_tiles(in->array[0].data, e, n, in->param[SL_P_BLOCK], inclusive);
    return 0;
}

static int inclusive_expected(const sl_case *in, sl_case *out)
{
    return tiles_expected(in, out, 1);
}

static int exclusive_expected(const sl_case *in, sl_case *out)
{
    return tiles_expected(in, out, 0);
}

static void any_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    (void)block;
    add_any_case(out, rng, n, DATA_SMALL, 1);
}

static int any_expected(const sl_case *in, sl_case *out)
{
    int64_t n = in->param[SL_P_N];
    sl_expected_start(in, out);
    int32_t *e = sl_case_add(out, SL_I32, (uint64_t)n);
    if (!e)
        return -1;
    scan_ref_exclusive(in->array[0].data, e, n);
    return 0;
}

static const sl_exercise exercises[] = {
    {.name = SL_NAME(block_inclusive_scan),
     .shape = {SL_BLOCKS_POW2, 0, (1 << 22) + 3,
               "blocks of a power of two threads, 32 to 1024; n from 1 to 2^22 + 3 (scan.h)"},
     .expected = inclusive_expected,
     .title = "Inclusive scan of each block's tile",
     .doc = "docs/04-scan.md#block-inclusive-scan",
     .points = 10,
     .make_inputs = block_inputs,
     .check = inclusive_check,
     .rules = block_rules,
     .ladder =
         {
             [SL_V_RACE] =
                 {"In one Hillis-Steele step, does a thread overwrite s[tid] while another thread "
                  "still has to read it? Read docs/04-scan.md#hillis-steele-and-its-race.",
                  "Within a step every read comes before every write: read into a register, "
                  "barrier, write, barrier.",
                  NULL},
             [SL_V_SYNC] =
                 {"Are your barriers inside if (tid >= off), or after an early return for threads "
                  "past n? Read docs/04-scan.md#block-inclusive-scan.",
                  "Every thread of the block reaches every __syncthreads() of the scan; the "
                  "branch guards only the addition.",
                  NULL},
             [SL_V_WRONG] =
                 {"Compare the first wrong index with its tile: is it the tile's first element, "
                  "or the last tile? What does docs/04-scan.md#inclusive-and-exclusive-scan say "
                  "each output sums?",
                  "An inclusive scan sums up to and including the element, an exclusive one the "
                  "elements before it; each tile starts again at 0.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] = "Add s[tid - off] when tid >= off (not tid > off), for off = 1, 2, 4, "
                            "... < blockDim.x; each tile restarts at 0, and slots past n hold 0.",
             BLOCK_SCAN_HINTS,
         }},
    {.name = SL_NAME(block_exclusive_scan),
     .shape = {SL_BLOCKS_POW2, 0, (1 << 22) + 3,
               "blocks of a power of two threads, 32 to 1024; n from 1 to 2^22 + 3 (scan.h)"},
     .expected = exclusive_expected,
     .title = "Exclusive scan of each block's tile",
     .doc = "docs/04-scan.md#block-exclusive-scan",
     .points = 10,
     .make_inputs = block_inputs,
     .check = exclusive_check,
     .rules = block_rules,
     .ladder =
         {
             [SL_V_RACE] =
                 {"In one Hillis-Steele step, does a thread overwrite s[tid] while another thread "
                  "still has to read it? Read docs/04-scan.md#hillis-steele-and-its-race.",
                  "Within a step every read comes before every write: read into a register, "
                  "barrier, write, barrier.",
                  NULL},
             [SL_V_SYNC] =
                 {"Are your barriers inside if (tid >= off), or after an early return for threads "
                  "past n? Read docs/04-scan.md#block-exclusive-scan.",
                  "Every thread of the block reaches every __syncthreads() of the scan; the "
                  "branch guards only the addition.",
                  NULL},
             [SL_V_WRONG] =
                 {"Compare the first wrong index with its tile: is it the tile's first element, "
                  "or the last tile? What does docs/04-scan.md#inclusive-and-exclusive-scan say "
                  "each output sums?",
                  "An inclusive scan sums up to and including the element, an exclusive one the "
                  "elements before it; each tile starts again at 0.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] = "out[base] is 0 and out[base + t] sums the t elements BEFORE it: shift "
                            "an inclusive scan right by one (read s[tid - 1] after a barrier), or "
                            "clear the root before the down-sweep.",
             BLOCK_SCAN_HINTS,
         }},
    {.name = SL_NAME(scan_any_n),
     .shape = {SL_BLOCKS_ANY, 1, SCAN_ANY_N_MAX,
               "your launcher picks the grid and block; n from 1 to 2^25 + 2^16 - 1 (scan.h)"},
     .make_input = any_input,
     .expected = any_expected,
     .title = "Exclusive scan of any n across many blocks, near memory bandwidth",
     .doc = "docs/04-scan.md#scan-of-any-n",
     .points = 20,
     .make_inputs = any_inputs,
     .check = any_check,
     .rules = any_rules,
     .repeats = 2,
     .bench = SL_BENCH_OF(scan_any_n),
     .ladder =
         {
             [SL_V_WRONG] =
                 {"Does every tile start from the sum of all tiles before it, the partial last "
                  "tile too? Read docs/04-scan.md#scan-of-any-n.",
                  "A scan of any n is a scan of each tile plus the scanned sums of the tiles "
                  "before it.",
                  NULL},
             [SL_V_RULE] =
                 {"What tells a block that the sum of the tile before it is complete, and what "
                  "orders that sum before the flag? Read docs/04-scan.md#scan-of-any-n.",
                  "A tile sum published to another block needs a fence (or a release store) "
                  "before its flag, and an acquire after the wait.",
                  NULL},
             [SL_V_TIMEOUT] =
                 {"Can a block wait for a tile whose block has not started yet? Read "
                  "docs/04-scan.md#scan-of-any-n on the order tiles are taken.",
                  "A block may wait only for tiles taken before its own: take tiles from an "
                  "atomic counter, not blockIdx.x.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] =
                 "Every tile must start from the sum of ALL tiles before it (scan the tile "
                 "sums, then add them back); check the partial last tile, and initialize "
                 "the scratch on every call.",
             [SL_V_RACE] = "Shared memory written by one warp and read by another needs a "
                           "__syncthreads() in between, and another before it is written again.",
             [SL_V_SYNC] = "Every thread of a block must reach every __syncthreads(), the threads "
                           "past n included; shuffles need every lane of their mask.",
             [SL_V_TIMEOUT] = "Blocks only wait safely for kernels launched before theirs: a block "
                              "that spins on a flag of a block that is not running waits forever.",
             [SL_V_MEMORY] =
                 "The last tile is partial: no int4 load or store past n; and read only "
                 "scratch your launcher wrote in this call.",
             [SL_V_RULE] =
                 "Put __threadfence() between the store of a tile sum and the store of the "
                 "flag that announces it (or make the flag store a release), fence again "
                 "after waiting for a flag, and take tiles from an atomic counter, not "
                 "blockIdx.x.",
             [SL_V_LAUNCH] = "Check grid sizes (at most 2^31 - 1 blocks, 1024 threads) and shared "
                             "memory per block; no cudaMalloc or cudaDeviceSynchronize inside the "
                             "launcher.",
         }},
};

SL_SUITE_COVERS(exercises);
static const sl_declared declared[] = SL_DECLARED(SL_LESSON_EXERCISES);

const sl_lesson sl_lesson_scan = {"scan",    "Scan (prefix sum)", "docs/04-scan.md",
                                  exercises, COUNT_OF(exercises), declared};
