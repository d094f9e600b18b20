// EXPECT compact PASS
// Correct (single pass, no atomics): compact as a chained scan run by a
// PERSISTENT grid launched with cudaLaunchCooperativeKernel, which guarantees
// all blocks are co-resident (the launch fails otherwise). Block b takes
// tiles b, b + G, b + 2G, ... in increasing order; tile t waits for tile
// t - 1, whose block is running and only waits for smaller tiles: no cycle,
// no deadlock. Publish: plain store of the prefix, st.release.gpu of the flag
// (atomic_ref::store, not an RMW); wait: ld.acquire.gpu spin. No atom./red.,
// no grid.sync(). The wait is on a tile chosen from %ctaid, but co-residency
// is guaranteed by the cooperative launch, not assumed from start order.
#include <cuda/atomic>
#define compact compact_reference
#include "../../../../../solutions/worklist.cu"
#undef compact

using dref = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

__global__ void pc_compact(const int *in, int n, int threshold, int *out, int *count,
                           unsigned *flag, int *prefix, int tiles)
{
    __shared__ int s_before;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {   // uniform per block
        __syncthreads();   // the previous tile's reads of shared memory are done
        int i = tile * blockDim.x + threadIdx.x;
        int keep = i < n && compact_keep(in[i], threshold);
        int incl = block_inclusive_scan(keep);
        if (threadIdx.x == blockDim.x - 1) {
            int before = 0;
            if (tile > 0) {
                while (dref(flag[tile - 1]).load(cuda::memory_order_acquire) == 0u) { }
                before = prefix[tile - 1];
            }
            prefix[tile] = before + incl;
            dref(flag[tile]).store(1u, cuda::memory_order_release);
            if (tile == tiles - 1)
                *count = before + incl;
            s_before = before;
        }
        __syncthreads();
        if (keep)
            out[s_before + incl - 1] = in[i];
    }
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(count, 0, sizeof(int));
        return;
    }
    int tiles = (n + block - 1) / block;
    unsigned *flag = (unsigned *)scratch;
    int *prefix = scratch + tiles;
    cudaMemsetAsync(flag, 0, (size_t)tiles * sizeof(unsigned));
    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pc_compact, block, 0);
    int grid = per_sm * sms < tiles ? per_sm * sms : tiles;
    void *args[] = {&in, &n, &threshold, &out, &count, &flag, &prefix, &tiles};
    cudaLaunchCooperativeKernel((void *)pc_compact, grid, block, args, 0, 0);
}
