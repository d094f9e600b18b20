// EXPECT scan_any_n RULE
// packed status word written as two separate 32-bit volatile stores (value, then flag) with no fence, read back as one 64-bit volatile load: the flag half can be seen before the value half
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

// ===== scan_any_n: single-pass chained scan (probe) =====
#include <cuda/atomic>
#define CB 256

__global__ void __launch_bounds__(CB) packed(const int *in, int *out, long long n, unsigned long long *scr)
{
    __shared__ unsigned warp_tot[CB / 32];
    __shared__ unsigned s_prefix;
    __shared__ long long s_tile;
    unsigned *ticket = (unsigned *)scr;
    unsigned long long *status = scr + 1;   // high 32 bits: flag (1), low: inclusive prefix
    if (threadIdx.x == 0) s_tile = atomicAdd(ticket, 1u);
    __syncthreads();
    long long tile = s_tile;
    long long i = tile * CB + threadIdx.x;
    unsigned x = i < n ? (unsigned)in[i] : 0u;
    unsigned inc = x;
    for (int o = 1; o < 32; o *= 2) { unsigned y = __shfl_up_sync(0xffffffffu, inc, o); if ((threadIdx.x & 31) >= o) inc += y; }
    if ((threadIdx.x & 31) == 31) warp_tot[threadIdx.x / 32] = inc;
    __syncthreads();
    unsigned before = 0, total = 0;
    for (int w = 0; w < CB / 32; w++) { if (w < (int)threadIdx.x / 32) before += warp_tot[w]; total += warp_tot[w]; }
    if (threadIdx.x == 0) {
        unsigned p = 0;

        if (tile > 0) {
            unsigned long long w;
            do { w = *(volatile unsigned long long *)&status[tile - 1]; } while ((w >> 32) == 0);
            p = (unsigned)w;
        }
        volatile unsigned *half = (volatile unsigned *)&status[tile];
        half[0] = p + total;   // value (little endian: low word)
        half[1] = 1u;          // BUG: flag in a separate store, nothing orders it after the value
        s_prefix = p;
    }
    __syncthreads();
    if (i < n) out[i] = (int)(s_prefix + before + inc - x);
}
size_t scan_scratch_bytes(long long n) { return (size_t)(1 + (n + CB - 1) / CB) * sizeof(unsigned long long); }
void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    long long tiles = (n + CB - 1) / CB;
    cudaMemsetAsync(d_scratch, 0, scan_scratch_bytes(n));
    packed<<<(unsigned)tiles, CB>>>(d_in, d_out, n, (unsigned long long *)d_scratch);
}
