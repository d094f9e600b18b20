// EXPECT worklist_insert WRONG
// One block scan per block and nothing more: every block starts its items at
// worklist[0], so blocks overwrite each other, and the total is the last
// block's alone. Right on one-block inputs, WRONG on multi-block ones.
#define worklist_insert worklist_insert_reference
#include "../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void insert_block_local(const int *nelem, int n, int2 *worklist, int *total)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int count = t < n ? nelem[t] : 0;
    int inclusive = block_inclusive_scan(count);   // whole block, no early return
    int start = inclusive - count;   // BUG: the counts of earlier blocks are never added
    for (int k = 0; k < count; k++)
        worklist[start + k] = make_int2(t, k);
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1)
        *total = inclusive;   // BUG: this block's sum only
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total,
                     int *scratch, int block)
{
    (void)scratch;
    insert_block_local<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total);
}
