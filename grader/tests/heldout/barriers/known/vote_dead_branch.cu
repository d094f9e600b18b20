// EXPECT block_vote RULE
// Decoy: count/all/any computed with a shared-memory tree under __syncthreads();
// the voting barriers appear only in a branch that never runs (n < 0).
#define block_vote block_vote_reference
#include "../../../../../solutions/barriers.cu"
#undef block_vote

__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    __shared__ int s[3][1024];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = i < n;
    int pass = valid && in[i] > threshold;
    if (n < 0) {   // never: n >= 0 always
        int c = __syncthreads_count(pass);
        int a = __syncthreads_and(pass);
        int o = __syncthreads_or(pass);
        out[0] = c + a + o;
        return;
    }
    s[0][t] = pass; s[1][t] = pass || !valid; s[2][t] = pass;
    __syncthreads();
    for (int d = 1; d < (int)blockDim.x; d *= 2) {
        int c = 0, a = 1, o = 0;
        if (t + d < (int)blockDim.x && (t % (2 * d)) == 0) {
            c = s[0][t + d]; a = s[1][t + d]; o = s[2][t + d];
        }
        __syncthreads();
        if ((t % (2 * d)) == 0 && t + d < (int)blockDim.x) {
            s[0][t] += c; s[1][t] = s[1][t] && a; s[2][t] = s[2][t] || o;
        }
        __syncthreads();
    }
    if (t == 0) {
        out[3 * blockIdx.x + 0] = s[0][0];
        out[3 * blockIdx.x + 1] = s[1][0] != 0;
        out[3 * blockIdx.x + 2] = s[2][0] != 0;
    }
}
