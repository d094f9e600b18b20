// EXPECT worklist_insert RULE
// One cooperative kernel, launched with cudaLaunchCooperativeKernel (grid
// sized to co-resident blocks, grid-stride tiles): tile scans, grid.sync(),
// block 0 scans the tile sums, grid.sync(), add back and write. Correct as a
// program, but grid.sync() is built on atomics (docs/05: refused).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void gs_insert(const int *nelem, int n, int2 *worklist, int *total, int *offsets,
                          int *tsum)
{
    cg::grid_group grid = cg::this_grid();
    int tiles = (n + blockDim.x - 1) / blockDim.x;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {   // uniform per block
        int i = tile * blockDim.x + threadIdx.x;
        int x = i < n ? nelem[i] : 0;
        __syncthreads();
        int inc = block_inclusive_scan(x);
        if (i < n)
            offsets[i] = inc - x;
        if (threadIdx.x == blockDim.x - 1)
            tsum[tile] = inc;
    }
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {   // serial, slow, but right
        int run = 0;
        for (int b = 0; b < tiles; b++) {
            int s = tsum[b];
            tsum[b] = run;
            run += s;
        }
        *total = run;
    }
    grid.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int start = offsets[i] + tsum[i / blockDim.x];
        for (int k = 0; k < nelem[i]; k++)
            worklist[start + k] = make_int2(i, k);
    }
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    int per_sm = 0, dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gs_insert, block, 0);
    int tiles = (n + block - 1) / block;
    int grid = per_sm * sms < tiles ? per_sm * sms : tiles;
    int *offsets = scratch, *tsum = scratch + n;
    void *args[] = {&nelem, &n, &worklist, &total, &offsets, &tsum};
    cudaLaunchCooperativeKernel((void *)gs_insert, grid, block, args, 0, 0);
}
