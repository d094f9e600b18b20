// Lesson 2: fences. Runner side: reads a case, launches the student's kernel,
// downloads the outputs. It never judges (suite.c does).
#include "runner.h"
#include "fences.h"
#include "exercises.h"

// ---------------------------------------------------------------------------
// message_pass
// in:  MESSAGE_PASS_P_PAIRS, MESSAGE_PASS_P_WORDS, BLOCK (exercises.h);
//      array 0 = in (pairs * words ints).
// out: array 0 = out (pairs_run * words ints), array 1 = { pairs_run }.
// A consumer spins until its producer has run, so every block of the grid
// must be resident at once: the grid is capped at what the occupancy API
// says fits on the GPU (cudaOccupancyMaxActiveBlocksPerMultiprocessor x SMs),
// and pairs_run tells the suite how many pairs were launched.
// ---------------------------------------------------------------------------

static int coresident_blocks(int block)
{
    int dev = 0, sms = 0, per_sm = 0;
    SL_CHECK(cudaGetDevice(&dev));
    SL_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    SL_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, message_pass, block, 0));
    return per_sm * sms;
}

static void run_message_pass(const sl_case *in, sl_case *out)
{
    const int block = (int)in->param[SL_P_BLOCK];
    const int words = (int)in->param[MESSAGE_PASS_P_WORDS];
    int pairs = (int)in->param[MESSAGE_PASS_P_PAIRS];
    const int fit = coresident_blocks(block) / 2;
    if (pairs > fit)
        pairs = fit;
    if (pairs < 1)
        pairs = 1; // nothing fits: the launch fails and says why (LAUNCH)
    const size_t words_total = (size_t)pairs * (size_t)words;

    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *mailbox = (int *)sl_device_alloc(words_total * sizeof(int), 0xFF);
    int *flags = (int *)sl_device_alloc((size_t)pairs * sizeof(int), 0); // setup: flags down
    int *d_out = (int *)sl_device_alloc(words_total * sizeof(int), 0xFF);

    sl_dirty_shared();
    message_pass<<<2 * pairs, block>>>(d_in, mailbox, flags, d_out, words);
    sl_launched("message_pass");

    sl_download(out, SL_I32, words_total, d_out);
    int32_t *pairs_run = (int32_t *)sl_case_add(out, SL_I32, 1);
    if (pairs_run)
        pairs_run[0] = pairs;

    sl_free(d_in);
    sl_free(mailbox);
    sl_free(flags);
    sl_free(d_out);
}

// ---------------------------------------------------------------------------
// single_pass_sum
// in:  param N, BLOCK, GRID (0: min(ceil(n / block), 4096)); arrays 0 and 1:
//      two different inputs of n ints.
// out: array 0 = { sum of launch 1, sum of launch 2 }, array 1 = { counter
//      after launch 2 }.
// The counter is zeroed once, at allocation; the kernel runs twice in a row
// with the same counter: a kernel that does not put it back to 0 fails the
// second launch.
// ---------------------------------------------------------------------------

static void run_single_pass_sum(const sl_case *in, sl_case *out)
{
    const int n = (int)in->param[SL_P_N];
    const int block = (int)in->param[SL_P_BLOCK];
    int grid = (int)in->param[SL_P_GRID];
    if (grid <= 0) {
        const long long need = ((long long)n + block - 1) / block;
        grid = (int)(need < 4096 ? (need > 0 ? need : 1) : 4096);
    }

    int *d_a = (int *)sl_to_device(&in->array[0]);
    int *d_b = (int *)sl_to_device(&in->array[1]);
    int *partials = (int *)sl_device_alloc((size_t)grid * sizeof(int), 0xFF);
    unsigned int *counter = (unsigned int *)sl_device_alloc(sizeof(unsigned int), 0);
    int *result = (int *)sl_device_alloc(2 * sizeof(int), 0xFF);

    sl_dirty_shared();
    single_pass_sum<<<grid, block>>>(d_a, n, partials, counter, result);
    sl_launched("single_pass_sum (first launch)");
    sl_dirty_shared(); // the second launch must not find the first one's flags
    single_pass_sum<<<grid, block>>>(d_b, n, partials, counter, result + 1);
    sl_launched("single_pass_sum (second launch, same counter)");

    sl_download(out, SL_I32, 2, result);
    sl_download(out, SL_U32, 1, counter);

    sl_free(d_a);
    sl_free(d_b);
    sl_free(partials);
    sl_free(counter);
    sl_free(result);
}

SL_RUNNER_TABLE(SL_LESSON_EXERCISES)
