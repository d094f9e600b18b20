/* Lesson 3: reduction.
 * You will write: tree_reduce, mirrored_reduce, sum_int, sum_float.
 * Prerequisites: lesson 1 (barriers, __syncwarp). Check: make check
 * LESSON=reduction (make hint LESSON=reduction for a hint). Time: about 2 to
 * 3 hours. GPU: any GPU CUDA 13 supports (sm_75 or newer).
 *
 * Your workspace: replace each SYNCLAB_TODO line with
 * your code. The contracts (launch shapes, what to write where) are in
 * lessons/reduction/reduction.h; the ideas are in docs/03-reduction.md. */
#include <stdint.h>
#include "reduction.h"

/* ---- tree_reduce (docs/03-reduction.md#tree-reduce) ---------------------
 * TODO:
 *  1. extern __shared__ int s[];  each thread stores its element in
 *     s[threadIdx.x], or 0 when its global index i >= n (a partial last
 *     block: the garbage already in shared memory must not be summed, and
 *     in[i] past n must not be read).
 *  2. Barrier.
 *  3. for off = blockDim.x / 2 down to 1: threads tid < off add s[tid + off]
 *     into s[tid]; then a barrier that EVERY thread of the block reaches
 *     (not inside the if).
 *  4. Thread 0 writes out[blockIdx.x] = s[0]. */
__global__ void tree_reduce(const int *in, int *out, int n)
{
    SYNCLAB_TODO(tree_reduce);
}

/* ---- mirrored_reduce (docs/03-reduction.md#mirrored-reduce) -------------
 * The seed's loop, which races (thread 0 reads s[1] while thread 1 writes
 * it, when off == 1; across warps for larger off):
 *     for (off = blockDim.x / 2; off > 0; off /= 2) {
 *         if (tid < 2 * off) s[tid] += s[2 * off - tid - 1];
 *         __syncthreads();
 *     }
 * TODO: load and zero-fill as in tree_reduce, then make each level two
 * phases: threads tid < 2*off read s[2*off - tid - 1] into a local variable;
 * barrier; the same threads add it into s[tid]; barrier. Barriers outside
 * the ifs. Thread 0 writes out[blockIdx.x] = s[0]. */
__global__ void mirrored_reduce(const int *in, int *out, int n)
{
    SYNCLAB_TODO(mirrored_reduce);
}

/* ---- sum_int (docs/03-reduction.md#full-array-int-sum) ------------------
 * TODO (kernel): grid-stride loop that accumulates in a register (use int4
 * loads for the 16-byte aligned part of the array, plain loads for the few
 * elements before and after it), then a block sum (__shfl_down_sync within
 * each warp, warp totals through shared memory), then ONE atomicAdd(out, ...)
 * per block. */
__global__ void sum_int_kernel(const int *in, long long n, int *out)
{
    SYNCLAB_TODO(sum_int);
}

/* TODO (launcher): set *d_out to 0 first (cudaMemsetAsync), then choose a
 * grid that fills the GPU (a few blocks per SM: cudaDeviceGetAttribute with
 * cudaDevAttrMultiProcessorCount; compute it once and keep it in a static)
 * but not more blocks than the data needs. */
void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    sum_int_kernel<<<1, 256>>>(d_in, n, d_out);
}

/* ---- sum_float (docs/03-reduction.md#full-array-float-sum) --------------
 * TODO: the same for floats (float4 loads, atomicAdd on a float). The
 * result may differ from the CPU's in the last bits: why is explained in
 * the doc. */
__global__ void sum_float_kernel(const float *in, long long n, float *out)
{
    SYNCLAB_TODO(sum_float);
}

void reduce_sum_float(const float *d_in, long long n, float *d_out)
{
    sum_float_kernel<<<1, 256>>>(d_in, n, d_out);
}
