// EXPECT compact RACE
// The block scan lacks the barrier between warp 0 storing the scanned warp
// sums and the other warps reading them: a shared-memory read/write race that
// racecheck names. Plain runs often give the right answer anyway.
#define compact compact_reference
#include "../../../solutions/worklist.cu"
#undef compact

// The three-kernel compaction (flags and positions in memory), whose scan
// gets the bug below: the reference fuses these since it became fast.
__global__ void flag_kept(const int *in, int *flags, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flags[i] = compact_keep(in[i], threshold) ? 1 : 0;
}

__global__ void scatter_kept(const int *in, const int *positions, int n, int threshold, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && compact_keep(in[i], threshold))
        out[positions[i]] = in[i];
}

__device__ int block_inclusive_scan_racy(int x)
{
    __shared__ int warp_sums[32];
    const unsigned all = 0xffffffffu;
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    int nwarps = blockDim.x / 32;

    for (int off = 1; off < 32; off *= 2) {
        int y = __shfl_up_sync(all, x, off);
        if (lane >= off)
            x += y;
    }
    if (lane == 31)
        warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        int s = lane < nwarps ? warp_sums[lane] : 0;
        for (int off = 1; off < 32; off *= 2) {
            int y = __shfl_up_sync(all, s, off);
            if (lane >= off)
                s += y;
        }
        if (lane < nwarps)
            warp_sums[lane] = s;
    }
    // BUG: no __syncthreads() here: a warp may read its predecessor's sum
    // before warp 0 has replaced it with the scanned one.
    if (warp > 0)
        x += warp_sums[warp - 1];
    return x;
}

__global__ void scan_tiles_racy(const int *in, int *out, int *tile_sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 0;
    int inclusive = block_inclusive_scan_racy(x);
    if (i < n)
        out[i] = inclusive - x;
    if (threadIdx.x == blockDim.x - 1)
        tile_sums[blockIdx.x] = inclusive;
}

void compact(const int *in, int n, int threshold, int *out, int *count,
             int *scratch, int block)
{
    int tiles = (n + block - 1) / block;
    int *flags = scratch, *positions = scratch + n, *sums = scratch + 2 * (size_t)n;
    flag_kept<<<tiles, block>>>(in, flags, n, threshold);
    // The first level uses the racy scan; a stale sum is never larger than the
    // right one, so every position stays inside out[0..n): no MEMORY first.
    scan_tiles_racy<<<tiles, block>>>(flags, positions, tiles == 1 ? count : sums, n);
    if (tiles > 1) {
        exclusive_scan(sums, sums, tiles, count, sums + tiles, block);
        add_tile_offsets<<<tiles, block>>>(positions, sums, n);
    }
    scatter_kept<<<tiles, block>>>(in, positions, n, threshold, out);
}
