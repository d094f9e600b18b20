// EXPECT sum_int MEMORY
// The vector count is rounded up, and the last vector's lanes past n are
// masked off: every sum is right, but the last load still reads up to 12
// bytes past d_in[n-1]. No plain run fails; memcheck sees the read on the
// sanitizer inputs whose tail is not 0 (every residue of n mod 4 is among
// them). Masking must use the lanes (a load whose extra lanes are never used
// is narrowed by ptxas and reads nothing past n).
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void __launch_bounds__(SUM_THREADS) sum_int_masked4(const int *in, long long n, int *out)
{
    long long head = (long long)((16 - ((uintptr_t)in & 15)) & 15) / 4;
    if (head > n)
        head = n;
    const int4 *body = (const int4 *)(in + head);
    long long nvec = (n - head + 3) / 4;   /* BUG: the last vector runs past n */

    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    int acc = 0;
    for (long long v = t; v < nvec; v += stride) {
        int4 q = load4(body + v);
        long long i = head + 4 * v;   /* index of lane x */
        acc += q.x + (i + 1 < n ? q.y : 0) + (i + 2 < n ? q.z : 0) + (i + 3 < n ? q.w : 0);
    }
    if (t < head)
        acc += in[t];
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
    sum_int_masked4<<<(unsigned)blocks, SUM_THREADS>>>(d_in, n, d_out);
}
