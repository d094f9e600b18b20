// EXPECT half_block SYNC|TIMEOUT
// The seed's half-block bug: the reduction function calls __syncthreads(),
// a barrier for the WHOLE block, but only the first half of the block calls
// it while the second half waits at another barrier.
#define half_block half_block_reference
#include "../../../solutions/coop.cu"
#undef half_block

/* Looks reusable, but hides a block-wide barrier. */
__device__ int block_sum_with_syncthreads(int *temp, int count, int val)
{
    int rank = (int)threadIdx.x;
    for (int half = count / 2; half > 0; half /= 2) {
        temp[rank] = val;
        __syncthreads();   /* BUG: waits for threads that never call this function */
        if (rank < half)
            val += temp[rank + half];
        __syncthreads();
    }
    return val;
}

__global__ void half_block(const int *in, int n, int *out)
{
    __shared__ int temp[COOP_MAX_BLOCK / 2];
    __shared__ int chunk_sum;
    int half = (int)blockDim.x / 2;
    int base = blockIdx.x * blockDim.x;
    int r = (int)threadIdx.x;

    if (r < half) {
        int a = base + r, b = base + r + half;
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        int s = block_sum_with_syncthreads(temp, half, v);
        if (r == 0)
            chunk_sum = s;
    }
    __syncthreads();
    int i = base + r;
    if (i < n)
        out[i] = chunk_sum - in[i];
}
