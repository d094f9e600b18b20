// EXPECT compact PASS
// Correct: the textbook three-kernel compaction (flags, scan, scatter) whose
// scan is a work-efficient (Blelloch) tree over tiles of 2*block elements,
// recursive over the tile sums, with an add-back kernel. No atomics, no
// cross-block waits: kernel boundaries are the only grid barrier.
#define compact compact_reference
#include "../../../../solutions/worklist.cu"
#undef compact

__global__ void p_flags(const int *in, int n, int threshold, int *flags)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flags[i] = compact_keep(in[i], threshold) ? 1 : 0;
}

// Exclusive Blelloch scan of tile [2B*b, 2B*(b+1)); tile sum to sums[b].
__global__ void p_blelloch(const int *in, int *out, int *sums, int n)
{
    extern __shared__ int s[];
    int B = blockDim.x, B2 = 2 * B, t = threadIdx.x;
    int a = blockIdx.x * B2 + t, c = a + B;
    s[t] = a < n ? in[a] : 0;
    s[t + B] = c < n ? in[c] : 0;
    __syncthreads();
    for (int d = 1; d < B2; d *= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < B2)
            s[k] += s[k - d];
        __syncthreads();
    }
    if (t == 0) {
        sums[blockIdx.x] = s[B2 - 1];
        s[B2 - 1] = 0;
    }
    __syncthreads();
    for (int d = B; d >= 1; d /= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < B2) {
            int x = s[k - d];
            s[k - d] = s[k];
            s[k] += x;
        }
        __syncthreads();
    }
    if (a < n) out[a] = s[t];
    if (c < n) out[c] = s[t + B];
}

__global__ void p_add_back(int *data, const int *offs, int n)
{
    int B2 = 2 * blockDim.x;
    int a = blockIdx.x * B2 + threadIdx.x, c = a + blockDim.x;
    int o = offs[blockIdx.x];
    if (a < n) data[a] += o;
    if (c < n) data[c] += o;
}

static void p_scan(const int *in, int *out, int n, int *total, int *sums, int block)
{
    int tile = 2 * block, tiles = (n + tile - 1) / tile;
    size_t sh = (size_t)tile * sizeof(int);
    if (tiles == 1) {
        p_blelloch<<<1, block, sh>>>(in, out, total, n);
        return;
    }
    p_blelloch<<<tiles, block, sh>>>(in, out, sums, n);
    p_scan(sums, sums, tiles, total, sums + tiles, block);
    p_add_back<<<tiles, block>>>(out, sums, n);
}

__global__ void p_scatter(const int *in, int n, int threshold, const int *pos, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && compact_keep(in[i], threshold))
        out[pos[i]] = in[i];
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(count, 0, sizeof(int));
        return;
    }
    int *pos = scratch, *sums = scratch + n;
    int grid = (n + block - 1) / block;
    p_flags<<<grid, block>>>(in, n, threshold, pos);
    p_scan(pos, pos, n, count, sums, block);
    p_scatter<<<grid, block>>>(in, n, threshold, pos, out);
}
