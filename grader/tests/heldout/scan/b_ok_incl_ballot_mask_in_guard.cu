// EXPECT block_inclusive_scan PASS
// Correct twin: the mask of lanes with an element is __ballot_sync(0xffffffff, i < n) taken by the whole warp before the branch; inside it every named lane executes the shuffles and each reads only lower lanes, which are in the mask.
// Lesson 4, scan (prefix sum): reference solution.
// See docs/04-scan.md; the contracts are in lessons/scan/scan.h.
#include "scan.h"

// ===== block_inclusive_scan: Hillis-Steele ================================
// Step `off` adds the value `off` slots to the left. Every step reads,
// waits for the whole block, then writes: in-place updates without the
// middle barrier would let thread t read s[t - off] after its owner already
// added to it in this step (docs/04-scan.md#hillis-steele-and-its-race).
__global__ void block_inclusive_scan(const int *in, int *out, int n)
{
    extern __shared__ int s[];   /* 2 * blockDim.x ints */
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int i = blockIdx.x * blockDim.x + tid;

    unsigned x = 0u;
    unsigned has = __ballot_sync(0xffffffffu, i < n);
    if (i < n) {
        x = (unsigned)in[i];
        for (int off = 1; off < 32; off *= 2) {
            unsigned y = __shfl_up_sync(has, x, off);
            if (lane >= off)
                x += y;
        }
    }

    if (lane == 31)
        s[warp] = (int)x;             /* the warp's total */
    __syncthreads();
    if (warp == 0) {
        int nw = blockDim.x / 32;
        unsigned w = lane < nw ? (unsigned)s[lane] : 0u;
        for (int off = 1; off < 32; off *= 2) {
            unsigned y = __shfl_up_sync(0xffffffffu, w, off);
            if (lane >= off)
                w += y;
        }
        if (lane < nw)
            s[32 + lane] = (int)w;    /* inclusive prefix of the warp totals */
    }
    __syncthreads();
    if (warp > 0)
        x += (unsigned)s[32 + warp - 1];
    if (i < n)
        out[i] = (int)x;
}

// ===== block_exclusive_scan: work-efficient (Blelloch) ====================
// Up-sweep builds partial sums in a tree (B - 1 additions), the down-sweep
// pushes prefixes back down (B - 1 more): O(B) work instead of
// Hillis-Steele's O(B log B). Within one level the active threads touch
// disjoint slots (k and k - d), so one barrier per level suffices.
__global__ void block_exclusive_scan(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    int tid = threadIdx.x;
    int B = blockDim.x;   // a power of two (scan.h)
    int i = blockIdx.x * B + tid;

    s[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    // Up-sweep: afterwards s[k] holds the sum of the 2d slots ending at k,
    // for every k with (k + 1) a multiple of 2d.
    for (int d = 1; d < B; d *= 2) {
        int k = (tid + 1) * 2 * d - 1;
        if (k < B)
            s[k] += s[k - d];
        __syncthreads();
    }
    if (tid == 0)
        s[B - 1] = 0;   // the root's prefix: nothing comes before the tile
    __syncthreads();
    // Down-sweep: a node hands its prefix to its left child and
    // prefix + left sum to its right child.
    for (int d = B / 2; d >= 1; d /= 2) {
        int k = (tid + 1) * 2 * d - 1;
        if (k < B) {
            int left = s[k - d];
            s[k - d] = s[k];
            s[k] += left;
        }
        __syncthreads();
    }
    if (i < n)
        out[i] = s[tid];
}

// ===== scan_any_n: reduce-then-scan, three passes =========================
// Pass 1 reduces every tile to its sum, pass 2 scans the tile sums in one
// block (they are few), pass 3 scans every tile again starting from its
// tile's prefix. Kernel boundaries are the only cross-block
// synchronization: no flags, no fences, no atomics. The passes move 3n ints
// (read, read + write); scanning first and adding back later would move 4n.
// Each pass must run at full memory bandwidth: 16-byte loads and stores,
// 16 elements per thread, warp shuffles instead of shared-memory trees.

#define ANY_THREADS 512                            // threads per tile block
#define ANY_VECS 4                                 // int4 per thread
#define ANY_WARPS (ANY_THREADS / 32)
#define ANY_TILE (ANY_THREADS * ANY_VECS * 4)      // 8192 ints per tile
#define ANY_ROWS (ANY_VECS * ANY_WARPS)            // 128-int rows per tile
#define ROWS_PER_LANE (ANY_ROWS / 32)              // rows per lane of warp 0
#define SUMS_THREADS 1024                          // the one block of pass 2
#define SUMS_VECS 8                                // uint4 of tile sums per thread
#define SUMS_WARP_SPAN (32 * SUMS_VECS * 4)        // consecutive sums per warp
#define SUMS_CHUNK (SUMS_THREADS / 32 * SUMS_WARP_SPAN)   // 32768 sums per round
static_assert(ANY_ROWS % 32 == 0, "pass 3 scans the row totals with one warp");
static_assert(SUMS_THREADS == 1024, "pass 2 scans 32 warp totals with one warp");

static __device__ unsigned warp_inclusive_scan(unsigned x)
{
    int lane = threadIdx.x & 31;
    for (int off = 1; off < 32; off *= 2) {
        unsigned y = __shfl_up_sync(0xffffffffu, x, off);
        if (lane >= off)
            x += y;
    }
    return x;
}

static __device__ unsigned warp_sum(unsigned x)
{
    for (int off = 16; off > 0; off /= 2)
        x += __shfl_xor_sync(0xffffffffu, x, off);
    return x;
}

// Tile layout: thread t's r-th int4 holds elements base + 4 * (r * ANY_THREADS
// + t) + 0..3, so every load instruction of a warp reads 512 contiguous
// bytes. In element order the tile is ANY_ROWS rows of 128 ints: row
// r * ANY_WARPS + w is warp w's r-th int4 row.
static __device__ void load_tile(const int *in, long long n, long long base, uint4 v[ANY_VECS])
{
    if (base + ANY_TILE <= n) {
        const uint4 *in4 = (const uint4 *)(in + base);
#pragma unroll
        for (int r = 0; r < ANY_VECS; r++)
            v[r] = __ldcs(&in4[r * ANY_THREADS + threadIdx.x]);   // each pass reads it once: stream
    } else {   // the partial last tile: element by element, zeros past n
#pragma unroll
        for (int r = 0; r < ANY_VECS; r++) {
            long long e = base + 4LL * (r * ANY_THREADS + threadIdx.x);
            v[r].x = e + 0 < n ? (unsigned)in[e + 0] : 0u;
            v[r].y = e + 1 < n ? (unsigned)in[e + 1] : 0u;
            v[r].z = e + 2 < n ? (unsigned)in[e + 2] : 0u;
            v[r].w = e + 3 < n ? (unsigned)in[e + 3] : 0u;
        }
    }
}

static __device__ void store_tile(int *out, long long n, long long base, const uint4 v[ANY_VECS])
{
    if (base + ANY_TILE <= n) {
        uint4 *out4 = (uint4 *)(out + base);
#pragma unroll
        for (int r = 0; r < ANY_VECS; r++)
            __stcs(&out4[r * ANY_THREADS + threadIdx.x], v[r]);
    } else {
#pragma unroll
        for (int r = 0; r < ANY_VECS; r++) {
            long long e = base + 4LL * (r * ANY_THREADS + threadIdx.x);
            if (e + 0 < n) out[e + 0] = (int)v[r].x;
            if (e + 1 < n) out[e + 1] = (int)v[r].y;
            if (e + 2 < n) out[e + 2] = (int)v[r].z;
            if (e + 3 < n) out[e + 3] = (int)v[r].w;
        }
    }
}

// Pass 1: tile_sum[b] = sum of tile b.
__global__ void __launch_bounds__(ANY_THREADS) reduce_tiles(const int *in, long long n, unsigned *tile_sum)
{
    __shared__ unsigned warp_total[ANY_WARPS];
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    uint4 v[ANY_VECS];
    load_tile(in, n, (long long)blockIdx.x * ANY_TILE, v);

    unsigned sum = 0;
#pragma unroll
    for (int r = 0; r < ANY_VECS; r++)
        sum += v[r].x + v[r].y + v[r].z + v[r].w;
    sum = warp_sum(sum);
    if (lane == 0)
        warp_total[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = warp_sum(lane < ANY_WARPS ? warp_total[lane] : 0u);
        if (lane == 0)
            tile_sum[blockIdx.x] = sum;
    }
}

// Pass 2 (one block): tile_sum[] becomes its exclusive scan, SUMS_CHUNK
// sums at a time, carrying the running total from chunk to chunk. Warp w
// owns SUMS_WARP_SPAN consecutive sums of the chunk, laid out like a tile of
// pass 3: lane l's k-th uint4 starts at 4 * (k * 32 + l), so each load is
// 512 contiguous bytes per warp. (Giving each thread 32 consecutive sums
// instead made every warp load touch 32 cache lines and the pass 2.4 times
// slower; a loop of single loads, each waiting for the one before, 10 times.)
// Each thread rewrites only the sums it read.
static __device__ void load_sums(const unsigned *sums, int tiles, int first, uint4 &v)
{
    if (first + 4 <= tiles) {
        v = *(const uint4 *)(sums + first);   // first is a multiple of 4
    } else {
        v.x = first + 0 < tiles ? sums[first + 0] : 0u;
        v.y = first + 1 < tiles ? sums[first + 1] : 0u;
        v.z = first + 2 < tiles ? sums[first + 2] : 0u;
        v.w = first + 3 < tiles ? sums[first + 3] : 0u;
    }
}

static __device__ void store_sums(unsigned *sums, int tiles, int first, uint4 v)
{
    if (first + 4 <= tiles) {
        *(uint4 *)(sums + first) = v;
    } else {
        if (first + 0 < tiles) sums[first + 0] = v.x;
        if (first + 1 < tiles) sums[first + 1] = v.y;
        if (first + 2 < tiles) sums[first + 2] = v.z;
        if (first + 3 < tiles) sums[first + 3] = v.w;
    }
}

__global__ void __launch_bounds__(SUMS_THREADS) scan_tile_sums(unsigned *tile_sum, int tiles)
{
    __shared__ unsigned warp_total[SUMS_THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    unsigned carry = 0;   // sum of the earlier chunks, the same in every thread

    for (int chunk = 0; chunk < tiles; chunk += SUMS_CHUNK) {
        int warp_first = chunk + warp * SUMS_WARP_SPAN;
        uint4 v[SUMS_VECS];
#pragma unroll
        for (int k = 0; k < SUMS_VECS; k++)   // all loads in flight before any use
            load_sums(tile_sum, tiles, warp_first + 4 * (k * 32 + lane), v[k]);

        unsigned warp_sum_so_far = 0;   // this warp's earlier rows
#pragma unroll
        for (int k = 0; k < SUMS_VECS; k++) {
            unsigned a = v[k].x, b = v[k].y, c = v[k].z, d = v[k].w;
            unsigned total = a + b + c + d;
            unsigned incl = warp_inclusive_scan(total);
            unsigned start = warp_sum_so_far + incl - total;
            v[k] = make_uint4(start, start + a, start + a + b, start + a + b + c);
            warp_sum_so_far += __shfl_sync(0xffffffffu, incl, 31);
        }
        if (lane == 0)
            warp_total[warp] = warp_sum_so_far;
        __syncthreads();   // all 32 warp totals written
        // Every warp scans the 32 warp totals itself: no third barrier.
        unsigned total = warp_total[lane];
        unsigned totals_incl = warp_inclusive_scan(total);
        unsigned add = carry + __shfl_sync(0xffffffffu, totals_incl - total, warp);
        carry += __shfl_sync(0xffffffffu, totals_incl, 31);
        __syncthreads();   // all reads done before the next chunk rewrites warp_total

#pragma unroll
        for (int k = 0; k < SUMS_VECS; k++) {
            v[k].x += add;
            v[k].y += add;
            v[k].z += add;
            v[k].w += add;
            store_sums(tile_sum, tiles, warp_first + 4 * (k * 32 + lane), v[k]);
        }
    }
}

// Pass 3: exclusive scan of tile b, starting from tile_prefix[b] (NULL when
// there is a single tile). Three levels: the 4 ints of an int4 in registers,
// the 32 int4 of a warp row by shuffles, the 64 rows of the tile by warp 0.
// Blocks take the tiles from last to first: the tiles pass 1 read last are
// still in the 50 MB L2 cache when pass 3 starts (about 1% faster at 2^28).
__global__ void __launch_bounds__(ANY_THREADS) scan_tiles(const int *in, int *out, long long n,
                                                          const unsigned *tile_prefix)
{
    __shared__ unsigned row_prefix[ANY_ROWS];
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    unsigned tile = gridDim.x - 1 - blockIdx.x;
    long long base = (long long)tile * ANY_TILE;
    // Fetch the tile's prefix early: its latency hides behind the tile loads.
    unsigned tile_start = (warp == 0 && tile_prefix) ? tile_prefix[tile] : 0u;
    uint4 v[ANY_VECS];
    load_tile(in, n, base, v);

    unsigned before_in_row[ANY_VECS];   // sum of this row's earlier lanes
#pragma unroll
    for (int r = 0; r < ANY_VECS; r++) {
        unsigned a = v[r].x, b = v[r].y, c = v[r].z, d = v[r].w;
        v[r].x = 0u;   // exclusive scan of the int4 itself
        v[r].y = a;
        v[r].z = a + b;
        v[r].w = a + b + c;
        unsigned total = a + b + c + d;
        unsigned incl = warp_inclusive_scan(total);
        before_in_row[r] = incl - total;
        if (lane == 31)
            row_prefix[r * ANY_WARPS + warp] = incl;   // the row's total
    }
    __syncthreads();   // all row totals written before warp 0 scans them
    if (warp == 0) {   // lane l scans rows l * ROWS_PER_LANE ...
        unsigned row[ROWS_PER_LANE], sum = 0;
#pragma unroll
        for (int j = 0; j < ROWS_PER_LANE; j++) {
            row[j] = row_prefix[lane * ROWS_PER_LANE + j];
            sum += row[j];
        }
        unsigned run = tile_start + warp_inclusive_scan(sum) - sum;
#pragma unroll
        for (int j = 0; j < ROWS_PER_LANE; j++) {
            row_prefix[lane * ROWS_PER_LANE + j] = run;
            run += row[j];
        }
    }
    __syncthreads();   // all row prefixes written before anyone reads them

#pragma unroll
    for (int r = 0; r < ANY_VECS; r++) {
        unsigned add = row_prefix[r * ANY_WARPS + warp] + before_in_row[r];
        v[r].x += add;
        v[r].y += add;
        v[r].z += add;
        v[r].w += add;
    }
    store_tile(out, n, base, v);
}

static long long tiles_of(long long n)
{
    return (n + ANY_TILE - 1) / ANY_TILE;
}

size_t scan_scratch_bytes(long long n)
{
    long long tiles = tiles_of(n);
    return tiles > 1 ? (size_t)tiles * sizeof(unsigned) : 0;
}

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    if (n <= 0)
        return;
    long long tiles = tiles_of(n);
    unsigned *tile_sum = (unsigned *)d_scratch;
    if (tiles > 1) {   // every tile sum is written by pass 1: no reset needed
        reduce_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, n, tile_sum);
        scan_tile_sums<<<1, SUMS_THREADS>>>(tile_sum, (int)tiles);
    }
    scan_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, d_out, n, tiles > 1 ? tile_sum : NULL);
}
