/* Lesson 3 (reduction): the Check suite. Inputs, CPU comparison, PTX
 * rules and hints. No CUDA here. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "exercise.h"
#include "exercises.h"
#include "reference.h"
#include "shapes.h"

/* ---- input makers -------------------------------------------------------- */

static void fill_i32(sl_rng *r, int32_t *x, uint64_t n, int64_t lo, int64_t hi)
{
    sl_rng_fill_i32(r, x, n, lo, hi);
}

static void fill_f32(sl_rng *r, float *x, uint64_t n, double lo, double hi)
{
    for (uint64_t i = 0; i < n; i++)
        x[i] = (float)sl_rng_double(r, lo, hi);
}

/* A per-block case: n ints, blockDim.x = block. Values in [lo, hi]. */
static void add_block_case(sl_rng *r, sl_inputs *out, int64_t n, int64_t block, int64_t lo,
                           int64_t hi, const char *note)
{
    int64_t blocks = (n + block - 1) / block, last = n - (blocks - 1) * block;
    sl_input *in = sl_inputs_add(out,
                                 "n=%" PRId64 " block=%" PRId64 " (%" PRId64 " block%s, last "
                                 "holds %" PRId64 ")%s",
                                 n, block, blocks, blocks > 1 ? "s" : "", last, note);
    in->in.param[SL_P_N] = n;
    in->in.param[SL_P_BLOCK] = block;
    in->in.param[SL_P_GRID] = 0; /* the harness launches ceil(n / block) blocks */
    int32_t *x = sl_case_add(&in->in, SL_I32, (uint64_t)n);
    if (!x)
        abort();
    fill_i32(r, x, (uint64_t)n, lo, hi);
}

static void block_inputs(sl_rng *r, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        /* shapes.h: one-warp blocks (a tree with no barrier when the block is
         * one warp races there), blocks of several warps (cross-warp
         * hazards), 1024, n = 1, 2, 3, partial last blocks and warps (memcheck
         * sees a read past n, synccheck a barrier reached by part of a warp). */
        sl_shape s[SL_SMALL_SHAPES];
        int count = sl_small_shapes(r, SL_BLOCKS_POW2, s);
        for (int k = 0; k < count; k++)
            add_block_case(r, out, s[k].n, s[k].block, -1000, 1000, "");
        return;
    }
    for (int64_t block = 32; block <= 1024; block *= 2) {
        add_block_case(r, out, 1, block, -1000, 1000, "");
        add_block_case(r, out, block - 1, block, -1000, 1000, "");
        add_block_case(r, out, block, block, -1000, 1000, "");
        add_block_case(r, out, block + 1, block, -1000, 1000, "");
        add_block_case(r, out, 7 * block + sl_rng_range(r, 1, block - 1), block, -1000, 1000, "");
        add_block_case(r, out, sl_rng_range(r, 1000, 50000), block, -1000, 1000, "");
    }
    add_block_case(r, out, (1 << 18) + 5, 32, -1000, 1000, "");
    add_block_case(r, out, (1 << 20) + 3, 256, -1000, 1000, "");
    add_block_case(r, out, 3000001, 1024, -1000, 1000, "");
    add_block_case(r, out, 100003, 512, INT32_MIN, INT32_MAX,
                   ", values over the whole int range: sums wrap modulo 2^32");
}

/* A sum case: offset + n elements uploaded, the last n summed. */
static sl_input *add_sum_case(sl_inputs *out, int type, int64_t n, int64_t offset, const char *note,
                              void **data)
{
    sl_input *in = sl_inputs_add(out,
                                 "n=%" PRId64 " starting %" PRId64 " elements past a "
                                 "16-byte boundary%s",
                                 n, offset, note);
    in->in.param[SL_P_N] = n;
    in->in.param[SUM_P_OFFSET] = offset;
    *data = sl_case_add(&in->in, type, (uint64_t)(offset + n));
    if (!*data)
        abort();
    return in;
}

/* Sizes around every boundary of a vectorized grid-stride sum: fewer than
 * one vector, partial vectors, one block, many blocks, several rounds of a
 * GPU-filling grid (132 SMs x 2048 threads x 4 vectors is about 4.3 M ints). */
static const int64_t sum_sizes[] = {1,       2,      3,   4,    5,    7,    8,     31,
                                    33,      255,    256, 1000, 1023, 4097, 65537, (1 << 20) + 1,
                                    2000003, 8388617};

/* The sanitizer inputs of the full-array sums: every residue of n mod 4
 * from an aligned start (the tail after the last whole vector); offsets 1,
 * 2, 3 (a head of 4 - offset elements before the first 16-byte boundary),
 * each with another tail length; n = 1, 2, 3 from misaligned starts, where
 * n = 1 and 2 are shorter than their head (a head that does not stop at n
 * reads past it). Sizes and pairings come from the seed. */
enum { SUM_SMALL_MAX = 10 };
typedef struct {
    int64_t n, offset;
} sum_shape;

static int sum_small_shapes(sl_rng *r, sum_shape *s)
{
    int tails[4] = {0, 1, 2, 3};
    sl_shuffle(r, tails, 4);
    int count = 0;
    for (int k = 0; k < 4; k++)
        s[count++] = (sum_shape){4 * sl_rng_range(r, 8, 600) + tails[k], 0};
    for (int off = 1; off <= 3; off++)
        s[count++] = (sum_shape){(4 - off) + 4 * sl_rng_range(r, 8, 600) + tails[off], off};
    for (int n = 1; n <= 3; n++)
        s[count++] = (sum_shape){n, sl_rng_range(r, 1, n <= 2 ? 2 : 3)}; /* n <= 2 < head */
    return count;
}

static void sum_int_inputs(sl_rng *r, sl_input_set set, sl_inputs *out)
{
    void *x;
    if (set == SL_INPUTS_SMALL) {
        sum_shape s[SUM_SMALL_MAX];
        int count = sum_small_shapes(r, s);
        for (int i = 0; i < count; i++) {
            add_sum_case(out, SL_I32, s[i].n, s[i].offset, "", &x);
            fill_i32(r, x, (uint64_t)(s[i].offset + s[i].n), -1000, 1000);
        }
        return;
    }
    for (size_t i = 0; i < sizeof sum_sizes / sizeof sum_sizes[0]; i++) {
        int64_t n = sum_sizes[i];
        for (int64_t off = 0; off < 4; off++) {
            if (n > 8 && off != (int64_t)(i % 4))
                continue; /* every offset for tiny n, one each for the rest */
            add_sum_case(out, SL_I32, n, off, "", &x);
            fill_i32(r, x, (uint64_t)(off + n), -1000, 1000);
        }
    }
    add_sum_case(out, SL_I32, 1000003, 1,
                 ", values over the whole int range: the sum wraps "
                 "modulo 2^32",
                 &x);
    fill_i32(r, x, 1000004, INT32_MIN, INT32_MAX);
    /* the contract's largest n, 2^25 (reduction.h): a second level or a
     * missing grid-stride loop shows here */
    int64_t big = (int64_t)1 << 25, big_off = sl_rng_range(r, 0, 3);
    add_sum_case(out, SL_I32, big, big_off, "", &x);
    fill_i32(r, x, (uint64_t)(big + big_off), -1000, 1000);
}

static void sum_float_inputs(sl_rng *r, sl_input_set set, sl_inputs *out)
{
    void *x;
    if (set == SL_INPUTS_SMALL) {
        sum_shape s[SUM_SMALL_MAX];
        int count = sum_small_shapes(r, s);
        for (int i = 0; i < count; i++) {
            /* positive: an element read twice or lost moves the sum past the tolerance */
            add_sum_case(out, SL_F32, s[i].n, s[i].offset, ", values in [0, 1)", &x);
            fill_f32(r, x, (uint64_t)(s[i].offset + s[i].n), 0.0, 1.0);
        }
        return;
    }
    for (size_t i = 0; i < sizeof sum_sizes / sizeof sum_sizes[0]; i++) {
        int64_t n = sum_sizes[i];
        /* Positive values make a lost element move the sum one way, far
         * past the tolerance; mixed signs test cancellation. */
        int positive = i % 2 == 0;
        const char *note = positive ? ", values in [0, 1)" : ", values in [-1, 1)";
        for (int64_t off = 0; off < 4; off++) {
            if (n > 8 && off != (int64_t)(i % 4))
                continue;
            add_sum_case(out, SL_F32, n, off, note, &x);
            fill_f32(r, x, (uint64_t)(off + n), positive ? 0.0 : -1.0, 1.0);
        }
    }
    int64_t big = (int64_t)1 << 25, big_off = sl_rng_range(r, 0, 3); /* the largest n */
    add_sum_case(out, SL_F32, big, big_off, ", values in [0, 1)", &x);
    fill_f32(r, x, (uint64_t)(big + big_off), 0.0, 1.0);
}

/* ---- checks --------------------------------------------------------------- */

static int block_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    uint64_t n = (uint64_t)in->param[SL_P_N], block = (uint64_t)in->param[SL_P_BLOCK];
    uint64_t blocks = (n + block - 1) / block;
    if (!sl_expect_shape(out, 0, SL_I32, blocks, why))
        return 0;
    int32_t *want = malloc(blocks * sizeof *want);
    if (!want)
        abort();
    ref_block_sums_i32(in->array[0].data, n, block, want);
    int ok = sl_expect_i32(want, &out->array[0], blocks, why);
    if (!ok) {
        const int32_t *got = out->array[0].data;
        uint64_t last = blocks - 1, empty = blocks * block - n;
        sl_text_printf(why,
                       "(index b is block b: out[b] is the sum of in[b*%" PRIu64 "] .. "
                       "in[(b+1)*%" PRIu64 " - 1])\n",
                       block, block);
        if (empty > 0 && (int64_t)got[last] - want[last] == -(int64_t)empty)
            sl_text_printf(why,
                           "the last block is off by exactly -%" PRIu64 ": its %" PRIu64
                           " empty shared slots were summed as -1 each (the 0xFF garbage "
                           "shared memory starts with): store 0 there\n",
                           empty, empty);
    }
    free(want);
    return ok;
}

static int sum_int_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    uint64_t n = (uint64_t)in->param[SL_P_N], off = (uint64_t)in->param[SUM_P_OFFSET];
    if (!sl_expect_shape(out, 0, SL_I32, 1, why))
        return 0;
    int32_t want = ref_sum_i32((const int32_t *)in->array[0].data + off, n);
    int ok = sl_expect_i32(&want, &out->array[0], 1, why);
    if (!ok) {
        int32_t got = ((const int32_t *)out->array[0].data)[0];
        if ((uint32_t)got == (uint32_t)want - 1u)
            sl_text_printf(why, "got = expected - 1: *d_out still held its initial -1 "
                                "(0xFFFFFFFF); set it to 0 before the blocks add into it\n");
    }
    return ok;
}

static int sum_float_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    uint64_t n = (uint64_t)in->param[SL_P_N], off = (uint64_t)in->param[SUM_P_OFFSET];
    if (!sl_expect_shape(out, 0, SL_F32, 1, why))
        return 0;
    double sum_abs;
    double want = ref_sum_f32((const float *)in->array[0].data + off, n, &sum_abs);
    int ok = sl_expect_f32(&want, &out->array[0], 1, sl_sum_tolerance(n, sum_abs), why);
    if (!ok && isnan(((const float *)out->array[0].data)[0]))
        sl_text_printf(why, "NaN: *d_out starts as 0xFFFFFFFF, which is a NaN as a float; set "
                            "it to 0 before the blocks add into it\n");
    return ok;
}

/* ---- rules and the lesson ------------------------------------------------- */

/* The exercises are the reductions CUB and thrust would do for you. */
#define NO_LIBRARY                                                                                 \
    SL_RULES_NO_LIBRARY("CUB and thrust are not allowed in this lesson: the exercise is to write " \
                        "the reduction yourself (a shared-memory tree, warp shuffles, one atomic " \
                        "per block)")

static const sl_rule tree_rules[] = {
    NO_LIBRARY,
    {SL_RULE_FORBID, "tree_reduce", SL_ATOMIC_OPCODES,
     "tree_reduce must add through the shared-memory tree; an atomic on s[0] or on out "
     "serializes the block and skips the lesson (atomics come back in the full-array sums)",
     "atomics (an mbarrier's pending count, an atomic counter too, included)"},
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

static const sl_rule mirrored_rules[] = {
    NO_LIBRARY,
    {SL_RULE_FORBID, "mirrored_reduce", SL_ATOMIC_OPCODES,
     "mirrored_reduce must add through the shared-memory tree, without atomics",
     "atomics (an mbarrier's pending count, an atomic counter too, included)"},
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

static const sl_rule sum_rules[] = {
    NO_LIBRARY,
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

/* ---- the playground (make run) ------------------------------------------ */

static int block_expected(const sl_case *in, sl_case *out)
{
    uint64_t n = (uint64_t)in->param[SL_P_N], block = (uint64_t)in->param[SL_P_BLOCK];
    sl_expected_start(in, out);
    int32_t *e = sl_case_add(out, SL_I32, (n + block - 1) / block);
    if (!e)
        return -1;
    ref_block_sums_i32(in->array[0].data, n, block, e);
    return 0;
}

/* n values from a 16-byte boundary (the grading inputs also start past one). */
static void sum_int_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    (void)block;
    void *x;
    add_sum_case(out, SL_I32, n, 0, "", &x);
    fill_i32(rng, x, (uint64_t)n, -1000, 1000);
}

static void sum_float_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    (void)block;
    void *x;
    add_sum_case(out, SL_F32, n, 0, ", values in [0, 1)", &x);
    fill_f32(rng, x, (uint64_t)n, 0.0, 1.0);
}

static int sum_int_expected(const sl_case *in, sl_case *out)
{
    uint64_t n = (uint64_t)in->param[SL_P_N], off = (uint64_t)in->param[SUM_P_OFFSET];
    sl_expected_start(in, out);
    int32_t *e = sl_case_add(out, SL_I32, 1);
    if (!e)
        return -1;
    e[0] = ref_sum_i32((const int32_t *)in->array[0].data + off, n);
    return 0;
}

static int sum_float_expected(const sl_case *in, sl_case *out)
{
    uint64_t n = (uint64_t)in->param[SL_P_N], off = (uint64_t)in->param[SUM_P_OFFSET];
    sl_expected_start(in, out);
    float *e = sl_case_add(out, SL_F32, 1);
    double sum_abs;
    if (!e)
        return -1;
    e[0] = (float)ref_sum_f32((const float *)in->array[0].data + off, n, &sum_abs);
    return 0;
}

static const sl_exercise exercises[] = {
    {.name = SL_NAME(tree_reduce),
     .shape = {SL_BLOCKS_POW2, 0, 3000001,
               "blocks of a power of two threads, 32 to 1024; n from 1 to 3000001 (reduction.h)"},
     .expected = block_expected,
     .title = "Per-block shared-memory tree reduction",
     .doc = "docs/03-reduction.md#tree-reduce",
     .points = 10,
     .make_inputs = block_inputs,
     .check = block_check,
     .rules = tree_rules,
     .ladder =
         {
             [SL_V_RACE] =
                 {"At each level, which slots does a thread read that another thread wrote at the "
                  "level before? Read "
                  "docs/03-reduction.md#the-tree-log2n-levels-a-barrier-per-level.",
                  "Each level reads what the previous level wrote: one __syncthreads() between "
                  "levels, reached by the whole block.",
                  NULL},
             [SL_V_SYNC] =
                 {"Is your __syncthreads() inside if (tid < off)? Read "
                  "docs/03-reduction.md#tree-reduce on where the barrier of a level goes.",
                  "The barrier of a level sits outside the branch that picks the adding threads: "
                  "every thread reaches it.",
                  NULL},
             [SL_V_WRONG] =
                 {"What do the threads with i >= n leave in their shared slot? Read "
                  "docs/03-reduction.md#tree-reduce.",
                  "Shared memory starts with garbage: every slot the tree reads must hold a "
                  "value, 0 for threads past n.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] = "Threads with i >= n must store 0 in their shared slot: shared memory "
                            "starts with garbage, not zeros.",
             [SL_V_RACE] = "Each level reads what the previous level wrote: __syncthreads() after "
                           "every level, outside the if.",
             [SL_V_SYNC] =
                 "__syncthreads() inside `if (tid < off)` is reached by part of the block "
                 "only: move it after the if.",
             [SL_V_MEMORY] = "Read in[i] only when i < n: the last block is partial.",
             [SL_V_TIMEOUT] =
                 "A barrier that some threads never reach: keep __syncthreads() out of "
                 "conditionals.",
             [SL_V_RULE] = "No atomics: add pairs level by level in shared memory.",
         }},
    {.name = SL_NAME(mirrored_reduce),
     .shape = {SL_BLOCKS_POW2, 0, 3000001,
               "blocks of a power of two threads, 32 to 1024; n from 1 to 3000001 (reduction.h)"},
     .expected = block_expected,
     .title = "The seed's mirrored pairing, race-free",
     .doc = "docs/03-reduction.md#mirrored-reduce",
     .points = 10,
     .make_inputs = block_inputs,
     .check = block_check,
     .rules = mirrored_rules,
     .ladder =
         {
             [SL_V_RACE] =
                 {"At each level, which slots does a thread read that another thread wrote at the "
                  "level before? Read "
                  "docs/03-reduction.md#the-tree-log2n-levels-a-barrier-per-level.",
                  "Each level reads what the previous level wrote: one __syncthreads() between "
                  "levels, reached by the whole block.",
                  NULL},
             [SL_V_SYNC] =
                 {"Is your __syncthreads() inside if (tid < off)? Read "
                  "docs/03-reduction.md#mirrored-reduce on where the barrier of a level goes.",
                  "The barrier of a level sits outside the branch that picks the adding threads: "
                  "every thread reaches it.",
                  NULL},
             [SL_V_WRONG] =
                 {"What do the threads with i >= n leave in their shared slot? Read "
                  "docs/03-reduction.md#mirrored-reduce.",
                  "Shared memory starts with garbage: every slot the tree reads must hold a "
                  "value, 0 for threads past n.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] = "Threads with i >= n must store 0 in their shared slot: shared memory "
                            "starts with garbage, not zeros.",
             [SL_V_RACE] =
                 "Thread tid reads s[2*off-tid-1] while its mirror writes it: read into a "
                 "register, __syncthreads(), write, __syncthreads().",
             [SL_V_SYNC] = "Both barriers of a level must be reached by the whole block: put them "
                           "outside `if (tid < 2*off)`.",
             [SL_V_MEMORY] = "Read in[i] only when i < n: the last block is partial.",
             [SL_V_TIMEOUT] =
                 "A barrier that some threads never reach: keep __syncthreads() out of "
                 "conditionals.",
             [SL_V_RULE] = "No atomics: add mirrored pairs level by level in shared memory.",
         }},
    {.name = SL_NAME(sum_int),
     .shape = {SL_BLOCKS_ANY, 1, (int64_t)1 << 25,
               "your launcher picks the grid and block; n from 1 to 2^25 (reduction.h)"},
     .make_input = sum_int_input,
     .expected = sum_int_expected,
     .title = "Sum of any n ints at memory bandwidth",
     .doc = "docs/03-reduction.md#full-array-int-sum",
     .points = 15,
     .make_inputs = sum_int_inputs,
     .check = sum_int_check,
     .rules = sum_rules,
     .bench = SL_BENCH_OF(sum_int),
     .ladder =
         {
             [SL_V_WRONG] =
                 {"Is every element counted exactly once, also the tail that does not fill a "
                  "vector load, and is the result reset before the blocks add? Read "
                  "docs/03-reduction.md#full-array-int-sum.",
                  "A grid-stride loop covers every element once; the output starts at 0 before "
                  "any block adds into it.",
                  NULL},
             [SL_V_RACE] =
                 {"Between the warps writing their totals to shared memory and the first warp "
                  "reading them, what waits? Read "
                  "docs/03-reduction.md#grid-stride-accumulation-at-memory-bandwidth.",
                  "Shared memory written by one warp and read by another needs __syncthreads() "
                  "between the two.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] =
                 "Set *d_out to 0 before the blocks add into it, and count every element "
                 "once: the head before the 16-byte boundary, the int4 body, the tail.",
             [SL_V_RACE] = "A barrier is missing between writing the warp totals to shared memory "
                           "and reading them.",
             [SL_V_SYNC] = "Every thread of the block must reach the block sum's barrier, also "
                           "threads that had no element.",
             [SL_V_MEMORY] = "int4 loads need a 16-byte aligned address (d_in is not always), and "
                             "nothing may be read past d_in[n-1].",
             [SL_V_LAUNCH] = "Check the launch: 1 <= grid < 2^31, block <= 1024, and that the "
                             "kernel does not trap.",
         }},
    {.name = SL_NAME(sum_float),
     .shape = {SL_BLOCKS_ANY, 1, (int64_t)1 << 25,
               "your launcher picks the grid and block; n from 1 to 2^25 (reduction.h)"},
     .make_input = sum_float_input,
     .expected = sum_float_expected,
     .title = "Sum of any n floats",
     .doc = "docs/03-reduction.md#full-array-float-sum",
     .points = 10,
     .make_inputs = sum_float_inputs,
     .check = sum_float_check,
     .rules = sum_rules,
     .ladder =
         {
             [SL_V_WRONG] =
                 {"Is every element counted exactly once, also the tail that does not fill a "
                  "vector load, and is the result reset before the blocks add? Read "
                  "docs/03-reduction.md#full-array-float-sum.",
                  "A grid-stride loop covers every element once; the output starts at 0 before "
                  "any block adds into it.",
                  NULL},
             [SL_V_RACE] =
                 {"Between the warps writing their totals to shared memory and the first warp "
                  "reading them, what waits? Read "
                  "docs/03-reduction.md#grid-stride-accumulation-at-memory-bandwidth.",
                  "Shared memory written by one warp and read by another needs __syncthreads() "
                  "between the two.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] =
                 "Rounding alone stays within the tolerance: a larger error means lost or "
                 "double-counted elements, or *d_out not set to 0 first.",
             [SL_V_RACE] = "A barrier is missing between writing the warp totals to shared memory "
                           "and reading them.",
             [SL_V_SYNC] = "Every thread of the block must reach the block sum's barrier, also "
                           "threads that had no element.",
             [SL_V_MEMORY] =
                 "float4 loads need a 16-byte aligned address (d_in is not always), and "
                 "nothing may be read past d_in[n-1].",
             [SL_V_LAUNCH] = "Check the launch: 1 <= grid < 2^31, block <= 1024, and that the "
                             "kernel does not trap.",
         }},
};

SL_SUITE_COVERS(exercises);
static const sl_declared declared[] = SL_DECLARED(SL_LESSON_EXERCISES);

const sl_lesson sl_lesson_reduction = {"reduction",
                                       "Reduction",
                                       "docs/03-reduction.md",
                                       exercises,
                                       sizeof exercises / sizeof exercises[0],
                                       declared};
