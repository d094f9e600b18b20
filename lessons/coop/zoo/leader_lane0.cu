// EXPECT agg_filter WRONG
// The leader is lane 0 of the warp instead of rank 0 of coalesced_threads():
// when lane 0 does not keep its element nobody reserves, and the group
// writes over slots [0, size) that belong to others.
#define agg_filter agg_filter_reference
#include "../../../solutions/coop.cu"
#undef agg_filter

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter_keep(v)) {
            cg::coalesced_group active = cg::coalesced_threads();
            int base = 0;
            if (threadIdx.x % 32 == 0)   /* BUG: lane 0 may not be in `active` */
                base = filter_reserve(ctr, (int)active.size());
            base = active.shfl(base, 0);
            out[base + (int)active.thread_rank()] = v;
        }
    }
}
