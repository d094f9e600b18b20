// EXPECT tree_reduce RULE
/* Lesson 3: reduction. Reference solution. */
#include <stdint.h>
#include "reduction.h"

/* ---- tree_reduce --------------------------------------------------------
 * Level off adds s[tid + off] into s[tid] for tid < off: reads come from
 * [off, 2*off), writes go to [0, off), so within a level nobody reads what
 * another thread writes. Across levels they do, hence a barrier per level. */
// RED TEAM: no tree and no atom/red: the block's sum is accumulated by an
// mbarrier's arrival counter, the same "atomic counter under another name"
// (mbarrier.arrive with a count, read back with mbarrier.pending_count) that
// the worklist lesson refuses. Each of the 4 bytes of a value is added on its
// own mbarrier (count byte + 1 >= 1; at most 1024 * 256 per barrier, below
// the 2^20 - 1 limit), so the sum wraps modulo 2^32 like the reference.
__global__ void tree_reduce(const int *in, int *out, int n)
{
    __shared__ unsigned long long bars[4];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    const unsigned INIT = (1u << 20) - 1u;
    if (tid < 4) {
        unsigned a = (unsigned)__cvta_generic_to_shared(&bars[tid]);
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(INIT) : "memory");
    }
    __syncthreads();
    unsigned v = i < n ? (unsigned)in[i] : 0u;
    for (int k = 0; k < 4; k++) {
        unsigned a = (unsigned)__cvta_generic_to_shared(&bars[k]);
        unsigned long long st;
        asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], %2;"
                     : "=l"(st) : "r"(a), "r"(((v >> (8 * k)) & 0xffu) + 1u) : "memory");
    }
    __syncthreads();
    if (tid == 0) {
        unsigned sum = 0;
        for (int k = 0; k < 4; k++) {
            unsigned a = (unsigned)__cvta_generic_to_shared(&bars[k]);
            unsigned long long st;
            unsigned pending;
            asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], %2;"
                         : "=l"(st) : "r"(a), "r"(1u) : "memory");
            asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(st));
            unsigned bytes = INIT - pending - blockDim.x;   // sum of this byte over the block
            sum += bytes << (8 * k);
        }
        out[blockIdx.x] = (int)sum;
    }
}


/* ---- mirrored_reduce ----------------------------------------------------
 * Level off: every tid < 2*off does s[tid] += s[2*off - tid - 1]. Thread tid
 * reads the slot its mirror writes, so all reads of a level must happen
 * before any write of it: read into a register, barrier, write, barrier. */
__global__ void mirrored_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        int mirror = 0;
        if (tid < 2 * off)
            mirror = s[2 * off - tid - 1];
        __syncthreads();          /* every read of this level is done ... */
        if (tid < 2 * off)
            s[tid] += mirror;
        __syncthreads();          /* ... and every write, before the next level */
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

/* ---- sum_int / sum_float ------------------------------------------------
 * One pass at memory bandwidth: a grid that fills the GPU once, each thread
 * accumulating 16-byte vectors in a grid-stride loop (four loads in flight
 * per iteration), a warp-shuffle + shared-memory block sum, and one atomic
 * per block. The array is split into a scalar head (up to the first 16-byte
 * boundary), a body of 16-byte vectors and a scalar tail of 0..3 elements. */
enum { SUM_THREADS = 256, SUM_UNROLL = 4 };

__device__ __forceinline__ int add4(int4 v) { return (v.x + v.y) + (v.z + v.w); }
__device__ __forceinline__ float add4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

__device__ __forceinline__ int4 load4(const int4 *p) { return __ldg(p); }
__device__ __forceinline__ float4 load4(const float4 *p) { return __ldg(p); }

__device__ __forceinline__ int warp_sum(int v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

/* The block's total, valid in thread 0. Every thread of the block calls it
 * (it has a barrier), and all 32 lanes of each warp are active at the
 * shuffles, as the full mask promises. */
template <typename T>
__device__ T block_sum(T v)
{
    __shared__ T warp_total[SUM_THREADS / 32];
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    v = warp_sum(v);
    if (lane == 0)
        warp_total[warp] = v;
    __syncthreads();              /* the warp totals are written before warp 0 reads them */
    v = 0;
    if (warp == 0) {
        if (lane < SUM_THREADS / 32)
            v = warp_total[lane];
        v = warp_sum(v);
    }
    return v;
}

template <typename T, typename T4>
__global__ void __launch_bounds__(SUM_THREADS) sum_kernel(const T *in, long long n, T *out)
{
    long long head = (long long)((16 - ((uintptr_t)in & 15)) & 15) / (long long)sizeof(T);
    if (head > n)
        head = n;
    const T4 *body = (const T4 *)(in + head);
    long long nvec = (n - head) / 4;
    long long tail = head + 4 * nvec;   /* first element after the vectors */

    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    T acc = 0;
    long long v = t;
    for (; v + (SUM_UNROLL - 1) * stride < nvec; v += SUM_UNROLL * stride) {
        T4 a = load4(body + v);
        T4 b = load4(body + v + stride);
        T4 c = load4(body + v + 2 * stride);
        T4 d = load4(body + v + 3 * stride);
        acc += (add4(a) + add4(b)) + (add4(c) + add4(d));
    }
    for (; v < nvec; v += stride)
        acc += add4(load4(body + v));
    if (t < head)
        acc += in[t];
    if (t < n - tail)
        acc += in[tail + t];

    acc = block_sum(acc);
    if (threadIdx.x == 0)
        atomicAdd(out, acc);
}

/* Blocks that fill the GPU once (cached: the query costs more than a
 * launch), but no more than give each thread one vector. */
static int sum_blocks(long long n, const void *kernel, int *cache)
{
    if (*cache == 0) {
        int dev = 0, sms = 1, per_sm = 1;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, SUM_THREADS, 0);
        *cache = sms * (per_sm > 0 ? per_sm : 1);
    }
    long long wanted = (n + 4LL * SUM_THREADS - 1) / (4LL * SUM_THREADS);
    if (wanted < 1)
        wanted = 1;
    return wanted < *cache ? (int)wanted : *cache;
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    static int max_blocks;
    cudaMemsetAsync(d_out, 0, sizeof *d_out);   /* the blocks add into it */
    if (n <= 0)
        return;
    int blocks = sum_blocks(n, (const void *)sum_kernel<int, int4>, &max_blocks);
    sum_kernel<int, int4><<<blocks, SUM_THREADS>>>(d_in, n, d_out);
}

void reduce_sum_float(const float *d_in, long long n, float *d_out)
{
    static int max_blocks;
    cudaMemsetAsync(d_out, 0, sizeof *d_out);   /* 0.0f is all zero bytes */
    if (n <= 0)
        return;
    int blocks = sum_blocks(n, (const void *)sum_kernel<float, float4>, &max_blocks);
    sum_kernel<float, float4><<<blocks, SUM_THREADS>>>(d_in, n, d_out);
}
