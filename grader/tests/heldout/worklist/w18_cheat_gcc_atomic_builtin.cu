// EXPECT worklist_insert BUILD
// Cheat: the GCC builtin __atomic_fetch_add in device code. Expected not to
// compile (a host function called from a kernel): BUILD also earns nothing.
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void gb_insert(const int *nelem, int n, int2 *worklist, int *total)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int start = __atomic_fetch_add(total, nelem[t], __ATOMIC_RELAXED);
    for (int k = 0; k < nelem[t]; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    (void)scratch;
    cudaMemsetAsync(total, 0, sizeof(int));
    gb_insert<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total);
}
