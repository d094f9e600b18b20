// EXPECT worklist_insert RULE
// Bug (forbidden): tile sums built with cuda::atomic_ref<int, block>::fetch_add
// on a shared accumulator (the rest is the reference). A read-modify-write:
// atom.shared... in the PTX, whatever the spelling or scope.
#include <cuda/atomic>
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void fa_tiles(const int *in, int *out, int *tile_sums, int n)
{
    __shared__ int acc;
    if (threadIdx.x == 0)
        acc = 0;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 0;
    int inclusive = block_inclusive_scan(x);   // has barriers: acc = 0 is visible after
    cuda::atomic_ref<int, cuda::thread_scope_block>(acc).fetch_add(x, cuda::memory_order_relaxed);
    __syncthreads();
    if (i < n)
        out[i] = inclusive - x;
    if (threadIdx.x == 0)
        tile_sums[blockIdx.x] = acc;
}

static void fa_scan(const int *in, int *out, int n, int *total, int *sums, int block)
{
    int tiles = (n + block - 1) / block;
    if (tiles == 1) {
        fa_tiles<<<1, block>>>(in, out, total, n);
        return;
    }
    fa_tiles<<<tiles, block>>>(in, out, sums, n);
    fa_scan(sums, sums, tiles, total, sums + tiles, block);
    add_tile_offsets<<<tiles, block>>>(out, sums, n);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(total, 0, sizeof(int));
        return;
    }
    fa_scan(nelem, scratch, n, total, scratch + n, block);
    write_items<<<(n + block - 1) / block, block>>>(nelem, scratch, n, worklist);
}
