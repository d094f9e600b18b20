// EXPECT worklist_insert RULE
// Cheat: the CUDA 12.8+ compiler builtin __nv_atomic_fetch_add (not one of
// the atomicXxx names) with device scope.
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void nb_insert(const int *nelem, int n, int2 *worklist, int *total)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int start = __nv_atomic_fetch_add(total, nelem[t], __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    for (int k = 0; k < nelem[t]; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    (void)scratch;
    cudaMemsetAsync(total, 0, sizeof(int));
    nb_insert<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total);
}
