// EXPECT tree_reduce RULE
// CHEAT: red.shared.add via inline asm whose opcode is pasted from macro pieces and adjacent
// string literals (the source never spells "red." or "atom.").
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce
#define R_ "r" "e" "d"
#define DOT_ "."
#define OP_(a, b) a DOT_ b
__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    __shared__ int acc;
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    if (tid == 0) acc = 0;
    __syncthreads();
    int v = i < n ? in[i] : 0;
    unsigned sa = (unsigned)__cvta_generic_to_shared(&acc);
    asm volatile(OP_(R_, "shar" "ed") DOT_ "add" DOT_ "s32 [%0], %1;" :: "r"(sa), "r"(v) : "memory");
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = acc;
}
