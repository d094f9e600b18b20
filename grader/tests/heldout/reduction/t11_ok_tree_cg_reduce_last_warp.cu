// EXPECT tree_reduce PASS
// Correct: shared tree with __syncthreads down to 64 slots, then warp 0 adds its two slots and
// finishes with cg::reduce(warp, v, cg::plus<int>()) (redux.sync.add on sm_80+: a warp
// collective, not an atomic: "redux" must not trip the "red." prefix).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce
namespace cg = cooperative_groups;

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off >= 32; off /= 2) {
        if (tid < off) s[tid] += s[tid + off];
        __syncthreads();
    }
    if (tid < 32) {
        cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
        int v = tid < blockDim.x && blockDim.x >= 32 ? s[tid] : 0;
        if (blockDim.x < 32) v = tid < blockDim.x ? s[tid] : 0;
        v = cg::reduce(w, v, cg::plus<int>());
        if (tid == 0) out[blockIdx.x] = v;
    }
}
