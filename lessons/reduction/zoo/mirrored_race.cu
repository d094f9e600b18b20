// EXPECT mirrored_reduce RACE
// The seed's mirrored pairing as written: one barrier per level, so thread
// tid reads s[2*off-tid-1] while that slot's owner is writing it (thread 0
// reads s[1] as thread 1 writes it when off == 1).
#define mirrored_reduce mirrored_reduce_reference
#include "../../../solutions/reduction.cu"
#undef mirrored_reduce

__global__ void mirrored_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid < 2 * off)
            s[tid] += s[2 * off - tid - 1];   /* BUG: read and write of a level not separated */
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
