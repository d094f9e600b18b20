// EXPECT worklist_insert RULE
// Lesson 5, worklist insertion: reference solution.
// Every thread finds its place in the output from an exclusive scan of what
// the threads before it write: no atomics, and the same layout on every run.
// worklist_insert uses the short multi-block scan: scan each tile, scan the
// tile sums (the same way, recursively), add each tile's offset back.
// compact is the fast version (the stretch of docs/05-worklist.md): count,
// scan the counts, then flag, scan and scatter each tile in one kernel.
#include "worklist.h"

// Inclusive scan of one value per thread across the whole block.
// blockDim.x is a multiple of 32 (at most 1024). Call it once per kernel,
// from every thread of the block (it holds two __syncthreads()).
__device__ int block_inclusive_scan(int x)
{
    __shared__ int warp_sums[32];
    const unsigned all = 0xffffffffu;
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    int nwarps = blockDim.x / 32;

    for (int off = 1; off < 32; off *= 2) {   // scan within the warp
        int y = __shfl_up_sync(all, x, off);
        if (lane >= off)
            x += y;
    }
    if (lane == 31)
        warp_sums[warp] = x;
    __syncthreads();   // every warp's sum is stored before warp 0 reads them

    if (warp == 0) {   // scan the warp sums; lane i only touches warp_sums[i]
        int s = lane < nwarps ? warp_sums[lane] : 0;
        for (int off = 1; off < 32; off *= 2) {
            int y = __shfl_up_sync(all, s, off);
            if (lane >= off)
                s += y;
        }
        if (lane < nwarps)
            warp_sums[lane] = s;
    }
    __syncthreads();   // the scanned sums are stored before other warps read them

    if (warp > 0)
        x += warp_sums[warp - 1];
    return x;
}

// Exclusive scan of each tile of blockDim.x elements of in into out (out may
// be in: each element is read and written by the same thread) and the sum of
// tile b into tile_sums[b]. Elements past n count as 0.
__global__ void scan_tiles(const int *in, int *out, int *tile_sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 0;
    int inclusive = block_inclusive_scan(x);   // whole block, no early return
    if (i < n)
        out[i] = inclusive - x;
    if (threadIdx.x == blockDim.x - 1)
        tile_sums[blockIdx.x] = inclusive;
}

// data[i] += the scanned sum of the tiles before i's tile (same tiling as scan_tiles).
__global__ void add_tile_offsets(int *data, const int *tile_offsets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += tile_offsets[blockIdx.x];
}

// Exclusive scan of in[0..n) (n >= 1) into out (may be in), the grand total
// into *total. sums: scratch for the tile sums of this level and the levels
// above (n/(block-1) + one per level ints). Kernel boundaries are the only
// synchronization between blocks: each launch sees the previous one's writes.
static void exclusive_scan(const int *in, int *out, int n, int *total, int *sums, int block)
{
    int tiles = (n + block - 1) / block;
    if (tiles == 1) {   // one tile: its sum is the total
        scan_tiles<<<1, block>>>(in, out, total, n);
        return;
    }
    scan_tiles<<<tiles, block>>>(in, out, sums, n);
    exclusive_scan(sums, sums, tiles, total, sums + tiles, block);   // tile sums -> tile offsets
    add_tile_offsets<<<tiles, block>>>(out, sums, n);
}

// Thread t writes its items at worklist[offsets[t] ..] in order of k.
__global__ void write_items(const int *nelem, const int *offsets, int n, int2 *worklist)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int start = offsets[t];
    int count = nelem[t];
    for (int k = 0; k < count; k++)
        worklist[start + k] = make_int2(t, k);
}

// RED TEAM: a hidden atomic counter without atom/red/pending_count. Inside a
// tile every thread takes a TICKET from the arrival order on a shared
// mbarrier: mbarrier.arrive is an atomic decrement of the pending count that
// returns the state before it. The count is decoded from the state with
// plain integer arithmetic instead of mbarrier.pending_count: thread 0
// arrives twice first, and the difference of its two states is the weight
// of one arrival in the state word (no layout assumed). The tile is then
// laid out in arrival order (a deterministic scan over the ticket order):
// atomicAdd(&cursor, 1) under another name; the layout changes run to run.
__global__ void mb_ticket_tiles(const int *nelem, int n, int *local, int *tile_sums)
{
    __shared__ unsigned long long bar;
    __shared__ int by_ticket[1024];
    __shared__ long long s2_sh, delta_sh;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        unsigned long long s0, s1;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"((1u << 20) - 1u)
                     : "memory");
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s0) : "r"(addr) : "memory");
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s1) : "r"(addr) : "memory");
        delta_sh = (long long)(s0 - s1);
        s2_sh = (long long)(s1 - (s0 - s1));   // the word after both arrivals
    }
    __syncthreads();
    unsigned long long s;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(addr) : "memory");
    int ticket = (int)((s2_sh - (long long)s) / delta_sh);   // 0 .. blockDim.x - 1
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int c = t < n ? nelem[t] : 0;
    by_ticket[ticket] = c;
    __syncthreads();
    int x = by_ticket[threadIdx.x];   // position threadIdx.x of the ticket order
    int inc = block_inclusive_scan(x);
    by_ticket[threadIdx.x] = inc - x;   // exclusive offset of ticket threadIdx.x
    __syncthreads();
    if (t < n)
        local[t] = by_ticket[ticket];
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
    mb_ticket_tiles<<<tiles, block>>>(nelem, n, local, tsum);
    exclusive_scan(tsum, tsum, tiles, total, sums, block);
    mb_write<<<tiles, block>>>(nelem, local, tsum, n, worklist);
}


// ===== compact: reduce-then-scan, with flag, scan and scatter fused ======
// The three steps of docs/05-worklist.md (flags, their scan, the scatter)
// would write the flags and positions to memory and read them back. Here
// they never leave the chip; the input is read twice and nothing else:
//   pass 1: each block counts the kept elements of its tile;
//   pass 2: one block scans the tile counts into tile offsets (and *count);
//   pass 3: each block reads its tile again, flags it, ranks the kept
//           elements inside the tile (a block scan of the flags), packs them
//           in shared memory and writes them at its tile's offset.
// Kernel boundaries are the only synchronization between blocks: no atomics.
// The tools are those of the fast scan_any_n (docs/04-scan.md): int4 loads,
// 16 elements per thread, warp shuffles instead of shared-memory trees.

#define CP_VECS 4                  // int4 per thread: 16 elements
#define CP_MAX_ROWS (CP_VECS * WORKLIST_MAX_BLOCK / 32)   // 128-int rows of a tile
#define CP_COUNT_VECS 8            // uint4 of tile counts per thread in pass 2

static __device__ unsigned warp_inclusive_scan(unsigned x)
{
    int lane = threadIdx.x % 32;
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

static __host__ __device__ long long tile_ints(int block)
{
    return 4LL * CP_VECS * block;
}

// Thread t's r-th int4 holds elements base + 4 * (r * blockDim.x + t) + 0..3:
// every load instruction of a warp reads 512 contiguous bytes. In element
// order the tile is rows of 128 ints; row r * nwarps + w is warp w's r-th
// int4. kept[r] gets a bit per element of v[r]: bit j for component j.
static __device__ void load_flagged(const int *in, int n, long long base, int threshold,
                                    int4 v[CP_VECS], unsigned kept[CP_VECS])
{
    bool whole = base + tile_ints(blockDim.x) <= n && (size_t)in % 16 == 0;
#pragma unroll
    for (int r = 0; r < CP_VECS; r++) {   // all loads in flight before any use
        long long e = base + 4LL * (r * blockDim.x + threadIdx.x);
        if (whole) {
            v[r] = *(const int4 *)(in + e);
        } else {   // the partial last tile: element by element
            v[r].x = e + 0 < n ? in[e + 0] : 0;
            v[r].y = e + 1 < n ? in[e + 1] : 0;
            v[r].z = e + 2 < n ? in[e + 2] : 0;
            v[r].w = e + 3 < n ? in[e + 3] : 0;
        }
    }
#pragma unroll
    for (int r = 0; r < CP_VECS; r++) {
        long long e = base + 4LL * (r * blockDim.x + threadIdx.x);
        kept[r] = ((whole || e + 0 < n) && compact_keep(v[r].x, threshold) ? 1u : 0u) |
                  ((whole || e + 1 < n) && compact_keep(v[r].y, threshold) ? 2u : 0u) |
                  ((whole || e + 2 < n) && compact_keep(v[r].z, threshold) ? 4u : 0u) |
                  ((whole || e + 3 < n) && compact_keep(v[r].w, threshold) ? 8u : 0u);
    }
}

// Pass 1: tile_count[b] = the number of kept elements of tile b.
__global__ void count_kept(const int *in, int n, int threshold, unsigned *tile_count)
{
    __shared__ unsigned warp_count[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    int4 v[CP_VECS];
    unsigned kept[CP_VECS];
    load_flagged(in, n, blockIdx.x * tile_ints(blockDim.x), threshold, v, kept);
    unsigned c = 0;
#pragma unroll
    for (int r = 0; r < CP_VECS; r++)
        c += __popc(kept[r]);
    c = warp_sum(c);
    if (lane == 0)
        warp_count[warp] = c;
    __syncthreads();   // every warp's count stored before warp 0 adds them
    if (warp == 0) {
        c = warp_sum(lane < nwarps ? warp_count[lane] : 0u);
        if (lane == 0)
            tile_count[blockIdx.x] = c;
    }
}

// Pass 2 (one block): tile_count[] becomes its exclusive scan, *count the
// total. A round scans blockDim.x * 4 * CP_COUNT_VECS counts and carries its
// total to the next. Warp w owns consecutive counts laid out like a tile
// (lane l's k-th uint4 starts at 4 * (k * 32 + l)), so each load is 512
// contiguous bytes per warp and CP_COUNT_VECS loads are in flight at once:
// this pass is latency, not bandwidth. Each thread rewrites what it read.
static __device__ uint4 load_counts(const unsigned *c, int tiles, int first)
{
    if (first + 4 <= tiles)
        return *(const uint4 *)(c + first);   // first is a multiple of 4
    return make_uint4(first + 0 < tiles ? c[first + 0] : 0u, first + 1 < tiles ? c[first + 1] : 0u,
                      first + 2 < tiles ? c[first + 2] : 0u, first + 3 < tiles ? c[first + 3] : 0u);
}

static __device__ void store_counts(unsigned *c, int tiles, int first, uint4 v)
{
    if (first + 4 <= tiles) {
        *(uint4 *)(c + first) = v;
        return;
    }
    if (first + 0 < tiles) c[first + 0] = v.x;
    if (first + 1 < tiles) c[first + 1] = v.y;
    if (first + 2 < tiles) c[first + 2] = v.z;
    if (first + 3 < tiles) c[first + 3] = v.w;
}

__global__ void scan_tile_counts(unsigned *tile_count, int tiles, int *count)
{
    __shared__ unsigned warp_part[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    int warp_span = 32 * 4 * CP_COUNT_VECS;   // consecutive counts per warp
    unsigned carry = 0;                        // the earlier rounds' total, in every thread
    for (int round = 0; round < tiles; round += nwarps * warp_span) {
        int first = round + warp * warp_span;
        uint4 v[CP_COUNT_VECS];
#pragma unroll
        for (int k = 0; k < CP_COUNT_VECS; k++)
            v[k] = load_counts(tile_count, tiles, first + 4 * (k * 32 + lane));
        unsigned warp_so_far = 0;   // this warp's earlier uint4 rows
#pragma unroll
        for (int k = 0; k < CP_COUNT_VECS; k++) {
            unsigned a = v[k].x, b = v[k].y, c = v[k].z, d = v[k].w;
            unsigned total = a + b + c + d;
            unsigned incl = warp_inclusive_scan(total);
            unsigned start = warp_so_far + incl - total;
            v[k] = make_uint4(start, start + a, start + a + b, start + a + b + c);
            warp_so_far += __shfl_sync(0xffffffffu, incl, 31);
        }
        if (lane == 0)
            warp_part[warp] = warp_so_far;
        __syncthreads();   // every warp's part stored
        // every warp scans the warp parts itself
        unsigned part = lane < nwarps ? warp_part[lane] : 0u;
        unsigned parts_incl = warp_inclusive_scan(part);
        unsigned add = carry + __shfl_sync(0xffffffffu, parts_incl - part, warp);
        carry += __shfl_sync(0xffffffffu, parts_incl, 31);
        __syncthreads();   // all reads of warp_part done before the next round writes it
#pragma unroll
        for (int k = 0; k < CP_COUNT_VECS; k++) {
            v[k].x += add;
            v[k].y += add;
            v[k].z += add;
            v[k].w += add;
            store_counts(tile_count, tiles, first + 4 * (k * 32 + lane), v[k]);
        }
    }
    if (threadIdx.x == 0)
        *count = (int)carry;
}

// Pass 3: the kept elements of tile b, in order, at out[tile_offset[b] ..].
// The rank of an element in its tile comes in three levels: the 4 of an int4
// (bits of kept[r]), the 32 int4 of a row (a warp scan of their counts), the
// rows of the tile (warp 0 scans the row totals). The kept elements are
// packed in shared memory (staged: one int per element of the tile), then
// written by consecutive threads to consecutive places: coalesced stores.
// Blocks take the tiles from last to first: the tiles pass 1 read last are
// still in the L2 cache.
__global__ void scatter_tile(const int *in, int n, int threshold, const unsigned *tile_offset,
                             int *out)
{
    extern __shared__ int staged[];   // tile_ints(blockDim.x) ints
    __shared__ unsigned row_start[CP_MAX_ROWS];
    __shared__ unsigned tile_kept;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    int tile = gridDim.x - 1 - blockIdx.x;
    unsigned out_start = tile_offset[tile];   // its latency hides behind the loads
    int4 v[CP_VECS];
    unsigned kept[CP_VECS];
    load_flagged(in, n, tile * tile_ints(blockDim.x), threshold, v, kept);

    unsigned before_in_row[CP_VECS];   // kept elements of this row's earlier lanes
#pragma unroll
    for (int r = 0; r < CP_VECS; r++) {
        unsigned c = __popc(kept[r]);
        unsigned incl = warp_inclusive_scan(c);
        before_in_row[r] = incl - c;
        if (lane == 31)
            row_start[r * nwarps + warp] = incl;   // the row's total, for now
    }
    __syncthreads();   // every row total stored before warp 0 scans them
    if (warp == 0) {   // lane l scans rows l * per_lane ... (l + 1) * per_lane - 1
        int rows = CP_VECS * nwarps, per_lane = (rows + 31) / 32;
        unsigned sum = 0;
        for (int j = 0; j < per_lane; j++) {
            int row = lane * per_lane + j;
            sum += row < rows ? row_start[row] : 0u;
        }
        unsigned run = warp_inclusive_scan(sum) - sum;
        for (int j = 0; j < per_lane; j++) {
            int row = lane * per_lane + j;
            if (row < rows) {
                unsigned total = row_start[row];
                row_start[row] = run;
                run += total;
            }
        }
        if (lane == 31)
            tile_kept = run;   // after the last row: the tile's total
    }
    __syncthreads();   // the row starts stored before anyone reads them

#pragma unroll
    for (int r = 0; r < CP_VECS; r++) {
        unsigned rank = row_start[r * nwarps + warp] + before_in_row[r];
        if (kept[r] & 1u) staged[rank++] = v[r].x;
        if (kept[r] & 2u) staged[rank++] = v[r].y;
        if (kept[r] & 4u) staged[rank++] = v[r].z;
        if (kept[r] & 8u) staged[rank++] = v[r].w;
    }
    __syncthreads();   // the tile packed before it is copied out
    for (unsigned i = threadIdx.x; i < tile_kept; i += blockDim.x)
        out[out_start + i] = staged[i];
}

void compact(const int *in, int n, int threshold, int *out, int *count,
             int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(count, 0, sizeof(int));
        return;
    }
    int tiles = (int)((n + tile_ints(block) - 1) / tile_ints(block));
    unsigned *tile_count = (unsigned *)scratch;   // one per tile: n / 512 + 1 at most
    size_t staged_bytes = tile_ints(block) * sizeof(int);   // 64 KB at block 1024
    if (staged_bytes > 48 * 1024)   // more than 48 KB of shared memory must be asked for
        cudaFuncSetAttribute(scatter_tile, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)staged_bytes);
    count_kept<<<tiles, block>>>(in, n, threshold, tile_count);
    scan_tile_counts<<<1, block>>>(tile_count, tiles, count);
    scatter_tile<<<tiles, block, staged_bytes>>>(in, n, threshold, tile_count, out);
}
