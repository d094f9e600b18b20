// EXPECT worklist_insert RULE
// EXPECT compact RULE
// The same atomic counter, hidden in inline asm: nvcc copies the asm into the
// PTX verbatim, so the rule sees atom.global.add all the same.
#define worklist_insert worklist_insert_reference
#include "../../../solutions/worklist.cu"
#undef worklist_insert

__device__ int fetch_add_global(int *counter, int value)
{
    int old;
    asm volatile("atom.global.add.u32 %0, [%1], %2;"   // BUG: an atomic, however spelled
                 : "=r"(old)
                 : "l"(__cvta_generic_to_global(counter)), "r"(value)
                 : "memory");
    return old;
}

__global__ void insert_with_asm_atomic(const int *nelem, int n, int2 *worklist, int *total)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int count = nelem[t];
    int start = fetch_add_global(total, count);
    for (int k = 0; k < count; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total,
                     int *scratch, int block)
{
    (void)scratch;
    cudaMemset(total, 0, sizeof(int));
    insert_with_asm_atomic<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total);
}
