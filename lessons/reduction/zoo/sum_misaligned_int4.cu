// EXPECT sum_int MEMORY
// Casts d_in to int4* without checking alignment: when d_in is not 16-byte
// aligned the vector loads fault ("misaligned address").
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void sum_int_unaligned(const int *in, long long n, int *out)
{
    const int4 *body = (const int4 *)in;   /* BUG: assumes in % 16 == 0 */
    long long nvec = n / 4;
    long long stride = (long long)gridDim.x * blockDim.x;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    for (long long v = t; v < nvec; v += stride)
        acc += add4(body[v]);
    if (t < n - 4 * nvec)
        acc += in[4 * nvec + t];
    acc = block_sum(acc);
    if (threadIdx.x == 0)
        atomicAdd(out, acc);
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    static int max_blocks;
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    int blocks = sum_blocks(n, (const void *)sum_int_unaligned, &max_blocks);
    sum_int_unaligned<<<blocks, SUM_THREADS>>>(d_in, n, d_out);
}
