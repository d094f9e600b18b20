// EXPECT block_vote PASS
// Correct: each vote in its own __noinline__ helper, dispatched by a template.
#define block_vote block_vote_reference
#include "../../../../solutions/barriers.cu"
#undef block_vote
enum vote_kind { V_COUNT, V_AND, V_OR };
template <vote_kind K> __device__ __noinline__ int vote(int p)
{
    if (K == V_COUNT) return __syncthreads_count(p);
    if (K == V_AND) return __syncthreads_and(p);
    return __syncthreads_or(p);
}
__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = i < n;
    bool pass = valid && in[i] > threshold;
    int count = vote<V_COUNT>(pass);
    int all = vote<V_AND>(pass || !valid);
    int any = vote<V_OR>(pass);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}
