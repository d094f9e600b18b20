// EXPECT warp_step PASS
// Correct: coalesced_threads() group sync (whole warp is converged) around the
// shared-memory butterfly, lane computed from threadIdx.
#include <cooperative_groups.h>
#define warp_step warp_step_reference
#include "../../../../solutions/barriers.cu"
#undef warp_step
namespace cg = cooperative_groups;
__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    int t = threadIdx.x, lane = t & 31;
    int *ws = slots + (t - lane);
    int i = blockIdx.x * blockDim.x + t;
    int sum = i < n ? in[i] : 0;
    cg::coalesced_group g = cg::coalesced_threads();
    for (int d = 1; d < 32; d <<= 1) {
        ws[lane] = sum;
        g.sync();
        sum += ws[lane ^ d];
        g.sync();
    }
    if (i < n)
        out[i] = sum;
}
