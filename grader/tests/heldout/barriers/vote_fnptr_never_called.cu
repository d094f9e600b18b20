// EXPECT block_vote RULE
// Decoy: shared-memory tree; a __noinline__ helper holding the voting barriers
// has its address stored to a volatile global but is never called.
#define block_vote block_vote_reference
#include "../../../../solutions/barriers.cu"
#undef block_vote
__device__ void tree3(int *out, int pass, int valid)
{
    __shared__ int s[3][1024];
    int t = threadIdx.x;
    s[0][t] = pass; s[1][t] = pass || !valid; s[2][t] = pass;
    __syncthreads();
    for (int d = 1; d < (int)blockDim.x; d *= 2) {
        int c = 0, a = 1, o = 0;
        bool act = (t % (2 * d)) == 0 && t + d < (int)blockDim.x;
        if (act) { c = s[0][t + d]; a = s[1][t + d]; o = s[2][t + d]; }
        __syncthreads();
        if (act) { s[0][t] += c; s[1][t] = s[1][t] && a; s[2][t] = s[2][t] || o; }
        __syncthreads();
    }
    if (t == 0) {
        out[3 * blockIdx.x + 0] = s[0][0];
        out[3 * blockIdx.x + 1] = s[1][0] != 0;
        out[3 * blockIdx.x + 2] = s[2][0] != 0;
    }
}
__device__ __noinline__ int vote_helper(int p)
{
    return __syncthreads_count(p) + __syncthreads_and(p) + __syncthreads_or(p);
}
typedef int (*vote_fn)(int);
__device__ volatile vote_fn g_sink;
__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = i < n;
    int pass = valid && in[i] > threshold;
    if (threadIdx.x == 0 && blockIdx.x == 0)
        g_sink = vote_helper;   // address taken, never called
    tree3(out, pass, valid);
}
