// EXPECT tree_reduce SYNC static
// Cheat: a block-wide barrier spelled bar.sync 0, max(blockDim.x, 32)
// (= blockDim.x for every block of the lesson, all threads must arrive)
// inside if (tid < off): not a plain %ntid.x count, so not seen as
// block-wide.
#define tree_reduce tree_reduce_reference
#include "../../../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    unsigned all = max(blockDim.x, 32u);
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid < off) {
            s[tid] += s[tid + off];
            asm volatile("bar.sync 0, %0;" :: "r"(all) : "memory");   // BUG
        }
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
