// EXPECT sum_int MEMORY|WRONG
// The scalar head runs up to the first 16-byte boundary without stopping at
// n: with n = 1 or 2 elements from a misaligned start, the head reads (and
// adds) ints past d_in[n-1]. Every n >= 3 is right.
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void __launch_bounds__(SUM_THREADS) sum_int_long_head(const int *in, long long n, int *out)
{
    /* BUG: no head = min(head, n) */
    long long head = (long long)((16 - ((uintptr_t)in & 15)) & 15) / 4;
    const int4 *body = (const int4 *)(in + head);
    long long nvec = n > head ? (n - head) / 4 : 0;
    long long tail = head + 4 * nvec;

    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    int acc = 0;
    for (long long v = t; v < nvec; v += stride)
        acc += add4(load4(body + v));
    if (t < head)
        acc += in[t];
    if (t < n - tail)
        acc += in[tail + t];
    acc = block_sum(acc);
    if (threadIdx.x == 0)
        atomicAdd(out, acc);
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    long long blocks = (n + 4LL * SUM_THREADS - 1) / (4LL * SUM_THREADS);
    if (blocks > 1024)
        blocks = 1024;
    sum_int_long_head<<<(unsigned)blocks, SUM_THREADS>>>(d_in, n, d_out);
}
