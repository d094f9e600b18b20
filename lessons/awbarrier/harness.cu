/* Runner side of lesson 7: launches the student's code on one case and
 * hands the outputs back. Never judges. */
#include "runner.h"
#include "awbarrier.h"

/* Case: param N, BLOCK, GRID (0: ceil(n / block)), A = iterations;
 * array 0 = in (u32). Outputs: out (u32), hist (u32). */
static void run_split_arrive_wait(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    int grid = (int)in->param[SL_P_GRID];
    int iters = (int)in->param[SL_P_A];
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

/* Case: param N, BLOCK; arrays 0 = a, 1 = b (f32). The student's launcher
 * picks the grid. Outputs: a, b after normalization. */
static void run_normalize(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];

    float *d_a = (float *)sl_to_device(&in->array[0]);
    float *d_b = (float *)sl_to_device(&in->array[1]);
    double *d_partial = (double *)sl_device_alloc(NORMALIZE_MAX_BLOCKS * sizeof(double), 0xFF);
    sl_dirty_shared();
    SL_CHECK(launch_normalize(d_a, d_b, d_partial, n, block));
    sl_launched("normalize");
    sl_download(out, SL_F32, (uint64_t)n, d_a);
    sl_download(out, SL_F32, (uint64_t)n, d_b);
    sl_free(d_a);
    sl_free(d_b);
    sl_free(d_partial);
}

const sl_runner_exercise sl_runner_exercises[] = {
    { "split_arrive_wait", run_split_arrive_wait, NULL },
    { "normalize", run_normalize, NULL },
    { NULL, NULL, NULL },
};
