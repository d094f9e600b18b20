// EXPECT compact RULE
// EXPECT worklist_insert RULE
// Compaction with an atomic counter: every kept element is written, but in
// the order threads arrive, not in input order. Forbidden: atom. in the PTX
// (it would also be WRONG: the order matters here).
#define compact compact_reference
#include "../../../solutions/worklist.cu"
#undef compact

__global__ void compact_with_atomic(const int *in, int n, int threshold, int *out, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && compact_keep(in[i], threshold))
        out[atomicAdd(count, 1)] = in[i];   // BUG: arrival order, not input order
}

void compact(const int *in, int n, int threshold, int *out, int *count,
             int *scratch, int block)
{
    (void)scratch;
    cudaMemset(count, 0, sizeof(int));
    compact_with_atomic<<<(n + block - 1) / block, block>>>(in, n, threshold, out, count);
}
