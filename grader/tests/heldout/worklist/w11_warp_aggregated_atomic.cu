// EXPECT worklist_insert RULE
// Bug (forbidden): lesson 6's warp-aggregated increment applied here: the
// coalesced group's leader reserves the warp's items with ONE atomicAdd and
// shuffles the base to the others (exclusive_scan inside the group for the
// rest). Fewer atomics, still an atomic: arrival order decides the layout.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void wa_insert(const int *nelem, int n, int2 *worklist, int *total)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int count = nelem[t];
    cg::coalesced_group g = cg::coalesced_threads();
    int mine = cg::exclusive_scan(g, count);
    int base = 0;
    if (g.thread_rank() == g.size() - 1)
        base = atomicAdd(total, mine + count);   // BUG
    base = g.shfl(base, g.size() - 1);
    for (int k = 0; k < count; k++)
        worklist[base + mine + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    (void)scratch;
    cudaMemsetAsync(total, 0, sizeof(int));
    wa_insert<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total);
}
