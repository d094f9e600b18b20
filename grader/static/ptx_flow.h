/* Data flow of one PTX function, for the memory-order rules: the operands
 * of each instruction, where an address points (which kernel parameter or
 * variable it is derived from), and which values derive from the thread
 * index, the block index, or the result of a global atomic. Flow-
 * insensitive: a register's facts are the union over every instruction
 * that writes it; values stored to shared memory and loaded back keep
 * their taint (a ticket thread 0 shares with its block). */
#ifndef SYNCLAB_PTX_FLOW_H
#define SYNCLAB_PTX_FLOW_H

#include <stdint.h>
#include "ptx.h"

/* Address bases: bit k < SL_BASE_SYMBOLS is parameter k; a variable's name
 * hashes into [SL_BASE_SYMBOLS, SL_BASE_SHARED); then shared memory, and
 * a pointer that was loaded from memory (unknown). */
typedef uint64_t sl_bases;
enum { SL_BASE_SYMBOLS = 40, SL_BASE_SHARED = 62, SL_BASE_UNKNOWN = 63 };
#define SL_BASES_GLOBAL (~(((sl_bases)1) << SL_BASE_SHARED))

enum { SL_TAINT_TID = 1, SL_TAINT_CTAID = 2, SL_TAINT_ATOMIC = 4 };

enum { SL_FLOW_MAX_DST = 5, SL_FLOW_MAX_SRC = 12 };

typedef struct {
    int ndst, dst[SL_FLOW_MAX_DST]; /* registers written */
    int nsrc, src[SL_FLOW_MAX_SRC]; /* registers read, in operand order */
    int src_op[SL_FLOW_MAX_SRC];    /* the operand each was read from */
    int addr;                       /* the register inside [ ], -1 */
    sl_bases addr_sym;              /* bits of a name inside [ ] */
    int addr2;                      /* the register inside a second [ ] (the source of
                                       cp.async), -1 */
    sl_bases addr2_sym;
    int guard;     /* predicate register of "@%p", -1 */
    int guard_neg; /* "@!%p" */
    char
        space; /* of a memory access: 'g'lobal, 's'hared, 'l'ocal, 'p'aram, 'c'onst, 'G'eneric; 0 */
} sl_flow_insn;

typedef struct {
    int nreg;
    char (*reg)[48];  /* register names */
    sl_bases *base;   /* per register */
    unsigned *taint;  /* per register */
    int *ndef;        /* instructions that write each register */
    sl_flow_insn *in; /* per instruction */
    int nin;
} sl_flow;

void sl_flow_build(const sl_ptx_func *f, sl_flow *fl);
void sl_flow_free(sl_flow *fl);
/* Where the address of memory instruction i points (0: not an access). */
sl_bases sl_flow_addr_bases(const sl_flow *fl, int i);
/* Where the global source of an asynchronous copy (cp.async.*.shared.global
 * [dst], [src], ...) points; 0 when i is no such copy. */
sl_bases sl_flow_copy_source(const sl_ptx_func *f, const sl_flow *fl, int i);
/* Taint of the address of instruction i. */
unsigned sl_flow_addr_taint(const sl_flow *fl, int i);
/* Is the memory access i to global memory (or generic memory that is)? */
int sl_flow_is_global(const sl_flow *fl, int i);
/* Does instruction i write register r? */
int sl_flow_writes(const sl_flow *fl, int i, int r);
/* The instruction that writes r when it is the only one, else -1. */
int sl_flow_only_def(const sl_flow *fl, int r);

#endif
