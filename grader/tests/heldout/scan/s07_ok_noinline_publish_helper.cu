// EXPECT scan_any_n PASS
// Correct: the producer's fence and flag store live in a __noinline__ helper
// called right after the plain store of the prefix (the release side through
// a call; the zoo only has the consumer side in a helper). Consumer: volatile
// spin, __threadfence(), volatile read.
#include <cuda/atomic>
static __device__ __noinline__ void raise_flag(unsigned *f)
{
    __threadfence();   // orders the caller's prefix store before the flag
    *(volatile unsigned *)f = 1u;
}
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    while (((volatile unsigned *)flag)[tile - 1] == 0) { }
    __threadfence();
    return ((volatile unsigned *)prefix)[tile - 1];
}
static __device__ __forceinline__ void chain_publish(unsigned *prefix, unsigned *flag, unsigned tile, unsigned v)
{
    prefix[tile] = v;
    raise_flag(&flag[tile]);
}
#define CHAIN_WAIT chain_wait
#define CHAIN_PUBLISH chain_publish
#include "chain_common.h"
