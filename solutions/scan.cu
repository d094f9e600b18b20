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
    extern __shared__ int s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    s[tid] = (i < n) ? in[i] : 0;   // threads past n still take part
    __syncthreads();
    for (int off = 1; off < blockDim.x; off *= 2) {
        int add = (tid >= off) ? s[tid - off] : 0;
        __syncthreads();   // every read of this step is done...
        s[tid] += add;
        __syncthreads();   // ...and every write, before the next step reads
    }
    if (i < n)
        out[i] = s[tid];
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

// The three passes above, one launch each.
static void scan_three_passes(const int *d_in, int *d_out, long long n, unsigned *tile_sum)
{
    long long tiles = tiles_of(n);
    if (tiles > 1) {   // every tile sum is written by pass 1: no reset needed
        reduce_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, n, tile_sum);
        scan_tile_sums<<<1, SUMS_THREADS>>>(tile_sum, (int)tiles);
    }
    scan_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, d_out, n, tiles > 1 ? tile_sum : NULL);
}

// ===== scan_any_n, fast: one pass with decoupled look-back ================
// The three passes move 3n ints; CUB moves 2n, in one pass whose tiles hand
// their prefixes to each other. Each block:
//   1. takes a tile from a ticket counter (atomicAdd): it then waits only for
//      tiles that blocks already running took, so no block waits for one
//      that is not scheduled (blockIdx.x would give no such promise);
//   2. loads and scans its tile as pass 3 does, and publishes the tile's
//      total (flag AGGREGATE);
//   3. warp 0 looks back 32 tiles at a time, adding aggregates until it meets
//      an inclusive prefix (flag PREFIX), then publishes its own prefix;
//   4. adds that prefix and stores the tile.
// A status word packs the flag (high 32 bits) with the value (low 32 bits)
// in one aligned 64-bit word, stored and loaded whole through volatile: a
// block that sees the flag sees its value, with no fence on either side
// (docs/04-scan.md#scan-of-any-n). The words and the ticket are reset with
// one cudaMemsetAsync per call.
// SCAN_VARIANT 0: the three passes; 1, 2, 3: one pass with tiles of
// 256 threads x 32 ints, 512 x 16, 128 x 32. At 2^28 on an H200, three bench
// runs each: 91.5 to 92.2% of CUB, 91.0 to 91.8%, 90.8 to 91.9%; 256 x 16
// reached 88.1 to 89.1%, and a __nanosleep in the look-back's wait less.
#ifndef SCAN_VARIANT
#define SCAN_VARIANT 1
#endif
#if SCAN_VARIANT == 2
#define LB_THREADS 512
#define LB_VECS 4
#elif SCAN_VARIANT == 3
#define LB_THREADS 128
#define LB_VECS 8
#else
#define LB_THREADS 256
#define LB_VECS 8
#endif
#define LB_WARPS (LB_THREADS / 32)
#define LB_TILE (LB_THREADS * LB_VECS * 4)
#define LB_ROWS (LB_VECS * LB_WARPS)   // 128-int rows per tile
#define LB_ROWS_PER_LANE (LB_ROWS / 32)
#define LB_AGGREGATE (1ull << 32)      // the value is the tile's own total
#define LB_PREFIX (2ull << 32)         // the value is the sum of tiles 0 .. t
static_assert(LB_ROWS % 32 == 0, "warp 0 scans the row totals, a whole number per lane");

static long long lb_tiles_of(long long n)
{
    return (n + LB_TILE - 1) / LB_TILE;
}

static __device__ void lb_load(const int *in, long long n, long long base, uint4 v[LB_VECS])
{
    if (base + LB_TILE <= n) {
        const uint4 *in4 = (const uint4 *)(in + base);
#pragma unroll
        for (int r = 0; r < LB_VECS; r++)
            v[r] = __ldcs(&in4[r * LB_THREADS + threadIdx.x]);
    } else {
#pragma unroll
        for (int r = 0; r < LB_VECS; r++) {
            long long e = base + 4LL * (r * LB_THREADS + threadIdx.x);
            v[r].x = e + 0 < n ? (unsigned)in[e + 0] : 0u;
            v[r].y = e + 1 < n ? (unsigned)in[e + 1] : 0u;
            v[r].z = e + 2 < n ? (unsigned)in[e + 2] : 0u;
            v[r].w = e + 3 < n ? (unsigned)in[e + 3] : 0u;
        }
    }
}

static __device__ void lb_store(int *out, long long n, long long base, const uint4 v[LB_VECS])
{
    if (base + LB_TILE <= n) {
        uint4 *out4 = (uint4 *)(out + base);
#pragma unroll
        for (int r = 0; r < LB_VECS; r++)
            __stcs(&out4[r * LB_THREADS + threadIdx.x], v[r]);
    } else {
#pragma unroll
        for (int r = 0; r < LB_VECS; r++) {
            long long e = base + 4LL * (r * LB_THREADS + threadIdx.x);
            if (e + 0 < n) out[e + 0] = (int)v[r].x;
            if (e + 1 < n) out[e + 1] = (int)v[r].y;
            if (e + 2 < n) out[e + 2] = (int)v[r].z;
            if (e + 3 < n) out[e + 3] = (int)v[r].w;
        }
    }
}

// Warp 0, all lanes: the sum of the tiles before `tile`, from their status
// words. Lane l watches tile window - l; a lane waits until its word is
// published, then the warp adds every word up to the newest PREFIX in the
// window (lanes past it are older tiles, already counted in that prefix).
static __device__ unsigned lb_look_back(volatile unsigned long long *status, unsigned tile)
{
    int lane = threadIdx.x & 31;
    unsigned before = 0;
    long long window = (long long)tile - 1;   // the newest tile of the window
    for (;;) {
        long long p = window - lane;
        unsigned long long word = LB_PREFIX;   // before tile 0: a prefix of 0
        if (p >= 0) {
            do {
                word = status[p];
            } while ((word >> 32) == 0);
        }
        unsigned prefixes = __ballot_sync(0xffffffffu, (word >> 32) == 2);
        int last = prefixes ? __ffs(prefixes) - 1 : 31;   // the newest PREFIX, or all 32
        before += warp_sum(lane <= last ? (unsigned)word : 0u);
        if (prefixes)
            return before;
        window -= 32;
    }
}

// status[t]: tile t's word; ticket: the next tile to take. Both zero on entry.
__global__ void __launch_bounds__(LB_THREADS) lookback_scan(const int *in, int *out, long long n,
                                                            unsigned *ticket,
                                                            unsigned long long *status)
{
    __shared__ unsigned row_prefix[LB_ROWS];
    __shared__ unsigned s_tile;
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    if (threadIdx.x == 0)
        s_tile = atomicAdd(ticket, 1u);   // tiles in the order the blocks start
    __syncthreads();   // the ticket read by all
    unsigned tile = s_tile;
    long long base = (long long)tile * LB_TILE;
    uint4 v[LB_VECS];
    lb_load(in, n, base, v);

    unsigned before_in_row[LB_VECS];   // sum of this row's earlier lanes
#pragma unroll
    for (int r = 0; r < LB_VECS; r++) {
        unsigned a = v[r].x, b = v[r].y, c = v[r].z, d = v[r].w;
        v[r] = make_uint4(0u, a, a + b, a + b + c);   // exclusive scan of the int4 itself
        unsigned total = a + b + c + d;
        unsigned incl = warp_inclusive_scan(total);
        before_in_row[r] = incl - total;
        if (lane == 31)
            row_prefix[r * LB_WARPS + warp] = incl;   // the row's total
    }
    __syncthreads();   // all row totals written before warp 0 scans them
    if (warp == 0) {   // lane l scans rows l * LB_ROWS_PER_LANE ...
        unsigned row[LB_ROWS_PER_LANE], sum = 0;
#pragma unroll
        for (int j = 0; j < LB_ROWS_PER_LANE; j++) {
            row[j] = row_prefix[lane * LB_ROWS_PER_LANE + j];
            sum += row[j];
        }
        unsigned incl = warp_inclusive_scan(sum);
        unsigned tile_total = __shfl_sync(0xffffffffu, incl, 31);
        volatile unsigned long long *st = status;
        unsigned before = 0;
        if (tile == 0) {
            if (lane == 0)
                st[0] = LB_PREFIX | tile_total;
        } else {
            if (lane == 0)
                st[tile] = LB_AGGREGATE | tile_total;   // later tiles may use it at once
            before = lb_look_back(status, tile);
            if (lane == 0)
                st[tile] = LB_PREFIX | (before + tile_total);
        }
        unsigned run = before + incl - sum;
#pragma unroll
        for (int j = 0; j < LB_ROWS_PER_LANE; j++) {
            row_prefix[lane * LB_ROWS_PER_LANE + j] = run;
            run += row[j];
        }
    }
    __syncthreads();   // all row prefixes written before anyone reads them

#pragma unroll
    for (int r = 0; r < LB_VECS; r++) {
        unsigned add = row_prefix[r * LB_WARPS + warp] + before_in_row[r];
        v[r].x += add;
        v[r].y += add;
        v[r].z += add;
        v[r].w += add;
    }
    lb_store(out, n, base, v);
}

// Scratch of the one-pass scan: the ticket (in a 64-bit slot), then a status
// word per tile.
static size_t lb_scratch_bytes(long long n)
{
    return (size_t)(1 + lb_tiles_of(n)) * sizeof(unsigned long long);
}

size_t scan_scratch_bytes(long long n)
{
    long long tiles = tiles_of(n);
    size_t three = tiles > 1 ? (size_t)tiles * sizeof(unsigned) : 0;
    size_t one = lb_scratch_bytes(n);
    return three > one ? three : one;   // the bug zoo runs the three passes on it too
}

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    if (n <= 0)
        return;
    if (SCAN_VARIANT == 0) {
        scan_three_passes(d_in, d_out, n, (unsigned *)d_scratch);
        return;
    }
    cudaMemsetAsync(d_scratch, 0, lb_scratch_bytes(n));
    unsigned long long *words = (unsigned long long *)d_scratch;
    lookback_scan<<<(unsigned)lb_tiles_of(n), LB_THREADS>>>(d_in, d_out, n, (unsigned *)words,
                                                            words + 1);
}
