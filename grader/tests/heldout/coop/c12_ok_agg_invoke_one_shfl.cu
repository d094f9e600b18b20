// EXPECT agg_filter PASS
// Correct: cg::invoke_one (elected thread, no broadcast) writes the base into a local;
// the elected thread's rank is found by ballot and the base broadcast with __shfl_sync
// over the coalesced mask.
#define agg_filter agg_filter_reference
#include "../../../../solutions/coop.cu"
#undef agg_filter

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter_keep(v)) {
            unsigned mask = __activemask();
            cg::coalesced_group active = cg::coalesced_threads();
            int base = -1;
            cg::invoke_one(active, [&]() { base = filter_reserve(ctr, __popc(mask)); });
            unsigned who = __ballot_sync(mask, base >= 0);
            base = __shfl_sync(mask, base, __ffs(who) - 1);
            int rank = __popc(mask & ((1u << (threadIdx.x % 32)) - 1u));
            out[base + rank] = v;
        }
    }
}
