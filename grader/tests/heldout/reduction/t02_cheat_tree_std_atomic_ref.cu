// EXPECT tree_reduce RULE
// CHEAT: cuda::std::atomic_ref<int> (system scope, seq_cst) += on a shared int.
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce
#include <cuda/std/atomic>
__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    __shared__ int acc;
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    if (tid == 0) acc = 0;
    __syncthreads();
    int v = i < n ? in[i] : 0;
    cuda::std::atomic_ref<int> a(acc);
    a += v;
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = acc;
}
