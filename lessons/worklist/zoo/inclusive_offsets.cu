// EXPECT worklist_insert WRONG
// Each thread starts at its INCLUSIVE sum (its own count included): the first
// items of the worklist are never written, each thread's items land on the
// next thread's places, and the last ones spill past the total.
#define worklist_insert worklist_insert_reference
#include "../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void write_items_inclusive(const int *nelem, const int *offsets, int n, int2 *worklist)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int count = nelem[t];
    int start = offsets[t] + count;   // BUG: nelem[0] + ... + nelem[t], one term too many
    for (int k = 0; k < count; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total,
                     int *scratch, int block)
{
    int *offsets = scratch;
    exclusive_scan(nelem, offsets, n, total, scratch + n, block);
    write_items_inclusive<<<(n + block - 1) / block, block>>>(nelem, offsets, n, worklist);
}
