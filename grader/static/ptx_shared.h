/* Can any code of a PTX module touch shared memory? racecheck looks for
 * hazards on shared memory only: a runner whose kernels never touch it
 * cannot get a racecheck finding, so the racecheck lever (levers.h) skips
 * that tool for them (grade.c, sweep.c). Conservative on purpose: any
 * instruction that names the shared state space (ld/st/atom/red.shared,
 * cvta to or from shared, isspacep, mapa, cp.async and bulk copies, a
 * .shared declaration), any mbarrier, matrix load/store or tensor-core
 * instruction that reads shared operands, any generic load, store or
 * atomic (its address may point into shared memory, whoever computed it),
 * any call through a register or to a function the module does not define
 * (but printf, malloc, free and assert) counts as touching it. The judge
 * asks it of the whole module (grade.c): the host code of an exercise's
 * launcher may launch any kernel of the file, and which it can is not in
 * the PTX. */
#ifndef SYNCLAB_PTX_SHARED_H
#define SYNCLAB_PTX_SHARED_H

#include <stddef.h>

#include "ptx.h"

/* 1 when instruction in may touch shared memory (above); p: its module. */
int sl_ptx_insn_may_touch_shared(const sl_ptx *p, const sl_ptx_insn *in);
/* 1 when any instruction of the marked functions (mark: p->nfunc flags;
 * NULL: every function of the module) may touch shared memory; where gets
 * "file:line: instruction" of the first. */
int sl_ptx_may_touch_shared(const sl_ptx *p, const char *mark, char *where, size_t n);

#endif
