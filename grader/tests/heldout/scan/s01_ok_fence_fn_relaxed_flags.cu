// EXPECT scan_any_n PASS
// Correct: fence-based release/acquire in libcu++ spelling. Producer: plain
// store of the prefix, atomic_thread_fence(release, device) (fence.acq_rel.gpu),
// relaxed atomic_ref store of the flag. Consumer: relaxed atomic_ref loads in
// the spin, atomic_thread_fence(acquire, device), plain load of the prefix.
#include <cuda/atomic>
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev_ref;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk_ref;
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    while (dev_ref(flag[tile - 1]).load(cuda::memory_order_relaxed) == 0) { }
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    return prefix[tile - 1];
}
static __device__ __forceinline__ void chain_publish(unsigned *prefix, unsigned *flag, unsigned tile, unsigned v)
{
    prefix[tile] = v;
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
    dev_ref(flag[tile]).store(1u, cuda::memory_order_relaxed);
}
#define CHAIN_WAIT chain_wait
#define CHAIN_PUBLISH chain_publish
#include "chain_common.h"
