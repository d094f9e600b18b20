// EXPECT compact RULE
// Cheat: libcu++ cuda::std::atomic<int> placed over the count (a class, not
// an atomicXxx call): out[(*counter)++] with operator++ (a fetch_add).
#include <cuda/std/atomic>
#define compact compact_reference
#include "../../../../solutions/worklist.cu"
#undef compact

__global__ void sa_compact(const int *in, int n, int threshold, int *out,
                           cuda::std::atomic<int> *counter)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && compact_keep(in[i], threshold))
        out[(*counter)++] = in[i];   // BUG: operator++ is an atomic RMW
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    (void)scratch;
    cudaMemsetAsync(count, 0, sizeof(int));
    sa_compact<<<(n + block - 1) / block, block>>>(in, n, threshold, out,
                                                    reinterpret_cast<cuda::std::atomic<int> *>(count));
}
