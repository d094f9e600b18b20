// EXPECT split_arrive_wait PASS
// Correct: the reference's split_arrive_wait on a cuda::barrier with a
// completion function (run once per phase, here doing nothing). libcu++
// builds such a barrier from shared-memory atomics (an acq_rel atomic to
// arrive, acquire loads to wait), not mbarrier.arrive: the rule accepts it.
#define split_arrive_wait split_arrive_wait_reference
#include "../../../solutions/awbarrier.cu"
#undef split_arrive_wait

struct phase_done {
    __device__ void operator()() noexcept {}
};

__global__ void split_arrive_wait(const unsigned *in, unsigned *out, unsigned *hist,
                                  int n, int iters)
{
    __shared__ cuda::barrier<cuda::thread_scope_block, phase_done> bar;
    __shared__ unsigned buf[2][SAW_MAX_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    bool active = i < n;

    if (tid == 0)
        init(&bar, blockDim.x, phase_done{});
    __syncthreads();

    unsigned v = active ? in[i] : 0u;
    unsigned h = 0u;
    for (int t = 0; t < iters; t++) {
        unsigned *cur = buf[t & 1];
        cur[tid] = v;
        auto token = bar.arrive();
        h = h * 31u + v;
        bar.wait(std::move(token));
        if (active) {
            unsigned left = tid > 0 ? cur[tid - 1] : 0u;
            unsigned right = tid + 1 < (int)blockDim.x ? cur[tid + 1] : 0u;
            v = left + 2u * v + 3u * right;
        }
    }
    if (active) {
        out[i] = v;
        hist[i] = h;
    }
}
