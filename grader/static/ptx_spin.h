/* Spin-waits of one PTX function: loops (from the back edges of a depth-
 * first walk) whose exit depends on a strong global load made in the loop:
 * volatile, relaxed or acquire, or an atomic that only reads (a CAS that
 * is not a retry loop, atomicExch of a lock, atomicAdd(p, 0)). A loop that
 * claims work with atomicAdd(p, 1) waits for nobody. atomicMax(p, 0) and
 * atomicMin(p, ~0u) read only too. A weak load (ld.global, .cg, .cv; not
 * .nc) the loop reloads is a wait when the loop only waits: its address is
 * the same each time round and no counter the loop carries decides the
 * exit (a loop over data waits for nobody). */
#ifndef SYNCLAB_PTX_SPIN_H
#define SYNCLAB_PTX_SPIN_H

#include "ptx.h"
#include "ptx_cfg.h"
#include "ptx_flow.h"

typedef struct {
    int load;   /* the waiting load */
    int branch; /* the branch that leaves the loop on its value */
} sl_spin;

/* Fills out (at most max) and returns how many. */
int sl_find_spins(const sl_ptx_func *f, const sl_cfg *g, const sl_flow *fl, sl_spin *out, int max);

#endif
