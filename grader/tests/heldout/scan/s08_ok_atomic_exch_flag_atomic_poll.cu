// EXPECT scan_any_n PASS
// Correct: flags through atomics (allowed in lesson 4). Producer: prefix store,
// __threadfence(), atomicExch(flag, 1). Consumer: polls with atomicAdd(flag, 0)
// (an atomic that reads), then __threadfence(), then the prefix.
#include <cuda/atomic>
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev_ref;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk_ref;
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    while (atomicAdd(&flag[tile - 1], 0u) == 0) { }
    __threadfence();
    return prefix[tile - 1];
}
static __device__ __forceinline__ void chain_publish(unsigned *prefix, unsigned *flag, unsigned tile, unsigned v)
{
    prefix[tile] = v;
    __threadfence();
    atomicExch(&flag[tile], 1u);
}
#define CHAIN_WAIT chain_wait
#define CHAIN_PUBLISH chain_publish
#include "chain_common.h"
