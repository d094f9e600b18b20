// EXPECT worklist_insert RULE
// EXPECT compact RULE
// Cheat: the atomic in inline asm spelled to dodge a text match: the opcode
// assembled from string pieces through macros, a block comment between
// "atom" and its modifiers, modifiers split over lines, a predicate guard
// written "@ p", and the instruction preceded by a label and another
// instruction on the same line. ptxas accepts all of it.
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

#define A_ "a" "t"
#define B_ "o" "m"
__device__ __forceinline__ int hidden_fetch_add(int *c, int v)
{
    int old = 0;
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %2, -12345; mov.b32 %0, 0; Lx_1: @ p " A_ B_
                 " /* nothing here */ .global\n\t  .add"
                 "\n .u32 %0, [%1], %2; }"
                 : "+r"(old)
                 : "l"(c), "r"(v)
                 : "memory");
    return old;
}

__global__ void hc_insert(const int *nelem, int n, int2 *worklist, int *total)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int start = hidden_fetch_add(total, nelem[t]);
    for (int k = 0; k < nelem[t]; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    (void)scratch;
    cudaMemsetAsync(total, 0, sizeof(int));
    hc_insert<<<(n + block - 1) / block, block>>>(nelem, n, worklist, total);
}
