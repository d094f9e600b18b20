// EXPECT worklist_insert RULE
// Bug (forbidden): the scan across tiles is right (the reference's recursion
// over tile sums), but INSIDE a tile each thread takes its local place with
// atomicAdd on a shared-memory cursor. The worklist is complete (order is
// free) but its layout inside a tile depends on arrival order: atom.shared.add.
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void sa_tiles(const int *nelem, int n, int *local, int *tile_sums)
{
    __shared__ int cursor;
    if (threadIdx.x == 0)
        cursor = 0;
    __syncthreads();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        local[t] = atomicAdd(&cursor, nelem[t]);   // BUG: arrival order
    __syncthreads();
    if (threadIdx.x == 0)
        tile_sums[blockIdx.x] = cursor;
}

__global__ void sa_write(const int *nelem, const int *local, const int *tile_off, int n,
                         int2 *worklist)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int start = tile_off[blockIdx.x] + local[t];
    for (int k = 0; k < nelem[t]; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(total, 0, sizeof(int));
        return;
    }
    int tiles = (n + block - 1) / block;
    int *local = scratch, *tsum = scratch + n, *sums = tsum + tiles;
    sa_tiles<<<tiles, block>>>(nelem, n, local, tsum);
    exclusive_scan(tsum, tsum, tiles, total, sums, block);
    sa_write<<<tiles, block>>>(nelem, local, tsum, n, worklist);
}
