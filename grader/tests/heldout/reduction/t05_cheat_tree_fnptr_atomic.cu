// EXPECT tree_reduce RULE
// CHEAT: the atomicAdd lives in a __noinline__ device function reached only through a
// function pointer picked at run time from a __device__ table (an indirect call).
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce
__device__ __noinline__ int add_plain(int *p, int v) { int o = *p; *p = o + v; return o; }
__device__ __noinline__ int add_atomic(int *p, int v) { return atomicAdd(p, v); }
typedef int (*adder)(int *, int);
__device__ adder g_adders[2] = {add_plain, add_atomic};
__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    __shared__ int acc;
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    if (tid == 0) acc = 0;
    __syncthreads();
    int v = i < n ? in[i] : 0;
    adder f = g_adders[n >= 0 ? 1 : 0];
    f(&acc, v);
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = acc;
}
