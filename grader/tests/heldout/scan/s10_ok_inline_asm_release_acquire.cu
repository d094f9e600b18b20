// EXPECT scan_any_n PASS
// Correct: the release/acquire pair written directly in inline PTX:
// st.release.gpu.u32 for the flag, ld.acquire.gpu.u32 in the spin.
#include <cuda/atomic>
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev_ref;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk_ref;
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    unsigned f;
    do {
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(&flag[tile - 1]) : "memory");
    } while (f == 0);
    return prefix[tile - 1];
}
static __device__ __forceinline__ void chain_publish(unsigned *prefix, unsigned *flag, unsigned tile, unsigned v)
{
    prefix[tile] = v;
    asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(&flag[tile]), "r"(1u) : "memory");
}
#define CHAIN_WAIT chain_wait
#define CHAIN_PUBLISH chain_publish
#include "chain_common.h"
