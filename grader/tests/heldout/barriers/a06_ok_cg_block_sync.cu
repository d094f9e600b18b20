// EXPECT tile_reverse PASS
// Correct: cg::this_thread_block().sync() and cg::sync(block) for the block
// barrier, one under a uniform branch on gridDim.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    cg::thread_block block = cg::this_thread_block();
    int t = (int)block.thread_rank();
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    if (t < valid)
        tile[t] = in[i];
    if (gridDim.x > 1)
        cg::this_thread_block().sync();
    else
        cg::sync(block);
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
