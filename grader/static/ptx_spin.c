#include "ptx_spin.h"
#include "ptx_budget.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int has(const sl_ptx_insn *in, const char *part) { return sl_ptx_op_has(in, part); }

static int last_insn(const sl_ptx_func *f, const sl_cfg *g, int b)
{
    return (b + 1 < g->nb ? g->first[b + 1] : f->ninsn) - 1;
}

static int strong_load(const sl_ptx_insn *in)
{
    return has(in, ".volatile") || has(in, ".relaxed") || has(in, ".acquire") || has(in, ".mmio");
}

/* The n-th top-level operand, trimmed, into buf. */
static void operand_text(const sl_ptx_insn *in, int n, char *buf, size_t len)
{
    const char *s = sl_ptx_operands(in);
    int depth = 0, k = 0;
    buf[0] = '\0';
    for (; *s && k < n; s++) {
        if (*s == '{' || *s == '[' || *s == '(')
            depth++;
        else if (*s == '}' || *s == ']' || *s == ')')
            depth--;
        else if (*s == ',' && depth == 0)
            k++;
    }
    while (isspace((unsigned char)*s))
        s++;
    size_t m = strcspn(s, ",");
    while (m && isspace((unsigned char)s[m - 1]))
        m--;
    if (m >= len)
        m = len - 1;
    memcpy(buf, s, m);
    buf[m] = '\0';
}

/* The n-th operand's value when it is a number, or a register whose only
 * definition moves a number into it ("mov.u32 %r5, 0"). */
static void operand_value(const sl_ptx_func *f, const sl_flow *fl, int i, int n, char *buf,
                          size_t len)
{
    operand_text(&f->insn[i], n, buf, len);
    if (buf[0] != '%')
        return;
    for (int r = 0; r < fl->nreg; r++) {
        if (strcmp(fl->reg[r], buf) != 0)
            continue;
        int j = sl_flow_only_def(fl, r);
        if (j >= 0 && sl_ptx_matches(&f->insn[j], "mov.") && !sl_ptx_guarded(&f->insn[j])) {
            char v[64];
            operand_text(&f->insn[j], 1, v, sizeof v);
            if (v[0] != '%' && (isdigit((unsigned char)v[0]) || v[0] == '-'))
                snprintf(buf, len, "%s", v);
        }
        return;
    }
}

static int is_zero(const char *v)
{
    return strcmp(v, "0") == 0 || strcmp(v, "0x0") == 0 || strcmp(v, "0d0000000000000000") == 0 ||
           strcmp(v, "0f00000000") == 0;
}
static int is_all_ones(const char *v)
{
    return strcmp(v, "-1") == 0 || strcasecmp(v, "0xffffffff") == 0 ||
           strcasecmp(v, "0xffffffffffffffff") == 0 || strcmp(v, "4294967295") == 0;
}

/* Does this atomic only read (atomicAdd(p, 0), atomicOr(p, 0), a CAS that
 * is not a retry loop, atomicExch of a lock)? A work-claiming atomicAdd(p, 1)
 * in a loop condition is not a wait. */
static int atomic_waits(const sl_ptx_func *f, const sl_cfg *g, const sl_flow *fl, int i,
                        const char *body)
{
    const sl_ptx_insn *in = &f->insn[i];
    char v[64];
    if (has(in, ".cas")) {
        /* a retry loop compares with the value the CAS itself returned */
        const sl_flow_insn *fi = &fl->in[i];
        int cmp = -1;
        for (int k = 0; k < fi->nsrc; k++)
            if (fi->src_op[k] == 2)
                cmp = fi->src[k];
        if (cmp < 0 || fi->ndst == 0)
            return 1;
        if (cmp == fi->dst[0])
            return 0;
        for (int j = 0; j < f->ninsn; j++)
            if (body[g->block_of[j]] && sl_flow_writes(fl, j, cmp))
                for (int k = 0; k < fl->in[j].nsrc; k++)
                    if (fl->in[j].src[k] == fi->dst[0])
                        return 0;
        return 1;
    }
    if (has(in, ".exch"))
        return 1;
    operand_value(f, fl, i, 2, v, sizeof v);
    if (has(in, ".add") || has(in, ".or") || has(in, ".xor") || has(in, ".sub"))
        return is_zero(v);
    if (has(in, ".and"))
        return is_all_ones(v);
    /* atomicMax(p, 0) of a flag that only grows from 0, atomicMin(p, ~0u) */
    if (has(in, ".max"))
        return is_zero(v) || strcmp(v, "-2147483648") == 0 || strcasecmp(v, "0x80000000") == 0;
    if (has(in, ".min"))
        return (has(in, ".u") && is_all_ones(v)) || strcmp(v, "2147483647") == 0 ||
               strcasecmp(v, "0x7fffffff") == 0;
    return 0;
}

/* Is register r, traced back through the instructions of body that write
 * it, a value carried round the loop (it reaches a cycle: an induction
 * variable), or, unless through_loads, one read from memory in the loop (a
 * pointer chased)? state: per register, 0 new, 1 on the way, 2 not, 3 is. */
static int carried_walk(const sl_ptx_func *f, const sl_cfg *g, const sl_flow *fl, const char *body,
                        int r, int through_loads, char *state, int depth)
{
    if (state[r] == 1)
        return 1;
    if (state[r])
        return state[r] == 3;
    if (depth > 256)
        return 1;
    state[r] = 1;
    int is = 0;
    for (int j = 0; j < f->ninsn && !is; j++) {
        if (!body[g->block_of[j]] || !sl_flow_writes(fl, j, r))
            continue;
        if (sl_ptx_matches(&f->insn[j], "ld.|ldu.|atom.")) {
            if (!through_loads)
                is = 1;
            continue;
        }
        const sl_flow_insn *fi = &fl->in[j];
        for (int k = 0; k < fi->nsrc && !is; k++)
            is = carried_walk(f, g, fl, body, fi->src[k], through_loads, state, depth + 1);
    }
    state[r] = is ? 3 : 2;
    return is;
}

static int carried(const sl_ptx_func *f, const sl_cfg *g, const sl_flow *fl, const char *body,
                   int r, int through_loads)
{
    char *state = calloc((size_t)fl->nreg + 1, 1);
    int is = carried_walk(f, g, fl, body, r, through_loads, state, 0);
    free(state);
    return is;
}

/* A weak load (ld.global, .cg, .cv, .ca: not .nc) polled in a loop is a
 * wait too (the compiler keeps reloading it when the loop has __nanosleep,
 * a fence or an asm volatile in it), when the loop does nothing but wait:
 * the load's address is the same each time round, and the exit is decided
 * by loaded values, not by a counter the loop carries (a loop over data,
 * "for (i = 0; i < *n; i++)", "while (in[i]) i++", waits for nobody). */
static int weak_poll(const sl_ptx_func *f, const sl_cfg *g, const sl_flow *fl, int i, int guard,
                     const char *body)
{
    const sl_ptx_insn *in = &f->insn[i];
    if (has(in, ".nc") || guard < 0)
        return 0;
    if (fl->in[i].addr >= 0 && carried(f, g, fl, body, fl->in[i].addr, 0))
        return 0;
    return !carried(f, g, fl, body, guard, 1);
}

static int waiting_load(const sl_ptx_func *f, const sl_cfg *g, const sl_flow *fl, int i,
                        const char *body, int guard)
{
    const sl_ptx_insn *in = &f->insn[i];
    if (!sl_flow_is_global(fl, i))
        return 0;
    if (sl_ptx_matches(in, "ld.|ldu."))
        return strong_load(in) || weak_poll(f, g, fl, i, guard, body);
    if (sl_ptx_matches(in, "atom."))
        return atomic_waits(f, g, fl, i, body);
    return 0;
}

/* The state space ('s' shared, 'l' local, 'G' generic) of a load that may
 * read a copy of the flag, not the flag: of shared or local memory, or a
 * generic load of memory that is not global (a local variable's address);
 * 0 for any other instruction. */
static char copy_space(const sl_ptx_func *f, const sl_flow *fl, int i)
{
    if (!sl_ptx_matches(&f->insn[i], "ld."))
        return 0;
    char sp = fl->in[i].space;
    if (sp == 's' || sp == 'l' || (sp == 'G' && !sl_flow_is_global(fl, i)))
        return sp;
    return 0;
}

/* Does instruction i store to memory of space sp (a generic store may
 * store to any)? */
static int stores_to(const sl_ptx_func *f, const sl_flow *fl, int i, char sp)
{
    const sl_ptx_insn *in = &f->insn[i];
    if (!sl_ptx_matches(in, "st.") || has(in, ".async"))
        return 0;
    return fl->in[i].space == sp || fl->in[i].space == 'G';
}

/* The loads that the branch ending block x depends on, inside body. */
static int spin_loads_of(const sl_ptx_func *f, const sl_cfg *g, const sl_flow *fl, int x,
                         const char *body, int *loads, int max)
{
    int br = last_insn(f, g, x);
    int guard = fl->in[br].guard;
    if (guard < 0)
        return 0;
    char *seen = calloc((size_t)fl->nreg + 1, 1);
    int *work = malloc(((size_t)fl->nreg + 1) * sizeof *work);
    int top = 0, n = 0;
    work[top++] = guard;
    seen[guard] = 1;
    while (top && sl_ptx_budget_spend(f->ninsn)) {
        int r = work[--top];
        for (int j = 0; j < f->ninsn; j++) {
            if (!body[g->block_of[j]] || !sl_flow_writes(fl, j, r))
                continue;
            const sl_ptx_insn *in = &f->insn[j];
            char copy = copy_space(f, fl, j);
            if (copy) {
                /* the loop waits on a copy of the flag: a shared one one
                 * thread refreshes ("if (tid == 0) s = flag[p];
                 * __syncthreads(); if (s) break;"), or a local variable
                 * ("volatile int f; do f = *flag; while (!f);"): follow
                 * what the loop stores to that memory */
                for (int st = 0; st < f->ninsn; st++) {
                    if (!body[g->block_of[st]] || !stores_to(f, fl, st, copy))
                        continue;
                    const sl_flow_insn *si = &fl->in[st];
                    for (int k = 0; k < si->nsrc; k++)
                        if (!seen[si->src[k]]) {
                            seen[si->src[k]] = 1;
                            work[top++] = si->src[k];
                        }
                }
                continue;
            }
            if (sl_ptx_matches(in, "ld.|ldu.|atom.")) {
                if (waiting_load(f, g, fl, j, body, guard) && n < max) {
                    int dup = 0;
                    for (int k = 0; k < n; k++)
                        dup |= loads[k] == j;
                    if (!dup)
                        loads[n++] = j;
                }
                continue;
            }
            const sl_flow_insn *fi = &fl->in[j];
            for (int k = 0; k < fi->nsrc; k++)
                if (!seen[fi->src[k]]) {
                    seen[fi->src[k]] = 1;
                    work[top++] = fi->src[k];
                }
        }
    }
    free(seen);
    free(work);
    return n;
}

/* Loops from back edges of a depth-first walk; each conditional branch that
 * leaves the smallest loop around it, on a value a waiting load read in
 * that loop, is a spin-wait. */
int sl_find_spins(const sl_ptx_func *f, const sl_cfg *g, const sl_flow *fl, sl_spin *out, int max)
{
    int nb = g->nb, n = 0;
    int **pred = calloc((size_t)nb + 1, sizeof *pred);
    int *npred = calloc((size_t)nb + 1, sizeof *npred);
    for (int b = 0; b < nb; b++)
        for (int k = 0; k < 2; k++) {
            int s = g->succ[b][k];
            if (s >= 0 && s < nb) {
                pred[s] = realloc(pred[s], (size_t)(npred[s] + 1) * sizeof **pred);
                pred[s][npred[s]++] = b;
            }
        }
    /* back edges */
    char *state = calloc((size_t)nb + 1, 1); /* 1 on the stack, 2 done */
    int *stack = malloc(((size_t)nb + 1) * sizeof *stack),
        *next = calloc((size_t)nb + 1, sizeof *next);
    int(*back)[2] = NULL;
    int nback = 0, top = 0;
    if (nb > 0) {
        stack[top++] = 0;
        state[0] = 1;
    }
    while (top) {
        int b = stack[top - 1];
        if (next[b] < 2) {
            int s = g->succ[b][next[b]++];
            if (s < 0 || s >= nb)
                continue;
            if (state[s] == 1) {
                back = realloc(back, (size_t)(nback + 1) * sizeof *back);
                back[nback][0] = b;
                back[nback][1] = s;
                nback++;
            } else if (!state[s]) {
                state[s] = 1;
                stack[top++] = s;
            }
        } else {
            state[b] = 2;
            top--;
        }
    }
    char **body = calloc((size_t)nback + 1, sizeof *body);
    int *size = calloc((size_t)nback + 1, sizeof *size);
    for (int e = 0; e < nback; e++) {
        body[e] = calloc((size_t)nb + 1, 1);
        if (!sl_ptx_budget_spend(nb + 1))
            continue; /* out of budget: an empty loop, and the verdict says why */
        int h = back[e][1], t = 0;
        body[e][h] = 1;
        size[e] = 1;
        if (!body[e][back[e][0]]) {
            body[e][back[e][0]] = 1;
            size[e]++;
            stack[t++] = back[e][0];
        }
        while (t) {
            int b = stack[--t];
            for (int k = 0; k < npred[b]; k++)
                if (!body[e][pred[b][k]]) {
                    body[e][pred[b][k]] = 1;
                    size[e]++;
                    stack[t++] = pred[b][k];
                }
        }
    }
    for (int x = 0; x < nb && n < max && sl_ptx_budget_spend(nback + 1); x++) {
        int br = last_insn(f, g, x);
        if (br < 0 || !sl_ptx_is_branch(&f->insn[br]) || !sl_ptx_guarded(&f->insn[br]))
            continue;
        int best = -1;
        for (int e = 0; e < nback; e++) {
            if (!body[e][x])
                continue;
            int s0 = g->succ[x][0], s1 = g->succ[x][1];
            int in0 = s0 >= 0 && s0 < nb && body[e][s0], in1 = s1 >= 0 && s1 < nb && body[e][s1];
            if (in0 != in1 && (best < 0 || size[e] < size[best]))
                best = e;
        }
        if (best < 0)
            continue;
        int loads[8];
        int nl = spin_loads_of(f, g, fl, x, body[best], loads, 8);
        for (int k = 0; k < nl && n < max; k++) {
            out[n].load = loads[k];
            out[n].branch = br;
            n++;
        }
    }
    for (int e = 0; e < nback; e++)
        free(body[e]);
    free(body);
    free(size);
    free(back);
    free(state);
    free(stack);
    free(next);
    for (int b = 0; b <= nb; b++)
        free(pred[b]);
    free(pred);
    free(npred);
    return n;
}
