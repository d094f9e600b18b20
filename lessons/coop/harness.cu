/* Lesson 6 (cooperative groups): runner side. Reads a case, launches the
 * student's code, downloads the outputs. Never judges. */
#include "runner.h"
#include "coop.h"
#include "exercises.h"

static int case_int(const sl_case *in, int slot) { return (int)in->param[slot]; }

/* params: N, BLOCK, TILE_REDUCE_P_TILE (exercises.h). arrays: in.
 * outputs: sums_shared, sums_shfl (I32), neg_mask (U32), one per tile. */
static void run_tile_reduce(const sl_case *in, sl_case *out)
{
    int n = case_int(in, SL_P_N), block = case_int(in, SL_P_BLOCK);
    int tile = case_int(in, TILE_REDUCE_P_TILE);
    int grid = (n + block - 1) / block;
    uint64_t tiles = (uint64_t)grid * block / tile;

    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_shared = (int *)sl_device_alloc(tiles * sizeof(int), 0xFF);
    int *d_shfl = (int *)sl_device_alloc(tiles * sizeof(int), 0xFF);
    unsigned *d_mask = (unsigned *)sl_device_alloc(tiles * sizeof(unsigned), 0xFF);

    sl_dirty_shared();
    tile_reduce<<<grid, block>>>(d_in, n, tile, d_shared, d_shfl, d_mask);
    sl_launched("tile_reduce");

    sl_download(out, SL_I32, tiles, d_shared);
    sl_download(out, SL_I32, tiles, d_shfl);
    sl_download(out, SL_U32, tiles, d_mask);
    sl_free(d_in);
    sl_free(d_shared);
    sl_free(d_shfl);
    sl_free(d_mask);
}

/* params: N, BLOCK. arrays: in. outputs: out (I32, n). */
static void run_half_block(const sl_case *in, sl_case *out)
{
    int n = case_int(in, SL_P_N), block = case_int(in, SL_P_BLOCK);
    int grid = (n + block - 1) / block;

    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc((size_t)n * sizeof(int), 0xFF);

    /* Garbage in shared memory: reading the chunk sum before the first half
     * wrote it must not find a lucky value from an earlier launch. */
    sl_dirty_shared();
    half_block<<<grid, block>>>(d_in, n, d_out);
    sl_launched("half_block");

    sl_download(out, SL_I32, (uint64_t)n, d_out);
    sl_free(d_in);
    sl_free(d_out);
}

/* params: N, BLOCK, GRID (always given: the grader counts warps from it).
 * arrays: in. outputs: out (I32, n), count (I32, 1), calls (I32, 1). */
static void run_agg_filter(const sl_case *in, sl_case *out)
{
    int n = case_int(in, SL_P_N), block = case_int(in, SL_P_BLOCK);
    int grid = case_int(in, SL_P_GRID);
    if (grid <= 0)
        grid = (n + block - 1) / block;

    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc((size_t)n * sizeof(int), 0xFF);
    filter_counter ctr;
    /* The contract starts both counters at 0 (the student does not reset them). */
    ctr.count = (int *)sl_device_alloc(sizeof(int), 0);
    ctr.calls = (int *)sl_device_alloc(sizeof(int), 0);

    sl_dirty_shared();
    agg_filter<<<grid, block>>>(d_in, n, d_out, ctr);
    sl_launched("agg_filter");

    sl_download(out, SL_I32, (uint64_t)n, d_out);
    sl_download(out, SL_I32, 1, ctr.count);
    sl_download(out, SL_I32, 1, ctr.calls);
    sl_free(d_in);
    sl_free(d_out);
    sl_free(ctr.count);
    sl_free(ctr.calls);
}

/* Dynamic shared memory given to a kernel the harness launches itself:
 * room for one double per thread, for kernels whose launcher passes some. */
#define DIRECT_SHARED(block) ((size_t)(block) * sizeof(double))

/* The grid of a launch the harness makes itself: as asked, but never more
 * blocks than are co-resident (grid.sync()), than n needs, or than cap. */
static int direct_grid(const void *kernel, int asked, int n, int block, int cap)
{
    int device, sms, per_sm = 0;
    SL_CHECK(cudaGetDevice(&device));
    SL_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    SL_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block,
                                                           DIRECT_SHARED(block)));
    int grid = asked, need = (n + block - 1) / block;
    if (grid > per_sm * sms)
        grid = per_sm * sms;
    if (grid > need)
        grid = need;
    if (grid > cap)
        grid = cap;
    return grid > 1 ? grid : 1;
}

/* params: N, BLOCK, GRID (0: the student's launcher picks the grid; > 0: the
 * harness launches grid_two_phase itself, cooperatively, with that many
 * blocks, capped by direct_grid: the contract says any grid works).
 * arrays: in. outputs: out (I32, n); with GRID > 0 also the grid (I32, 1). */
static void run_grid_two_phase(const sl_case *in, sl_case *out)
{
    int n = case_int(in, SL_P_N), block = case_int(in, SL_P_BLOCK);
    int device, sms, per_sm_max;
    SL_CHECK(cudaGetDevice(&device));
    SL_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    SL_CHECK(cudaDeviceGetAttribute(&per_sm_max, cudaDevAttrMaxBlocksPerMultiprocessor, device));
    /* Room for the largest grid that can ever be co-resident. */
    int partials_cap = sms * per_sm_max;

    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_partials = (int *)sl_device_alloc((size_t)partials_cap * sizeof(int), 0xFF);
    int *d_out = (int *)sl_device_alloc((size_t)n * sizeof(int), 0xFF);

    int asked = case_int(in, SL_P_GRID), grid = 0;
    sl_dirty_shared();
    if (asked > 0) {
        grid = direct_grid((const void *)grid_two_phase, asked, n, block, partials_cap);
        const int *arg_in = d_in;
        void *args[] = {(void *)&arg_in, (void *)&n, (void *)&d_partials, (void *)&d_out};
        SL_CHECK(cudaLaunchCooperativeKernel((void *)grid_two_phase, dim3(grid), dim3(block), args,
                                             DIRECT_SHARED(block), 0));
        sl_launched("grid_two_phase (launched by the grader with a grid of its choice)");
    } else {
        /* A failed cooperative launch (e.g. cudaErrorCooperativeLaunchTooLarge)
         * is reported here, by name, as a LAUNCH error. */
        SL_CHECK(grid_two_phase_launch(d_in, n, d_partials, partials_cap, d_out, block));
        sl_launched("grid_two_phase (through grid_two_phase_launch)");
    }

    sl_download(out, SL_I32, (uint64_t)n, d_out);
    if (grid > 0) {
        int32_t *used = (int32_t *)sl_case_add(out, SL_I32, 1);
        if (used)
            used[0] = grid;
    }
    sl_free(d_in);
    sl_free(d_partials);
    sl_free(d_out);
}

SL_RUNNER_TABLE(SL_LESSON_EXERCISES)
