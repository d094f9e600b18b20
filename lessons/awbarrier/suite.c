/* Check suite of lesson 7: the asynchronous barrier (cuda::barrier). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "exercise.h"
#include "exercises.h"
#include "reference.h"
#include "shapes.h"

/* ---- split_arrive_wait --------------------------------------------------- */

typedef struct {
    int n, block, iters;
} saw_shape;

static const saw_shape saw_full[] = {
    {1, 32, 1},        {1, 1024, 3},       {31, 32, 4},      {33, 32, 5},         {100, 64, 2},
    {1000, 128, 7},    {1000, 1024, 8},    {4097, 256, 16},  {65537, 512, 12},    {100003, 96, 9},
    {250000, 128, 64}, {1 << 20, 256, 16}, {2000003, 32, 6}, {3000017, 1024, 10}, {777777, 480, 3},
};

static void saw_add(sl_rng *rng, const saw_shape *s, sl_inputs *out)
{
    int grid = (s->n + s->block - 1) / s->block;
    sl_input *in =
        sl_inputs_add(out, "n=%d block=%d grid=%d iters=%d", s->n, s->block, grid, s->iters);
    in->in.param[SL_P_N] = s->n;
    in->in.param[SL_P_BLOCK] = s->block;
    in->in.param[SL_P_GRID] = grid;
    in->in.param[SPLIT_ARRIVE_WAIT_P_ITERS] = s->iters;
    uint32_t *v = sl_case_add(&in->in, SL_U32, (uint64_t)s->n);
    if (!v)
        abort();
    /* Small values keep the first iterations readable; they wrap later. */
    for (int i = 0; i < s->n; i++)
        v[i] = (uint32_t)sl_rng_range(rng, 0, 99);
}

static void saw_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        /* shapes.h (multiples of 32): one-warp blocks, several warps, 1024,
         * n = 1, 2, 3, partial last blocks; a few iterations each (the
         * buffers alternate, so two show a reuse hazard). */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(rng, SL_BLOCKS_WARPS, s);
        for (int k = 0; k < count; k++) {
            saw_shape w = {(int)s[k].n, s[k].block, (int)sl_rng_range(rng, 2, 5)};
            saw_add(rng, &w, out);
        }
        return;
    }
    for (int k = 0; k < (int)(sizeof saw_full / sizeof *saw_full); k++)
        saw_add(rng, &saw_full[k], out);
}

/* sl_expect_u32 with the array's name in front of its mismatches. */
static int expect_named_u32(const char *name, const uint32_t *expected, const sl_array *got,
                            uint64_t n, sl_text *why)
{
    sl_text t = {0};
    int ok = sl_expect_u32(expected, got, n, &t);
    if (!ok)
        sl_text_printf(why, "%s: %s\n", name, sl_text_str(&t));
    sl_text_free(&t);
    return ok;
}

static int saw_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    int iters = (int)in->param[SPLIT_ARRIVE_WAIT_P_ITERS];
    if (!sl_expect_shape(out, 0, SL_U32, (uint64_t)n, why) ||
        !sl_expect_shape(out, 1, SL_U32, (uint64_t)n, why))
        return 0;
    uint32_t *v = malloc((size_t)n * sizeof *v);
    uint32_t *h = malloc((size_t)n * sizeof *h);
    if (!v || !h)
        abort();
    ref_split_arrive_wait(in->array[0].data, v, h, n, block, iters);
    int ok_v = expect_named_u32("out (final v)", v, &out->array[0], (uint64_t)n, why);
    int ok_h = expect_named_u32("hist (private work h)", h, &out->array[1], (uint64_t)n, why);
    free(v);
    free(h);
    return ok_v && ok_h;
}

/* Every form a cuda::barrier<thread_scope_block> takes in the PTX (sm_80 and
 * newer; the kernel or any function it calls directly): the hardware
 * barrier's mbarrier.arrive (any variant: arrive_drop, expect_tx) and its
 * wait (sm_80..89 mbarrier.test_wait, sm_90 try_wait): both, since an
 * arrive nobody waits for synchronizes nothing; or, for a barrier with a
 * completion function, which libcu++ builds from shared-memory atomics, an
 * acq_rel (or release) atomic to arrive and acquire loads to wait: at block
 * scope, or at gpu/sys scope for a cuda::barrier<thread_scope_device> or a
 * cuda::std::barrier placed in shared memory, which are just as correct.
 * Those atomics count only from libcu++'s barrier headers (the "@__barrier/"
 * of a term, ptx_rules.c): any atomic_ref the student adds is no barrier.
 * __syncthreads() alone has none of them, and grid.sync()'s own atomics do
 * not count (ptx_rules.c). */
#define BLOCK_BARRIER_FORMS                                                                        \
    "mbarrier.arrive&mbarrier.try_wait|mbarrier.arrive&mbarrier.test_wait|"                        \
    "atom+.acq_rel@__barrier/&ld+.acquire@__barrier/|"                                             \
    "atom+.release@__barrier/&ld+.acquire@__barrier/"

/* Scoped by mangled name ("_Z17split_arrive_wait...") so a renamed copy in
 * the same file, like the reference inside a bug-zoo mutant, does not count. */
static const sl_rule saw_rules[] = {
    {SL_RULE_REQUIRE, "_Z17split_arrive_wait", BLOCK_BARRIER_FORMS,
     "the exercise is about cuda::barrier: arrive() and wait() on a block_barrier "
     "(mbarrier.arrive and its wait in the PTX), not __syncthreads() alone",
     "arrive() and then wait() on a cuda::barrier"},
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

/* ---- normalize --------------------------------------------------------------- */

/* grid 0: the student's launcher picks it; > 0: the harness launches
 * normalize itself, cooperatively, with that many blocks (capped at what is
 * co-resident and what n needs): the contract says any grid works. */
typedef struct {
    int n, block, grid;
} norm_shape;

static const norm_shape norm_full[] = {
    {1, 32, 0},        {7, 64, 0},       {31, 32, 0},        {1000, 128, 0},
    {4099, 256, 0},    {65537, 1024, 0}, {100000, 96, 0},    {1000003, 256, 0},
    {1 << 21, 512, 0}, {2000003, 64, 0}, {1500000, 1024, 0},
};

static void norm_add(sl_rng *rng, const norm_shape *s, sl_inputs *out)
{
    sl_input *in =
        s->grid > 0 ? sl_inputs_add(out, "n=%d block=%d grid=%d (launched by the grader)", s->n,
                                    s->block, s->grid)
                    : sl_inputs_add(out, "n=%d block=%d (grid: your launcher's)", s->n, s->block);
    in->in.param[SL_P_N] = s->n;
    in->in.param[SL_P_BLOCK] = s->block;
    in->in.param[SL_P_GRID] = s->grid;
    float *a = sl_case_add(&in->in, SL_F32, (uint64_t)s->n);
    float *b = sl_case_add(&in->in, SL_F32, (uint64_t)s->n);
    if (!a || !b)
        abort();
    /* Positive values: the dot product is positive and no sum cancels. */
    for (int i = 0; i < s->n; i++) {
        a[i] = (float)sl_rng_double(rng, 0.5, 1.5);
        b[i] = (float)sl_rng_double(rng, 0.5, 1.5);
    }
}

static void norm_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        /* shapes.h (multiples of 32) through the launcher; one grid of 2
         * blocks launched by the grader. */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(rng, SL_BLOCKS_WARPS, s);
        for (int k = 0; k < count; k++)
            norm_add(rng, &(norm_shape){(int)s[k].n, s[k].block, 0}, out);
        norm_add(
            rng,
            &(norm_shape){(int)sl_rng_range(rng, 300, 3000), 32 * (int)sl_rng_range(rng, 2, 8), 2},
            out);
        return;
    }
    for (int k = 0; k < (int)(sizeof norm_full / sizeof *norm_full); k++)
        norm_add(rng, &norm_full[k], out);
    /* above 2^24 elements */
    norm_add(rng, &(norm_shape){(int)SL_N_BIG, 256, 0}, out);
    /* grids the launcher did not choose: 1, 2 and an odd count */
    static const int blocks[] = {32, 64, 96, 128, 256, 512, 1024};
    norm_add(
        rng,
        &(norm_shape){(int)sl_rng_range(rng, 4096, 100000), blocks[sl_rng_range(rng, 0, 6)], 1},
        out);
    norm_add(
        rng,
        &(norm_shape){(int)sl_rng_range(rng, 4096, 100000), blocks[sl_rng_range(rng, 0, 6)], 2},
        out);
    norm_add(rng,
             &(norm_shape){(int)sl_rng_range(rng, 200000, 1000000), blocks[sl_rng_range(rng, 0, 4)],
                           2 * (int)sl_rng_range(rng, 1, 40) + 1},
             out);
}

/* got[i] against x[i] / norm with a relative tolerance; up to 3 mismatches. */
static int expect_scaled(const char *name, const float *x, double norm, double rel,
                         const sl_array *got, int n, sl_text *why)
{
    const float *g = got->data;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double expected = (double)x[i] / norm;
        double tol = fabs(expected) * rel + FLT_MIN;
        if (fabs((double)g[i] - expected) <= tol)
            continue;
        if (bad < 3)
            sl_text_printf(why, "%s index %d: expected %.9g, got %.9g (tolerance %.2g)\n", name, i,
                           expected, (double)g[i], tol);
        bad++;
    }
    if (bad > 3)
        sl_text_printf(why, "%s: %d of %d elements wrong\n", name, bad, n);
    return bad == 0;
}

static int norm_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int n = (int)in->param[SL_P_N];
    const float *a = in->array[0].data, *b = in->array[1].data;
    if (!sl_expect_shape(out, 0, SL_F32, (uint64_t)n, why) ||
        !sl_expect_shape(out, 1, SL_F32, (uint64_t)n, why))
        return 0;
    double sum_abs;
    double dot = ref_dot(a, b, n, &sum_abs);
    /* r = x / sqrt(dot): a relative error d in dot is d / 2 in r, plus the
     * float roundings of the square root, the division and the store. */
    double rel = 0.5 * sl_sum_tolerance((uint64_t)n, sum_abs) / dot + 4.0 * FLT_EPSILON;
    double norm = sqrt(dot);
    int ok_a = expect_scaled("a", a, norm, rel, &out->array[0], n, why);
    int ok_b = expect_scaled("b", b, norm, rel, &out->array[1], n, why);
    if (!(ok_a && ok_b))
        sl_text_printf(why, "(reference: dot = %.9g, sqrt(dot) = %.9g)\n", dot, norm);
    if (!(ok_a && ok_b) && out->narrays > 2 && out->array[2].type == SL_I32 &&
        out->array[2].count == 1)
        sl_text_printf(why,
                       "(the grader launched normalize itself with %d blocks: any grid "
                       "must work, not only the one your launcher picks)\n",
                       *(const int32_t *)out->array[2].data);
    return ok_a && ok_b;
}

static const sl_rule norm_rules[] = {
    {SL_RULE_REQUIRE, "_Z9normalize", BLOCK_BARRIER_FORMS,
     "the block reduction must use the cuda::barrier (arrive()/wait(): mbarrier.arrive and "
     "its wait in the PTX), not __syncthreads() alone; grid.sync() is no block barrier",
     "arrive() and wait() on a cuda::barrier for its block reduction"},
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

/* ---- tile_pipeline -------------------------------------------------------------- */

typedef struct {
    int n, block, grid;
} tp_shape;

/* grid below the tile count: each block runs a pipeline of many tiles; above
 * it: blocks with no tile; grid 1: one block through every tile. */
static const tp_shape tp_full[] = {
    {1, 32, 1},        {31, 32, 4},         {33, 32, 1},         {1000, 128, 2},
    {1000, 1024, 1},   {4097, 256, 1},      {500, 128, 100},     {65537, 512, 7},
    {100003, 96, 13},  {123457, 64, 1},     {250000, 128, 132},  {1 << 20, 256, 264},
    {777777, 480, 50}, {2000003, 1024, 64}, {3000017, 32, 1000},
};

static void tp_add(sl_rng *rng, const tp_shape *s, sl_inputs *out)
{
    int tiles = (s->n + s->block - 1) / s->block;
    sl_input *in =
        sl_inputs_add(out, "n=%d block=%d grid=%d (%d tiles)", s->n, s->block, s->grid, tiles);
    in->in.param[SL_P_N] = s->n;
    in->in.param[SL_P_BLOCK] = s->block;
    in->in.param[SL_P_GRID] = s->grid;
    uint32_t *v = sl_case_add(&in->in, SL_U32, (uint64_t)s->n);
    if (!v)
        abort();
    for (int i = 0; i < s->n; i++)
        v[i] = (uint32_t)sl_rng_u64(rng);
}

static void tp_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        /* shapes.h (multiples of 32): one-warp blocks, several warps, 1024,
         * n = 1, 2, 3, partial last tiles. A grid of a third to a half of
         * the tiles makes each block run a pipeline of several tiles; the
         * tiny n get 2 to 4 blocks for their one tile (blocks with none). */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(rng, SL_BLOCKS_WARPS, s);
        for (int k = 0; k < count; k++) {
            int tiles = (int)((s[k].n + s[k].block - 1) / s[k].block);
            int grid =
                tiles > 1 ? tiles / (int)sl_rng_range(rng, 2, 3) : (int)sl_rng_range(rng, 2, 4);
            tp_shape p = {(int)s[k].n, s[k].block, grid > 0 ? grid : 1};
            tp_add(rng, &p, out);
        }
        /* and a long pipeline: one or two blocks through 12 to 24 tiles */
        int block = 32 * (int)sl_rng_range(rng, 1, 4);
        tp_shape longer = {block * (int)sl_rng_range(rng, 12, 24) - (int)sl_rng_range(rng, 1, 31),
                           block, (int)sl_rng_range(rng, 1, 2)};
        tp_add(rng, &longer, out);
        return;
    }
    for (int k = 0; k < (int)(sizeof tp_full / sizeof *tp_full); k++)
        tp_add(rng, &tp_full[k], out);
}

static int tp_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    if (!sl_expect_shape(out, 0, SL_U32, (uint64_t)n, why))
        return 0;
    uint32_t *expected = malloc((size_t)n * sizeof *expected);
    if (!expected)
        abort();
    ref_tile_pipeline(in->array[0].data, expected, n, block);
    int ok = sl_expect_u32(expected, &out->array[0], (uint64_t)n, why);
    free(expected);
    return ok;
}

/* The asynchronous copy into shared memory, in any of its PTX forms (sm_80
 * and newer): cp.async.ca/.cg per thread, cp.async.mbarrier.arrive, or the
 * sm_90 bulk copy cp.async.bulk. cuda::memcpy_async, cuda::pipeline and
 * __pipeline_memcpy_async all give one of them; plain loads do not. The
 * lesson is the asynchronous barrier, so the copy must also complete on an
 * mbarrier (cp.async.mbarrier.arrive after per-thread copies, or a bulk
 * copy's mbarrier::complete_tx with its expect_tx) and the block must wait
 * on one (try_wait/test_wait): __pipeline_wait_prior or cp.async.wait_group
 * and __syncthreads() is the older mechanism. cuda::memcpy_async on a
 * cuda::barrier, and cuda::pipeline (its stages are mbarriers), give both. */
static const sl_rule tp_rules[] = {
    {SL_RULE_REQUIRE, "_Z13tile_pipeline", "cp.async",
     "the tiles must be staged with cuda::memcpy_async (cp.async in the PTX), not "
     "copied into shared memory with plain loads and stores",
     "an asynchronous copy (cuda::memcpy_async) into shared memory"},
    {SL_RULE_REQUIRE, "_Z13tile_pipeline",
     "cp.async.mbarrier.arrive|cp.async.bulk+.mbarrier::complete_tx|mbarrier.expect_tx|"
     "mbarrier.arrive.expect_tx|mbarrier.arrive_drop.expect_tx",
     "the copy must complete on an asynchronous barrier: cuda::memcpy_async(..., bar) with a "
     "cuda::barrier (cp.async.mbarrier.arrive or a bulk copy's mbarrier::complete_tx in the "
     "PTX), not __pipeline_wait_prior / cp.async.wait_group and __syncthreads()",
     "a copy that completes on an asynchronous barrier (cuda::memcpy_async with a cuda::barrier)"},
    {SL_RULE_REQUIRE, "_Z13tile_pipeline", "mbarrier.try_wait|mbarrier.test_wait",
     "the block must wait for the copy on the asynchronous barrier (bar.wait, "
     "arrive_and_wait or wait_parity: mbarrier.try_wait in the PTX); a cp.async wait and "
     "__syncthreads() leave the barrier a decoy",
     "a wait on that asynchronous barrier (wait, arrive_and_wait or wait_parity)"},
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

/* ---- the playground (make run) ------------------------------------------ */

static int saw_expected(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    sl_expected_start(in, out);
    uint32_t *v = sl_case_add(out, SL_U32, (uint64_t)n);
    uint32_t *h = sl_case_add(out, SL_U32, (uint64_t)n);
    if (!v || !h)
        return -1;
    ref_split_arrive_wait(in->array[0].data, v, h, n, (int)in->param[SL_P_BLOCK],
                          (int)in->param[SPLIT_ARRIVE_WAIT_P_ITERS]);
    return 0;
}

static int norm_expected(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    const float *a = in->array[0].data, *b = in->array[1].data;
    double sum_abs, norm = sqrt(ref_dot(a, b, n, &sum_abs));
    sl_expected_start(in, out);
    float *ea = sl_case_add(out, SL_F32, (uint64_t)n);
    float *eb = sl_case_add(out, SL_F32, (uint64_t)n);
    if (!ea || !eb)
        return -1;
    for (int i = 0; i < n; i++) {
        ea[i] = (float)(a[i] / norm);
        eb[i] = (float)(b[i] / norm);
    }
    return 0;
}

static int tp_expected(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    sl_expected_start(in, out);
    uint32_t *e = sl_case_add(out, SL_U32, (uint64_t)n);
    if (!e)
        return -1;
    ref_tile_pipeline(in->array[0].data, e, n, (int)in->param[SL_P_BLOCK]);
    return 0;
}

static const sl_exercise exercises[] = {
    {.name = SL_NAME(split_arrive_wait),
     .shape = {SL_BLOCKS_WARPS, 0, 3000017,
               "blocks of a multiple of 32 threads, 32 to 1024; n from 1 to 3000017 (awbarrier.h)"},
     .expected = saw_expected,
     .title = "Split arrive and wait, double-buffered",
     .doc = "docs/07-awbarrier.md#split-arrive-and-wait",
     .points = 10,
     .make_inputs = saw_inputs,
     .check = saw_check,
     .rules = saw_rules,
     .hint =
         {
             [SL_V_WRONG] =
                 "Read left and right from the buffer published this iteration "
                 "(0 outside the tile); threads past n keep v = 0; h uses v before the update.",
             [SL_V_RACE] =
                 "Read a neighbour's value only after bar.wait(token), and alternate "
                 "two buffers so a fast thread's next write cannot hit a value still being read.",
             [SL_V_SYNC] =
                 "Every thread of the block arrives exactly once per phase: "
                 "init(&bar, blockDim.x), no arrive() inside a branch only some threads take.",
             [SL_V_LAUNCH] =
                 "Barrier overflow: more arrivals than init's count (use blockDim.x, one "
                 "arrive() per thread per phase), or arrivals before __syncthreads() published "
                 "init.",
             [SL_V_TIMEOUT] = "A wait never completed: a thread returned early or skipped arrive() "
                              "(a thread that leaves must call bar.arrive_and_drop() first), or "
                              "init's count exceeds blockDim.x.",
             [SL_V_MEMORY] =
                 "An error inside mbarrier_arrive: a thread arrived before init was "
                 "published (__syncthreads() after init). Else guard in/out/hist with i < n.",
             [SL_V_RULE] =
                 "Synchronize the iterations with the block_barrier's arrive() and wait().",
         }},
    {.name = SL_NAME(normalize),
     .shape = {SL_BLOCKS_WARPS, 0, SL_N_BIG,
               "blocks of a multiple of 32 threads, 32 to 1024; n from 1 to 2^24 + 2^20 - 1 "
               "(awbarrier.h)"},
     .expected = norm_expected,
     .title = "Normalize two vectors by sqrt(A.B) (simpleAWBarrier)",
     .doc = "docs/07-awbarrier.md#normalizing-two-vectors",
     .points = 10,
     .make_inputs = norm_inputs,
     .check = norm_check,
     .rules = norm_rules,
     .repeats = 2,
     .hint =
         {
             [SL_V_WRONG] =
                 "grid.sync() between the dot product and the scaling, every partial added "
                 "once, and divide by sqrt(dot), not dot.",
             [SL_V_RACE] =
                 "Lane 0 writes its warp's sum, then bar.arrive() + bar.wait() before anyone "
                 "reads the sums; reusing them later needs another barrier (grid.sync() is one).",
             [SL_V_SYNC] =
                 "Every thread of the block arrives once per phase: init(&bar, blockDim.x), "
                 "no arrive() or grid.sync() inside a branch.",
             [SL_V_LAUNCH] =
                 "grid.sync() needs cudaLaunchCooperativeKernel with at most (occupancy "
                 "blocks per SM) x (SMs) blocks; <<<>>> gives 'unspecified launch failure'.",
             [SL_V_TIMEOUT] = "A barrier or grid.sync() that some thread never reaches, or a grid "
                              "larger than what fits on the GPU at once.",
             [SL_V_MEMORY] =
                 "partial[] holds NORMALIZE_MAX_BLOCKS doubles of garbage: read only the "
                 "gridDim.x slots written in this launch; guard a[i], b[i] with i < n.",
             [SL_V_RULE] = "Do the block reduction with the block_barrier's arrive() and wait().",
         }},
    {.name = SL_NAME(tile_pipeline),
     .shape = {SL_BLOCKS_WARPS, 0, 3000017,
               "blocks of a multiple of 32 threads, 32 to 1024; n from 1 to 3000017 (awbarrier.h)"},
     .expected = tp_expected,
     .title = "A double-buffered copy pipeline (memcpy_async)",
     .doc = "docs/07-awbarrier.md#a-copy-pipeline",
     .points = 15,
     .make_inputs = tp_inputs,
     .check = tp_check,
     .rules = tp_rules,
     /* no synccheck: compute-sanitizer 2025.3's synccheck counts the
       * arrival a copy makes (cp.async.mbarrier.arrive) as the issuing
       * thread's own and reports "Missing wait" on every correct
       * memcpy_async pipeline (measured on the H100, CUDA 13.0) */
     .tools = SL_TOOL_MEMCHECK | SL_TOOL_RACECHECK | SL_TOOL_INITCHECK,
     .ladder =
         {
             [SL_V_WRONG] = {"Which phase of full[s] holds tile k, and what parity names it? "
                             "(docs/07-awbarrier.md#phases-and-parity)",
                             "A stage may be read only after the phase of its tile has completed: "
                             "tile k is phase k / 2 of full[k % 2].",
                             NULL},
             [SL_V_RACE] = {"Between the copy landing in a stage and your read of it, and between "
                            "your read and the next copy into it, what orders the threads? "
                            "(docs/07-awbarrier.md#two-stages-two-barriers-each)",
                            "Read after full[s] completes; refill only after empty[s] completes.",
                            NULL},
             [SL_V_TIMEOUT] =
                 {"Which barrier phase never completes, and who was supposed to arrive "
                  "on it? (docs/07-awbarrier.md#cudamemcpy_async-and-a-barrier)",
                  "Every phase needs its expected arrivals: memcpy_async adds the copy "
                  "but does not arrive for the producer.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] =
                 "Read a stage only after full[s] completed the phase of its tile: tile k is "
                 "phase k / 2 of full[k % 2], parity (k / 2) % 2. The last tile is len long: "
                 "its mirror is x[len - 1 - j], not x[blockDim.x - 1 - j].",
             [SL_V_RACE] =
                 "A stage is read before its copy landed (no wait, or a wait on the wrong "
                 "phase), or refilled before every thread arrived on empty[s] after reading it.",
             [SL_V_SYNC] = "Count the arrivals: full[s] expects the producer's arrive() after its "
                           "memcpy_async, empty[s] one arrival per thread per tile. A thread that "
                           "leaves early calls arrive_and_drop().",
             [SL_V_LAUNCH] = "More arrivals in a phase than init's count (Barrier overflow), or a "
                             "barrier used before __syncthreads() published init.",
             [SL_V_TIMEOUT] =
                 "A phase never completed: memcpy_async does not arrive for you (the "
                 "producer still calls arrive()), or a wait_parity with the wrong parity "
                 "waits for a phase that needs this very thread to go on.",
             [SL_V_MEMORY] = "Copy len elements of the last tile, not blockDim.x; tile t starts at "
                             "t * blockDim.x; guard out[] with j < len.",
             [SL_V_RULE] =
                 "Stage the tiles with cuda::memcpy_async(dst, src, bytes, full[s]) (cp.async), "
                 "not a loop of plain loads into shared memory.",
         }},
};

SL_SUITE_COVERS(exercises);
static const sl_declared declared[] = SL_DECLARED(SL_LESSON_EXERCISES);

const sl_lesson sl_lesson_awbarrier = {"awbarrier",
                                       "Asynchronous barrier",
                                       "docs/07-awbarrier.md",
                                       exercises,
                                       sizeof exercises / sizeof exercises[0],
                                       declared};
