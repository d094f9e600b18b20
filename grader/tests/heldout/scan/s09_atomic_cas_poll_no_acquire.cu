// EXPECT scan_any_n RULE
// Bug: the consumer polls with atomicCAS(flag, 1, 1) (relaxed atom.cas) and
// reads the prefix with no fence after: an atomic read is not an acquire.
// Producer side is right.
#include <cuda/atomic>
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev_ref;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk_ref;
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    while (atomicCAS(&flag[tile - 1], 1u, 1u) != 1u) { }
    return ((volatile unsigned *)prefix)[tile - 1];
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
