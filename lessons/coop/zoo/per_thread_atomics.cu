// EXPECT agg_filter WRONG
// Correct output, but one reservation (one atomic on the shared counter) per
// kept element instead of one per warp: the aggregation check rejects it.
#define agg_filter agg_filter_reference
#include "../../../solutions/coop.cu"
#undef agg_filter

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter_keep(v))
            out[filter_reserve(ctr, 1)] = v;   /* BUG: not aggregated */
    }
}
