// EXPECT sum_float PASS
// Correct: float4 body + scalar head/tail, cg::reduce per warp, one atomicAdd(float*) per warp
// (no shared memory, no __syncthreads); *d_out zeroed first.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#define reduce_sum_float reduce_sum_float_reference
#include "../../../../solutions/reduction.cu"
#undef reduce_sum_float
namespace cg = cooperative_groups;

__global__ void fsum(const float *in, long long n, float *out)
{
    long long head = (long long)((16 - ((uintptr_t)in & 15)) & 15) / 4;
    if (head > n) head = n;
    const float4 *body = (const float4 *)(in + head);
    long long nvec = (n - head) / 4, tail = head + 4 * nvec;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    float acc = 0.f;
    for (long long v = t; v < nvec; v += stride) acc += add4(body[v]);
    if (t < head) acc += in[t];
    if (t < n - tail) acc += in[tail + t];
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
    acc = cg::reduce(w, acc, cg::plus<float>());
    if (w.thread_rank() == 0) atomicAdd(out, acc);
}

void reduce_sum_float(const float *d_in, long long n, float *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    if (n <= 0) return;
    long long b = (n + 1023) / 1024;
    fsum<<<b < 1056 ? (int)b : 1056, 256>>>(d_in, n, d_out);
}
