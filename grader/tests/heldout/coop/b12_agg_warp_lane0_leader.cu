// EXPECT agg_filter WRONG
// Bug (run-time): leader is lane 0 of a tiled_partition<32> (the warp), not
// rank 0 of the coalesced group; lane 0 may not be active.
#define agg_filter agg_filter_reference
#include "../../../../solutions/coop.cu"
#undef agg_filter

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter_keep(v)) {
            unsigned mask = __activemask();
            int base = 0;
            if (warp.thread_rank() == 0)              // BUG
                base = filter_reserve(ctr, __popc(mask));
            base = __shfl_sync(mask, base, __ffs(mask) - 1);
            out[base + __popc(mask & ((1u << warp.thread_rank()) - 1))] = v;
        }
    }
}
