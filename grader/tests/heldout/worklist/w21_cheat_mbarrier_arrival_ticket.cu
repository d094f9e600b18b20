// EXPECT worklist_insert RULE
// Hidden atomic counter: inside a tile, each thread takes its place from the
// ARRIVAL ORDER on a shared mbarrier. mbarrier.arrive.noComplete with count
// nelem[t] is an atomic decrement of the pending count and returns the state
// before it; mbarrier.pending_count reads that count: INIT - pending is the
// number of items that arrived first, i.e. atomicAdd(&cursor, nelem[t]) on
// shared memory under another name (same nondeterministic layout as w08).
// Tile sums carried by the reference's recursive scan.
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

#define MB_INIT ((1u << 20) - 1u)   // the largest count: a tile holds fewer items

__global__ void mb_tiles(const int *nelem, int n, int *local, int *tile_sums)
{
    __shared__ unsigned long long bar;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(addr), "r"(MB_INIT) : "memory");
    __syncthreads();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int c = t < n ? nelem[t] : 0;
    if (c > 0) {
        unsigned long long state;
        unsigned pending;
        asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], %2;"
                     : "=l"(state) : "r"(addr), "r"(c) : "memory");
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(state));
        local[t] = (int)(MB_INIT - pending);   // items of the threads that arrived first
    } else if (t < n) {
        local[t] = 0;
    }
    // the tile's total, deterministically, from the reference block scan
    int inc = block_inclusive_scan(c);
    if (threadIdx.x == blockDim.x - 1)
        tile_sums[blockIdx.x] = inc;
}

__global__ void mb_write(const int *nelem, const int *local, const int *tile_off, int n,
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
    mb_tiles<<<tiles, block>>>(nelem, n, local, tsum);
    exclusive_scan(tsum, tsum, tiles, total, sums, block);
    mb_write<<<tiles, block>>>(nelem, local, tsum, n, worklist);
}
