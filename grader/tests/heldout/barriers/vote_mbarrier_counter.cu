// EXPECT block_vote RULE
// FORBID evasion: the count comes from an mbarrier used as an atomic counter
// (passing threads arrive, thread 0 reads mbarrier.pending_count), not from
// __syncthreads_count; all/any use the voting barriers so the REQUIRE is met.
#define block_vote block_vote_reference
#include "../../../../solutions/barriers.cu"
#undef block_vote
__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    __shared__ __align__(8) unsigned long long mb;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = i < n;
    int pass = valid && in[i] > threshold;
    unsigned expected = 2u * blockDim.x + 2u;   // never completes a phase
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(&mb)), "r"(expected) : "memory");
    __syncthreads();
    if (pass) {
        unsigned long long st;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(smem(&mb)) : "memory");
    }
    int all = __syncthreads_and(pass || !valid);
    int any = __syncthreads_or(pass);
    if (threadIdx.x == 0) {
        unsigned long long st;
        unsigned pending;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(smem(&mb)) : "memory");
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(st));
        out[3 * blockIdx.x + 0] = (int)(expected - 1u - pending);
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}
