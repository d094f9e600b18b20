// EXPECT scan_any_n PASS
// Correct without any fence: the flag and the prefix share ONE aligned 64-bit
// status word (flag in the high half), stored and polled whole with RELAXED
// cuda::atomic_ref<unsigned long long, device> (st/ld.relaxed.gpu.b64). The
// reader reads nothing else the writer stored, so no release/acquire is
// needed (single-location coherence; docs/04: "packing flag and value in one
// 64-bit word avoids the ordering problem" when accessed whole and strong).
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

// status[t]: 0 = not yet; else (1 << 32) | inclusive prefix of tile t, one
// aligned 64-bit word stored and loaded whole with relaxed device atomics.
__global__ void __launch_bounds__(CHAIN_THREADS) chained_scan(const int *in, int *out, long long n,
                                                              unsigned *ticket,
                                                              unsigned long long *status)
{
    __shared__ unsigned s_tile, s_before;
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
        if (lane == 31) {
            unsigned before = 0;
            if (tile > 0)
            {
                cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> prev(status[tile - 1]);
                unsigned long long s;
                while (((s = prev.load(cuda::memory_order_relaxed)) >> 32) == 0) { }
                before = (unsigned)s;
            }
            cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(status[tile])
                .store((1ull << 32) | (before + tile_incl), cuda::memory_order_relaxed);
            s_before = before;
        }
    }
    __syncthreads();
    unsigned run = s_before + warp_prefix[warp] + incl - mine;
    for (int k = 0; k < CHAIN_ITEMS; k++) {
        if (first + k < n)
            out[first + k] = (int)run;
        run += x[k];
    }
}

size_t scan_scratch_bytes(long long n) { return (size_t)(1 + chain_tiles(n)) * sizeof(unsigned long long); }

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    if (n <= 0)
        return;
    long long tiles = chain_tiles(n);
    unsigned *ticket = (unsigned *)d_scratch;
    cudaMemsetAsync(d_scratch, 0, scan_scratch_bytes(n));
    chained_scan<<<(unsigned)tiles, CHAIN_THREADS>>>(d_in, d_out, n, ticket,
                                                     (unsigned long long *)d_scratch + 1);
}
