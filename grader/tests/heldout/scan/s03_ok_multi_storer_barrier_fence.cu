// EXPECT scan_any_n PASS
// Correct: the tile's inclusive prefix is published as one part per warp,
// each stored by that warp's lane 31; __syncthreads(); then thread 0 alone
// does __threadfence() and raises the flag (the barrier brings the other
// warps' stores before the fence: release is cumulative in the PTX model).
// Readers: each lane of warp 0 spins on the flag, fences, reads its part.
#define BARRIER_BEFORE_PUBLISH __syncthreads();
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
        // the previous tile's prefix is published as W parts: lane l < W of
        // warp 0 waits for the flag itself, fences, reads part l
        unsigned part = 0;
        if (tile > 0 && lane < CHAIN_THREADS / 32) {
            while (((volatile unsigned *)flag)[tile - 1] == 0) { }
            __threadfence();
            part = prefix[(size_t)(tile - 1) * (CHAIN_THREADS / 32) + lane];
        }
        unsigned before = warp_sum(part);
        if (lane == 0)
            s_before = before;
    }
    __syncthreads();
    // every warp stores its part of this tile's inclusive prefix
    if (lane == 31)
        prefix[(size_t)tile * (CHAIN_THREADS / 32) + warp] = (warp == 0 ? s_before : 0u) + incl;
    BARRIER_BEFORE_PUBLISH
    if (threadIdx.x == 0) {
        __threadfence();   // cumulative: orders the other warps' part stores seen through the barrier
        ((volatile unsigned *)flag)[tile] = 1u;
    }
    unsigned run = s_before + warp_prefix[warp] + incl - mine;
    for (int k = 0; k < CHAIN_ITEMS; k++) {
        if (first + k < n)
            out[first + k] = (int)run;
        run += x[k];
    }
}

size_t scan_scratch_bytes(long long n) { return (size_t)(1 + (1 + CHAIN_THREADS / 32) * chain_tiles(n)) * sizeof(unsigned); }

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    if (n <= 0)
        return;
    long long tiles = chain_tiles(n);
    unsigned *ticket = (unsigned *)d_scratch;
    cudaMemsetAsync(d_scratch, 0, scan_scratch_bytes(n));
    chained_scan<<<(unsigned)tiles, CHAIN_THREADS>>>(d_in, d_out, n, ticket, ticket + 1 + tiles,
                                                     ticket + 1);
}
