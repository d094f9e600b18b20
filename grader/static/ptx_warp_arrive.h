/* Is a racecheck hazard between two source lines ordered by warp-leader
 * arrivals on a block-wide cuda::barrier? The idiom
 *
 *     write shared; __syncwarp();
 *     if (lane == 0) bar.wait(bar.arrive(32));   // init(&bar, blockDim.x)
 *     __syncwarp(); read what other warps wrote
 *
 * is ordered by the memory model (writes, bar.warp.sync, release arrive,
 * acquire wait, bar.warp.sync, reads), but racecheck does not follow the
 * order through bar.warp.sync and reports a hazard. This module proves the
 * order from the PTX, or says it cannot (then the hazard stands: RACE). */
#ifndef SYNCLAB_PTX_WARP_ARRIVE_H
#define SYNCLAB_PTX_WARP_ARRIVE_H

#include "ptx.h"

/* 1 when every pair of shared-memory accesses written at file_a:line_a and
 * file_b:line_b (file names compared by their base name) is ordered by
 * block-wide synchronisation that every thread passes once, in the same
 * order: validated warp-arrive regions and unconditional __syncthreads().
 * 0 whenever anything is unclear. A region counts only when:
 *   - a full-mask bar.warp.sync is followed by a branch that only lane 0
 *     (threadIdx.x & 31 == 0, or %laneid) does not take, to a second
 *     full-mask bar.warp.sync;
 *   - every path between them passes exactly one mbarrier.arrive of count
 *     32 and leaves only where a try_wait/test_wait on its token succeeded;
 *   - the barrier is one shared variable of the kernel, initialised once
 *     with %ntid.x, and every arrive on it is such a region's;
 *   - both bar.warp.sync post-dominate the kernel's entry and lie on no
 *     loop (every thread passes the region once, in order);
 *   - the kernel makes no calls, and both lines' accesses lie in it.
 * Then the two accesses are ordered when no stretch of code between two
 * such synchronisation points (or the entry) holds both, and neither lies
 * inside a region. Needs blockDim.x a multiple of 32 and 1-D blocks (the
 * lessons' contracts). */
int sl_ptx_warp_arrive_orders(const sl_ptx *p, const char *file_a, int line_a, const char *file_b,
                              int line_b);

#endif
