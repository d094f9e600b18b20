// EXPECT agg_filter SYNC static
// Bug: warp aggregation with mask = __activemask() inside the branch, but
// the leader is lane 0 and the broadcast reads lane 0: lane 0 may have gone
// the other way, so the shuffle reads a lane that is not in its mask.
#define agg_filter agg_filter_reference
#include "../../../../solutions/coop.cu"
#undef agg_filter

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter_keep(v)) {
            unsigned mask = __activemask();
            int lane = threadIdx.x & 31;
            int leader = 0;
            int base = 0;
            if (lane == leader)
                base = filter_reserve(ctr, __popc(mask));
            base = __shfl_sync(mask, base, leader);
            out[base + __popc(mask & ((1u << lane) - 1))] = v;
        }
    }
}
