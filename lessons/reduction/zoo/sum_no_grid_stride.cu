// EXPECT sum_int WRONG
// One vector per thread and no grid-stride loop, with a grid capped at what
// fills the GPU: past about a million ints, the rest of the array is never
// read. Small inputs pass; the large ones do not.
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void sum_int_once(const int *in, long long n, int *out)
{
    long long head = (long long)((16 - ((uintptr_t)in & 15)) & 15) / (long long)sizeof(int);
    if (head > n)
        head = n;
    const int4 *body = (const int4 *)(in + head);
    long long nvec = (n - head) / 4;
    long long tail = head + 4 * nvec;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    if (t < nvec)
        acc += add4(body[t]);         /* BUG: vectors t + stride, t + 2*stride... are lost */
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
    static int max_blocks;
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    int blocks = sum_blocks(n, (const void *)sum_int_once, &max_blocks);
    sum_int_once<<<blocks, SUM_THREADS>>>(d_in, n, d_out);
}
