/* Check suite of lesson 5: worklist insertion and stream compaction, both
 * from an exclusive scan, without atomics. */
#include <stdarg.h>
#include <stdlib.h>

#include "exercise.h"
#include "exercises.h"
#include "reference.h"
#include "shapes.h"

/* Lines of detail a failed check prints before "... and N more". */
enum { MAX_REPORTED = 3 };

/* Collects mismatch lines, keeping the first few. */
typedef struct {
    sl_text *why;
    uint64_t count;
} problems;

static void problem(problems *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(problems *p, const char *fmt, ...)
{
    if (p->count++ < MAX_REPORTED) {
        va_list ap;
        va_start(ap, fmt);
        sl_text_vprintf(p->why, fmt, ap);
        va_end(ap);
        sl_text_printf(p->why, "\n");
    }
}

static int problems_done(problems *p)
{
    if (p->count > MAX_REPORTED)
        sl_text_printf(p->why, "... and %llu more problems\n",
                       (unsigned long long)(p->count - MAX_REPORTED));
    return p->count == 0;
}

static void *alloc_or_die(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        abort();
    return p;
}

/* ---- shared rules ---------------------------------------------------------
 * Library code first, so a student who calls CUB gets the precise reason
 * rather than an atomic somewhere inside CUB. Function names are matched on
 * the mangled name: "3cub" and "6thrust" are the namespaces, and a function
 * there counts only if its code comes from their headers (ptx.h). */
static const sl_rule no_atomics[] = {
    SL_RULES_NO_LIBRARY("CUB and thrust are not allowed in this lesson: the exercise is to write "
                        "the multi-block exclusive scan yourself (scan the tiles, scan the tile "
                        "sums, add them back)."),
    /* (an mbarrier's pending count included: ptx.h) */
    {SL_RULE_FORBID, NULL, SL_ATOMIC_OPCODES,
     "Atomics are forbidden in this lesson (atomicAdd/Inc/Exch/CAS, inline atom./red. asm, "
     "bulk reductions into memory, an mbarrier's arrival count, and grid.sync(), which uses "
     "atomics inside). An atomic counter hands out places in "
     "whatever order threads happen to arrive, so the worklist changes from run to run and "
     "a compaction loses its order.",
     "atomics of every kind (an mbarrier's arrival count and grid.sync() included)"},
    {SL_RULE_END, NULL, NULL, NULL, NULL},
};

/* ---- worklist_insert ------------------------------------------------------ */

typedef enum {
    COUNTS_ZERO,    /* every thread pushes nothing */
    COUNTS_EQUAL,   /* every thread pushes a */
    COUNTS_RANDOM,  /* uniform in [a, b] */
    COUNTS_SPARSE,  /* 0 mostly; 1 in a of them gets [1, b] */
    COUNTS_ONE_HUGE /* 0 everywhere but one thread (at a, -1: the last, -2: random) with b */
} counts_kind;

typedef struct {
    int n, block;
    counts_kind kind;
    int a, b;
} wl_shape;

static const wl_shape wl_full[] = {
    {1, 32, COUNTS_EQUAL, 5, 0},
    {1, 256, COUNTS_ZERO, 0, 0},
    {1, 1024, COUNTS_ONE_HUGE, 0, 100000},
    {31, 32, COUNTS_RANDOM, 0, 4},
    {33, 32, COUNTS_RANDOM, 0, 4},
    {100, 128, COUNTS_RANDOM, 0, 4},
    {1000, 256, COUNTS_RANDOM, 0, 8},
    {1025, 1024, COUNTS_RANDOM, 0, 3},
    {2048, 1024, COUNTS_EQUAL, 2, 0},
    {4097, 64, COUNTS_ONE_HUGE, -1, 50000}, /* the last thread */
    {32769, 32, COUNTS_RANDOM, 0, 5},       /* 32*32*32 + 1: four scan levels */
    {65537, 256, COUNTS_SPARSE, 10, 40},
    {100000, 512, COUNTS_ZERO, 0, 0},
    {196615, 1024, COUNTS_EQUAL, 3, 0},
    {300000, 512, COUNTS_ONE_HUGE, -2, 1000000}, /* one thread pushes a million */
    {(1 << 20) + 13, 64, COUNTS_RANDOM, 0, 3},
    {2000003, 128, COUNTS_SPARSE, 5, 8},
    {4194301, 32, COUNTS_RANDOM, 0, 1}, /* 131072 blocks of 32 */
};

/* Sizes just past block^2 and block^3, the level boundaries of a two- or
 * three-level scan, for the blocks whose boundary fits a test run (block
 * 512 and 1024 pass 2^27 and 2^30: the compact bench at 2^28 runs 256). */
typedef struct {
    int64_t base;
    int block;
} level_edge;
static const level_edge level_edges[] = {
    {1 << 18, 64},   /* 64^3 */
    {1 << 21, 128},  /* 128^3 */
    {1 << 18, 512},  /* 512^2 */
    {1 << 20, 1024}, /* 1024^2 */
};

static const char *counts_name(counts_kind k)
{
    switch (k) {
    case COUNTS_ZERO: return "all zero";
    case COUNTS_EQUAL: return "all equal";
    case COUNTS_RANDOM: return "random";
    case COUNTS_SPARSE: return "sparse";
    case COUNTS_ONE_HUGE: return "one huge";
    }
    return "?";
}

static void wl_add(sl_rng *rng, const wl_shape *s, sl_inputs *out)
{
    int huge_at = 0;
    if (s->kind == COUNTS_ONE_HUGE)
        huge_at = s->a == -1 ? s->n - 1 : s->a == -2 ? (int)sl_rng_range(rng, 0, s->n - 1) : s->a;
    sl_input *in;
    if (s->kind == COUNTS_ONE_HUGE)
        in = sl_inputs_add(out, "n=%d block=%d counts: one huge (nelem[%d]=%d, others 0)", s->n,
                           s->block, huge_at, s->b);
    else if (s->kind == COUNTS_ZERO)
        in = sl_inputs_add(out, "n=%d block=%d counts: all zero", s->n, s->block);
    else if (s->kind == COUNTS_EQUAL)
        in = sl_inputs_add(out, "n=%d block=%d counts: all equal to %d", s->n, s->block, s->a);
    else if (s->kind == COUNTS_SPARSE)
        in = sl_inputs_add(out, "n=%d block=%d counts: sparse (1 in %d is 1..%d)", s->n, s->block,
                           s->a, s->b);
    else
        in = sl_inputs_add(out, "n=%d block=%d counts: %s %d..%d", s->n, s->block,
                           counts_name(s->kind), s->a, s->b);
    in->in.param[SL_P_N] = s->n;
    in->in.param[SL_P_BLOCK] = s->block;
    int32_t *nelem = sl_case_add(&in->in, SL_I32, (uint64_t)s->n);
    if (!nelem)
        abort();
    if (s->kind == COUNTS_RANDOM) {
        sl_rng_fill_i32(rng, nelem, (uint64_t)s->n, s->a, s->b);
        return;
    }
    for (int t = 0; t < s->n; t++) {
        switch (s->kind) {
        case COUNTS_ZERO: nelem[t] = 0; break;
        case COUNTS_EQUAL: nelem[t] = s->a; break;
        case COUNTS_RANDOM: nelem[t] = (int32_t)sl_rng_range(rng, s->a, s->b); break;
        case COUNTS_SPARSE:
            nelem[t] = sl_rng_range(rng, 1, s->a) == 1 ? (int32_t)sl_rng_range(rng, 1, s->b) : 0;
            break;
        case COUNTS_ONE_HUGE: nelem[t] = t == huge_at ? s->b : 0; break;
        }
    }
}

/* The sanitizer shapes of both exercises (shapes.h, powers of two): n = 1,
 * 2, 3; one-warp blocks past 32^2 elements (three scan levels); several
 * warps; 1024; partial last tiles. Sizes and pairings come from the seed. */
static int small_shapes(sl_rng *rng, sl_shape *s)
{
    int count = sl_small_shapes(rng, SL_BLOCKS_POW2, s);
    for (int k = 0; k < count; k++)
        if (s[k].cls == SL_SHAPE_ONE_WARP)
            s[k].n = sl_rng_partial_blocks(rng, 32, (int)sl_rng_range(rng, 33, 50));
    return count;
}

static void wl_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        sl_shape s[SL_SMALL_SHAPES];
        int count = small_shapes(rng, s), huge = (int)sl_rng_range(rng, 0, count - 1);
        for (int k = 0; k < count; k++) {
            wl_shape w = {(int)s[k].n, s[k].block, COUNTS_RANDOM, 0, 6};
            if (k == huge)
                w = (wl_shape){(int)s[k].n, s[k].block, COUNTS_ONE_HUGE, -2, 3000};
            wl_add(rng, &w, out);
        }
        return;
    }
    for (int k = 0; k < (int)(sizeof wl_full / sizeof *wl_full); k++)
        wl_add(rng, &wl_full[k], out);
    for (int k = 0; k < (int)(sizeof level_edges / sizeof *level_edges); k++) {
        wl_shape w = {(int)(level_edges[k].base + sl_rng_range(rng, 1, 4096)), level_edges[k].block,
                      COUNTS_RANDOM, 0, 2};
        wl_add(rng, &w, out);
    }
    /* past 2^24 = 256^3 */
    wl_shape big = {(int)SL_N_BIG, 256, COUNTS_RANDOM, 0, 1};
    wl_add(rng, &big, out);
}

/* Item (t, k) of an n-thread input, or -1 when no thread pushes it. */
static int64_t item_index(int32_t t, int32_t k, const int32_t *nelem, uint64_t n,
                          const int64_t *offsets)
{
    if (t < 0 || (uint64_t)t >= n || k < 0 || k >= nelem[t])
        return -1;
    return offsets[t] + k;
}

/* The order in the worklist is free: check that worklist[0..total) holds
 * every (t, k) exactly once and the spare room past total is untouched. */
static int wl_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    const int32_t *nelem = in->array[0].data;
    uint64_t n = in->array[0].count;
    int64_t *offsets = alloc_or_die((n + 1) * sizeof *offsets);
    int64_t total = worklist_ref_offsets(nelem, n, offsets);
    if (!sl_expect_shape(out, 0, SL_I32, 1, why) ||
        !sl_expect_shape(out, 1, SL_I32, 2 * (uint64_t)total, why)) {
        free(offsets);
        return 0;
    }
    const int32_t *got_total = out->array[0].data;
    const int32_t *items = out->array[1].data;
    uint64_t capacity = out->array[1].count / 2;

    problems p = {why, 0};
    if (got_total[0] != total)
        problem(&p, "total: expected %lld, got %d", (long long)total, got_total[0]);

    /* found_at[item] = the worklist position holding it, -1 while not seen. */
    int64_t *found_at = alloc_or_die((size_t)(total + 1) * sizeof *found_at);
    for (int64_t j = 0; j < total; j++)
        found_at[j] = -1;
    for (uint64_t i = 0; i < capacity; i++) {
        int32_t t = items[2 * i], k = items[2 * i + 1];
        int untouched = t == -1 && k == -1;
        if ((int64_t)i >= total) {
            if (!untouched)
                problem(&p,
                        "worklist[%llu] = (t=%d, k=%d): written past the total %lld "
                        "(only worklist[0..total) may be written)",
                        (unsigned long long)i, t, k, (long long)total);
            continue;
        }
        int64_t item = item_index(t, k, nelem, n, offsets);
        if (untouched)
            problem(&p, "worklist[%llu]: expected an item, got nothing (never written)",
                    (unsigned long long)i);
        else if (item < 0)
            problem(&p, "worklist[%llu] = (t=%d, k=%d): no thread pushes that item",
                    (unsigned long long)i, t, k);
        else if (found_at[item] >= 0)
            problem(&p, "worklist[%llu] = (t=%d, k=%d): a duplicate, also at worklist[%lld]",
                    (unsigned long long)i, t, k, (long long)found_at[item]);
        else
            found_at[item] = (int64_t)i;
    }
    /* Report missing items with their owner: walk the threads. */
    for (uint64_t t = 0; t < n; t++)
        for (int32_t k = 0; k < nelem[t]; k++)
            if (found_at[offsets[t] + k] < 0)
                problem(&p, "item (t=%llu, k=%d) is missing from worklist[0..%lld)",
                        (unsigned long long)t, k, (long long)total);
    free(found_at);
    free(offsets);
    return problems_done(&p);
}

/* ---- compact --------------------------------------------------------------- */

typedef struct {
    int n, block;
    int keep_percent; /* of values in [0, 2^30): threshold = (100 - p)% of 2^30 */
} cp_shape;

enum { CP_RANGE = 1 << 30 };

static const cp_shape cp_full[] = {
    {1, 32, 100},
    {1, 64, 0},
    {31, 32, 50},
    {100, 128, 50},
    {1000, 256, 30},
    {1025, 1024, 70},
    {4096, 512, 50},
    {32769, 32, 50},
    {65537, 256, 1},
    {100000, 512, 100},
    {100003, 64, 0},
    {250001, 1024, 99},
    {(1 << 20) + 77, 64, 50},
    {3000017, 1024, 90},
    {4194301, 32, 10},
};

static void cp_add(sl_rng *rng, const cp_shape *s, sl_inputs *out)
{
    int threshold = (int)((int64_t)CP_RANGE / 100 * (100 - s->keep_percent));
    if (s->keep_percent == 0)
        threshold = CP_RANGE; /* nothing is kept */
    sl_input *in = sl_inputs_add(out, "n=%d block=%d threshold=%d (keeps about %d%%)", s->n,
                                 s->block, threshold, s->keep_percent);
    in->in.param[SL_P_N] = s->n;
    in->in.param[SL_P_BLOCK] = s->block;
    in->in.param[COMPACT_P_THRESHOLD] = threshold;
    int32_t *v = sl_case_add(&in->in, SL_I32, (uint64_t)s->n);
    if (!v)
        abort();
    sl_rng_fill_i32(rng, v, (uint64_t)s->n, 0, CP_RANGE - 1);
}

static void cp_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        sl_shape s[SL_SMALL_SHAPES];
        int count = small_shapes(rng, s);
        for (int k = 0; k < count; k++) {
            cp_shape c = {(int)s[k].n, s[k].block, (int)sl_rng_range(rng, 30, 70)};
            cp_add(rng, &c, out);
        }
        return;
    }
    for (int k = 0; k < (int)(sizeof cp_full / sizeof *cp_full); k++)
        cp_add(rng, &cp_full[k], out);
    for (int k = 0; k < (int)(sizeof level_edges / sizeof *level_edges); k++) {
        cp_shape c = {(int)(level_edges[k].base + sl_rng_range(rng, 1, 4096)), level_edges[k].block,
                      50};
        cp_add(rng, &c, out);
    }
    /* past 2^24 = 256^3 */
    cp_shape big = {(int)SL_N_BIG, 256, 50};
    cp_add(rng, &big, out);
}

/* Exact: the kept elements in input order, then out[count..n) untouched (-1). */
static int cp_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    const int32_t *v = in->array[0].data;
    uint64_t n = in->array[0].count;
    int32_t threshold = (int32_t)in->param[COMPACT_P_THRESHOLD];
    if (!sl_expect_shape(out, 0, SL_I32, 1, why) || !sl_expect_shape(out, 1, SL_I32, n, why))
        return 0;
    int32_t *expected = alloc_or_die(n * sizeof *expected);
    for (uint64_t i = 0; i < n; i++)
        expected[i] = -1;
    uint64_t count = worklist_ref_compact(v, n, threshold, expected);
    const int32_t *got_count = out->array[0].data;
    const int32_t *got = out->array[1].data;

    int ok = 1;
    if ((int64_t)got_count[0] != (int64_t)count) {
        sl_text_printf(why, "count: expected %llu, got %d\n", (unsigned long long)count,
                       got_count[0]);
        ok = 0;
    }
    uint64_t first_bad = n;
    for (uint64_t i = 0; i < n && first_bad == n; i++)
        if (got[i] != expected[i])
            first_bad = i;
    if (first_bad < n) {
        sl_text_printf(why, "out: ");
        sl_expect_i32(expected, &out->array[1], n, why);
        if (first_bad >= count)
            sl_text_printf(why,
                           "out[%llu..n) must stay untouched (-1): only the %llu kept "
                           "elements are written\n",
                           (unsigned long long)count, (unsigned long long)count);
        ok = 0;
    }
    free(expected);
    return ok;
}

/* ---- the lesson ------------------------------------------------------------ */

/* ---- the playground (make run) ------------------------------------------ */

static void wl_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    wl_shape w = {(int)n, block, COUNTS_RANDOM, 0, 3};
    wl_add(rng, &w, out);
}

/* One valid worklist (the order is free): thread by thread, (t, k) pairs. */
static int wl_expected(const sl_case *in, sl_case *out)
{
    const int32_t *nelem = in->array[0].data;
    uint64_t n = in->array[0].count;
    int64_t total = 0;
    for (uint64_t t = 0; t < n; t++)
        total += nelem[t] > 0 ? nelem[t] : 0;
    sl_expected_start(in, out);
    int32_t *got_total = sl_case_add(out, SL_I32, 1);
    int32_t *items = sl_case_add(out, SL_I32, 2 * (uint64_t)total);
    if (!got_total || (total > 0 && !items))
        return -1;
    got_total[0] = (int32_t)total;
    int64_t j = 0;
    for (uint64_t t = 0; t < n; t++)
        for (int32_t k = 0; k < nelem[t]; k++, j++) {
            items[2 * j] = (int32_t)t;
            items[2 * j + 1] = k;
        }
    return 0;
}

static void cp_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    cp_shape c = {(int)n, block, 50};
    cp_add(rng, &c, out);
}

static int cp_expected(const sl_case *in, sl_case *out)
{
    uint64_t n = in->array[0].count;
    sl_expected_start(in, out);
    int32_t *count = sl_case_add(out, SL_I32, 1);
    int32_t *kept = sl_case_add(out, SL_I32, n);
    if (!count || !kept)
        return -1;
    for (uint64_t i = 0; i < n; i++)
        kept[i] = -1;
    count[0] = (int32_t)worklist_ref_compact(in->array[0].data, n,
                                             (int32_t)in->param[COMPACT_P_THRESHOLD], kept);
    return 0;
}

static const sl_exercise exercises[] = {
    {.name = SL_NAME(worklist_insert),
     .shape =
         {SL_BLOCKS_POW2, 0, SL_N_BIG,
          "blocks of a power of two threads, 32 to 1024; n from 1 to 2^24 + 2^20 - 1 (worklist.h)"},
     .make_input = wl_input,
     .expected = wl_expected,
     .title = "Worklist insertion without atomics",
     .doc = "docs/05-worklist.md#worklist-insertion",
     .points = 15,
     .make_inputs = wl_inputs,
     .check = wl_check,
     .rules = no_atomics,
     .repeats = 2,
     .ladder =
         {
             [SL_V_WRONG] =
                 {"Where must element i start in the output: after the elements before it in this "
                  "tile only, or in every tile before? Read "
                  "docs/05-worklist.md#worklist-insertion.",
                  "The place of an element is an EXCLUSIVE scan over the whole array: its tile's "
                  "offset plus its rank inside the tile.",
                  NULL},
             [SL_V_RACE] =
                 {"In your block scan, which shared slot is read in the same step another thread "
                  "writes it? Read docs/04-scan.md#hillis-steele-and-its-race.",
                  "A scan step reads into a register, then a barrier, then writes: never read and "
                  "write a slot in the same step.",
                  NULL},
             [SL_V_RULE] =
                 {"How does docs/05-worklist.md#two-ways-to-get-a-place get a place without "
                  "atomics?",
                  "Places come from your own scan: no atomics and no library scan in this "
                  "exercise.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] =
                 "Thread t must start at nelem[0]+...+nelem[t-1] (EXCLUSIVE), counted over "
                 "ALL blocks: scan the tile sums and add them back to every tile.",
             [SL_V_RACE] = "Your block scan reads a shared slot another thread writes in the same "
                           "step: put __syncthreads() between the writes and the reads.",
             [SL_V_SYNC] =
                 "Every __syncthreads() of the scan must be reached by the whole block: no "
                 "barrier inside if (i < n) or after an early return.",
             [SL_V_MEMORY] = "Guard i < n in the last, partial tile, and keep the scan's tile sums "
                             "inside scratch (WORKLIST_SCRATCH_INTS(n) ints, garbage on entry).",
             [SL_V_TIMEOUT] = "Blocks do not wait for each other inside a kernel: carry the tile "
                              "sums with a second launch instead of spinning on another block.",
             [SL_V_LAUNCH] =
                 "Launch ceil(n / block) blocks of `block` threads; the scan of the tile "
                 "sums is a smaller launch (ceil(tiles / block) blocks), never 0 blocks.",
             [SL_V_RULE] = "No atomics and no CUB/thrust: each thread's offset comes from your own "
                           "exclusive scan of nelem. Blocks that wait for each other inside one "
                           "launch need fences and cannot count on start order: carry the tile "
                           "sums with separate launches.",
             [SL_V_TODO] = "Delete SYNCLAB_TODO(worklist_insert) in starter/worklist.cu and write "
                           "the scan and the launcher.",
         }},
    {.name = SL_NAME(compact),
     .shape =
         {SL_BLOCKS_POW2, 0, SL_N_BIG,
          "blocks of a power of two threads, 32 to 1024; n from 1 to 2^24 + 2^20 - 1 (worklist.h)"},
     .make_input = cp_input,
     .expected = cp_expected,
     .title = "Order-preserving stream compaction",
     .doc = "docs/05-worklist.md#order-preserving-compaction",
     .points = 10,
     .make_inputs = cp_inputs,
     .check = cp_check,
     .rules = no_atomics,
     .repeats = 2,
     .bench = SL_BENCH_OF(compact),
     .ladder =
         {
             [SL_V_WRONG] =
                 {"Where must element i start in the output: after the elements before it in this "
                  "tile only, or in every tile before? Read "
                  "docs/05-worklist.md#order-preserving-compaction.",
                  "The place of an element is an EXCLUSIVE scan over the whole array: its tile's "
                  "offset plus its rank inside the tile.",
                  NULL},
             [SL_V_RACE] =
                 {"In your block scan, which shared slot is read in the same step another thread "
                  "writes it? Read docs/04-scan.md#hillis-steele-and-its-race.",
                  "A scan step reads into a register, then a barrier, then writes: never read and "
                  "write a slot in the same step.",
                  NULL},
             [SL_V_RULE] =
                 {"How does docs/05-worklist.md#two-ways-to-get-a-place get a place without "
                  "atomics?",
                  "Places come from your own scan: no atomics and no library scan in this "
                  "exercise.",
                  NULL},
         },
     .hint =
         {
             [SL_V_WRONG] = "A kept in[i] goes to out[number of kept elements before i]: an "
                            "EXCLUSIVE scan of the 0/1 flags, carried across all blocks.",
             [SL_V_RACE] = "Your block scan reads a shared slot another thread writes in the same "
                           "step: put __syncthreads() between the writes and the reads.",
             [SL_V_SYNC] =
                 "Every __syncthreads() of the scan must be reached by the whole block: no "
                 "barrier inside if (i < n) or after an early return.",
             [SL_V_MEMORY] =
                 "Guard i < n in the last, partial tile; write only out[0..count); keep "
                 "the tile sums inside scratch (WORKLIST_SCRATCH_INTS(n) ints).",
             [SL_V_TIMEOUT] = "Blocks do not wait for each other inside a kernel: carry the tile "
                              "sums with a second launch instead of spinning on another block.",
             [SL_V_LAUNCH] =
                 "Launch ceil(n / block) blocks of `block` threads; the scan of the tile "
                 "sums is a smaller launch, never 0 blocks.",
             [SL_V_RULE] = "No atomics and no CUB/thrust: the place of a kept element is the "
                           "exclusive scan of the flags, which keeps the input order. Blocks "
                           "that wait for each other inside one launch need fences and cannot "
                           "count on start order: carry the tile sums with separate launches.",
             [SL_V_TODO] =
                 "Delete SYNCLAB_TODO(compact) in starter/worklist.cu and write the flags, "
                 "the scan and the scatter.",
         }},
};

SL_SUITE_COVERS(exercises);
static const sl_declared declared[] = SL_DECLARED(SL_LESSON_EXERCISES);

const sl_lesson sl_lesson_worklist = {"worklist",
                                      "Worklist insertion",
                                      "docs/05-worklist.md",
                                      exercises,
                                      sizeof exercises / sizeof exercises[0],
                                      declared};
