// EXPECT sum_int MEMORY
// A tail of 3 elements after the last whole vector is read as one more int4
// (only .x .y .z are added, so every sum is right): the load also reads the
// int just past d_in[n-1]. No plain run fails; memcheck sees the read on the
// sanitizer inputs whose tail is 3 (every residue of n mod 4 is among them).
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void __launch_bounds__(SUM_THREADS) sum_int_tail4(const int *in, long long n, int *out)
{
    long long head = (long long)((16 - ((uintptr_t)in & 15)) & 15) / 4;
    if (head > n)
        head = n;
    const int4 *body = (const int4 *)(in + head);
    long long nvec = (n - head) / 4;
    long long tail = head + 4 * nvec;
    long long rest = n - tail;   /* 0..3 */

    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    int acc = 0;
    for (long long v = t; v < nvec; v += stride)
        acc += add4(load4(body + v));
    if (t < head)
        acc += in[t];
    if (rest == 3 && t == 0) {
        int4 last = load4(body + nvec);   /* BUG: reads in[n] too */
        acc += last.x + last.y + last.z;
    } else if (rest < 3 && t < rest) {
        acc += in[tail + t];
    }
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
    sum_int_tail4<<<(unsigned)blocks, SUM_THREADS>>>(d_in, n, d_out);
}
