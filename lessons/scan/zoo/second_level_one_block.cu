// EXPECT scan_any_n WRONG
// The tile sums are scanned by one block of 1024 threads, one sum per
// thread: right up to 1024 tiles of 8192 ints (2^23 elements), while every
// tile past the 1024th keeps its raw sum as its prefix. Inputs that stop
// near 4.2 M elements never see it; the ones past 2^23 do.
#define scan_exclusive_int scan_exclusive_int_reference
#include "../../../solutions/scan.cu"
#undef scan_exclusive_int

__global__ void __launch_bounds__(1024) scan_sums_one_per_thread(unsigned *tile_sum, int tiles)
{
    __shared__ unsigned warp_total[32];
    int t = threadIdx.x, lane = t & 31, warp = t / 32;
    unsigned x = t < tiles ? tile_sum[t] : 0u;
    unsigned incl = warp_inclusive_scan(x);
    if (lane == 31)
        warp_total[warp] = incl;
    __syncthreads();
    unsigned w = warp_total[lane];
    unsigned w_incl = warp_inclusive_scan(w);
    unsigned before = __shfl_sync(0xffffffffu, w_incl - w, warp);
    if (t < tiles)   /* BUG: tiles past blockDim.x are never scanned */
        tile_sum[t] = before + incl - x;
}

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    if (n <= 0)
        return;
    long long tiles = tiles_of(n);
    unsigned *tile_sum = (unsigned *)d_scratch;
    if (tiles > 1) {
        reduce_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, n, tile_sum);
        scan_sums_one_per_thread<<<1, 1024>>>(tile_sum, (int)tiles);
    }
    scan_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, d_out, n, tiles > 1 ? tile_sum : NULL);
}
