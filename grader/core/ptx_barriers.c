/* Block-wide barriers that only some threads of the block reach, found in
 * the PTX: control flow graph, post-dominators, control dependence, and
 * the thread index followed through registers. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"


/* Register-ish tokens of an operand list: "%r12", "%p3", "%tid.x". */
typedef struct {
    char tok[24][32];
    int n;
} tokens;

static void operand_tokens(const char *ops, tokens *t)
{
    t->n = 0;
    for (const char *s = ops; *s && t->n < 24;) {
        if (*s == '%') {
            const char *e = s + 1;
            while (*e && (isalnum((unsigned char)*e) || *e == '_' || *e == '.'))
                e++;
            size_t len = (size_t)(e - s);
            if (len >= sizeof t->tok[0])
                len = sizeof t->tok[0] - 1;
            memcpy(t->tok[t->n], s, len);
            t->tok[t->n][len] = '\0';
            t->n++;
            s = e;
        } else {
            s++;
        }
    }
}

typedef struct {
    char (*name)[32];
    int n, cap;
} regset;

static int regset_has(const regset *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->name[i], name) == 0)
            return 1;
    return 0;
}

static int regset_add(regset *r, const char *name)
{
    if (regset_has(r, name))
        return 0;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->name = realloc(r->name, (size_t)r->cap * sizeof *r->name);
    }
    snprintf(r->name[r->n++], 32, "%s", name);
    return 1;
}

static int thread_varying_special(const char *tok)
{
    return strncmp(tok, "%tid", 4) == 0 || strcmp(tok, "%laneid") == 0 ||
           strncmp(tok, "%lanemask", 9) == 0 || strcmp(tok, "%warpid") == 0;
}

/* Instructions with no destination register: their first operand is read. */
static int writes_first_operand(const sl_ptx_insn *in)
{
    return !sl_ptx_matches(in, "st.|bar.|barrier.|bra|ret|exit|red.|membar|fence|trap|call|prefetch|"
                        "cp.async|mbarrier.init|mbarrier.arrive_drop|@");
}

static int full_block_barrier(const sl_ptx_insn *in)
{
    if (!sl_ptx_matches(in, "bar.sync|bar.red|barrier.sync|barrier.red|barrier.cta.sync|"
                     "barrier.cta.red|bar.cta.sync|bar.cta.red"))
        return 0;
    /* operands: sync "a" (full block) vs "a, b" (b threads); red "d, a, c" vs "d, a, b, c" */
    int commas = 0;
    for (const char *s = sl_ptx_operands(in); *s; s++)
        commas += *s == ',';
    int red = sl_ptx_matches(in, "bar.red|barrier.red|barrier.cta.red|bar.cta.red");
    return red ? commas == 2 : commas == 0;
}

static int label_index(const sl_ptx_func *f, const char *name, size_t n)
{
    for (int i = 0; i < f->nlabel; i++)
        if (strlen(f->label[i]) == n && strncmp(f->label[i], name, n) == 0)
            return f->label_at[i];
    return -1;
}

/* Control flow of one function: basic blocks, their successors, and the
 * post-dominator sets that give control dependence. */
typedef uint64_t word;
typedef struct {
    int nb;            /* blocks; block nb is the virtual exit */
    int *first;        /* first instruction of each block */
    int *block_of;     /* instruction -> block */
    int (*succ)[2];    /* up to two successors, -1 when absent */
    int words;         /* bitset length in words */
    word *pdom;        /* (nb+1) bitsets */
    char *live;        /* the block can reach the exit (not a spin forever) */
} cfg;

static int is_branch(const sl_ptx_insn *in) { return sl_ptx_matches(in, "bra"); }
static int ends_flow(const sl_ptx_insn *in) { return sl_ptx_matches(in, "ret|exit|trap"); }
static int guarded(const sl_ptx_insn *in) { return in->text[0] == '@'; }

static int branch_target(const sl_ptx_func *f, const sl_ptx_insn *in)
{
    const char *ops = sl_ptx_operands(in);
    while (isspace((unsigned char)*ops))
        ops++;
    return label_index(f, ops, strcspn(ops, " \t;,"));
}

static word *bits(cfg *g, int b) { return g->pdom + (size_t)b * (size_t)g->words; }
static int bit(const word *s, int i) { return (int)((s[i / 64] >> (i % 64)) & 1u); }
static void set_bit(word *s, int i) { s[i / 64] |= (word)1 << (i % 64); }

static void cfg_build(const sl_ptx_func *f, cfg *g)
{
    int n = f->ninsn;
    char *leader = calloc((size_t)n + 1, 1);
    leader[0] = 1;
    for (int i = 0; i < f->nlabel; i++)
        if (f->label_at[i] < n)
            leader[f->label_at[i]] = 1;
    for (int j = 0; j < n; j++)
        if ((is_branch(&f->insn[j]) || ends_flow(&f->insn[j])) && j + 1 < n)
            leader[j + 1] = 1;
    g->block_of = malloc(((size_t)n + 1) * sizeof *g->block_of);
    g->first = malloc(((size_t)n + 1) * sizeof *g->first);
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
        if (is_branch(in)) {
            int t = branch_target(f, in);
            g->succ[b][0] = t >= 0 && t < n ? g->block_of[t] : exit;
            if (guarded(in))
                g->succ[b][1] = next;
        } else if (ends_flow(in) && !guarded(in)) {
            g->succ[b][0] = exit;
        } else {
            g->succ[b][0] = next;
        }
    }
    g->succ[exit][0] = g->succ[exit][1] = -1;
    /* post-dominators: pdom(exit) = {exit}; pdom(b) = {b} + meet of successors */
    g->words = (g->nb + 1 + 63) / 64;
    g->pdom = malloc((size_t)(g->nb + 1) * (size_t)g->words * sizeof(word));
    for (int b = 0; b <= g->nb; b++)
        memset(bits(g, b), b == exit ? 0 : 0xff, (size_t)g->words * sizeof(word));
    set_bit(bits(g, exit), exit);
    word *tmp = malloc((size_t)g->words * sizeof(word));
    for (int changed = 1; changed;) {
        changed = 0;
        for (int b = g->nb - 1; b >= 0; b--) {
            memset(tmp, 0xff, (size_t)g->words * sizeof(word));
            for (int k = 0; k < 2; k++)
                if (g->succ[b][k] >= 0)
                    for (int w = 0; w < g->words; w++)
                        tmp[w] &= bits(g, g->succ[b][k])[w];
            set_bit(tmp, b);
            if (memcmp(tmp, bits(g, b), (size_t)g->words * sizeof(word)) != 0) {
                memcpy(bits(g, b), tmp, (size_t)g->words * sizeof(word));
                changed = 1;
            }
        }
    }
    free(tmp);
    free(leader);
    /* Blocks that never reach the exit are endless loops (a spin on a value
     * the compiler proved cannot change): a hang, judged at run time, not a
     * path that skips a barrier. */
    g->live = calloc((size_t)g->nb + 1, 1);
    g->live[exit] = 1;
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

static void cfg_free(cfg *g)
{
    free(g->first);
    free(g->block_of);
    free(g->succ);
    free(g->pdom);
    free(g->live);
}

/* Marks (in dep) the blocks control-dependent on the branch ending block x:
 * those that post-dominate one of its successors but not x itself. */
static int mark_dependent(cfg *g, int x, char *dep, int *cause, int cause_insn)
{
    int changed = 0;
    const word *px = bits(g, x);
    for (int k = 0; k < 2; k++) {
        int s = g->succ[x][k];
        if (s < 0 || !g->live[s])
            continue;
        const word *ps = bits(g, s);
        for (int y = 0; y < g->nb; y++)
            if (bit(ps, y) && (y == x || !bit(px, y)) && !dep[y]) {
                dep[y] = 1;
                cause[y] = cause_insn;
                changed = 1;
            }
    }
    return changed;
}

/* thread_group::sync() on a group of unknown type compiles to a switch
 * whose grid case holds a block barrier, dead for a tile called under a
 * branch; it cannot be told apart here, so it is not reported. */
static int from_generic_group_sync(const sl_ptx *p, const sl_ptx_insn *in)
{
    const char *path = in->own_file >= 0 && in->own_file < p->nfile ? p->file[in->own_file] : NULL;
    return path && strstr(path, "cooperative_groups/details/sync.h") != NULL;
}

/* The immediate post-dominator of x: where its two sides meet again. */
static int join_of(cfg *g, int x)
{
    const word *px = bits(g, x);
    for (int y = 0; y <= g->nb; y++) {
        if (y == x || !bit(px, y))
            continue;
        /* pdom(y) must equal pdom(x) without x */
        const word *py = bits(g, y);
        int same = 1;
        for (int i = 0; i <= g->nb && same; i++)
            same = bit(py, i) == (i != x && bit(px, i));
        if (same)
            return y;
    }
    return g->nb;
}

/* Can one side of the branch ending block x reach the join without
 * passing a block that holds a barrier? */
static int has_barrier_free_side(cfg *g, int x, const char *has_barrier)
{
    int join = join_of(g, x);
    char *seen = calloc((size_t)g->nb + 1, 1);
    int *stack = malloc(((size_t)g->nb + 2) * sizeof *stack);
    int free_path = 0;
    for (int k = 0; k < 2 && !free_path; k++) {
        int s = g->succ[x][k];
        if (s < 0 || !g->live[s])
            continue;
        memset(seen, 0, (size_t)g->nb + 1);
        int top = 0;
        stack[top++] = s;
        while (top && !free_path) {
            int b = stack[--top];
            if (b == join) {
                free_path = 1;
                break;
            }
            if (seen[b] || b == g->nb || has_barrier[b])
                continue;
            seen[b] = 1;
            for (int m = 0; m < 2; m++)
                if (g->succ[b][m] >= 0)
                    stack[top++] = g->succ[b][m];
        }
    }
    free(seen);
    free(stack);
    return free_path;
}

static int divergent_barrier_in(const sl_ptx *p, const sl_ptx_func *f, sl_text *why, char *where,
                                size_t wl)
{
    if (f->ninsn == 0)
        return 0;
    cfg g;
    cfg_build(f, &g);
    regset tainted = {0};
    char *divergent = calloc((size_t)g.nb + 1, 1); /* reached by a thread-dependent subset */
    int *cause = calloc((size_t)g.nb + 1, sizeof *cause);
    int found = 0;
    for (int changed = 1, pass = 0; changed && pass < 100; pass++) {
        changed = 0;
        for (int j = 0; j < f->ninsn; j++) {
            const sl_ptx_insn *in = &f->insn[j];
            int b = g.block_of[j];
            int guard_tainted = 0;
            if (guarded(in)) {
                tokens gt;
                operand_tokens(in->text, &gt);
                guard_tainted = gt.n > 0 && regset_has(&tainted, gt.tok[0]);
            }
            if (is_branch(in)) {
                if (guarded(in) && (guard_tainted || divergent[b]))
                    changed |= mark_dependent(&g, b, divergent, cause, j);
                continue;
            }
            /* Loaded and shuffled values are left out: a barrier under a
             * data-dependent branch is rare in practice, and values that
             * happen to be uniform (a block total every thread read from
             * shared memory) would otherwise look thread-dependent. */
            if (!writes_first_operand(in) || sl_ptx_matches(in, "ld.|ldu.|shfl.|atom.|vote."))
                continue;
            tokens t;
            operand_tokens(sl_ptx_operands(in), &t);
            /* Only data flow taints. A value written under thread-dependent
             * control can differ between threads too, but PTX reuses one
             * register for a variable across loops (a uniform level counter
             * also updated under `if (tid < 32)`), and a false SYNC on correct
             * code is worse than a miss the run-time tools may still catch. */
            int varying = guard_tainted;
            for (int k = 1; k < t.n && !varying; k++)
                varying = thread_varying_special(t.tok[k]) || regset_has(&tainted, t.tok[k]);
            if (varying && t.n > 0) {
                changed |= regset_add(&tainted, t.tok[0]);
                if (sl_ptx_matches(in, "setp.") && t.n > 1 && strchr(sl_ptx_operands(in), '|'))
                    changed |= regset_add(&tainted, t.tok[1]);
            }
        }
    }
    char *has_barrier = calloc((size_t)g.nb + 1, 1);
    for (int j = 0; j < f->ninsn; j++)
        if (full_block_barrier(&f->insn[j]))
            has_barrier[g.block_of[j]] = 1;
    for (int j = 0; j < f->ninsn && !found; j++) {
        if (!divergent[g.block_of[j]] || !full_block_barrier(&f->insn[j]) ||
            from_generic_group_sync(p, &f->insn[j]))
            continue;
        /* The compiler may copy a barrier into both sides of a branch: that
         * is fine as long as every path meets one. Report only when the
         * branch that makes it divergent also has a way round it. */
        int x = g.block_of[cause[g.block_of[j]]];
        if (!has_barrier_free_side(&g, x, has_barrier))
            continue;
        sl_text_printf(why, "the block-wide barrier ");
        sl_ptx_say(p, &f->insn[j], why, where, wl);
        sl_text_printf(why, " is inside a branch or loop that depends on the thread index (");
        sl_ptx_say(p, &f->insn[cause[g.block_of[j]]], why, where, wl);
        sl_text_printf(why, "): threads that skip it never arrive, so the threads that wait "
                            "there wait for them. Move the barrier out of the branch so every "
                            "thread of the block reaches it (found in the PTX; synccheck does "
                            "not always see it)");
        found = 1;
    }
    free(has_barrier);
    free(tainted.name);
    free(divergent);
    free(cause);
    cfg_free(&g);
    return found;
}

int sl_ptx_divergent_barrier(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                             void *arg, sl_text *why, char *where, size_t wherelen)
{
    if (wherelen)
        where[0] = '\0';
    for (int i = 0; i < p->nfunc; i++)
        if ((!in_scope || in_scope(p->func[i].name, arg)) &&
            divergent_barrier_in(p, &p->func[i], why, where, wherelen))
            return 1;
    return 0;
}
