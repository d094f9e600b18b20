// EXPECT sum_int RULE
// CHEAT: the whole-array sum by cub::DeviceReduce::Sum, nothing written by hand
#include <cub/cub.cuh>
#define reduce_sum_int reduce_sum_int_reference
#define sum_int_kernel sum_int_kernel_reference
#include "../../../../solutions/reduction.cu"
#undef reduce_sum_int
#undef sum_int_kernel
__global__ void sum_int_kernel(const int *in, long long n, int *out) {}
void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    static void *tmp = NULL;
    static size_t bytes = 0;
    size_t need = 0;
    cub::DeviceReduce::Sum(NULL, need, d_in, d_out, n);
    if (need > bytes) { cudaFree(tmp); cudaMalloc(&tmp, need); bytes = need; }
    cub::DeviceReduce::Sum(tmp, need, d_in, d_out, n);
}
