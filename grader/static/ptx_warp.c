/* Full-mask warp collectives that only part of a warp reaches, read from
 * the PTX: the lane followed through registers, then the branches on it. */
#include "ptx_warp.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_cfg.h"
#include "ptx_flow.h"

/* What a register holds, as far as lanes go: a copy of threadIdx.x (its low
 * five bits are the lane, the rest the warp), a value that differs between
 * the lanes of one warp, or a warp-uniform value plus the thread index
 * (i = blockIdx.x * blockDim.x + threadIdx.x: minus the lane, it is the
 * index of the warp's first thread). */
enum { K_TID = 1, K_LANE = 2, K_TIDSUM = 4 };

/* The last operand, into buf; 0 when there is none. */
static int last_operand(const sl_ptx_insn *in, char *buf, size_t n)
{
    int k = 0;
    while (k < 8 && sl_ptx_operand(in, k, buf, n))
        k++;
    return k > 0 && sl_ptx_operand(in, k - 1, buf, n);
}

/* The last operand that is an integer constant, into *v. */
static int immediate_operand(const sl_ptx_insn *in, long long *v)
{
    char buf[64];
    int found = 0;
    for (int k = 1; k < 6 && sl_ptx_operand(in, k, buf, sizeof buf); k++) {
        char *end;
        long long x = strtoll(buf, &end, 0);
        if (end != buf && *end == '\0' && (isdigit((unsigned char)buf[0]) || buf[0] == '-')) {
            *v = x;
            found = 1;
        }
    }
    return found;
}

static int any_src(const sl_flow *fl, int j, const unsigned char *kind, unsigned char k)
{
    for (int s = 0; s < fl->in[j].nsrc; s++)
        if (kind[fl->in[j].src[s]] & k)
            return 1;
    return 0;
}

/* "setp.lt.u32 %p, %tid, 8": does the comparison split a warp? Against a
 * multiple of 32 an ordering does not (tid < 32 is warp 0, whole); an
 * equality always does (tid == 0 is one lane). */
static int comparison_splits_warp(const sl_ptx_insn *in, long long imm)
{
    int strict = sl_ptx_op_has(in, ".lt") || sl_ptx_op_has(in, ".lo") || sl_ptx_op_has(in, ".ge") ||
                 sl_ptx_op_has(in, ".hs");
    int closed = sl_ptx_op_has(in, ".le") || sl_ptx_op_has(in, ".ls") || sl_ptx_op_has(in, ".gt") ||
                 sl_ptx_op_has(in, ".hi");
    if (strict)
        return imm % 32 != 0;
    if (closed)
        return (imm + 1) % 32 != 0;
    return 1;
}

/* add u, tid / mad.lo a, b, tid: the thread index is the last operand,
 * added once, and no other source is the thread index or the lane (the
 * others may be anything else: data is not followed, as everywhere here). */
static int tid_last(const sl_ptx_insn *in, const sl_flow *fl, int j, const unsigned char *kind)
{
    const sl_flow_insn *fi = &fl->in[j];
    char last[64];
    if (fi->nsrc < 1 || !last_operand(in, last, sizeof last) ||
        strcmp(fl->reg[fi->src[fi->nsrc - 1]], last) != 0 || !(kind[fi->src[fi->nsrc - 1]] & K_TID))
        return 0;
    for (int s = 0; s + 1 < fi->nsrc; s++)
        if (kind[fi->src[s]] & (K_TID | K_LANE | K_TIDSUM))
            return 0;
    return 1;
}

/* One pass over f: the kinds each instruction's destinations get. */
static int lane_pass(const sl_ptx_func *f, const sl_flow *fl, unsigned char *kind)
{
    int changed = 0;
    for (int j = 0; j < f->ninsn; j++) {
        const sl_ptx_insn *in = &f->insn[j];
        const sl_flow_insn *fi = &fl->in[j];
        if (fi->ndst == 0)
            continue;
        unsigned char k = 0;
        long long imm = 0;
        int has_imm = immediate_operand(in, &imm);
        int lane = any_src(fl, j, kind, K_LANE) || (fi->guard >= 0 && (kind[fi->guard] & K_LANE));
        int tid = any_src(fl, j, kind, K_TID);
        if (sl_ptx_matches(in, "ld.|ldu.|atom.|shfl.|vote.|match.|redux.|activemask|call")) {
            k = 0; /* data, or a warp's common answer: not followed (a miss, never a false SYNC) */
        } else if (sl_ptx_matches(in, "mov.|cvt.") && fi->nsrc == 1 && tid) {
            k = K_TID;
        } else if (sl_ptx_matches(in, "and.") && tid && has_imm) {
            k = (imm & 31) ? K_LANE : 0; /* tid & 31 is the lane; tid & ~31 the warp's base */
        } else if (sl_ptx_matches(in, "rem.") && tid) {
            k = K_LANE;
        } else if (sl_ptx_matches(in, "sub.") && fi->nsrc == 2 &&
                   (kind[fi->src[0]] & (K_TID | K_TIDSUM)) && (kind[fi->src[1]] & K_LANE) &&
                   !(kind[fi->src[0]] & K_LANE)) {
            k = 0; /* tid - lane, i - lane: the warp's first thread */
        } else if (sl_ptx_matches(in, "add.|mad.lo.") && !lane && tid_last(in, fl, j, kind)) {
            k = K_TIDSUM;
        } else if (sl_ptx_matches(in, "setp.") && !lane && tid) {
            k = has_imm && fi->nsrc == 1 && comparison_splits_warp(in, imm) ? K_LANE : 0;
        } else if (lane) {
            k = K_LANE;
        }
        for (int d = 0; d < fi->ndst; d++)
            if ((kind[fi->dst[d]] | k) != kind[fi->dst[d]]) {
                kind[fi->dst[d]] |= k;
                changed = 1;
            }
    }
    return changed;
}

static int full_mask_value(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 0);
    return end != s && *end == '\0' && (v & 0xffffffffLL) == 0xffffffffLL;
}

/* A warp collective whose member mask (its last operand) is the whole warp,
 * as a constant or a register set once from one. */
static int full_mask_collective(const sl_ptx_func *f, const sl_flow *fl, int j)
{
    const sl_ptx_insn *in = &f->insn[j];
    if (!sl_ptx_matches(in, "shfl.sync|vote.sync|match.|redux.sync|bar.warp.sync"))
        return 0;
    char last[64], buf[64];
    if (!last_operand(in, last, sizeof last))
        return 0;
    if (full_mask_value(last))
        return 1;
    for (int s = 0; s < fl->in[j].nsrc; s++) {
        int r = fl->in[j].src[s];
        if (strcmp(fl->reg[r], last) != 0)
            continue;
        int d = sl_flow_only_def(fl, r);
        return d >= 0 && sl_ptx_matches(&f->insn[d], "mov.") &&
               sl_ptx_operand(&f->insn[d], 1, buf, sizeof buf) && full_mask_value(buf);
    }
    return 0;
}

/* Can block from reach block to without entering block avoid? */
static int block_path(const sl_cfg *g, int from, int to, int avoid, const char *blocked)
{
    char *seen = calloc((size_t)g->nb + 1, 1);
    int *stack = malloc(((size_t)g->nb + 1) * 2 * sizeof *stack);
    int top = 0, found = 0;
    stack[top++] = from;
    while (top && !found) {
        int b = stack[--top];
        if (b < 0 || b > g->nb || seen[b])
            continue;
        seen[b] = 1;
        if (b == to) {
            found = 1;
            break;
        }
        if (b == avoid || b == g->nb || (blocked && blocked[b]))
            continue;
        for (int m = 0; m < 2; m++)
            if (g->succ[b][m] >= 0)
                stack[top++] = g->succ[b][m];
    }
    free(seen);
    free(stack);
    return found;
}

/* Whether instructions a and b are the same collective: the same opcode
 * with the same qualifiers. A warp collective waits for the lanes of its
 * mask to execute one "with the same qualifiers and same membermask" (PTX
 * ISA, shfl.sync, vote.sync, bar.warp.sync): lanes at a vote while the rest
 * of the warp is at a shuffle do not meet (lane != 0 && __all_sync(...),
 * whose lane 0 goes straight on to the shuffles). */
static int same_collective(const sl_ptx_insn *a, const sl_ptx_insn *b)
{
    size_t la = 0, lb = 0;
    const char *oa = sl_ptx_opcode(a, &la), *ob = sl_ptx_opcode(b, &lb);
    return oa && ob && la == lb && memcmp(oa, ob, la) == 0;
}

/* The lane branch x that leaves part of the warp out of block cb: cb lies
 * on one side before the join, the join is no exit, cb does not lead back
 * to x before the join (a loop on the lane), and a side reaches the join
 * without a full-mask collective like cb's (has_collective). */
static int splits_around(const sl_cfg *g, int x, int cb, const char *has_collective)
{
    int join = sl_cfg_join(g, x);
    if (join >= g->nb || cb == join)
        return 0;
    int inside = 0;
    for (int k = 0; k < 2 && !inside; k++)
        inside = g->succ[x][k] >= 0 && block_path(g, g->succ[x][k], cb, join, NULL);
    if (!inside || block_path(g, cb, x, join, NULL))
        return 0;
    for (int k = 0; k < 2; k++) {
        int s = g->succ[x][k];
        if (s >= 0 && !has_collective[s] && block_path(g, s, join, -1, has_collective))
            return 1;
        if (s == join)
            return 1;
    }
    return 0;
}

static void explain(const sl_ptx *p, const sl_ptx_func *f, int j, int cause, sl_text *why,
                    char *where, size_t wl)
{
    sl_text_printf(why, "the warp collective ");
    sl_ptx_say(p, &f->insn[j], why, where, wl);
    sl_text_printf(why, " names the whole warp in its mask, but it is under a condition on the "
                        "lane (");
    sl_ptx_say(p, &f->insn[cause], why, where, wl);
    sl_text_printf(why,
                   "): the lanes that go the other way never reach it, and a full-mask shuffle, "
                   "vote or __syncwarp() that part of the warp skips is undefined (CUDA "
                   "Programming Guide, Warp Shuffle and Warp Vote Functions). Move it out of the "
                   "branch, or give it the mask of the lanes that take the branch (found in the "
                   "PTX)");
}

static int partial_in(const sl_ptx *p, const sl_ptx_func *f, sl_text *why, char *where, size_t wl)
{
    if (f->ninsn == 0)
        return 0;
    sl_flow fl;
    sl_flow_build(f, &fl);
    sl_cfg g;
    sl_cfg_build(f, &g);
    sl_cfg_ignore_traps(f, &g);
    unsigned char *kind = calloc((size_t)fl.nreg + 1, 1);
    for (int r = 0; r < fl.nreg; r++)
        kind[r] = strcmp(fl.reg[r], "%tid.x") == 0 ? K_TID
                  : strcmp(fl.reg[r], "%laneid") == 0 || strncmp(fl.reg[r], "%lanemask", 9) == 0
                      ? K_LANE
                      : 0;
    for (int pass = 0; pass < 50 && lane_pass(f, &fl, kind); pass++)
        ;
    char *has_collective = calloc((size_t)g.nb + 1, 1);
    char *is_collective = calloc((size_t)f->ninsn + 1, 1);
    for (int j = 0; j < f->ninsn; j++)
        is_collective[j] = (char)full_mask_collective(f, &fl, j);
    int found = 0;
    for (int j = 0; j < f->ninsn && !found; j++) {
        if (!is_collective[j] || !g.live[g.block_of[j]])
            continue;
        if (fl.in[j].guard >= 0 && (kind[fl.in[j].guard] & K_LANE)) {
            explain(p, f, j, j, why, where, wl);
            found = 1;
            break;
        }
        /* the blocks with a full-mask collective that j's lanes can meet */
        memset(has_collective, 0, (size_t)g.nb + 1);
        for (int k = 0; k < f->ninsn; k++)
            if (is_collective[k] && same_collective(&f->insn[k], &f->insn[j]))
                has_collective[g.block_of[k]] = 1;
        for (int x = 0; x < g.nb && !found; x++) {
            int last = (x + 1 < g.nb ? g.first[x + 1] : f->ninsn) - 1;
            const sl_flow_insn *bi = &fl.in[last];
            if (!sl_ptx_is_branch(&f->insn[last]) || bi->guard < 0 || !(kind[bi->guard] & K_LANE) ||
                g.succ[x][1] < 0)
                continue;
            if (splits_around(&g, x, g.block_of[j], has_collective)) {
                explain(p, f, j, last, why, where, wl);
                found = 1;
            }
        }
    }
    free(kind);
    free(has_collective);
    free(is_collective);
    sl_cfg_free(&g);
    sl_flow_free(&fl);
    return found;
}

/* Shuffles whose member mask is an __activemask() value: which of the
 * function's activemask instructions (bit k: the k-th) each register is
 * computed from, then each shfl.sync with such a mask. A shuffle reads its
 * source lane, which must be in the mask; __activemask() names the lanes
 * that happen to be converged, so only a source lane computed from that same
 * value (the leader __ffs(mask) - 1, or a rank in it) is known to be there.
 * up/down/bfly read lane +- d, and idx with any other lane (0, lane + 1)
 * may read a lane that went the other way. */
static int activemask_shuffle_in(const sl_ptx *p, const sl_ptx_func *f, sl_text *why, char *where,
                                 size_t wl)
{
    if (f->ninsn == 0)
        return 0;
    sl_flow fl;
    sl_flow_build(f, &fl);
    unsigned *from = calloc((size_t)fl.nreg + 1, sizeof *from);
    int nmask = 0;
    for (int j = 0; j < f->ninsn && nmask < 32; j++)
        if (sl_ptx_matches(&f->insn[j], "activemask") && fl.in[j].ndst > 0)
            from[fl.in[j].dst[0]] |= 1u << nmask++;
    for (int changed = nmask > 0, pass = 0; changed && pass < 50; pass++) {
        changed = 0;
        for (int j = 0; j < f->ninsn; j++) {
            const sl_flow_insn *fi = &fl.in[j];
            if (sl_ptx_matches(&f->insn[j], "ld.|ldu.|atom."))
                continue;
            unsigned u = 0;
            for (int k = 0; k < fi->nsrc; k++)
                u |= from[fi->src[k]];
            for (int d = 0; d < fi->ndst; d++)
                if ((from[fi->dst[d]] | u) != from[fi->dst[d]]) {
                    from[fi->dst[d]] |= u;
                    changed = 1;
                }
        }
    }
    int found = 0;
    for (int j = 0; j < f->ninsn && nmask > 0 && !found; j++) {
        const sl_ptx_insn *in = &f->insn[j];
        if (!sl_ptx_matches(in, "shfl.sync"))
            continue;
        /* shfl.sync.mode.b32 d|p, a, b, c, membermask: b is the lane (idx)
         * or the distance (up, down, bfly) */
        char mask[64] = "", lane[64] = "";
        sl_ptx_operand(in, 4, mask, sizeof mask);
        sl_ptx_operand(in, 2, lane, sizeof lane);
        unsigned m = 0, l = 0;
        for (int r = 0; r < fl.nreg; r++) {
            if (strcmp(fl.reg[r], mask) == 0)
                m = from[r];
            if (strcmp(fl.reg[r], lane) == 0)
                l = from[r];
        }
        if (!m || (sl_ptx_op_has(in, ".idx") && (l & m)))
            continue;
        sl_text_printf(why, "the shuffle ");
        sl_ptx_say(p, in, why, where, wl);
        sl_text_printf(why,
                       " takes its member mask from __activemask(), which names the lanes that "
                       "happen to be converged there, but reads a source lane that is not "
                       "computed from that mask (%s): that lane may have gone the other way, "
                       "and a shuffle that reads a lane outside its mask is undefined. Name the "
                       "lanes that must take part (0xffffffff before any branch, or "
                       "__ballot_sync(0xffffffff, condition)), or read only lanes of the mask "
                       "(its leader __ffs(mask) - 1) (found in the PTX)",
                       sl_ptx_op_has(in, ".idx") ? "a fixed or lane-relative index"
                                                 : "lane + or - a distance");
        found = 1;
    }
    free(from);
    sl_flow_free(&fl);
    return found;
}

typedef int (*function_check)(const sl_ptx *p, const sl_ptx_func *f, sl_text *why, char *where,
                              size_t wl);

/* The first function in the exercise's scope (its functions and every
 * function they call) that check finds something in. */
static int first_in_scope(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                          void *arg, function_check check, sl_text *why, char *where,
                          size_t wherelen)
{
    if (wherelen)
        where[0] = '\0';
    char *mark = calloc((size_t)p->nfunc + 1, 1);
    if (!mark)
        abort();
    sl_ptx_scope(p, in_scope, arg, mark);
    int found = 0;
    for (int i = 0; i < p->nfunc && !found; i++)
        found = mark[i] && check(p, &p->func[i], why, where, wherelen);
    free(mark);
    return found;
}

int sl_ptx_activemask_shuffle(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                              void *arg, sl_text *why, char *where, size_t wherelen)
{
    return first_in_scope(p, in_scope, arg, activemask_shuffle_in, why, where, wherelen);
}

/* The exchange in place, slots[lane] += slots[lane ^ d]: in one basic
 * block, a shared load whose address comes from the lane xor a distance
 * (another lane's word: xor with d != 0 maps the warp's slots onto each
 * other) and then, with no barrier between, a shared store to the same
 * array at an address from the thread index but not from that xor (the own
 * word). Lane L reads slot L ^ d while lane L ^ d writes it, between the
 * same two barriers: a race the tools may not report. The two-phase form
 * (read into a register, __syncwarp(), write) has a barrier between. */
static int inplace_exchange_in(const sl_ptx *p, const sl_ptx_func *f, sl_text *why, char *where,
                               size_t wl)
{
    if (f->ninsn == 0)
        return 0;
    sl_flow fl;
    sl_flow_build(f, &fl);
    sl_cfg g;
    sl_cfg_build(f, &g);
    unsigned char *kind = calloc((size_t)fl.nreg + 1, 1);
    char *xl = calloc((size_t)fl.nreg + 1, 1); /* computed from lane ^ d */
    for (int r = 0; r < fl.nreg; r++)
        kind[r] = strcmp(fl.reg[r], "%tid.x") == 0    ? K_TID
                  : strcmp(fl.reg[r], "%laneid") == 0 ? K_LANE
                                                      : 0;
    for (int pass = 0; pass < 50 && lane_pass(f, &fl, kind); pass++)
        ;
    for (int changed = 1, pass = 0; changed && pass < 50; pass++) {
        changed = 0;
        for (int j = 0; j < f->ninsn; j++) {
            const sl_flow_insn *fi = &fl.in[j];
            const sl_ptx_insn *in = &f->insn[j];
            if (fi->ndst == 0 || sl_ptx_matches(in, "ld.|ldu.|atom.|shfl.|vote."))
                continue;
            int x = 0;
            if (sl_ptx_matches(in, "xor.")) {
                long long imm = 0;
                int lane_src = 0, other = immediate_operand(in, &imm) && imm != 0;
                for (int k = 0; k < fi->nsrc; k++) {
                    if (kind[fi->src[k]] & (K_LANE | K_TID))
                        lane_src = 1;
                    else
                        other = 1;
                }
                x = lane_src && other;
            }
            for (int k = 0; k < fi->nsrc && !x; k++)
                x = xl[fi->src[k]];
            for (int d = 0; d < fi->ndst; d++)
                if (x && !xl[fi->dst[d]]) {
                    xl[fi->dst[d]] = 1;
                    changed = 1;
                }
        }
    }
    int found = 0;
    for (int b = 0; b < g.nb && !found; b++) {
        int end = b + 1 < g.nb ? g.first[b + 1] : f->ninsn;
        int pending = -1; /* the last load of another lane's word since a barrier */
        for (int j = g.first[b]; j < end && !found; j++) {
            const sl_ptx_insn *in = &f->insn[j];
            const sl_flow_insn *fi = &fl.in[j];
            if (sl_ptx_matches(in, "bar.|barrier.|call"))
                pending = -1;
            else if (sl_ptx_matches(in, "ld.shared") && fi->addr >= 0 && xl[fi->addr])
                pending = j;
            else if (pending >= 0 && sl_ptx_matches(in, "st.shared") && fi->addr >= 0 &&
                     !xl[fi->addr] && (sl_flow_addr_taint(&fl, j) & SL_TAINT_TID) &&
                     sl_flow_addr_bases(&fl, j) == sl_flow_addr_bases(&fl, pending)) {
                sl_text_printf(why, "the shared load ");
                sl_ptx_say(p, &f->insn[pending], why, where, wl);
                sl_text_printf(why, " reads another lane's slot (its index is the lane xor a "
                                    "distance) and the store ");
                sl_ptx_say(p, in, why, where, wl);
                sl_text_printf(why, " writes this lane's slot of the same array with no barrier "
                                    "between them: lane L reads slot L ^ d while lane L ^ d writes "
                                    "it, between the same two __syncwarp() calls, a race. Read the "
                                    "partner's slot into a register, __syncwarp(), then write your "
                                    "own (found in the PTX; racecheck does not always report it)");
                found = 1;
            }
        }
    }
    free(kind);
    free(xl);
    sl_cfg_free(&g);
    sl_flow_free(&fl);
    return found;
}

int sl_ptx_inplace_exchange(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                            void *arg, sl_text *why, char *where, size_t wherelen)
{
    return first_in_scope(p, in_scope, arg, inplace_exchange_in, why, where, wherelen);
}

int sl_ptx_partial_warp_collective(const sl_ptx *p,
                                   int (*in_scope)(const char *function, void *arg), void *arg,
                                   sl_text *why, char *where, size_t wherelen)
{
    return first_in_scope(p, in_scope, arg, partial_in, why, where, wherelen);
}
