// EXPECT worklist_insert RULE
// EXPECT compact RULE
// Places handed out by atomicAdd on a global counter: the worklist is even
// complete, but its order changes from run to run. Forbidden: atom. in the PTX.
#define worklist_insert worklist_insert_reference
#include "../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void insert_with_atomic(const int *nelem, int n, int2 *worklist, int *total)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int count = nelem[t];
    int start = atomicAdd(total, count);   // BUG: the order threads arrive in decides the layout
    for (int k = 0; k < count; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total,
                     int *scratch, int block)
{
    (void)scratch;
    cudaMemset(total, 0, sizeof(int));
    insert_with_atomic<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total);
}
