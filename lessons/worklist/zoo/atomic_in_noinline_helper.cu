// EXPECT worklist_insert RULE
// EXPECT compact RULE
// The atomic counter moved into a __noinline__ device function: the kernel
// itself holds only a call, but the helper's PTX is part of the exercise
// (the rules follow the call graph), so atom. is still found.
#define worklist_insert worklist_insert_reference
#include "../../../solutions/worklist.cu"
#undef worklist_insert

__device__ __noinline__ int claim_places(int *total, int count)
{
    return atomicAdd(total, count);   // BUG: the order threads arrive in decides the layout
}

__global__ void insert_with_helper(const int *nelem, int n, int2 *worklist, int *total)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int count = nelem[t];
    int start = claim_places(total, count);
    for (int k = 0; k < count; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total,
                     int *scratch, int block)
{
    (void)scratch;
    cudaMemset(total, 0, sizeof(int));
    insert_with_helper<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total);
}
