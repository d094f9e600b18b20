/* Runner side of lesson 7: launches the student's code on one case and
 * hands the outputs back. Never judges. */
#include "runner.h"
#include "awbarrier.h"
#include "exercises.h"

/* Case: exercises.h (SPLIT_ARRIVE_WAIT_P_ITERS; array 0 = in, u32).
 * Outputs: out (u32), hist (u32). */
static void run_split_arrive_wait(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    int grid = (int)in->param[SL_P_GRID];
    int iters = (int)in->param[SPLIT_ARRIVE_WAIT_P_ITERS];
    if (grid <= 0)
        grid = (n + block - 1) / block;

    unsigned *d_in = (unsigned *)sl_to_device(&in->array[0]);
    unsigned *d_out = (unsigned *)sl_device_alloc((size_t)n * sizeof(unsigned), 0xFF);
    unsigned *d_hist = (unsigned *)sl_device_alloc((size_t)n * sizeof(unsigned), 0xFF);
    sl_dirty_shared();
    split_arrive_wait<<<grid, block>>>(d_in, d_out, d_hist, n, iters);
    sl_launched("split_arrive_wait");
    sl_download(out, SL_U32, (uint64_t)n, d_out);
    sl_download(out, SL_U32, (uint64_t)n, d_hist);
    sl_free(d_in);
    sl_free(d_out);
    sl_free(d_hist);
}

/* Dynamic shared memory given to normalize when the harness launches it
 * itself: one double per thread, for kernels whose launcher passes some. */
#define NORMALIZE_DIRECT_SHARED(block) ((size_t)(block) * sizeof(double))

/* The grid of a launch the harness makes itself: as asked, but never more
 * blocks than are co-resident (grid.sync()), than n needs, or than
 * NORMALIZE_MAX_BLOCKS. */
static int normalize_direct_grid(int asked, int n, int block)
{
    int device, sms, per_sm = 0;
    SL_CHECK(cudaGetDevice(&device));
    SL_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    SL_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize, block,
                                                           NORMALIZE_DIRECT_SHARED(block)));
    int grid = asked, need = (n + block - 1) / block;
    if (grid > per_sm * sms)
        grid = per_sm * sms;
    if (grid > need)
        grid = need;
    if (grid > NORMALIZE_MAX_BLOCKS)
        grid = NORMALIZE_MAX_BLOCKS;
    return grid > 1 ? grid : 1;
}

/* Case: param N, BLOCK, GRID; arrays 0 = a, 1 = b (f32). GRID 0: the
 * student's launcher picks the grid; GRID > 0: the harness launches
 * normalize itself, cooperatively, with that many blocks (capped by
 * normalize_direct_grid): the contract says any grid works.
 * Outputs: a, b after normalization; with GRID > 0 also the grid (I32, 1). */
static void run_normalize(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    int asked = (int)in->param[SL_P_GRID], grid = 0;

    float *d_a = (float *)sl_to_device(&in->array[0]);
    float *d_b = (float *)sl_to_device(&in->array[1]);
    double *d_partial = (double *)sl_device_alloc(NORMALIZE_MAX_BLOCKS * sizeof(double), 0xFF);
    sl_dirty_shared();
    if (asked > 0) {
        grid = normalize_direct_grid(asked, n, block);
        void *args[] = {&d_a, &d_b, &d_partial, &n};
        SL_CHECK(cudaLaunchCooperativeKernel((const void *)normalize, grid, block, args,
                                             NORMALIZE_DIRECT_SHARED(block), 0));
        sl_launched("normalize (launched by the grader with a grid of its choice)");
    } else {
        SL_CHECK(launch_normalize(d_a, d_b, d_partial, n, block));
        sl_launched("normalize");
    }
    sl_download(out, SL_F32, (uint64_t)n, d_a);
    sl_download(out, SL_F32, (uint64_t)n, d_b);
    if (grid > 0) {
        int32_t *used = (int32_t *)sl_case_add(out, SL_I32, 1);
        if (used)
            used[0] = grid;
    }
    sl_free(d_a);
    sl_free(d_b);
    sl_free(d_partial);
}

/* Case: param N, BLOCK, GRID (blocks: a grid stride over the tiles);
 * array 0 = in (u32). Output: out (u32). */
static void run_tile_pipeline(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    int grid = (int)in->param[SL_P_GRID];

    unsigned *d_in = (unsigned *)sl_to_device(&in->array[0]);
    unsigned *d_out = (unsigned *)sl_device_alloc((size_t)n * sizeof(unsigned), 0xFF);
    sl_dirty_shared();
    tile_pipeline<<<grid, block>>>(d_in, d_out, n);
    sl_launched("tile_pipeline");
    sl_download(out, SL_U32, (uint64_t)n, d_out);
    sl_free(d_in);
    sl_free(d_out);
}

SL_RUNNER_TABLE(SL_LESSON_EXERCISES)
