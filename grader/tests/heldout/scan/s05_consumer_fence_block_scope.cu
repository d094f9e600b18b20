// EXPECT scan_any_n RULE
// Bug: the consumer's fence after its volatile spin is __threadfence_block()
// (membar.cta): too narrow to order the flag load before the prefix load
// against a store made by another block. Producer side is right.
#include <cuda/atomic>
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev_ref;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk_ref;
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    while (((volatile unsigned *)flag)[tile - 1] == 0) { }
    __threadfence_block();
    return ((volatile unsigned *)prefix)[tile - 1];
}
static __device__ __forceinline__ void chain_publish(unsigned *prefix, unsigned *flag, unsigned tile, unsigned v)
{
    prefix[tile] = v;
    __threadfence();
    ((volatile unsigned *)flag)[tile] = 1u;
}
#define CHAIN_WAIT chain_wait
#define CHAIN_PUBLISH chain_publish
#include "chain_common.h"
