// EXPECT block_vote PASS
// Correct: cooperative-groups spelling: cg::this_thread_block() for the rank,
// block.sync() before the votes, predicates as non-0/1 ints and bools.
#include <cooperative_groups.h>
#define block_vote block_vote_reference
#include "../../../../solutions/barriers.cu"
#undef block_vote
namespace cg = cooperative_groups;
__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    cg::thread_block block = cg::this_thread_block();
    unsigned long long i = (unsigned long long)blockIdx.x * block.size() + block.thread_rank();
    bool valid = i < (unsigned long long)n;
    int margin = valid ? in[i] - threshold : 0;   // > 0 when passing (no overflow in the data)
    int pass = valid ? (in[i] > threshold) * 7 : 0;   // nonzero means true
    block.sync();
    int count = __syncthreads_count(pass);
    int all = __syncthreads_and(!valid || (in[i] > threshold));
    int any = __syncthreads_or(pass != 0);
    (void)margin;
    if (block.thread_rank() == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all ? 1 : 0;
        out[3 * blockIdx.x + 2] = !!any;
    }
}
