// EXPECT scan_any_n PASS
// Correct: the chained scan where ONE thread waits for the previous tile's
// flag with an acquire load, then __syncthreads(), then every thread of the
// block loads prefix[tile - 1] with a plain load. Acquire (thread 0) then
// bar.sync (orders thread 0's acquire before the other threads' loads) is
// causality order in the PTX model: no fence needed in the other threads.
#include <cuda/atomic>
#define scan_exclusive_int scan_exclusive_int_reference
#define scan_scratch_bytes scan_scratch_bytes_reference
#include "../../../../solutions/scan.cu"
#undef scan_exclusive_int
#undef scan_scratch_bytes

#define CHAIN_THREADS 256
#define CHAIN_ITEMS 4
#define CHAIN_TILE (CHAIN_THREADS * CHAIN_ITEMS)

static long long chain_tiles(long long n) { return (n + CHAIN_TILE - 1) / CHAIN_TILE; }

__global__ void __launch_bounds__(CHAIN_THREADS) chained_scan(const int *in, int *out, long long n,
                                                              unsigned *ticket, unsigned *prefix,
                                                              unsigned *flag)
{
    __shared__ unsigned s_tile, s_total, s_before_unused;
    __shared__ unsigned warp_prefix[CHAIN_THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    if (threadIdx.x == 0)
        s_tile = atomicAdd(ticket, 1u);
    __syncthreads();
    unsigned tile = s_tile;
    long long first = (long long)tile * CHAIN_TILE + (long long)threadIdx.x * CHAIN_ITEMS;
    unsigned x[CHAIN_ITEMS], mine = 0;
    for (int k = 0; k < CHAIN_ITEMS; k++) {
        x[k] = first + k < n ? (unsigned)in[first + k] : 0u;
        mine += x[k];
    }
    unsigned incl = warp_inclusive_scan(mine);
    if (lane == 31)
        warp_prefix[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        unsigned t = lane < CHAIN_THREADS / 32 ? warp_prefix[lane] : 0u;
        unsigned tile_incl = warp_inclusive_scan(t);
        if (lane < CHAIN_THREADS / 32)
            warp_prefix[lane] = tile_incl - t;
        if (lane == 31)
            s_total = tile_incl;
    }
    // thread 0 alone waits (acquire), then a barrier, then EVERY thread reads
    // the previous tile's prefix itself: acquire -> bar.sync -> plain load
    if (threadIdx.x == 0 && tile > 0)
        while (cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flag[tile - 1])
                   .load(cuda::memory_order_acquire) == 0) { }
    __syncthreads();
    unsigned before = tile > 0 ? prefix[tile - 1] : 0u;
    if (threadIdx.x == 0) {
        prefix[tile] = before + s_total;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flag[tile])
            .store(1u, cuda::memory_order_release);
    }
    s_before_unused = 0;
    unsigned run = before + warp_prefix[warp] + incl - mine;
    for (int k = 0; k < CHAIN_ITEMS; k++) {
        if (first + k < n)
            out[first + k] = (int)run;
        run += x[k];
    }
}

size_t scan_scratch_bytes(long long n) { return (size_t)(1 + 2 * chain_tiles(n)) * sizeof(unsigned); }

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    if (n <= 0)
        return;
    long long tiles = chain_tiles(n);
    unsigned *ticket = (unsigned *)d_scratch;
    cudaMemsetAsync(d_scratch, 0, scan_scratch_bytes(n));
    chained_scan<<<(unsigned)tiles, CHAIN_THREADS>>>(d_in, d_out, n, ticket, ticket + 1,
                                                     ticket + 1 + tiles);
}
