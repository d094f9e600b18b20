// EXPECT scan_any_n RULE
// Bug: the consumer's __threadfence() is placed BEFORE its volatile spin
// ("fence, then wait"), so nothing orders the flag load before the prefix
// load that follows the loop. Producer side is right.
#include <cuda/atomic>
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    __threadfence();
    while (((volatile unsigned *)flag)[tile - 1] == 0) { }
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
