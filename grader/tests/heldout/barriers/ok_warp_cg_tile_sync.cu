// EXPECT warp_step PASS
// Correct: shared-memory butterfly synchronized with cg::tiled_partition<32>(block).sync(),
// lane from tile.thread_rank().
#include <cooperative_groups.h>
#define warp_step warp_step_reference
#include "../../../../solutions/barriers.cu"
#undef warp_step
namespace cg = cooperative_groups;
__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int lane = tile.thread_rank();
    int *ws = slots + tile.meta_group_rank() * 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int sum = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2) {
        ws[lane] = sum;
        tile.sync();
        sum += ws[lane ^ d];
        tile.sync();
    }
    if (i < n)
        out[i] = sum;
}
