// EXPECT tree_reduce PASS
// Correct (advanced): the upper half of the block only writes its slots, so
// it signals with barrier.arrive 0, blockDim.x (release, no wait) and leaves;
// the lower half waits with barrier.sync 0, blockDim.x (the same barrier and
// count: B/2 arrivals + B/2 waiters; whole warps on each side for B >= 64),
// then syncs among itself with named barrier 1 (count B/2); a one-warp block
// uses __syncwarp only.
#define tree_reduce tree_reduce_reference
#include "../../../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x, B = blockDim.x;
    long long i = (long long)blockIdx.x * B + tid;
    s[tid] = i < n ? in[i] : 0;
    if (B >= 64 && tid >= B / 2) {   /* whole warps: B / 2 is a multiple of 32 */
        asm volatile("barrier.arrive 0, %0;" :: "r"(B) : "memory");
        return;
    }
    if (B >= 64)
        asm volatile("barrier.sync 0, %0;" :: "r"(B) : "memory");
    for (unsigned off = B / 2; off > 0; off /= 2) {
        if (tid < off)
            s[tid] += s[tid + off];
        if (B / 2 >= 32)
            asm volatile("barrier.sync 1, %0;" :: "r"(B / 2) : "memory");
        else
            __syncwarp((1u << (B / 2)) - 1);
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
