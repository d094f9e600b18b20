/* Check suite of lesson 7: the asynchronous barrier (cuda::barrier). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "exercise.h"
#include "reference.h"

/* ---- split_arrive_wait --------------------------------------------------- */

typedef struct { int n, block, iters; } saw_shape;

static const saw_shape saw_full[] = {
    {1, 32, 1},          {1, 1024, 3},        {31, 32, 4},        {33, 32, 5},
    {100, 64, 2},        {1000, 128, 7},      {1000, 1024, 8},    {4097, 256, 16},
    {65537, 512, 12},    {100003, 96, 9},     {250000, 128, 64},  {1 << 20, 256, 16},
    {2000003, 32, 6},    {3000017, 1024, 10}, {777777, 480, 3},
};
static const saw_shape saw_small[] = { {40, 32, 3}, {300, 128, 5}, {2048, 512, 6} };

static void saw_add(sl_rng *rng, const saw_shape *s, sl_inputs *out)
{
    int grid = (s->n + s->block - 1) / s->block;
    sl_input *in = sl_inputs_add(out, "n=%d block=%d grid=%d iters=%d",
                                 s->n, s->block, grid, s->iters);
    in->in.param[SL_P_N] = s->n;
    in->in.param[SL_P_BLOCK] = s->block;
    in->in.param[SL_P_GRID] = grid;
    in->in.param[SL_P_A] = s->iters;
    uint32_t *v = sl_case_add(&in->in, SL_U32, (uint64_t)s->n);
    if (!v)
        abort();
    /* Small values keep the first iterations readable; they wrap later. */
    for (int i = 0; i < s->n; i++)
        v[i] = (uint32_t)sl_rng_range(rng, 0, 99);
}

static void saw_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    const saw_shape *s = set == SL_INPUTS_SMALL ? saw_small : saw_full;
    int count = set == SL_INPUTS_SMALL ? (int)(sizeof saw_small / sizeof *s)
                                       : (int)(sizeof saw_full / sizeof *s);
    for (int k = 0; k < count; k++)
        saw_add(rng, &s[k], out);
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
    int iters = (int)in->param[SL_P_A];
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

/* Scoped by mangled name ("_Z17split_arrive_wait...") so a renamed copy in
 * the same file, like the reference inside a bug-zoo mutant, does not count. */
static const sl_rule saw_rules[] = {
    { SL_RULE_REQUIRE, "_Z17split_arrive_wait", "mbarrier.arrive",
      "the exercise is about cuda::barrier: arrive() and wait() on a block_barrier "
      "(mbarrier.arrive in the PTX), not __syncthreads() alone" },
    { SL_RULE_END, NULL, NULL, NULL },
};

/* ---- normalize --------------------------------------------------------------- */

typedef struct { int n, block; } norm_shape;

static const norm_shape norm_full[] = {
    {1, 32},      {7, 64},        {31, 32},       {1000, 128},     {4099, 256},
    {65537, 1024}, {100000, 96},  {1000003, 256}, {1 << 21, 512},  {2000003, 64},
    {1500000, 1024},
};
static const norm_shape norm_small[] = { {40, 32}, {300, 64}, {2048, 512} };

static void norm_add(sl_rng *rng, const norm_shape *s, sl_inputs *out)
{
    sl_input *in = sl_inputs_add(out, "n=%d block=%d (grid: your launcher's)", s->n, s->block);
    in->in.param[SL_P_N] = s->n;
    in->in.param[SL_P_BLOCK] = s->block;
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
    const norm_shape *s = set == SL_INPUTS_SMALL ? norm_small : norm_full;
    int count = set == SL_INPUTS_SMALL ? (int)(sizeof norm_small / sizeof *s)
                                       : (int)(sizeof norm_full / sizeof *s);
    for (int k = 0; k < count; k++)
        norm_add(rng, &s[k], out);
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
            sl_text_printf(why, "%s index %d: expected %.9g, got %.9g (tolerance %.2g)\n",
                           name, i, expected, (double)g[i], tol);
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
    return ok_a && ok_b;
}

static const sl_rule norm_rules[] = {
    { SL_RULE_REQUIRE, "_Z9normalize", "mbarrier.arrive",
      "the block reduction must use the cuda::barrier (arrive()/wait(): mbarrier.arrive "
      "in the PTX), not __syncthreads() alone" },
    { SL_RULE_END, NULL, NULL, NULL },
};

static const sl_exercise exercises[] = {
    { .name = "split_arrive_wait", .title = "Split arrive and wait, double-buffered",
      .doc = "docs/07-awbarrier.md#split-arrive-and-wait", .points = 10,
      .make_inputs = saw_inputs, .check = saw_check, .rules = saw_rules,
      .hint = {
          [SL_V_WRONG] = "Read left and right from the buffer published this iteration "
                         "(0 outside the tile); threads past n keep v = 0; h uses v before the update.",
          [SL_V_RACE] = "Read a neighbour's value only after bar.wait(token), and alternate "
                        "two buffers so a fast thread's next write cannot hit a value still being read.",
          [SL_V_SYNC] = "Every thread of the block arrives exactly once per phase: "
                        "init(&bar, blockDim.x), no arrive() inside a branch only some threads take.",
          [SL_V_LAUNCH] = "Barrier overflow: more arrivals than init's count (use blockDim.x, one "
                          "arrive() per thread per phase), or arrivals before __syncthreads() published init.",
          [SL_V_TIMEOUT] = "A wait never completed: a thread returned early or skipped arrive(), "
                           "or init's count exceeds blockDim.x.",
          [SL_V_MEMORY] = "An error inside mbarrier_arrive: a thread arrived before init was "
                          "published (__syncthreads() after init). Else guard in/out/hist with i < n.",
          [SL_V_RULE] = "Synchronize the iterations with the block_barrier's arrive() and wait().",
      } },
    { .name = "normalize", .title = "Normalize two vectors by sqrt(A.B) (simpleAWBarrier)",
      .doc = "docs/07-awbarrier.md#normalizing-two-vectors", .points = 10,
      .make_inputs = norm_inputs, .check = norm_check, .rules = norm_rules, .repeats = 2,
      .hint = {
          [SL_V_WRONG] = "grid.sync() between the dot product and the scaling, every partial added "
                         "once, and divide by sqrt(dot), not dot.",
          [SL_V_RACE] = "Lane 0 writes its warp's sum, then bar.arrive() + bar.wait() before anyone "
                        "reads the sums; reusing them later needs another barrier (grid.sync() is one).",
          [SL_V_SYNC] = "Every thread of the block arrives once per phase: init(&bar, blockDim.x), "
                        "no arrive() or grid.sync() inside a branch.",
          [SL_V_LAUNCH] = "grid.sync() needs cudaLaunchCooperativeKernel with at most (occupancy "
                          "blocks per SM) x (SMs) blocks; <<<>>> gives 'unspecified launch failure'.",
          [SL_V_TIMEOUT] = "A barrier or grid.sync() that some thread never reaches, or a grid "
                           "larger than what fits on the GPU at once.",
          [SL_V_MEMORY] = "partial[] holds NORMALIZE_MAX_BLOCKS doubles of garbage: read only the "
                          "gridDim.x slots written in this launch; guard a[i], b[i] with i < n.",
          [SL_V_RULE] = "Do the block reduction with the block_barrier's arrive() and wait().",
      } },
};

const sl_lesson sl_lesson_awbarrier = { "awbarrier", "Asynchronous barrier", "docs/07-awbarrier.md",
                                        exercises, sizeof exercises / sizeof exercises[0] };
