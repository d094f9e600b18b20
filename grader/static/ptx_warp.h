/* Warp collectives that name the whole warp in a constant mask
 * (__shfl_sync(0xffffffff, ...), __ballot_sync, __syncwarp(), match,
 * redux) but sit in a branch on the lane: the lanes that go the other way
 * never reach them, which the CUDA Programming Guide leaves undefined. */
#ifndef SYNCLAB_PTX_WARP_H
#define SYNCLAB_PTX_WARP_H

#include "ptx.h"

/* 1 when a full-mask warp collective of a function in scope is reached by
 * part of a warp only: guarded by, or inside an if/else on, a value that
 * differs between the lanes of one warp (%laneid, threadIdx.x & 31,
 * threadIdx.x compared with a constant that is not a multiple of 32), while
 * the other side goes on without one. Early returns (the lanes exit, which
 * the mask excuses) and loops whose trip count depends on the lane are left
 * alone. Explains in why and names the place in where. */
int sl_ptx_partial_warp_collective(const sl_ptx *p,
                                   int (*in_scope)(const char *function, void *arg), void *arg,
                                   sl_text *why, char *where, size_t wherelen);

/* 1 when a shfl.sync of a function in scope takes its member mask from
 * __activemask() but reads a source lane not computed from that same value
 * (shfl up/down/bfly, or idx with a fixed or lane-relative index): the lane
 * read may have gone the other way. The warp-aggregation idiom (leader =
 * __ffs(mask) - 1, __shfl_sync(mask, v, leader)) passes. */
int sl_ptx_activemask_shuffle(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                              void *arg, sl_text *why, char *where, size_t wherelen);

/* 1 when a function in scope exchanges values between lanes in place
 * (slots[lane] += slots[lane ^ d]): a shared load of the word of lane ^ d,
 * then a store of the lane's own word of the same array, with no barrier
 * between them in one basic block. */
int sl_ptx_inplace_exchange(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                            void *arg, sl_text *why, char *where, size_t wherelen);

#endif
