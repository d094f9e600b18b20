/* Calls followed into the functions they call, for the analyses that work
 * on one PTX function at a time (ptx_order.c): a __noinline__ helper that
 * spins, publishes or draws a ticket is judged with the code around its
 * call, as if the compiler had inlined it. The copy is built from the
 * parsed PTX: each call is replaced by the callee's body, its registers and
 * labels renamed per call site ("%rd1" -> "%rd1__in3"), the arguments and
 * the return value moved ("mov.u64 %rd1__in3, %rd7"), and its ret turned
 * into a branch past the copy. Every copied instruction keeps its source
 * location: findings still name the student's line inside the helper. */
#ifndef SYNCLAB_PTX_INLINE_H
#define SYNCLAB_PTX_INLINE_H

#include "ptx.h"

/* Calls nested deeper are kept as calls. A copy that would grow past the
 * instruction cap is given up: helpers calling helpers multiply, and the
 * control flow graph's post-dominator sets grow with the square of the
 * size (the largest function of the lessons and zoos has about 1000). */
enum { SL_INLINE_MAX_DEPTH = 8, SL_INLINE_MAX_INSN = 20000 };

/* Fills *out with function fi of p, every direct call to a function p
 * defines replaced by that function's body: not a kernel, not one skip
 * accepts (skip may be NULL), not a call back into a function being copied,
 * at most SL_INLINE_MAX_DEPTH deep, and only when the callee reads its
 * parameters the way nvcc writes it (ld.param of "<callee>_param_K").
 * Marks inlined[g] (p->nfunc entries, may be NULL) for each function g
 * copied. Returns how many calls it replaced, with *out to be freed by
 * sl_ptx_func_free; 0 when there were none and -1 when the copy would pass
 * max_insn (SL_INLINE_MAX_INSN when <= 0): *out is then left untouched. */
int sl_ptx_inline(const sl_ptx *p, int fi, int (*skip)(const sl_ptx *p, int function), int max_insn,
                  sl_ptx_func *out, char *inlined);
void sl_ptx_func_free(sl_ptx_func *f);

/* The functions a per-function analysis looks at: each kernel in scope
 * with its calls inlined; a helper inlined into one of them is judged there
 * and not alone (a helper that only spins is right when its caller fences
 * after the call). Functions no such kernel reaches, and kernels whose copy
 * is too big, are looked at as they are. */
typedef struct {
    const sl_ptx *p;
    sl_ptx_func *body; /* per function: its inlined copy, when has_body */
    char *has_body;
    char *covered; /* helpers judged inside a kernel */
} sl_ptx_inlined;

void sl_ptx_inline_kernels(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                           void *arg, int (*skip)(const sl_ptx *p, int function),
                           sl_ptx_inlined *m);
/* What to analyse for function i: its inlined copy, the function itself, or
 * NULL for a helper judged inside its kernels. */
const sl_ptx_func *sl_ptx_inlined_view(const sl_ptx_inlined *m, int i);
void sl_ptx_inlined_free(sl_ptx_inlined *m);

#endif
