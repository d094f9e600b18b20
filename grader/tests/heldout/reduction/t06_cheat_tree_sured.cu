// EXPECT tree_reduce RULE
// CHEAT: sured.b.add, the surface-memory atomic reduction (opcode prefix "sured", not
// "red."), on a surface object the TU sets up elsewhere; shown statically only.
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce
__device__ unsigned long long g_surf;
__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    __shared__ int acc;
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    if (tid == 0) acc = 0;
    __syncthreads();
    int v = i < n ? in[i] : 0;
    if (tid == 0) acc = 0;
    asm volatile("sured.b.add.1d.u32.trap [%0, {%1}], %2;" :: "l"(g_surf), "r"((int)blockIdx.x * 4), "r"(v) : "memory");
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = acc;
}
