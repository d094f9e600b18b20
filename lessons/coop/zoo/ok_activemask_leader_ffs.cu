// EXPECT agg_filter PASS
// Correct: warp aggregation by hand, NVIDIA's filter idiom: mask =
// __activemask() inside the branch, leader = __ffs(mask) - 1 (a lane of that
// mask), __shfl_sync(mask, base, leader) broadcasts the reservation.
#define agg_filter agg_filter_reference
#include "../../../solutions/coop.cu"
#undef agg_filter

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter_keep(v)) {
            unsigned mask = __activemask();
            int lane = threadIdx.x & 31;
            int leader = __ffs(mask) - 1;
            int base = 0;
            if (lane == leader)
                base = filter_reserve(ctr, __popc(mask));
            base = __shfl_sync(mask, base, leader);
            out[base + __popc(mask & ((1u << lane) - 1))] = v;
        }
    }
}
