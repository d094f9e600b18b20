// EXPECT scan_any_n RULE
// Bug: the producer's __threadfence() sits in a branch that is skipped when
// the tile's running prefix is 0 ("nothing to publish"), but the flag is
// raised on both paths: on that path the prefix store is unordered before it.
#include <cuda/atomic>
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev_ref;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk_ref;
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    while (((volatile unsigned *)flag)[tile - 1] == 0) { }
    __threadfence();
    return ((volatile unsigned *)prefix)[tile - 1];
}
static __device__ __forceinline__ void chain_publish(unsigned *prefix, unsigned *flag, unsigned tile, unsigned v)
{
    prefix[tile] = v;
    if (v != 0)
        __threadfence();
    ((volatile unsigned *)flag)[tile] = 1u;
}
#define CHAIN_WAIT chain_wait
#define CHAIN_PUBLISH chain_publish
#include "chain_common.h"
