// EXPECT worklist_insert RULE
// EXPECT compact RULE
// Cheat: the atomic lives in a device function reached only through a
// __device__ function-pointer table chosen at run time (an indirect call):
// no direct call edge from the kernel to the atomic.
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

typedef int (*claim_fn)(int *, int);
__device__ int claim_plain(int *c, int v) { int o = *c; *c = o + v; return o; }
__device__ int claim_fast(int *c, int v) { return atomicAdd(c, v); }   // BUG
__device__ claim_fn claim_table[2] = {claim_plain, claim_fast};

__global__ void fp_insert(const int *nelem, int n, int2 *worklist, int *total, int which)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int start = claim_table[which](total, nelem[t]);
    for (int k = 0; k < nelem[t]; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    (void)scratch;
    cudaMemsetAsync(total, 0, sizeof(int));
    fp_insert<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total, n > 0);
}
