// EXPECT worklist_insert RULE
// Cheat: atomicAdd_system (system scope) in a __noinline__ template helper.
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

template <typename T>
__device__ __noinline__ T reserve(T *c, T v) { return atomicAdd_system(c, v); }

__global__ void sy_insert(const int *nelem, int n, int2 *worklist, int *total)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int start = reserve<int>(total, nelem[t]);
    for (int k = 0; k < nelem[t]; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    (void)scratch;
    cudaMemsetAsync(total, 0, sizeof(int));
    sy_insert<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total);
}
