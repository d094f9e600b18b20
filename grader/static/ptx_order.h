/* Memory order between blocks, read from the PTX of every exercise, on top
 * of its own rules. Paths are those of the control flow graph: an ordering
 * instruction counts only when every path between the two accesses passes
 * it (a fence in a branch that can be skipped does not).
 *  - A spin-wait (a loop whose exit depends on a strong global load:
 *    volatile, relaxed, acquire, or an atomic that only reads) must be
 *    followed by acquire ordering (ld.acquire, atom.acquire/acq_rel,
 *    fence.sc/acq_rel at gpu scope or wider, membar.gl/sys) on every path
 *    to a later global read of memory the kernel writes.
 *  - The store it waits for must be strong (volatile/relaxed/release store,
 *    atom, red); every path from a store of the data read after the wait
 *    to it needs release ordering (gpu-scope fence, or a release publish),
 *    and a __syncthreads() too when fewer threads publish than stored.
 *  - A ticket (a global atomic whose result decides that this block reads
 *    what other blocks stored before theirs) needs the same release before
 *    it and acquire between it and those reads.
 *  - Atomics are data too: one whose old value is used is a read, every one
 *    a write; a cp.async from global memory is a read.
 *  - Block scope (.cta: thread_scope_block, atomicInc_block) on the wait,
 *    the flag or the ticket does not synchronize two blocks.
 *  - ld.global.nc (__ldg, const __restrict__) of memory the kernel writes.
 *  - A wait on a block chosen by %ctaid, unless the exercise's harness
 *    launches only co-resident blocks or the index is an atomic ticket.
 * Library kernels (CUB, thrust) are not judged. */
#ifndef SYNCLAB_PTX_ORDER_H
#define SYNCLAB_PTX_ORDER_H

#include "ptx.h"

/* Returns 1 and explains the first finding, in the functions in_scope
 * accepts (all when NULL). rules: the exercise's rules (options
 * SL_RULE_ORDER_NOTE, SL_RULE_CORESIDENT), may be NULL. */
int sl_ptx_order_violation(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                           void *arg, const sl_rule *rules, sl_text *why, char *where,
                           size_t wherelen);

#endif
