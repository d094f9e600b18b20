// EXPECT block_vote PASS
// Correct: the voting barriers written as inline PTX (barrier.cta.red spellings).
#define block_vote block_vote_reference
#include "../../../../solutions/barriers.cu"
#undef block_vote
__device__ __forceinline__ int red_popc(int p)
{
    int r;
    asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; barrier.cta.red.popc.u32 %0, 0, q; }"
                 : "=r"(r) : "r"(p) : "memory");
    return r;
}
__device__ __forceinline__ int red_pred(int p, int is_and)
{
    int r;
    if (is_and)
        asm volatile("{ .reg .pred q, o; setp.ne.s32 q, %1, 0; barrier.cta.red.and.pred o, 0, q; selp.s32 %0, 1, 0, o; }"
                     : "=r"(r) : "r"(p) : "memory");
    else
        asm volatile("{ .reg .pred q, o; setp.ne.s32 q, %1, 0; barrier.cta.red.or.pred o, 0, q; selp.s32 %0, 1, 0, o; }"
                     : "=r"(r) : "r"(p) : "memory");
    return r;
}
__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = i < n;
    int pass = valid && in[i] > threshold;
    int count = red_popc(pass);
    int all = red_pred(pass || !valid, 1);
    int any = red_pred(pass, 0);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all;
        out[3 * blockIdx.x + 2] = any;
    }
}
