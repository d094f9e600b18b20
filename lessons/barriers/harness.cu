// Lesson 1, barriers: runner side. Reads a case, launches the student's
// kernel with the case's shape, downloads the outputs. Never judges.
// The exercises and the case layout (suite.c writes it): exercises.h.
#include "runner.h"
#include "barriers.h"
#include "exercises.h"

struct launch_shape {
    int n, block, grid;
};

static launch_shape shape_of(const sl_case *in)
{
    launch_shape s;
    s.n = (int)in->param[SL_P_N];
    s.block = (int)in->param[SL_P_BLOCK];
    s.grid = (int)in->param[SL_P_GRID];
    if (s.grid <= 0)
        s.grid = (s.n + s.block - 1) / s.block;
    return s;
}

static void run_tile_reverse(const sl_case *in, sl_case *out)
{
    launch_shape s = shape_of(in);
    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc((size_t)s.n * sizeof(int), 0xFF);
    sl_dirty_shared(); // a read of an unwritten tile slot gives garbage
    tile_reverse<<<s.grid, s.block, s.block * sizeof(int)>>>(d_in, d_out, s.n);
    sl_launched("tile_reverse");
    sl_download(out, SL_I32, (uint64_t)s.n, d_out);
    sl_free(d_in);
    sl_free(d_out);
}

static void run_halo_diff(const sl_case *in, sl_case *out)
{
    launch_shape s = shape_of(in);
    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc((size_t)s.n * sizeof(int), 0xFF);
    // Fresh for every case and full of -1: a block that reads a neighbour's
    // scratch before that neighbour ran sees -1, never a lucky old value.
    int *d_scratch = (int *)sl_device_alloc((size_t)s.n * sizeof(int), 0xFF);
    sl_dirty_shared(); // a halo slot nobody wrote gives garbage
    halo_diff<<<s.grid, s.block, (s.block + 2) * sizeof(int)>>>(d_in, d_out, d_scratch, s.n);
    sl_launched("halo_diff");
    sl_download(out, SL_I32, (uint64_t)s.n, d_out);
    sl_free(d_in);
    sl_free(d_out);
    sl_free(d_scratch);
}

static void run_block_vote(const sl_case *in, sl_case *out)
{
    launch_shape s = shape_of(in);
    int threshold = (int)in->param[BLOCK_VOTE_P_THRESHOLD];
    size_t nout = 3 * (size_t)s.grid;
    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc(nout * sizeof(int), 0xFF);
    sl_dirty_shared(); // in case the student keeps something in shared memory
    block_vote<<<s.grid, s.block>>>(d_in, d_out, s.n, threshold);
    sl_launched("block_vote");
    sl_download(out, SL_I32, (uint64_t)nout, d_out);
    sl_free(d_in);
    sl_free(d_out);
}

static void run_warp_step(const sl_case *in, sl_case *out)
{
    launch_shape s = shape_of(in);
    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc((size_t)s.n * sizeof(int), 0xFF);
    sl_dirty_shared(); // a slot read before its lane wrote it gives garbage
    warp_step<<<s.grid, s.block, s.block * sizeof(int)>>>(d_in, d_out, s.n);
    sl_launched("warp_step");
    sl_download(out, SL_I32, (uint64_t)s.n, d_out);
    sl_free(d_in);
    sl_free(d_out);
}

SL_RUNNER_TABLE(SL_LESSON_EXERCISES)
