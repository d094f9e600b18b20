// EXPECT scan_any_n RULE
// Bug: the flag is stored with a release of BLOCK scope
// (atomic_ref<unsigned, thread_scope_block>::store(release): st.release.cta).
// It orders the prefix before the flag only for threads of the same block;
// the waiting block is another block. Consumer side is right (device acquire).
#include <cuda/atomic>
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev_ref;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk_ref;
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    while (dev_ref(flag[tile - 1]).load(cuda::memory_order_acquire) == 0) { }
    return prefix[tile - 1];
}
static __device__ __forceinline__ void chain_publish(unsigned *prefix, unsigned *flag, unsigned tile, unsigned v)
{
    prefix[tile] = v;
    blk_ref(flag[tile]).store(1u, cuda::memory_order_release);
}
#define CHAIN_WAIT chain_wait
#define CHAIN_PUBLISH chain_publish
#include "chain_common.h"
