// EXPECT sum_int PASS
// Correct: lanes whose sum is 0 sit out; the others add with
// __reduce_add_sync over mask = __activemask() (every lane of the mask
// takes part) and the lowest lane of that same mask adds the total.
#define reduce_sum_int reduce_sum_int_reference
#include "../../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void sum_int_active(const int *in, long long n, int *out)
{
    int acc = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        acc += in[i];
    if (acc != 0) {
        unsigned m = __activemask();
        int total = (int)__reduce_add_sync(m, (unsigned)acc);
        if ((int)(threadIdx.x & 31) == __ffs(m) - 1)
            atomicAdd(out, total);
    }
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    if (n <= 0)
        return;
    long long blocks = (n + 255) / 256;
    if (blocks > 1024)
        blocks = 1024;
    sum_int_active<<<(int)blocks, 256>>>(d_in, n, d_out);
}
