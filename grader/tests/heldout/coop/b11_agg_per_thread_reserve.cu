// EXPECT agg_filter WRONG
// Bug (run-time): coalesced group per element, but each thread reserves 1
// slot itself (one atomic per kept element: not aggregated).
#define agg_filter agg_filter_reference
#include "../../../../solutions/coop.cu"
#undef agg_filter

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter_keep(v)) {
            cg::coalesced_group active = cg::coalesced_threads();
            int base = filter_reserve(ctr, 1);     // BUG: per thread
            active.sync();
            out[base] = v;
        }
    }
}
