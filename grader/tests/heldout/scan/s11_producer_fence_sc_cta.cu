// EXPECT scan_any_n RULE
// Bug: the producer's fence is atomic_thread_fence(seq_cst, thread_scope_block)
// (fence.sc.cta): block scope, so it does not order the prefix before the
// relaxed device-scope flag store for another block. Consumer side is right.
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
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block);
    dev_ref(flag[tile]).store(1u, cuda::memory_order_relaxed);
}
#define CHAIN_WAIT chain_wait
#define CHAIN_PUBLISH chain_publish
#include "chain_common.h"
