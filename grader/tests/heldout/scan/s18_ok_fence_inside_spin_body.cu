// EXPECT scan_any_n PASS
// Correct: the consumer's fence is inside the polling loop, after each flag
// load and before the exit test, so the exiting path passes it too:
// load flag; __threadfence(); if (flag) break. Producer side is right.
#include <cuda/atomic>
static __device__ __forceinline__ unsigned chain_wait(unsigned *prefix, unsigned *flag, unsigned tile)
{
    for (;;) {
        unsigned f = ((volatile unsigned *)flag)[tile - 1];
        __threadfence();
        if (f != 0)
            break;
    }
    return prefix[tile - 1];
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
