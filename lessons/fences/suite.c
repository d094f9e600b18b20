/* Lesson 2: fences. The Check suite: inputs, checks, PTX rules, hints. */
#include <stdint.h>
#include <stdlib.h>

#include "exercise.h"
#include "exercises.h"
#include "reference.h"
#include "shapes.h"

/* Values small enough that no partial sum and no total leaves int32
 * (3 million elements * 500 < 2^31; fewer for the largest arrays). */
enum { VALUE_MAX = 500 };

static void fill_values(sl_rng *rng, int32_t *a, uint64_t n)
{
    int64_t most = n * VALUE_MAX < INT32_MAX ? VALUE_MAX : INT32_MAX / (int64_t)n;
    sl_rng_fill_i32(rng, a, n, -most, most);
}

/* ------------------------------------------------------------------------
 * message_pass: params MESSAGE_PASS_P_PAIRS, _WORDS, BLOCK (exercises.h).
 * The runner may launch fewer pairs (only as many as fit on the GPU at once)
 * and says how many in its second output array.
 * ---------------------------------------------------------------------- */

static void add_message_case(sl_rng *rng, sl_inputs *out, int pairs, int words, int block)
{
    sl_input *c = sl_inputs_add(out, "pairs=%d words=%d block=%d", pairs, words, block);
    c->in.param[SL_P_N] = (int64_t)pairs * words;
    c->in.param[SL_P_BLOCK] = block;
    c->in.param[SL_P_GRID] = 0; /* 2 * pairs, capped by the runner */
    c->in.param[MESSAGE_PASS_P_PAIRS] = pairs;
    c->in.param[MESSAGE_PASS_P_WORDS] = words;
    /* Non-negative words: the -1 the runner fills mailbox and out with can
     * never pass for a payload word. */
    int32_t *in = sl_case_add(&c->in, SL_I32, (uint64_t)pairs * words);
    for (uint64_t i = 0; in && i < (uint64_t)pairs * words; i++)
        in[i] = (int32_t)sl_rng_range(rng, 0, 1000000000);
}

static void message_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        /* Blocks of one warp, of any size (not a multiple of 32) and of 1024;
         * 1, 2 and 3 words per pair; more words than threads. The pairing of
         * block and word counts comes from the seed. */
        int odd;
        do
            odd = (int)sl_rng_range(rng, 33, 300);
        while (odd % 32 == 0);
        int blocks[3] = {32, odd, 1024};
        sl_shuffle(rng, blocks, 3);
        for (int w = 1; w <= 3; w++)
            add_message_case(rng, out, w, w, blocks[w - 1]);
        add_message_case(rng, out, 2, (int)sl_rng_partial_blocks(rng, 32, 3), 32);
        return;
    }
    static const int blocks[] = {32, 64, 128, 256, 512, 1024};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
        const int b = blocks[k];
        add_message_case(rng, out, 1, 1, b);
        add_message_case(rng, out, 2, b - 1, b);
        add_message_case(rng, out, 3, b, b);
        add_message_case(rng, out, 7, 3 * b + 7, b);
        add_message_case(rng, out, 33, 100, b);
        add_message_case(rng, out, 64, 4096, b);
    }
    /* As many pairs as the GPU holds at once (the runner caps the request):
     * every SM full of producers and spinning consumers. */
    add_message_case(rng, out, 4096, 64, 32);
    add_message_case(rng, out, 2048, 333, 256);
    add_message_case(rng, out, 512, 2048, 1024);
    /* a block that is not a multiple of 32 (the contract allows 32..1024) */
    int odd;
    do
        odd = (int)sl_rng_range(rng, 33, 1023);
    while (odd % 32 == 0);
    add_message_case(rng, out, 65, (int)sl_rng_range(rng, 1, 3000), odd);
}

static int message_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    const int64_t asked = in->param[MESSAGE_PASS_P_PAIRS], words = in->param[MESSAGE_PASS_P_WORDS];
    if (!sl_expect_shape(out, 1, SL_I32, 1, why))
        return 0;
    const int64_t pairs = ((const int32_t *)out->array[1].data)[0];
    if (pairs < 1 || pairs > asked) {
        sl_text_printf(why, "the runner launched %lld pairs, expected 1..%lld\n", (long long)pairs,
                       (long long)asked);
        return 0;
    }
    const uint64_t total = (uint64_t)(pairs * words);
    if (!sl_expect_shape(out, 0, SL_I32, total, why))
        return 0;

    int32_t *expected = malloc(total * sizeof *expected);
    if (!expected) {
        sl_text_printf(why, "out of memory in the check\n");
        return 0;
    }
    fences_ref_message(in->array[0].data, (uint64_t)pairs, (uint64_t)words, expected);
    const int32_t *got = out->array[0].data;
    int shown = 0, bad = 0;
    for (uint64_t i = 0; i < total; i++) {
        if (got[i] == expected[i])
            continue;
        bad++;
        if (shown < 3) {
            sl_text_printf(why, "pair %llu word %llu (index %llu): expected %d, got %d%s\n",
                           (unsigned long long)(i / (uint64_t)words),
                           (unsigned long long)(i % (uint64_t)words), (unsigned long long)i,
                           expected[i], got[i],
                           got[i] == -1 ? " (never written, or the mailbox's initial -1)" : "");
            shown++;
        }
    }
    if (bad > shown)
        sl_text_printf(why, "... %d wrong words in all (%lld pairs launched)\n", bad,
                       (long long)pairs);
    free(expected);
    return bad == 0;
}

/* ------------------------------------------------------------------------
 * single_pass_sum: param N, BLOCK, GRID (0: the runner picks
 * min(ceil(n / block), 4096)); arrays 0 and 1: the inputs of the first and
 * the second launch.
 * ---------------------------------------------------------------------- */

static void add_sum_case(sl_rng *rng, sl_inputs *out, int n, int block, int grid)
{
    sl_input *c = grid > 0 ? sl_inputs_add(out, "n=%d block=%d grid=%d", n, block, grid)
                           : sl_inputs_add(out, "n=%d block=%d grid=auto", n, block);
    c->in.param[SL_P_N] = n;
    c->in.param[SL_P_BLOCK] = block;
    c->in.param[SL_P_GRID] = grid;
    for (int k = 0; k < 2; k++) {
        int32_t *a = sl_case_add(&c->in, SL_I32, (uint64_t)n);
        if (a)
            fill_values(rng, a, (uint64_t)n);
    }
}

static void sum_inputs(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    if (set == SL_INPUTS_SMALL) {
        /* n = 1, 2, 3 on one-warp, 1024 and middle blocks (seeded order), one
         * with more blocks than elements; a one-warp grid of several blocks
         * with a partial last block; 1024-thread blocks over an odd grid
         * smaller than the work (grid-stride). */
        int blocks[3] = {32, 1024, 32 * (int)sl_rng_range(rng, 2, 16)};
        sl_shuffle(rng, blocks, 3);
        add_sum_case(rng, out, 1, blocks[0], 1);
        add_sum_case(rng, out, 2, blocks[1], 2 * (int)sl_rng_range(rng, 1, 3) + 1);
        add_sum_case(rng, out, 3, blocks[2], 0);
        add_sum_case(rng, out, (int)sl_rng_partial_blocks(rng, 32, (int)sl_rng_range(rng, 3, 9)),
                     32, 0);
        add_sum_case(rng, out, (int)sl_rng_partial_blocks(rng, 1024, 4), 1024,
                     2 * (int)sl_rng_range(rng, 0, 1) + 1);
        return;
    }
    static const int blocks[] = {32, 64, 128, 256, 512, 1024};
    static const int sizes[] = {1, 31, 1000, 4097};
    static const int grids[] = {0, 1, 3};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++)
                add_sum_case(rng, out, sizes[s], blocks[k], grids[g]);
    add_sum_case(rng, out, 1000, 32, 200); /* more blocks than work: empty partials */
    add_sum_case(rng, out, 65539, 128, 0);
    add_sum_case(rng, out, 65539, 1024, 7);
    add_sum_case(rng, out, 1 << 20, 256, 0);
    add_sum_case(rng, out, 1 << 20, 64, 20000); /* far more partials than threads */
    add_sum_case(rng, out, 3000017, 1024, 0);
    /* above 2^24 elements, an odd grid and the default grid */
    add_sum_case(rng, out, (int)SL_N_BIG, 256, 2 * (int)sl_rng_range(rng, 100, 2000) + 1);
}

static int sum_check(const sl_case *in, const sl_case *out, sl_text *why)
{
    if (!sl_expect_shape(out, 0, SL_I32, 2, why) || !sl_expect_shape(out, 1, SL_U32, 1, why))
        return 0;
    const int32_t *got = out->array[0].data;
    const uint32_t counter = ((const uint32_t *)out->array[1].data)[0];
    static const char *const launch[2] = {"first launch", "second launch (same counter)"};
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        const int64_t expected = fences_ref_sum(in->array[k].data, in->array[k].count);
        if (got[k] == expected)
            continue;
        ok = 0;
        sl_text_printf(why, "%s, index %d of result: expected sum %lld, got %d%s\n", launch[k], k,
                       (long long)expected, got[k],
                       got[k] == -1 ? " (never written? no block drew the last ticket)" : "");
    }
    if (counter != 0) {
        ok = 0;
        sl_text_printf(why,
                       "counter after the second launch: expected 0, got %u "
                       "(the last block must put it back to 0 for the next launch)\n",
                       counter);
    }
    return ok;
}

/* ------------------------------------------------------------------------
 * Memory order (ptx_order.h judges every exercise): between the payload
 * (partial) stores and the flag (ticket) a fence of gpu or system scope,
 * or a gpu-scope release publish; after the wait (ticket), an acquire.
 * These notes say it for each exercise.
 * ---------------------------------------------------------------------- */

static const sl_rule message_rules[] = {
    {.kind = SL_RULE_CORESIDENT}, /* the runner launches only as many pairs as fit at once */
    {.kind = SL_RULE_ORDER_NOTE,
     .why = "The consumer is another block: without a gpu-scope fence between the payload "
            "stores and the flag store, GPU memory may make the flag visible first, and the "
            "consumer copies stale words. __threadfence_block() only orders for threads of "
            "your own block."},
    {.kind = SL_RULE_END},
};

static const sl_rule sum_rules[] = {
    {.kind = SL_RULE_ORDER_NOTE,
     .why = "The block that draws the last ticket reads every partial right away: each "
            "partials[blockIdx.x] store must be visible GPU-wide before its ticket, so thread 0 "
            "needs __threadfence() (gpu scope, not __threadfence_block()) AFTER the partial "
            "store and BEFORE atomicInc, or a ticket taken with a release (acq_rel) atomic at "
            "device scope."},
    {.kind = SL_RULE_END},
};

/* ---- the playground (make run) ------------------------------------------ */

/* n payload words in all: two pairs when n allows it. */
static void message_input(int64_t n, int block, sl_rng *rng, sl_inputs *out)
{
    int pairs = n >= 2 ? 2 : 1;
    int words = (int)((n + pairs - 1) / pairs);
    add_message_case(rng, out, pairs, words, block);
}

static int message_expected(const sl_case *in, sl_case *out)
{
    const int64_t pairs = in->param[MESSAGE_PASS_P_PAIRS], words = in->param[MESSAGE_PASS_P_WORDS];
    sl_expected_start(in, out);
    int32_t *e = sl_case_add(out, SL_I32, (uint64_t)(pairs * words));
    int32_t *launched = sl_case_add(out, SL_I32, 1);
    if (!e || !launched)
        return -1;
    fences_ref_message(in->array[0].data, (uint64_t)pairs, (uint64_t)words, e);
    launched[0] = (int32_t)pairs;
    return 0;
}

static int sum_expected(const sl_case *in, sl_case *out)
{
    sl_expected_start(in, out);
    int32_t *e = sl_case_add(out, SL_I32, 2);
    uint32_t *counter = sl_case_add(out, SL_U32, 1);
    if (!e || !counter)
        return -1;
    for (int k = 0; k < 2; k++)
        e[k] = (int32_t)fences_ref_sum(in->array[k].data, in->array[k].count);
    counter[0] = 0;
    return 0;
}

static const sl_exercise exercises[] = {
    {
        .name = SL_NAME(message_pass),
        .shape = {SL_BLOCKS_ANY, 0, 4096,
                  "blocks of 32 to 1024 threads; 1 to 4096 words (fences.h)"},
        .make_input = message_input,
        .expected = message_expected,
        .title = "Message passing between blocks",
        .doc = "docs/02-fences.md#message-passing-between-blocks",
        .points = 10,
        .make_inputs = message_inputs,
        .check = message_check,
        .rules = message_rules,
        .repeats = 3,
        .timeout_s = 10,
        .ladder =
            {
                [SL_V_RULE] =
                    {"Between the payload stores and the flag store, what keeps another block from "
                     "seeing the flag first? Read "
                     "docs/02-fences.md#fences-order-they-do-not-make-visible-by-themselves.",
                     "A producer publishes payload, then a device-scope fence, then the flag; a "
                     "consumer reads the flag, then a fence, then the payload.",
                     NULL},
                [SL_V_WRONG] =
                    {"Did a consumer copy the mailbox before the payload arrived? Read "
                     "docs/02-fences.md#message-passing-between-blocks on the order of the two "
                     "sides.",
                     "Without a fence on both sides, seeing the flag says nothing about the "
                     "payload: "
                     "the memory model is weakly ordered.",
                     NULL},
                [SL_V_TIMEOUT] =
                    {"Does the consumer read the flag from memory on every turn of its loop, or "
                     "once "
                     "into a register? Read docs/02-fences.md#volatile.",
                     "A spin must reload the flag each time (volatile or an atomic load), and the "
                     "producer must be able to run while it spins.",
                     NULL},
            },
        .hint =
            {
                [SL_V_WRONG] =
                    "A consumer copied the mailbox before its payload was there: spin "
                    "until flags[p] != 0, fence, __syncthreads(), then copy pair p's words.",
                [SL_V_RACE] = "Shared memory written by one thread and read by another needs a "
                              "__syncthreads() in between.",
                [SL_V_SYNC] = "Let ONE thread spin on the flag, then put the __syncthreads() where "
                              "every thread of the block reaches it.",
                [SL_V_MEMORY] =
                    "Pair p owns words [p*words, p*words + words) of in, mailbox and out, "
                    "for p < gridDim.x / 2; flags has gridDim.x / 2 entries.",
                [SL_V_TIMEOUT] =
                    "A consumer never saw its flag: read it through a volatile pointer "
                    "or an acquire atomic (a plain load is hoisted out of the loop), and "
                    "check that producer p raises flags[p].",
                [SL_V_RULE] =
                    "Put __threadfence() between the payload stores and the flag store "
                    "(__threadfence_block() is too narrow: the consumer is another block), "
                    "write the flag with a volatile or atomic store, and fence again after "
                    "the wait loop, before the payload is read.",
            },
    },
    {
        .name = SL_NAME(single_pass_sum),
        .shape = {SL_BLOCKS_WARPS, 0, SL_N_BIG,
                  "blocks of a multiple of 32 threads, 32 to 1024; n from 1 to 2^24 + 2^20 - 1 "
                  "(fences.h)"},
        .expected = sum_expected,
        .title = "Single-pass sum (last block)",
        .doc = "docs/02-fences.md#single-pass-sum",
        .points = 10,
        .make_inputs = sum_inputs,
        .check = sum_check,
        .rules = sum_rules,
        .repeats = 2,
        .ladder =
            {
                [SL_V_RULE] =
                    {"Thread 0 stores its block total, then takes a ticket: what makes the total "
                     "visible before the ticket? Read docs/02-fences.md#single-pass-sum.",
                     "The store of a partial, a __threadfence(), then the atomic ticket: the last "
                     "block must see every partial.",
                     NULL},
                [SL_V_WRONG] =
                    {"How does a block know it is the last one, and which partials may it add? "
                     "Read "
                     "docs/02-fences.md#single-pass-sum.",
                     "Only the block that draws ticket gridDim.x - 1 adds the partials, after a "
                     "fence, and it adds all gridDim.x of them.",
                     NULL},
                [SL_V_RACE] =
                    {"Thread 0 writes the am-I-last flag to shared memory and the block reads it: "
                     "what comes between? Read docs/01-barriers.md#what-a-barrier-is.",
                     "A shared-memory value written by one thread and read by the others needs "
                     "__syncthreads() between the write and the reads.",
                     NULL},
            },
        .hint =
            {
                [SL_V_WRONG] =
                    "The last block is the one whose ticket is gridDim.x - 1; it adds all "
                    "gridDim.x partials, and it puts *counter back to 0 for the next launch.",
                [SL_V_RACE] =
                    "Thread 0 writes the 'am I last' flag in shared memory: __syncthreads() "
                    "before the other threads read it.",
                [SL_V_SYNC] =
                    "fences_block_sum and __syncthreads() need the whole block: decide "
                    "'last block' for all threads (shared flag + barrier) before branching.",
                [SL_V_MEMORY] = "partials has gridDim.x entries and in has n: bound every loop.",
                [SL_V_TIMEOUT] =
                    "Nothing in this exercise waits for another block: look for a loop "
                    "that never ends.",
                [SL_V_RULE] = "Thread 0: partials[blockIdx.x] = total; __threadfence(); then "
                              "atomicInc(counter, gridDim.x). The fence goes between the two; the "
                              "last block fences again after its ticket, then reads the partials "
                              "with plain loads (not __ldg).",
            },
    },
};

SL_SUITE_COVERS(exercises);
static const sl_declared declared[] = SL_DECLARED(SL_LESSON_EXERCISES);

const sl_lesson sl_lesson_fences = {
    "fences", "Fences", "docs/02-fences.md", exercises, sizeof exercises / sizeof exercises[0],
    declared};
