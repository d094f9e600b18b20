/* Control flow of one PTX function: basic blocks, successors, which blocks
 * can reach the exit, and post-dominators (where the sides of a branch meet
 * again). Shared by the checks that reason on paths (ptx_barriers.c, the
 * memory-order rules). */
#ifndef SYNCLAB_PTX_CFG_H
#define SYNCLAB_PTX_CFG_H

#include <stdint.h>
#include "ptx.h"

typedef uint64_t sl_cfg_word;
typedef struct {
    int nb;            /* blocks; block nb is the virtual exit */
    int *first;        /* first instruction of each block */
    int *block_of;     /* instruction -> block */
    int (*succ)[2];    /* up to two successors, -1 when absent */
    int words;         /* bitset length in words */
    sl_cfg_word *pdom; /* (nb+1) bitsets */
    char *live;        /* the block can reach the exit (not a spin forever) */
} sl_cfg;

void sl_cfg_build(const sl_ptx_func *f, sl_cfg *g);
void sl_cfg_free(sl_cfg *g);
/* The post-dominator set of block b, as a bitset of nb+1 bits. */
const sl_cfg_word *sl_cfg_pdom(const sl_cfg *g, int b);
int sl_cfg_bit(const sl_cfg_word *s, int i);
/* Does block a post-dominate block b (every path from b to the exit passes a)? */
int sl_cfg_postdominates(const sl_cfg *g, int a, int b);
/* The immediate post-dominator of x: where its two sides meet again. */
int sl_cfg_join(const sl_cfg *g, int x);
/* Drops the edges out of blocks that end in an unguarded trap and
 * recomputes the post-dominators and `live`: a path that aborts the kernel
 * does not keep the sides of a branch from meeting again, and the blocks
 * that only lead to a trap are dead (never control-dependent successors). */
void sl_cfg_ignore_traps(const sl_ptx_func *f, sl_cfg *g);

/* A path from instruction from (exclusive) to an instruction marked in
 * target that passes no instruction marked in blocked (either may be NULL:
 * no target / nothing blocks). cut[b] (NULL: none) names a successor slot
 * (0 or 1) of block b that is not followed, -1 for none. Returns the first
 * target found, or -1 when every path is blocked. */
int sl_cfg_reach(const sl_ptx_func *f, const sl_cfg *g, int from, const char *target,
                 const char *blocked, const signed char *cut);
/* Marks in dep (nb entries) the blocks control-dependent on the branch
 * ending block x through its successor slot k: they run whenever that edge
 * is taken, and not on every path from x. */
void sl_cfg_dependent(const sl_cfg *g, int x, int k, char *dep);

int sl_ptx_is_branch(const sl_ptx_insn *in); /* bra */
int sl_ptx_ends_flow(const sl_ptx_insn *in); /* ret, exit, trap */
int sl_ptx_guarded(const sl_ptx_insn *in);   /* "@%p ..." */

#endif
