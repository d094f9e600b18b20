// EXPECT scan_any_n MEMORY
// A scan that moves 4 ints per thread as one int4, with an off-by-one in the
// test for a whole vector (e + 2 < n instead of e + 3 < n): when n % 4 == 3
// the last int4 reads in[n] and writes out[n], one past both arrays. Every
// value is right (the extra lane is never used), so no plain run fails;
// memcheck sees it on the sanitizer input whose n mod 4 is 3.
#define scan_exclusive_int scan_exclusive_int_reference
#define scan_scratch_bytes scan_scratch_bytes_reference
#include "../../../solutions/scan.cu"
#undef scan_exclusive_int
#undef scan_scratch_bytes

enum { QUAD_THREADS = 256, QUAD_TILE = 4 * QUAD_THREADS };

static __device__ int4 load_quad(const int *in, long long n, long long e)
{
    if (e + 2 < n)   /* BUG: a whole int4 needs e + 3 < n */
        return *(const int4 *)(in + e);
    int4 v = make_int4(0, 0, 0, 0);
    if (e < n)
        v.x = in[e];
    if (e + 1 < n)
        v.y = in[e + 1];
    return v;
}

static __device__ void store_quad(int *out, long long n, long long e, int4 v)
{
    if (e + 2 < n) {   /* BUG: the same test: writes out[n] when n % 4 == 3 */
        *(int4 *)(out + e) = v;
        return;
    }
    if (e < n)
        out[e] = v.x;
    if (e + 1 < n)
        out[e + 1] = v.y;
}

/* Exclusive scan of x over the block (QUAD_THREADS threads); *total gets the sum. */
static __device__ unsigned quad_block_scan(unsigned x, unsigned *total)
{
    __shared__ unsigned warp_tot[QUAD_THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned incl = warp_inclusive_scan(x);
    if (lane == 31)
        warp_tot[warp] = incl;
    __syncthreads();
    unsigned before = 0, all = 0;
    for (int w = 0; w < QUAD_THREADS / 32; w++) {
        before += w < warp ? warp_tot[w] : 0u;
        all += warp_tot[w];
    }
    __syncthreads();   /* read before a later call rewrites warp_tot */
    *total = all;
    return before + incl - x;
}

__global__ void __launch_bounds__(QUAD_THREADS) quad_tile_sums(const int *in, long long n,
                                                               unsigned *tile_sum)
{
    long long e = (long long)blockIdx.x * QUAD_TILE + 4LL * threadIdx.x;
    int4 v = load_quad(in, n, e);
    unsigned total;
    quad_block_scan((unsigned)v.x + v.y + v.z + v.w, &total);
    if (threadIdx.x == 0)
        tile_sum[blockIdx.x] = total;
}

__global__ void __launch_bounds__(1024) quad_scan_sums(unsigned *sums, int count)
{
    __shared__ unsigned warp_tot[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned carry = 0;
    for (int base = 0; base < count; base += 1024) {
        int k = base + threadIdx.x;
        unsigned x = k < count ? sums[k] : 0u;
        unsigned incl = warp_inclusive_scan(x);
        if (lane == 31)
            warp_tot[warp] = incl;
        __syncthreads();
        unsigned w = warp_tot[lane];
        unsigned w_incl = warp_inclusive_scan(w);
        unsigned before = __shfl_sync(0xffffffffu, w_incl - w, warp);
        unsigned chunk = __shfl_sync(0xffffffffu, w_incl, 31);
        __syncthreads();
        if (k < count)
            sums[k] = carry + before + incl - x;
        carry += chunk;
    }
}

__global__ void __launch_bounds__(QUAD_THREADS) quad_scan_tiles(const int *in, int *out,
                                                                long long n,
                                                                const unsigned *tile_prefix)
{
    long long e = (long long)blockIdx.x * QUAD_TILE + 4LL * threadIdx.x;
    int4 v = load_quad(in, n, e);
    unsigned a = v.x, b = v.y, c = v.z, d = v.w, total;
    unsigned start = quad_block_scan(a + b + c + d, &total) +
                     (tile_prefix ? tile_prefix[blockIdx.x] : 0u);
    store_quad(out, n, e, make_int4((int)start, (int)(start + a), (int)(start + a + b),
                                    (int)(start + a + b + c)));
}

size_t scan_scratch_bytes(long long n)
{
    return (size_t)((n + QUAD_TILE - 1) / QUAD_TILE) * sizeof(unsigned);
}

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    if (n <= 0)
        return;
    long long tiles = (n + QUAD_TILE - 1) / QUAD_TILE;
    unsigned *sums = (unsigned *)d_scratch;
    if (tiles > 1) {
        quad_tile_sums<<<(unsigned)tiles, QUAD_THREADS>>>(d_in, n, sums);
        quad_scan_sums<<<1, 1024>>>(sums, (int)tiles);
    }
    quad_scan_tiles<<<(unsigned)tiles, QUAD_THREADS>>>(d_in, d_out, n, tiles > 1 ? sums : NULL);
}
