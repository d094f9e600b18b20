// EXPECT compact RULE
// Library compaction: thrust::copy_if with the device policy (CUB's select
// underneath). Refused: thrust/CUB kernels in the PTX.
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#define compact compact_reference
#include "../../../../solutions/worklist.cu"
#undef compact

struct keep_pred {
    int threshold;
    __host__ __device__ bool operator()(int x) const { return compact_keep(x, threshold); }
};

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    (void)scratch;
    (void)block;
    int *end = thrust::copy_if(thrust::device, in, in + n, out, keep_pred{threshold});
    int c = (int)(end - out);
    cudaMemcpy(count, &c, sizeof(int), cudaMemcpyHostToDevice);
}
