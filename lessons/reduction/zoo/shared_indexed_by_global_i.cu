// EXPECT tree_reduce MEMORY
// The shared slot is indexed with the global index i instead of threadIdx.x:
// block 0 is right, every later block writes past its blockDim.x ints of
// shared memory. The GPU stops the kernel (an illegal address, or an
// "unspecified launch failure"); memcheck, run as the diagnosis, names the
// line, so the verdict is MEMORY, not a bare LAUNCH.
#define tree_reduce tree_reduce_reference
#include "../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    s[i] = i < n ? in[i] : 0;   /* BUG: s[tid] */
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid < off)
            s[tid] += s[tid + off];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
