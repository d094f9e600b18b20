// EXPECT sum_int PASS
// Correct: the guide's threadFenceReduction with both fences: thread 0 stores the partial,
// __threadfence(), atomicInc ticket (wraps back to 0); in the last block EVERY thread runs
// __threadfence() after the __syncthreads that shares is_last, then reads the partials.
#define reduce_sum_int reduce_sum_int_reference
#include "../../../../solutions/reduction.cu"
#undef reduce_sum_int

enum { LB_MAX = 1024 };
__device__ int lb_part[LB_MAX];
__device__ unsigned lb_ticket;

__global__ void __launch_bounds__(SUM_THREADS) lb_sum(const int *in, long long n, int *out)
{
    __shared__ bool is_last;
    int acc = 0;
    for (long long i = (long long)blockIdx.x * SUM_THREADS + threadIdx.x; i < n;
         i += (long long)gridDim.x * SUM_THREADS)
        acc += in[i];
    acc = block_sum(acc);
    if (threadIdx.x == 0) {
        lb_part[blockIdx.x] = acc;
        __threadfence();
        unsigned t = atomicInc(&lb_ticket, gridDim.x - 1);
        is_last = t == gridDim.x - 1;
    }
    __syncthreads();
    if (is_last) {
        __threadfence();
        int s = 0;
        for (int b = threadIdx.x; b < (int)gridDim.x; b += SUM_THREADS) s += lb_part[b];
        s = block_sum(s);
        if (threadIdx.x == 0) *out = s;
    }
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    if (n <= 0) { cudaMemsetAsync(d_out, 0, sizeof *d_out); return; }
    long long b = (n + SUM_THREADS - 1) / SUM_THREADS;
    lb_sum<<<b < LB_MAX ? (int)b : LB_MAX, SUM_THREADS>>>(d_in, n, d_out);
}
