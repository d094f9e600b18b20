#include "ptx_cfg.h"
#include "ptx_budget.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int label_index(const sl_ptx_func *f, const char *name, size_t n)
{
    for (int i = 0; i < f->nlabel; i++)
        if (strlen(f->label[i]) == n && strncmp(f->label[i], name, n) == 0)
            return f->label_at[i];
    return -1;
}

int sl_ptx_is_branch(const sl_ptx_insn *in) { return sl_ptx_matches(in, "bra"); }
int sl_ptx_ends_flow(const sl_ptx_insn *in) { return sl_ptx_matches(in, "ret|exit|trap"); }
int sl_ptx_guarded(const sl_ptx_insn *in) { return in->text[0] == '@'; }

static int branch_target(const sl_ptx_func *f, const sl_ptx_insn *in)
{
    const char *ops = sl_ptx_operands(in);
    while (isspace((unsigned char)*ops))
        ops++;
    return label_index(f, ops, strcspn(ops, " \t;,"));
}

static sl_cfg_word *pdom_w(const sl_cfg *g, int b)
{
    return g->pdom + (size_t)b * (size_t)g->words;
}
int sl_cfg_bit(const sl_cfg_word *s, int i) { return (int)((s[i / 64] >> (i % 64)) & 1u); }
static void set_bit(sl_cfg_word *s, int i) { s[i / 64] |= (sl_cfg_word)1 << (i % 64); }

/* post-dominators: pdom(exit) = {exit}; pdom(b) = {b} + meet of successors
 * (a block without successors, a path that never ends, constrains nothing) */
static void compute_live(sl_cfg *g);

static void compute_pdom(sl_cfg *g)
{
    int exit = g->nb;
    for (int b = 0; b <= g->nb; b++)
        memset(pdom_w(g, b), b == exit ? 0 : 0xff, (size_t)g->words * sizeof(sl_cfg_word));
    set_bit(pdom_w(g, exit), exit);
    sl_cfg_word *tmp = malloc((size_t)g->words * sizeof(sl_cfg_word));
    for (int changed = 1; changed && sl_ptx_budget_spend((long long)g->nb * g->words);) {
        changed = 0;
        for (int b = g->nb - 1; b >= 0; b--) {
            memset(tmp, 0xff, (size_t)g->words * sizeof(sl_cfg_word));
            for (int k = 0; k < 2; k++)
                if (g->succ[b][k] >= 0)
                    for (int w = 0; w < g->words; w++)
                        tmp[w] &= pdom_w(g, g->succ[b][k])[w];
            set_bit(tmp, b);
            if (memcmp(tmp, pdom_w(g, b), (size_t)g->words * sizeof(sl_cfg_word)) != 0) {
                memcpy(pdom_w(g, b), tmp, (size_t)g->words * sizeof(sl_cfg_word));
                changed = 1;
            }
        }
    }
    free(tmp);
}

void sl_cfg_build(const sl_ptx_func *f, sl_cfg *g)
{
    int n = f->ninsn;
    char *leader = calloc((size_t)n + 1, 1);
    leader[0] = 1;
    for (int i = 0; i < f->nlabel; i++)
        if (f->label_at[i] < n)
            leader[f->label_at[i]] = 1;
    for (int j = 0; j < n; j++)
        if ((sl_ptx_is_branch(&f->insn[j]) || sl_ptx_ends_flow(&f->insn[j])) && j + 1 < n)
            leader[j + 1] = 1;
    g->block_of = malloc(((size_t)n + 1) * sizeof *g->block_of);
    g->first = malloc(((size_t)n + 1) * sizeof *g->first);
    int blocks = 0;
    for (int j = 0; j < n; j++)
        blocks += leader[j];
    if (blocks > SL_PTX_MAX_BLOCKS) {
        /* too large to analyse: one straight block, so that the analyses
         * stay valid and quick; the verdict says why */
        char what[96];
        snprintf(what, sizeof what, "a function of more than %d basic blocks", SL_PTX_MAX_BLOCKS);
        sl_ptx_budget_exhaust(what);
        memset(leader, 0, (size_t)n + 1);
        leader[0] = 1;
    }
    g->nb = 0;
    for (int j = 0; j < n; j++) {
        if (leader[j])
            g->first[g->nb++] = j;
        g->block_of[j] = g->nb - 1;
    }
    int exit = g->nb;
    g->succ = malloc(((size_t)g->nb + 1) * sizeof *g->succ);
    for (int b = 0; b < g->nb; b++) {
        int last = (b + 1 < g->nb ? g->first[b + 1] : n) - 1;
        const sl_ptx_insn *in = &f->insn[last];
        int next = b + 1 < g->nb ? b + 1 : exit;
        g->succ[b][0] = g->succ[b][1] = -1;
        if (sl_ptx_is_branch(in)) {
            int t = branch_target(f, in);
            g->succ[b][0] = t >= 0 && t < n ? g->block_of[t] : exit;
            if (sl_ptx_guarded(in))
                g->succ[b][1] = next;
        } else if (sl_ptx_ends_flow(in) && !sl_ptx_guarded(in)) {
            g->succ[b][0] = exit;
        } else if (sl_ptx_matches(in, "ret|exit") && sl_ptx_guarded(in)) {
            /* "@%p exit": the threads with p leave, the others go on */
            g->succ[b][0] = next;
            g->succ[b][1] = exit;
        } else {
            g->succ[b][0] = next;
        }
    }
    g->succ[exit][0] = g->succ[exit][1] = -1;
    g->words = (g->nb + 1 + 63) / 64;
    g->pdom = malloc((size_t)(g->nb + 1) * (size_t)g->words * sizeof(sl_cfg_word));
    compute_pdom(g);
    free(leader);
    g->live = calloc((size_t)g->nb + 1, 1);
    compute_live(g);
}

/* Blocks that never reach the exit are endless loops (a spin on a value
 * the compiler proved cannot change), or, once sl_cfg_ignore_traps has
 * cut them, paths that end in a trap: a hang or an abort, judged at run
 * time, not a path that skips a barrier. */
static void compute_live(sl_cfg *g)
{
    memset(g->live, 0, (size_t)g->nb + 1);
    g->live[g->nb] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int b = g->nb - 1; b >= 0; b--)
            for (int k = 0; k < 2 && !g->live[b]; k++)
                if (g->succ[b][k] >= 0 && g->live[g->succ[b][k]]) {
                    g->live[b] = 1;
                    changed = 1;
                }
    }
}

void sl_cfg_free(sl_cfg *g)
{
    free(g->first);
    free(g->block_of);
    free(g->succ);
    free(g->pdom);
    free(g->live);
}

/* The immediate post-dominator of x: where its two sides meet again. */
int sl_cfg_join(const sl_cfg *g, int x)
{
    const sl_cfg_word *px = pdom_w(g, x);
    for (int y = 0; y <= g->nb; y++) {
        if (y == x || !sl_cfg_bit(px, y))
            continue;
        /* pdom(y) must equal pdom(x) without x */
        const sl_cfg_word *py = pdom_w(g, y);
        int same = 1;
        for (int i = 0; i <= g->nb && same; i++)
            same = sl_cfg_bit(py, i) == (i != x && sl_cfg_bit(px, i));
        if (same)
            return y;
    }
    return g->nb;
}

const sl_cfg_word *sl_cfg_pdom(const sl_cfg *g, int b) { return pdom_w(g, b); }

int sl_cfg_postdominates(const sl_cfg *g, int a, int b) { return sl_cfg_bit(pdom_w(g, b), a); }

int sl_cfg_reach(const sl_ptx_func *f, const sl_cfg *g, int from, const char *target,
                 const char *blocked, const signed char *cut)
{
    int n = f->ninsn;
    if (from < 0 || from >= n)
        return -1;
    char *seen = calloc((size_t)g->nb + 1, 1);
    int *stack = malloc(((size_t)g->nb + 1) * 2 * sizeof *stack);
    int top = 0, found = -1;
    if (!sl_ptx_budget_spend(1 + g->nb / 64)) { /* the cleared masks */
        free(seen);
        free(stack);
        return -1;
    }
    /* the rest of from's own block first: entering it again (a loop) is a
     * visit from its first instruction */
    int b = g->block_of[from];
    int j = from + 1;
    for (;;) {
        int end = b + 1 < g->nb ? g->first[b + 1] : n;
        int stopped = 0;
        if (!sl_ptx_budget_spend(end - j + 1))
            break; /* out of budget: "no path", and the verdict says why */
        for (; j < end; j++) {
            if (target && target[j]) {
                found = j;
                break;
            }
            if (blocked && blocked[j]) {
                stopped = 1;
                break;
            }
        }
        if (found >= 0)
            break;
        if (!stopped)
            for (int k = 0; k < 2; k++) {
                int s = g->succ[b][k];
                if (s >= 0 && s < g->nb && !seen[s] && !(cut && cut[b] == k)) {
                    seen[s] = 1;
                    stack[top++] = s;
                }
            }
        if (!top)
            break;
        b = stack[--top];
        j = g->first[b];
    }
    free(seen);
    free(stack);
    return found;
}

void sl_cfg_dependent(const sl_cfg *g, int x, int k, char *dep)
{
    int s = g->succ[x][k];
    memset(dep, 0, (size_t)g->nb);
    if (s < 0 || s == g->succ[x][1 - k] || !g->live[s])
        return;
    const sl_cfg_word *px = pdom_w(g, x), *ps = pdom_w(g, s);
    for (int y = 0; y < g->nb; y++)
        if (sl_cfg_bit(ps, y) && (y == x || !sl_cfg_bit(px, y)))
            dep[y] = 1;
}

void sl_cfg_ignore_traps(const sl_ptx_func *f, sl_cfg *g)
{
    for (int b = 0; b < g->nb; b++) {
        int last = (b + 1 < g->nb ? g->first[b + 1] : f->ninsn) - 1;
        if (last >= 0 && sl_ptx_matches(&f->insn[last], "trap") && !sl_ptx_guarded(&f->insn[last]))
            g->succ[b][0] = g->succ[b][1] = -1;
    }
    compute_pdom(g);
    /* the blocks that only lead to a trap are dead from now on, for every
     * user of `live` (control dependence, the sides of a branch) */
    compute_live(g);
}
