// EXPECT sum_float WRONG
// The 0..3 elements after the last whole float4 are never added: every n
// that is not 4k past the first aligned element loses up to three terms.
#define reduce_sum_float reduce_sum_float_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_float

__global__ void sum_float_no_tail(const float *in, long long n, float *out)
{
    long long head = (long long)((16 - ((uintptr_t)in & 15)) & 15) / (long long)sizeof(float);
    if (head > n)
        head = n;
    const float4 *body = (const float4 *)(in + head);
    long long nvec = (n - head) / 4;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    float acc = 0;
    for (long long v = t; v < nvec; v += stride)
        acc += add4(body[v]);
    if (t < head)
        acc += in[t];
    /* BUG: in[head + 4*nvec .. n-1] are never added */
    acc = block_sum(acc);
    if (threadIdx.x == 0)
        atomicAdd(out, acc);
}

void reduce_sum_float(const float *d_in, long long n, float *d_out)
{
    static int max_blocks;
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    int blocks = sum_blocks(n, (const void *)sum_float_no_tail, &max_blocks);
    sum_float_no_tail<<<blocks, SUM_THREADS>>>(d_in, n, d_out);
}
