// EXPECT mirrored_reduce SYNC static
// The two-phase mirrored level with both barriers inside `if (tid < 2*off)`:
// threads tid >= 2*off never reach them. Right sums in plain runs, nothing
// from synccheck on the H100; the PTX shows the barriers under the branch.
#define mirrored_reduce mirrored_reduce_reference
#include "../../../solutions/reduction.cu"
#undef mirrored_reduce

__global__ void mirrored_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid < 2 * off) {
            int mirror = s[2 * off - tid - 1];
            __syncthreads();          /* BUG: only threads tid < 2*off get here */
            s[tid] += mirror;
            __syncthreads();          /* BUG: same */
        }
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
