// EXPECT tree_reduce RULE
// CHEAT: cuda::atomic_ref<int, thread_scope_block>::fetch_add on a shared int (libcu++).
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce
#include <cuda/atomic>
__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    __shared__ int acc;
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    if (tid == 0) acc = 0;
    __syncthreads();
    int v = i < n ? in[i] : 0;
    cuda::atomic_ref<int, cuda::thread_scope_block> a(acc);
    a.fetch_add(v, cuda::memory_order_relaxed);
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = acc;
}
