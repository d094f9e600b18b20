// EXPECT scan_any_n RULE
// Bug: the consumer spins with atomic_ref<unsigned, thread_scope_block>
// ::load(acquire) (ld.acquire.cta): block-scope acquire does not synchronize
// with another block's release. Producer side is right (device release).
#include <cuda/atomic>
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev_ref;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk_ref;
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    while (blk_ref(flag[tile - 1]).load(cuda::memory_order_acquire) == 0) { }
    return prefix[tile - 1];
}
static __device__ __forceinline__ void chain_publish(unsigned *prefix, unsigned *flag, unsigned tile, unsigned v)
{
    prefix[tile] = v;
    dev_ref(flag[tile]).store(1u, cuda::memory_order_release);
}
#define CHAIN_WAIT chain_wait
#define CHAIN_PUBLISH chain_publish
#include "chain_common.h"
