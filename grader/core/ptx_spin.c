#include "ptx_spin.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
    operand_text(in, 2, v, sizeof v);
    if (has(in, ".add") || has(in, ".or") || has(in, ".xor") || has(in, ".sub"))
        return strcmp(v, "0") == 0;
    if (has(in, ".and"))
        return strcmp(v, "-1") == 0 || strcmp(v, "0xffffffff") == 0 || strcmp(v, "0xFFFFFFFF") == 0;
    return 0;
}

static int waiting_load(const sl_ptx_func *f, const sl_cfg *g, const sl_flow *fl, int i,
                        const char *body)
{
    const sl_ptx_insn *in = &f->insn[i];
    if (!sl_flow_is_global(fl, i))
        return 0;
    if (sl_ptx_matches(in, "ld.|ldu."))
        return strong_load(in);
    if (sl_ptx_matches(in, "atom."))
        return atomic_waits(f, g, fl, i, body);
    return 0;
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
    while (top) {
        int r = work[--top];
        for (int j = 0; j < f->ninsn; j++) {
            if (!body[g->block_of[j]] || !sl_flow_writes(fl, j, r))
                continue;
            const sl_ptx_insn *in = &f->insn[j];
            if (sl_ptx_matches(in, "ld.|ldu.|atom.")) {
                if (waiting_load(f, g, fl, j, body) && n < max) {
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
    for (int x = 0; x < nb && n < max; x++) {
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
