// EXPECT agg_filter PASS
// Correct: warp-aggregated reservation with cg::invoke_one_broadcast on the coalesced group
// (one elected thread calls filter_reserve, the result is broadcast to the group).
#define agg_filter agg_filter_reference
#include "../../../../solutions/coop.cu"
#undef agg_filter

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter_keep(v)) {
            cg::coalesced_group active = cg::coalesced_threads();
            int base = cg::invoke_one_broadcast(active, [&]() {
                return filter_reserve(ctr, (int)active.num_threads());
            });
            out[base + (int)active.thread_rank()] = v;
        }
    }
}
