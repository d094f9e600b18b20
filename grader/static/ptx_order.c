/* Memory order between blocks: spin-waits, publishes, tickets, read-only
 * loads and forward progress, judged on control flow paths (ptx_order.h). */
#include "ptx_order.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_budget.h"
#include "ptx_cfg.h"
#include "ptx_flow.h"
#include "ptx_inline.h"
#include "ptx_spin.h"

/* ---------- what an instruction does ---------- */

static int has(const sl_ptx_insn *in, const char *part) { return sl_ptx_op_has(in, part); }
static int library_function(const sl_ptx *p, int fi);
static int narrow_scope(const sl_ptx_insn *in) { return has(in, ".cta") || has(in, ".cluster"); }

enum { ORD_ACQ = 1, ORD_REL = 2, ORD_BAR = 4, ORD_NARROW = 8 };

/* The callee of a call instruction: "call.uni (retval0), name, (args)". */
static int callee_of(const sl_ptx *p, const sl_ptx_insn *in)
{
    const char *s = sl_ptx_operands(in);
    int depth = 0;
    for (; *s; s++) {
        if (*s == '(')
            depth++;
        else if (*s == ')')
            depth--;
        else if (depth == 0 && (isalpha((unsigned char)*s) || *s == '_' || *s == '$')) {
            const char *e = s;
            while (*e && (isalnum((unsigned char)*e) || *e == '_' || *e == '$' || *e == '.'))
                e++;
            for (int i = 0; i < p->nfunc; i++)
                if (strlen(p->func[i].name) == (size_t)(e - s) &&
                    strncmp(p->func[i].name, s, (size_t)(e - s)) == 0)
                    return i;
            return -1;
        }
    }
    return -1;
}

static unsigned ordering(const sl_ptx *p, const sl_ptx_insn *in, int depth);

/* What a called function orders, anywhere in it: a helper that fences is
 * taken to fence (calls are not followed path by path). Unknown callees
 * order everything: no finding rests on what cannot be seen. */
static unsigned call_ordering(const sl_ptx *p, const sl_ptx_insn *in, int depth)
{
    const char *ops = sl_ptx_operands(in);
    if (strstr(ops, "vprintf") || strstr(ops, "malloc") || strstr(ops, "__assertfail") ||
        strstr(ops, " free,") || strstr(ops, " free "))
        return 0; /* the runtime's printf, malloc, assert: no ordering */
    int c = callee_of(p, in);
    if (c < 0 || depth > 4)
        return ORD_ACQ | ORD_REL | ORD_BAR;
    unsigned o = 0;
    const sl_ptx_func *f = &p->func[c];
    for (int j = 0; j < f->ninsn; j++)
        o |= ordering(p, &f->insn[j], depth + 1);
    return o & ~(unsigned)ORD_NARROW;
}

/* Ordering an (unguarded) instruction gives, as a mask of ORD_*. */
static unsigned ordering(const sl_ptx *p, const sl_ptx_insn *in, int depth)
{
    if (sl_ptx_matches(in, "call"))
        return call_ordering(p, in, depth);
    if (sl_ptx_matches(in, "membar.gl|membar.sys"))
        return ORD_ACQ | ORD_REL;
    if (sl_ptx_matches(in, "membar.cta"))
        return ORD_NARROW;
    if (sl_ptx_matches(in, "fence.sc.|fence.acq_rel.|fence.release.|fence.acquire.")) {
        if (narrow_scope(in))
            return ORD_NARROW;
        unsigned o = 0;
        if (!sl_ptx_matches(in, "fence.release."))
            o |= ORD_ACQ;
        if (!sl_ptx_matches(in, "fence.acquire."))
            o |= ORD_REL;
        return o;
    }
    if (sl_ptx_matches(in, "ld.") && has(in, ".acquire") && !narrow_scope(in))
        return ORD_ACQ;
    if (sl_ptx_matches(in, "atom.") && !narrow_scope(in) && !has(in, ".shared")) {
        unsigned o = 0;
        if (has(in, ".acquire") || has(in, ".acq_rel"))
            o |= ORD_ACQ;
        return o;
    }
    if (sl_ptx_matches(in, "bar.sync|bar.red|barrier.sync|barrier.red|barrier.cta.sync|"
                           "barrier.cta.red|bar.cta.sync|bar.cta.red"))
        return ORD_BAR;
    return 0;
}

/* A publish that is itself a release at gpu scope or wider. */
static int releases(const sl_ptx_insn *in)
{
    return sl_ptx_matches(in, "st.|atom.|red.") && !narrow_scope(in) &&
           (has(in, ".release") || (has(in, ".acq_rel") && !sl_ptx_matches(in, "st.")));
}

static int acquires(const sl_ptx_insn *in)
{
    return sl_ptx_matches(in, "ld.|atom.") && !narrow_scope(in) &&
           (has(in, ".acquire") || (has(in, ".acq_rel") && sl_ptx_matches(in, "atom.")));
}

/* ---------- where an address comes from ---------- */

/* What the pointer in register reg, read at instruction i, was made from:
 * "sym:<name>" for a module variable (mov.u64 %rd, name), "param:<name>"
 * for a kernel parameter, "" when not known. Followed back through the straight-
 * line address arithmetic compilers emit: moves, cvta, and an add or sub
 * whose one pointer operand is known. */
static void origin_of(const sl_ptx_func *f, int i, const char *reg, int depth, char *out, size_t n)
{
    out[0] = '\0';
    /* the walk back is charged: thousands of acquires must not make it a
     * bomb (an exhausted budget: not known) */
    if (depth > 12 || reg[0] != '%' || !sl_ptx_budget_spend(i + 1))
        return;
    for (int j = i - 1; j >= 0; j--) {
        const sl_ptx_insn *d = &f->insn[j];
        char dst[64], a[128], b[128];
        if (!sl_ptx_operand(d, 0, dst, sizeof dst) || strcmp(dst, reg) != 0 ||
            sl_ptx_matches(d, "st.|bra|bar.|call|ret|red."))
            continue;
        if (sl_ptx_matches(d, "ld.param") && sl_ptx_operand(d, 1, a, sizeof a))
            snprintf(out, n, "param:%.*s", (int)strcspn(a + (a[0] == '['), "+]"),
                     a + (a[0] == '['));
        else if (sl_ptx_matches(d, "mov.|cvta.") && sl_ptx_operand(d, 1, a, sizeof a)) {
            if (a[0] != '%' &&
                (a[0] == '_' || (a[0] >= 'a' && a[0] <= 'z') || (a[0] >= 'A' && a[0] <= 'Z')))
                snprintf(out, n, "sym:%s", a);
            else
                origin_of(f, j, a, depth + 1, out, n);
        } else if (sl_ptx_matches(d, "add.|sub.") && sl_ptx_operand(d, 1, a, sizeof a) &&
                   sl_ptx_operand(d, 2, b, sizeof b)) {
            char oa[160], ob[160];
            origin_of(f, j, a, depth + 1, oa, sizeof oa);
            origin_of(f, j, b, depth + 1, ob, sizeof ob);
            if (oa[0] && !ob[0])
                snprintf(out, n, "%s", oa);
            else if (ob[0] && !oa[0])
                snprintf(out, n, "%s", ob);
        }
        return; /* the latest definition decides, known or not */
    }
}

/* The base ("%rd4", "name") and offset of an access's "[base+off]". */
static int address_of(const sl_ptx_insn *in, char *base, size_t n, long *off)
{
    const char *a = strchr(sl_ptx_operands(in), '[');
    if (!a)
        return 0;
    a++;
    size_t len = strcspn(a, "+-]");
    snprintf(base, n, "%.*s", (int)len, a);
    *off = (a[len] == '+' || a[len] == '-') ? strtol(a + len, NULL, 0) : 0;
    return len > 0;
}

/* origin_of an address's base: a register's, or the variable it names. */
static void base_origin(const sl_ptx_func *f, int i, const char *base, char *out, size_t n)
{
    if (base[0] == '%')
        origin_of(f, i, base, 0, out, n);
    else
        snprintf(out, n, "sym:%s", base);
}

/* Can accesses a and b of function f never be to the same word? The same
 * base with other offsets; or made from two different module variables or
 * kernel parameters, or one of each (the contracts' arrays are separate
 * buffers, never a student's __device__ variable). An acquire
 * synchronizes only through the location it reads (PTX ISA, memory
 * consistency model: an acquire pattern is on a location), so an acquire
 * load of another word orders nothing after a wait on the flag. */
static int provably_elsewhere(const sl_ptx_func *f, int a, int b)
{
    char ba[128], bb[128], oa[160], ob[160];
    long fa, fb;
    if (!address_of(&f->insn[a], ba, sizeof ba, &fa) ||
        !address_of(&f->insn[b], bb, sizeof bb, &fb))
        return 0;
    if (strcmp(ba, bb) == 0)
        return fa != fb;
    base_origin(f, a, ba, oa, sizeof oa);
    base_origin(f, b, bb, ob, sizeof ob);
    /* both known: different variables or parameters are different buffers */
    return oa[0] && ob[0] && strcmp(oa, ob) != 0;
}

static int strong_access(const sl_ptx_insn *in)
{
    return has(in, ".volatile") || has(in, ".relaxed") || has(in, ".acquire") ||
           has(in, ".release") || has(in, ".mmio");
}

/* Do two accesses name the same address ("[%rd4+8]")? A strong re-read of
 * the flag word itself is ordered by coherence; any other location, even in
 * the same array or scratch buffer (flags beside prefixes), needs acquire. */
static int same_location(const sl_ptx_insn *a, const sl_ptx_insn *b)
{
    const char *pa = strchr(sl_ptx_operands(a), '['), *pb = strchr(sl_ptx_operands(b), '[');
    if (!pa || !pb)
        return 0;
    size_t na = strcspn(pa, "]"), nb = strcspn(pb, "]");
    return na == nb && strncmp(pa, pb, na) == 0;
}

/* May accesses with these address bases touch the same memory? A pointer
 * of unknown origin (loaded from memory: through shared memory, a table)
 * may point anywhere, so it meets every base: a payload stored through one
 * is still payload. */
static int may_alias(sl_bases a, sl_bases b)
{
    const sl_bases unknown = (sl_bases)1 << SL_BASE_UNKNOWN;
    return (a & b) || ((a & unknown) && b) || ((b & unknown) && a);
}

/* ---------- one function ---------- */

typedef struct {
    int key, pol; /* a condition (interned text) and the value it must have */
} cond_item;

typedef struct {
    const sl_ptx *p;
    const sl_ptx_func *f;
    sl_cfg g;
    sl_flow fl;
    int n;
    unsigned char *ord; /* per instruction: ORD_* of unguarded instructions */
    char *gload;        /* global loads (ld, ldu) */
    char *gread;        /* global reads a wait or ticket must order: loads, atomics
                           whose result is used, cp.async from global memory */
    char *store_weak,
        *store_strong; /* global stores; strong: volatile/relaxed/release, atom, red */
    char *store_data;  /* global st of any kind, atom, red: what a flag or ticket may
                          publish */
    char *spin_load;   /* loads some spin-wait's exit depends on */
    sl_bases *base;    /* global address bases per access */
    sl_bases written;  /* every base the function stores to */
    /* control dependence: per block, the (branch block * 2 + edge) it depends on */
    int **dep;
    int *ndep;
    char **keys; /* interned condition texts */
    int nkeys;
    int coresident;
    int no_atomics;            /* the exercise forbids atomics: no atomic ticket to advise */
    int *once;                 /* per register: written_once(), -2 not yet known */
    struct decided_s *decided; /* per instruction: decide(), cached */
    char *decided_done;
} fn;

static int intern(fn *c, const char *s)
{
    for (int i = 0; i < c->nkeys; i++)
        if (strcmp(c->keys[i], s) == 0)
            return i;
    c->keys = realloc(c->keys, (size_t)(c->nkeys + 1) * sizeof *c->keys);
    c->keys[c->nkeys] = strdup(s);
    return c->nkeys++;
}

static int last_insn(const fn *c, int b)
{
    return (b + 1 < c->g.nb ? c->g.first[b + 1] : c->n) - 1;
}

/* The condition a predicate register stands for: the text of its only
 * definition without the destination ("setp.eq.s32 _, %r10, 0"), with
 * .ne written as .eq and the polarity flipped; else its name. */
static cond_item condition(fn *c, int reg, int value)
{
    cond_item it = {-1, value};
    char buf[256];
    snprintf(buf, sizeof buf, "reg %s", c->fl.reg[reg]);
    int i = sl_flow_only_def(&c->fl, reg);
    if (i >= 0) {
        size_t olen;
        const char *op = sl_ptx_opcode(&c->f->insn[i], &olen);
        const char *ops = sl_ptx_operands(&c->f->insn[i]);
        const char *comma = strchr(ops, ',');
        if (comma && !strchr(ops, '|')) {
            snprintf(buf, sizeof buf, "%.*s _%s", (int)olen, op, comma);
            char *ne = strstr(buf, ".ne.");
            if (ne && strncmp(buf, "setp.", 5) == 0) {
                memcpy(ne, ".eq.", 4);
                it.pol = !value;
            }
        }
    }
    it.key = intern(c, buf);
    return it;
}

/* Conditions on the thread index under which instruction i runs: the
 * thread-dependent branches it is (transitively) control-dependent on,
 * and its own guard. */
static int thread_conditions(fn *c, int i, cond_item *out, int max)
{
    int n = 0;
    const sl_flow_insn *fi = &c->fl.in[i];
    if (fi->guard >= 0 && (c->fl.taint[fi->guard] & SL_TAINT_TID) && n < max)
        out[n++] = condition(c, fi->guard, !fi->guard_neg);
    char *seen = calloc((size_t)c->g.nb + 1, 1);
    int *stack = malloc(((size_t)c->g.nb + 1) * sizeof *stack);
    int top = 0;
    stack[top++] = c->g.block_of[i];
    seen[c->g.block_of[i]] = 1;
    while (top) {
        int y = stack[--top];
        for (int k = 0; k < c->ndep[y]; k++) {
            int x = c->dep[y][k] / 2, edge = c->dep[y][k] % 2;
            const sl_flow_insn *bi = &c->fl.in[last_insn(c, x)];
            if (bi->guard >= 0 && (c->fl.taint[bi->guard] & SL_TAINT_TID) && n < max)
                /* edge 0 is the branch taken: the guard holds */
                out[n++] = condition(c, bi->guard, (edge == 0) != bi->guard_neg);
            if (!seen[x]) {
                seen[x] = 1;
                stack[top++] = x;
            }
        }
    }
    free(seen);
    free(stack);
    return n;
}

/* Does every thread that runs instruction s also run p (p's conditions on
 * the thread index are among s's)? */
static int same_threads(fn *c, int s, int p)
{
    cond_item cs[64], cp[64];
    int ns = thread_conditions(c, s, cs, 64), np = thread_conditions(c, p, cp, 64);
    for (int a = 0; a < np; a++) {
        int found = 0;
        for (int b = 0; b < ns && !found; b++)
            found = cs[b].key == cp[a].key && cs[b].pol == cp[a].pol;
        if (!found)
            return 0;
    }
    return 1;
}

/* Does block y run only under a branch whose condition has taint kind? */
static int decided_by(const fn *c, int y, unsigned kind)
{
    char *seen = calloc((size_t)c->g.nb + 1, 1);
    int *stack = malloc(((size_t)c->g.nb + 1) * sizeof *stack);
    int top = 0, found = 0;
    stack[top++] = y;
    seen[y] = 1;
    while (top && !found) {
        int b = stack[--top];
        for (int k = 0; k < c->ndep[b] && !found; k++) {
            int x = c->dep[b][k] / 2;
            const sl_flow_insn *bi = &c->fl.in[last_insn(c, x)];
            found = bi->guard >= 0 && (c->fl.taint[bi->guard] & kind);
            if (!seen[x]) {
                seen[x] = 1;
                stack[top++] = x;
            }
        }
    }
    free(seen);
    free(stack);
    return found;
}

/* ---------- findings ---------- */

typedef struct {
    const sl_ptx *p;
    sl_text *why;
    char *where;
    size_t wl;
} report;

static void say(const report *r, const fn *c, int i)
{
    sl_ptx_say(r->p, &c->f->insn[i], r->why, r->where, r->wl);
}

/* A mask of the function's instructions; what it costs (clearing it, and
 * the loop over the instructions that fills it) is charged to the budget. */
static char *mask(const fn *c)
{
    sl_ptx_budget_spend(c->n + 1);
    return calloc((size_t)c->n + 1, 1);
}

/* What instruction j orders on a path that ends (or starts) at instruction
 * k: a guarded fence counts when k runs under the same guard (the compiler
 * predicates "if (threadIdx.x == 0) { __threadfence(); flag = 1; }"). */
static unsigned ordering_with(const fn *c, int j, int k)
{
    const sl_flow_insn *gj = &c->fl.in[j], *gk = &c->fl.in[k];
    if (gj->guard < 0)
        return c->ord[j];
    if (gj->guard == gk->guard && gj->guard_neg == gk->guard_neg)
        return ordering(c->p, &c->f->insn[j], 0);
    return 0;
}

/* ---------- branches a path has already decided ---------- */

/* Can instruction d run again after itself (is it inside a loop)? */
static int in_cycle(const fn *c, int d)
{
    char *t = mask(c);
    t[d] = 1;
    int again = sl_cfg_reach(c->f, &c->g, d, t, NULL, NULL) >= 0;
    free(t);
    return again;
}

/* The only instruction that writes reg, when it runs at most once (outside
 * any loop), else -1. */
static int written_once(const fn *c, int reg)
{
    if (reg < 0)
        return -1;
    if (c->once[reg] == -2) {
        int i = sl_flow_only_def(&c->fl, reg);
        c->once[reg] = i >= 0 && !in_cycle(c, i) ? i : -1;
    }
    return c->once[reg];
}

/* What predicate reg holds when it is value, as a condition that keeps its
 * value for a thread once computed: the register is written once outside
 * loops, so two branches on it go the same way. Two registers set by the
 * same comparison (condition() keys them by its text) are one condition when
 * every register the comparison reads is written once too. key -1: none. */
static cond_item stable_condition(fn *c, int reg, int value)
{
    cond_item none = {-1, 0};
    int d = written_once(c, reg);
    if (d < 0)
        return none;
    cond_item it = condition(c, reg, value);
    const sl_flow_insn *fi = &c->fl.in[d];
    for (int k = 0; k < fi->nsrc; k++)
        if (written_once(c, fi->src[k]) < 0) {
            char buf[96];
            snprintf(buf, sizeof buf, "reg %s", c->fl.reg[reg]);
            it.key = intern(c, buf);
            it.pol = value;
            break;
        }
    return it;
}

/* The condition block x's branch stands for when the path leaves through
 * slot k (0: the branch is taken, the guard holds). key -1: none. */
static cond_item branch_condition(fn *c, int x, int k)
{
    cond_item none = {-1, 0};
    int last = last_insn(c, x);
    const sl_flow_insn *bi = &c->fl.in[last];
    if (!sl_ptx_is_branch(&c->f->insn[last]) || bi->guard < 0 || c->g.succ[x][1] < 0 ||
        c->g.succ[x][0] == c->g.succ[x][1])
        return none;
    return stable_condition(c, bi->guard, (k == 0) != bi->guard_neg);
}

/* Does every path from the function's start to instruction i leave block x
 * through slot k (with k cut, i cannot be reached)? */
static int only_through(const fn *c, int x, int k, int i)
{
    char *t = mask(c);
    signed char *cut = malloc((size_t)c->g.nb + 1);
    t[i] = 1;
    memset(cut, -1, (size_t)c->g.nb + 1);
    cut[x] = (signed char)k;
    int through = sl_cfg_reach(c->f, &c->g, 0, t, NULL, cut) < 0;
    free(t);
    free(cut);
    return through;
}

typedef struct decided_s {
    cond_item fact[32]; /* conditions that hold on every path to the start */
    int tid[32];        /* ... and whether they depend on the thread index */
    int n;
    signed char *cut; /* per block: the slot no path from the start takes, -1 */
    char *subset;     /* per instruction: runs only under a thread-index fact */
} decided;

static int fact_value(const decided *d, cond_item it)
{
    for (int i = 0; i < d->n; i++)
        if (d->fact[i].key == it.key)
            return d->fact[i].pol == it.pol;
    return -1;
}

/* What every path from the function's start to instruction from has
 * decided: "if (threadIdx.x == 0) spin; __syncthreads(); if (threadIdx.x
 * == 0) __threadfence();" sends the spinning thread into the second if. */
static void decide(fn *c, int from, decided *d)
{
    d->n = 0;
    d->cut = malloc((size_t)c->g.nb + 1);
    memset(d->cut, -1, (size_t)c->g.nb + 1);
    d->subset = mask(c);
    for (int x = 0; x < c->g.nb && from > 0; x++)
        for (int k = 0; k < 2 && d->n < 32; k++) {
            cond_item it = branch_condition(c, x, k);
            if (it.key >= 0 && fact_value(d, it) < 0 && only_through(c, x, k, from)) {
                int guard = c->fl.in[last_insn(c, x)].guard;
                d->tid[d->n] = (c->fl.taint[guard] & SL_TAINT_TID) != 0;
                d->fact[d->n++] = it;
            }
        }
    for (int y = 0; y < c->g.nb; y++)
        for (int k = 0; k < 2; k++) {
            cond_item it = branch_condition(c, y, k);
            if (it.key >= 0 && fact_value(d, it) == 0)
                d->cut[y] = (signed char)k;
        }
    for (int j = 0; j < c->n; j++) {
        int b = c->g.block_of[j];
        for (int k = 0; k < c->ndep[b] && !d->subset[j]; k++) {
            cond_item it = branch_condition(c, c->dep[b][k] / 2, c->dep[b][k] % 2);
            for (int i = 0; i < d->n && !d->subset[j]; i++)
                d->subset[j] = d->tid[i] && d->fact[i].key == it.key && d->fact[i].pol == it.pol;
        }
    }
}

static void decided_free(decided *d)
{
    free(d->cut);
    free(d->subset);
}

/* decide(), once per instruction: paths from it are asked about often */
static const decided *decided_at(fn *c, int from)
{
    if (!c->decided_done[from]) {
        decide(c, from, &c->decided[from]);
        c->decided_done[from] = 1;
    }
    return &c->decided[from];
}

/* Does guarded instruction j run on the paths d describes? */
static int runs_decided(fn *c, const decided *d, int j)
{
    const sl_flow_insn *gj = &c->fl.in[j];
    if (gj->guard < 0)
        return 1;
    return fact_value(d, stable_condition(c, gj->guard, !gj->guard_neg)) == 1;
}

/* A path from `from` to a target (cut where d decides) with no acquire
 * ordering: none yet, or only one that some threads make (under a
 * thread-index branch the path decided) and no bar.sync since, before a
 * read other threads make too. Returns the read, or -1. */
static int unordered_read(fn *c, int from, const char *targets, const char *acq, const decided *d,
                          int *by_others)
{
    int nb = c->g.nb, found = -1;
    char *seen = calloc(2 * ((size_t)nb + 1), 1);
    int *stack = malloc(2 * ((size_t)nb + 1) * 2 * sizeof *stack);
    int top = 0, b = c->g.block_of[from], j = from + 1, phase = 0;
    for (;;) {
        int end = b + 1 < nb ? c->g.first[b + 1] : c->n, stopped = 0;
        for (; j < end && found < 0 && !stopped; j++) {
            /* an acquire re-read of the flag (through another register: the
             * same buffer) is the acquire, not a read of stale data */
            int reread = targets[j] && acq[j] && acquires(&c->f->insn[j]) &&
                         !provably_elsewhere(c->f, j, from);
            if (targets[j] && !reread && (phase == 0 || !same_threads(c, j, from))) {
                found = j;
                *by_others = phase;
            } else if (acq[j] && phase == 0 && d->subset[j])
                phase = 1;
            else if (acq[j] || (phase == 1 && (c->ord[j] & ORD_BAR)))
                stopped = 1;
        }
        if (found >= 0)
            break;
        if (!stopped)
            for (int k = 0; k < 2; k++) {
                int s = c->g.succ[b][k];
                if (s >= 0 && s < nb && d->cut[b] != k && !seen[phase * (nb + 1) + s]) {
                    seen[phase * (nb + 1) + s] = 1;
                    stack[top++] = s;
                    stack[top++] = phase;
                }
            }
        if (!top)
            break;
        phase = stack[--top];
        b = stack[--top];
        j = c->g.first[b];
    }
    free(seen);
    free(stack);
    return found;
}

/* ---------- one warp ---------- */

/* Is the register's only value %tid.x (a mov of it)? */
static int is_tid_x(const fn *c, int reg)
{
    int i = sl_flow_only_def(&c->fl, reg);
    return i >= 0 && sl_ptx_matches(&c->f->insn[i], "mov.") &&
           strstr(sl_ptx_operands(&c->f->insn[i]), "%tid.x") != NULL;
}

/* Is the branch out of block x through slot k taken only by threads of one
 * warp ("if (threadIdx.x < 32)", "if (threadIdx.x == 0)")? One-dimensional
 * blocks: threadIdx.x is then the thread's rank in the block. */
static int one_warp_edge(fn *c, int x, int k)
{
    int last = last_insn(c, x);
    const sl_flow_insn *bi = &c->fl.in[last];
    if (!sl_ptx_is_branch(&c->f->insn[last]) || bi->guard < 0 || c->g.succ[x][1] < 0)
        return 0;
    int value = (k == 0) != bi->guard_neg, d = sl_flow_only_def(&c->fl, bi->guard);
    if (d < 0 || !sl_ptx_matches(&c->f->insn[d], "setp."))
        return 0;
    const sl_flow_insn *si = &c->fl.in[d];
    if (si->nsrc != 1 || !is_tid_x(c, si->src[0]))
        return 0;
    /* "setp.CMP.TYPE %p, %rT, IMM": the threads [lo, hi] that give value */
    char ops[128];
    snprintf(ops, sizeof ops, "%s", sl_ptx_operands(&c->f->insn[d]));
    char *imm = strrchr(ops, ',');
    if (!imm || strchr(ops, ',') == imm)
        return 0;
    char *e;
    long v = strtol(imm + 1, &e, 0);
    if (e == imm + 1)
        return 0;
    const sl_ptx_insn *in = &c->f->insn[d];
    long lo = 0, hi = 1L << 20;
    int lt = has(in, ".lt"), le = has(in, ".le"), gt = has(in, ".gt"), ge = has(in, ".ge"),
        eq = has(in, ".eq"), ne = has(in, ".ne");
    if (!value) { /* the negation */
        int t;
        t = lt, lt = ge, ge = t;
        t = le, le = gt, gt = t;
        t = eq, eq = ne, ne = t;
    }
    if (lt)
        hi = v - 1;
    else if (le)
        hi = v;
    else if (eq)
        lo = hi = v;
    else
        return 0; /* gt, ge, ne: threads up to the block's end */
    return lo >= 0 && hi >= lo && lo / 32 == hi / 32;
}

/* Do the threads that run instruction i all belong to one warp: is it
 * reached only through a one-warp edge? */
static int one_warp(fn *c, int i, int *edge_x, int *edge_k)
{
    for (int x = 0; x < c->g.nb; x++)
        for (int k = 0; k < 2; k++) {
            if (!one_warp_edge(c, x, k) || (*edge_x >= 0 && (x != *edge_x || k != *edge_k)))
                continue;
            /* reached at all (through k), and only through k */
            if (!only_through(c, x, 1 - k, i) && only_through(c, x, k, i)) {
                *edge_x = x;
                *edge_k = k;
                return 1;
            }
        }
    return 0;
}

/* Are store s and publish pub made by threads of one warp, the same one
 * (both behind one one-warp edge)? Then __syncwarp() orders the lanes'
 * stores before the publishing lane's fence, as __syncthreads() would. */
static int same_warp(fn *c, int s, int pub)
{
    int x = -1, k = -1;
    return one_warp(c, s, &x, &k) && one_warp(c, pub, &x, &k);
}

/* Is publish pub one flag that every thread of the block sets to a value
 * (no condition on the thread index, its address the same for all, not a
 * count)? Then whichever thread sets it first releases the consumer. */
static int every_thread_raises(fn *c, int pub)
{
    const sl_ptx_insn *in = &c->f->insn[pub];
    if (sl_ptx_matches(in, "atom.|red.") &&
        (has(in, ".add") || has(in, ".inc") || has(in, ".dec") || has(in, ".sub")))
        return 0;
    if (sl_flow_addr_taint(&c->fl, pub) & SL_TAINT_TID)
        return 0;
    cond_item conds[4];
    return thread_conditions(c, pub, conds, 4) == 0;
}

/* Every path from store s to publish pub: release ordering, and a barrier
 * when fewer threads publish than stored. what: "the flag" / "the ticket". */
static int check_release(fn *c, int s, int pub, const char *what, const report *r)
{
    char *target = mask(c), *blocked = mask(c);
    target[pub] = 1;
    int bad = 0;
    /* its loops ask every instruction what it orders (string matching) */
    if (!sl_ptx_budget_spend(16LL * c->n)) {
        free(target);
        free(blocked);
        return 0;
    }
    const decided *d = decided_at(c, s);
    if (!releases(&c->f->insn[pub])) {
        for (int j = 0; j < c->n; j++)
            blocked[j] = (ordering_with(c, j, pub) & ORD_REL) ||
                         (runs_decided(c, d, j) && (ordering(c->p, &c->f->insn[j], 0) & ORD_REL));
        if (sl_cfg_reach(c->f, &c->g, s, target, blocked, d->cut) >= 0) {
            bad = 1;
            int narrow = -1, early = -1;
            for (int j = 0; j < c->n; j++)
                blocked[j] = (ordering_with(c, j, pub) & (ORD_REL | ORD_NARROW)) != 0;
            if (sl_cfg_reach(c->f, &c->g, s, target, blocked, NULL) < 0)
                for (int j = 0; j < c->n && narrow < 0; j++)
                    if (c->ord[j] & ORD_NARROW) {
                        char *t2 = mask(c);
                        t2[pub] = 1;
                        if (sl_cfg_reach(c->f, &c->g, j, t2, NULL, NULL) >= 0) {
                            char *t3 = mask(c);
                            t3[j] = 1;
                            if (sl_cfg_reach(c->f, &c->g, s, t3, NULL, NULL) >= 0)
                                narrow = j;
                            free(t3);
                        }
                        free(t2);
                    }
            if (narrow < 0) {
                char *t2 = mask(c);
                t2[s] = 1;
                for (int j = 0; j < c->n && early < 0; j++)
                    if ((c->ord[j] & ORD_REL) && sl_cfg_reach(c->f, &c->g, j, t2, NULL, NULL) >= 0)
                        early = j;
                free(t2);
            }
            sl_text_printf(r->why, "the store ");
            say(r, c, s);
            sl_text_printf(r->why, " is read by other blocks once they see %s ", what);
            say(r, c, pub);
            if (narrow >= 0) {
                sl_text_printf(r->why, ", with only ");
                say(r, c, narrow);
                sl_text_printf(r->why, " between them: that fence orders memory for the threads "
                                       "of one block only; other blocks need __threadfence() "
                                       "(gpu scope)");
            } else if (early >= 0) {
                sl_text_printf(r->why, ", but the fence ");
                say(r, c, early);
                sl_text_printf(r->why,
                               " comes before the store: a fence orders what comes "
                               "before it against what comes after, so it must sit "
                               "between the store and %s",
                               what);
            } else {
                sl_text_printf(r->why,
                               ", and some path from the store to it has no gpu-scope "
                               "fence: another block may see %s before the data. Put "
                               "__threadfence() between them on every path (a fence "
                               "in a branch that can be skipped does not count), or "
                               "publish with a release (cuda::atomic_ref<..., "
                               "cuda::thread_scope_device>::store(v, "
                               "cuda::memory_order_release))",
                               what);
            }
        }
    }
    /* each thread writes its own part (the address depends on the thread) */
    int every = every_thread_raises(c, pub) && (sl_flow_addr_taint(&c->fl, s) & SL_TAINT_TID);
    if (!bad && (every || !same_threads(c, s, pub))) {
        int warp = !every && same_warp(c, s, pub);
        for (int j = 0; j < c->n; j++)
            blocked[j] = (ordering_with(c, j, pub) & ORD_BAR) ||
                         (warp && sl_ptx_matches(&c->f->insn[j], "bar.warp.sync"));
        if (sl_cfg_reach(c->f, &c->g, s, target, blocked, d->cut) >= 0) {
            bad = 1;
            sl_text_printf(r->why, "the store ");
            say(r, c, s);
            if (every) {
                sl_text_printf(r->why, " is followed, in every thread, by %s ", what);
                say(r, c, pub);
                sl_text_printf(r->why, ", with no __syncthreads() between: the first thread "
                                       "that raises it tells the other block to read while "
                                       "the other threads may still be writing. Put "
                                       "__syncthreads() after the stores, then fence and "
                                       "publish from one thread");
                free(target);
                free(blocked);
                return 1;
            }
            sl_text_printf(r->why, " is made by threads that do not all publish %s ", what);
            say(r, c, pub);
            sl_text_printf(r->why, ", and no __syncthreads() lies between them on every path: "
                                   "the publishing thread's fence or release covers only its "
                                   "own stores and those it synchronized with. Put "
                                   "__syncthreads() after the stores, then fence and publish "
                                   "from one thread");
        }
    }
    free(target);
    free(blocked);
    return bad;
}

/* Consumer side: acquire on every path from a wait or ticket to a read. */
static int check_acquire(fn *c, int from, const char *targets, const signed char *cut,
                         const char *blocked_extra, int is_ticket, const report *r)
{
    if (acquires(&c->f->insn[from]) || !sl_ptx_budget_spend(16LL * c->n))
        return 0;
    decided d = *decided_at(c, from); /* its cut merged with the caller's: a copy */
    d.cut = malloc((size_t)c->g.nb + 1);
    memcpy(d.cut, decided_at(c, from)->cut, (size_t)c->g.nb + 1);
    for (int b = 0; cut && b < c->g.nb; b++)
        if (cut[b] >= 0)
            d.cut[b] = cut[b];
    char *acq = mask(c);
    int elsewhere = 0; /* an acquire of another word was there, and did not count */
    for (int j = 0; j < c->n; j++) {
        acq[j] = (ordering_with(c, j, from) & ORD_ACQ) || (blocked_extra && blocked_extra[j]) ||
                 (runs_decided(c, &d, j) && (ordering(c->p, &c->f->insn[j], 0) & ORD_ACQ));
        /* an acquire load or atomic counts for the location it reads only */
        if (acq[j] && !(blocked_extra && blocked_extra[j]) && acquires(&c->f->insn[j]) &&
            provably_elsewhere(c->f, j, from)) {
            acq[j] = 0;
            elsewhere = 1;
        }
    }
    int by_others = 0;
    int rd = unordered_read(c, from, targets, acq, &d, &by_others);
    free(acq);
    free(d.cut);
    if (rd < 0)
        return 0;
    if (is_ticket) {
        sl_text_printf(r->why, "the block that draws the deciding ticket ");
        say(r, c, from);
        sl_text_printf(r->why, " then reads what other blocks stored before theirs ");
        say(r, c, rd);
        sl_text_printf(r->why, " with no acquire in between: it may read a partial older than "
                               "the ticket it counted. Put __threadfence() after the ticket, "
                               "in the block that is last (before its reads), or take the "
                               "ticket with an acq_rel atomic (cuda::atomic_ref fetch_add(1, "
                               "cuda::memory_order_acq_rel))");
    } else if (by_others) {
        sl_text_printf(r->why, "after the wait for another block ");
        say(r, c, from);
        sl_text_printf(r->why, " only the waiting threads order their reads (acquire), and "
                               "the read ");
        say(r, c, rd);
        sl_text_printf(r->why, " is made by other threads too with no __syncthreads() after "
                               "that acquire: their read is not ordered after the flag and "
                               "may return stale data. Put __syncthreads() after the "
                               "waiting thread's __threadfence(), before the block reads");
    } else {
        sl_text_printf(r->why, "the wait for another block ");
        say(r, c, from);
        sl_text_printf(r->why, " is followed by the read ");
        say(r, c, rd);
        sl_text_printf(r->why, " of data that block wrote, with no acquire between them on "
                               "some path: the GPU may satisfy the read before the flag, and "
                               "return stale data. Put __threadfence() after the wait loop "
                               "(before any __syncthreads() that releases the other threads), "
                               "or spin with an acquire load (cuda::atomic_ref load("
                               "cuda::memory_order_acquire))");
    }
    if (elsewhere)
        sl_text_printf(r->why, ". An acquire load of another variable does not count: an "
                               "acquire orders only through the word it reads, so it must "
                               "read the flag itself");
    return 1;
}

static void narrow_tail(const report *r)
{
    sl_text_printf(r->why, ", at block scope (.cta: thread_scope_block, atomicInc_block, "
                           "__threadfence_block): block scope orders and synchronizes only the "
                           "threads of one block, and between two blocks it is a data race. "
                           "Use device scope (cuda::thread_scope_device, atomicAdd, "
                           "__threadfence())");
}

static void narrow_sync(fn *c, int i, const char *what, const report *r)
{
    sl_text_printf(r->why, "%s ", what);
    say(r, c, i);
    sl_text_printf(r->why, " synchronizes with other blocks");
    narrow_tail(r);
}

/* Is atomic pub a ticket that picks what wait L waits for (its old value is
 * used, and L's address depends on an atomic's result)? It counts tiles,
 * it is not the flag L waits for (a persistent scan draws the next tile
 * after publishing the last one's flag). */
static int draws_wait_index(fn *c, int pub, int L)
{
    return sl_ptx_matches(&c->f->insn[pub], "atom.") && c->gread[pub] &&
           (sl_flow_addr_taint(&c->fl, L) & SL_TAINT_ATOMIC);
}

/* A strong store, other than an atomic, narrower than wait L's load, to
 * the memory L polls: a packed status word written in two halves. */
static int torn_status(fn *c, int L, sl_bases sb)
{
    int wide = sl_ptx_access_bytes(&c->f->insn[L]);
    if (wide < 8)
        return -1;
    for (int j = 0; j < c->n; j++) {
        const sl_ptx_insn *in = &c->f->insn[j];
        if (c->store_strong[j] && sl_ptx_matches(in, "st.") && may_alias(c->base[j], sb)) {
            int w = sl_ptx_access_bytes(in);
            if (w > 0 && w < wide)
                return j;
        }
    }
    return -1;
}

/* A wait whose load is weak (ld.global, .cg, .cv: not volatile, relaxed,
 * acquire or an atomic) reads a word another thread writes meanwhile: a
 * data race, which the memory model leaves undefined whatever fence
 * follows. The compiler keeps reloading it only because something in the
 * loop (__nanosleep, a fence, an asm volatile) stops it from hoisting the
 * load; nothing promises that the load ever sees the store. */
static int weak_wait(fn *c, int L, const report *r)
{
    const sl_ptx_insn *in = &c->f->insn[L];
    if (!sl_ptx_matches(in, "ld.|ldu.") || strong_access(in))
        return 0;
    sl_text_printf(r->why, "the wait ");
    say(r, c, L);
    sl_text_printf(r->why,
                   " polls with a plain load (not volatile, not atomic): while another thread "
                   "writes that word, a plain load of it is a data race, not a wait, and no "
                   "fence after the loop makes it one (the loop only keeps reloading because "
                   "something in it stops the compiler from hoisting the load). Poll with a "
                   "volatile load, cuda::atomic_ref load(cuda::memory_order_acquire), or an "
                   "atomic that only reads (docs/02-fences.md#volatile)");
    return 1;
}

static int check_spins(fn *c, const report *r)
{
    sl_spin sp[64];
    int ns = sl_find_spins(c->f, &c->g, &c->fl, sp, 64);
    for (int k = 0; k < ns; k++)
        c->spin_load[sp[k].load] = 1;
    for (int k = 0; k < ns && sl_ptx_budget_spend(c->n); k++) {
        int L = sp[k].load;
        sl_bases sb = c->base[L];
        /* the reads the wait guards */
        char *reads = mask(c);
        sl_bases payload = 0;
        for (int j = 0; j < c->n; j++)
            if (c->gread[j] && !c->spin_load[j] && may_alias(c->base[j], c->written) &&
                !(strong_access(&c->f->insn[j]) && same_location(&c->f->insn[j], &c->f->insn[L]))) {
                reads[j] = 1;
            }
        {
            /* only the reads that can follow the wait */
            char *left = mask(c);
            memcpy(left, reads, (size_t)c->n);
            int rd;
            while ((rd = sl_cfg_reach(c->f, &c->g, L, left, NULL, NULL)) >= 0) {
                payload |= c->base[rd];
                left[rd] = 0;
            }
            free(left);
        }
        if (check_acquire(c, L, reads, NULL, NULL, 0, r)) {
            free(reads);
            return 1;
        }
        free(reads);
        if (weak_wait(c, L, r))
            return 1;
        if (narrow_scope(&c->f->insn[L])) {
            narrow_sync(c, L, "the wait", r);
            return 1;
        }
        for (int pub = 0; pub < c->n; pub++)
            if (!c->spin_load[pub] && c->store_strong[pub] && may_alias(c->base[pub], sb) &&
                narrow_scope(&c->f->insn[pub])) {
                sl_text_printf(r->why, "the flag that ");
                say(r, c, L);
                sl_text_printf(r->why, " waits for is written by ");
                say(r, c, pub);
                narrow_tail(r);
                return 1;
            }
        /* the publishes it waits for */
        int strong = 0, plain = -1;
        for (int j = 0; j < c->n; j++) {
            if (c->spin_load[j] || !may_alias(c->base[j], sb) || draws_wait_index(c, j, L))
                continue;
            if (c->store_strong[j])
                strong = 1;
            else if (c->store_weak[j])
                plain = j; /* the last: a flag is raised after its data */
        }
        int torn = torn_status(c, L, sb);
        if (torn >= 0) {
            sl_text_printf(r->why, "the wait ");
            say(r, c, L);
            sl_text_printf(r->why, " reads its status word in one load, but ");
            say(r, c, torn);
            sl_text_printf(r->why, " writes only part of it: written in pieces, the word can be "
                                   "seen with its flag part set and its value part stale. "
                                   "Write the whole word with one store (a 64-bit volatile "
                                   "store or atomicExch on unsigned long long, after "
                                   "__threadfence())");
            return 1;
        }
        if (!strong && plain >= 0) {
            sl_text_printf(r->why, "the flag that ");
            say(r, c, L);
            sl_text_printf(r->why, " waits for is written with a plain store ");
            say(r, c, plain);
            sl_text_printf(r->why, ": a plain store is not a synchronizing operation (the "
                                   "compiler may delay, merge or drop it, and it is a data race "
                                   "with the wait). Write the flag with a volatile store after "
                                   "__threadfence(), with atomicExch, or with cuda::atomic_ref "
                                   "store(1, cuda::memory_order_release)");
            return 1;
        }
        for (int pub = 0; pub < c->n && sl_ptx_budget_spend(1); pub++) {
            if (c->spin_load[pub] || !c->store_strong[pub] || !may_alias(c->base[pub], sb) ||
                draws_wait_index(c, pub, L))
                continue;
            if (!sl_ptx_budget_spend(c->n)) /* the stores below */
                return 0;
            for (int s = 0; s < c->n; s++) {
                if (!c->store_data[s] || s == pub || !may_alias(c->base[s], payload))
                    continue;
                char *t2 = mask(c);
                t2[pub] = 1;
                int reaches = sl_cfg_reach(c->f, &c->g, s, t2, NULL, NULL) >= 0;
                free(t2);
                if (reaches && check_release(c, s, pub, "the flag", r))
                    return 1;
            }
        }
    }
    /* forward progress, once the memory order is right */
    for (int k = 0; k < ns; k++) {
        int L = sp[k].load;
        unsigned t = sl_flow_addr_taint(&c->fl, L);
        const sl_flow_insn *bi = &c->fl.in[sp[k].branch];
        if (bi->guard >= 0)
            t |= c->fl.taint[bi->guard];
        if (!c->coresident && (t & SL_TAINT_CTAID) && !(t & SL_TAINT_ATOMIC)) {
            sl_text_printf(r->why, "the wait ");
            say(r, c, L);
            sl_text_printf(r->why, " waits for a block chosen from blockIdx: CUDA does not "
                                   "promise that blocks start in index order, or that the "
                                   "block waited for runs while this one spins, so it may "
                                   "wait forever. ");
            /* the rule, not the fix: that is the hint ladder's last step */
            if (c->no_atomics)
                sl_text_printf(r->why, "Atomics are forbidden here, so no block can learn which "
                                       "tiles running blocks took: blocks must not wait for each "
                                       "other within one launch");
            else
                sl_text_printf(r->why, "A block may wait only for a tile that a block already "
                                       "running took, which blockIdx does not tell");
            return 1;
        }
    }
    return 0;
}

/* Is store s on a way to atomic t that t does not lead back to? */
static int stored_before(fn *c, int s, int t)
{
    char *to_t = mask(c), *to_s = mask(c);
    to_t[t] = 1;
    to_s[s] = 1;
    int before = sl_cfg_reach(c->f, &c->g, s, to_t, NULL, NULL) >= 0 &&
                 sl_cfg_reach(c->f, &c->g, t, to_s, NULL, NULL) < 0;
    free(to_t);
    free(to_s);
    return before;
}

/* Does read j follow a spin-wait without another draw of ticket t in
 * between? The wait's own acquire rule orders it ("while (!flag[tile-1]);
 * __threadfence(); read prefix[tile-1]" in a loop that draws tiles). */
static int after_wait(fn *c, int j, int t)
{
    char *to = mask(c), *stop = mask(c);
    to[j] = 1;
    stop[t] = 1;
    int after = 0;
    for (int L = 0; L < c->n && !after; L++)
        after = c->spin_load[L] && sl_cfg_reach(c->f, &c->g, L, to, stop, NULL) >= 0;
    free(to);
    free(stop);
    return after;
}

/* Last-block pattern: a global atomic whose result decides reads of what
 * other blocks stored before their own atomic. */
static int check_tickets(fn *c, const report *r)
{
    for (int t = 0; t < c->n && sl_ptx_budget_spend(1); t++) {
        const sl_ptx_insn *in = &c->f->insn[t];
        const sl_flow_insn *fi = &c->fl.in[t];
        if (!sl_ptx_matches(in, "atom.") || !sl_flow_is_global(&c->fl, t) || c->spin_load[t] ||
            fi->ndst == 0)
            continue;
        char *reads = mask(c);
        int any = 0;
        for (int j = 0; j < c->n; j++) {
            if (!c->gread[j] || j == t || c->spin_load[j] || !may_alias(c->base[j], c->written))
                continue;
            if (!sl_ptx_budget_spend(c->n)) { /* the stores below */
                free(reads);
                return 0;
            }
            if (!decided_by(c, c->g.block_of[j], SL_TAINT_ATOMIC) || after_wait(c, j, t))
                continue;
            char *t3 = mask(c);
            t3[j] = 1;
            int after = sl_cfg_reach(c->f, &c->g, t, t3, NULL, NULL) >= 0;
            free(t3);
            if (!after)
                continue;
            /* stored by this kernel before the ticket (not by an earlier
             * round of a loop that claims work with it) */
            for (int s = 0; s < c->n && !reads[j]; s++)
                if (s != t && c->store_data[s] && may_alias(c->base[s], c->base[j]) &&
                    stored_before(c, s, t))
                    reads[j] = 1;
            any |= reads[j];
        }
        if (!any) {
            free(reads);
            continue;
        }
        if (narrow_scope(in)) {
            narrow_sync(c, t, "the ticket", r);
            free(reads);
            return 1;
        }
        for (int s = 0; s < c->n; s++) {
            if (!c->store_data[s] || s == t)
                continue;
            int feeds = 0;
            for (int j = 0; j < c->n && !feeds; j++)
                feeds = reads[j] && may_alias(c->base[s], c->base[j]);
            if (feeds && stored_before(c, s, t) && check_release(c, s, t, "the ticket", r)) {
                free(reads);
                return 1;
            }
        }
        /* The side of a ticket-decided branch that holds an acquire is the
         * last block's; a path that leaves it for the other side is not
         * the last block's and is not followed. */
        signed char *cut = malloc((size_t)c->g.nb + 1);
        char *extra = mask(c);
        char *dep = calloc((size_t)c->g.nb + 1, 1);
        memset(cut, -1, (size_t)c->g.nb + 1);
        for (int x = 0; x < c->g.nb; x++) {
            const sl_flow_insn *bi = &c->fl.in[last_insn(c, x)];
            if (!sl_ptx_is_branch(&c->f->insn[last_insn(c, x)]) || bi->guard < 0 ||
                !(c->fl.taint[bi->guard] & SL_TAINT_ATOMIC))
                continue;
            /* an acquire counts for its side when reads can follow it: a
             * fence on the way out of the blocks that are not last
             * ("if (k != last) { __threadfence(); return; }") orders nothing */
            int side[2] = {0, 0};
            for (int k = 0; k < 2; k++) {
                sl_cfg_dependent(&c->g, x, k, dep);
                for (int j = 0; j < c->n && !side[k]; j++)
                    side[k] = dep[c->g.block_of[j]] && (c->ord[j] & ORD_ACQ) &&
                              sl_cfg_reach(c->f, &c->g, j, reads, NULL, NULL) >= 0;
            }
            if (side[0] != side[1])
                cut[x] = (signed char)(side[0] ? 1 : 0);
        }
        for (int j = 0; j < c->n; j++) {
            const sl_flow_insn *gj = &c->fl.in[j];
            if (gj->guard >= 0 && (c->fl.taint[gj->guard] & SL_TAINT_ATOMIC) &&
                (ordering(c->p, &c->f->insn[j], 0) & ORD_ACQ))
                extra[j] = 1;
        }
        int bad = check_acquire(c, t, reads, cut, extra, 1, r);
        free(dep);
        free(cut);
        free(extra);
        free(reads);
        if (bad)
            return 1;
    }
    return 0;
}

static int check_readonly_loads(fn *c, const report *r)
{
    const sl_bases known = ~((sl_bases)1 << SL_BASE_UNKNOWN);
    for (int j = 0; j < c->n; j++) {
        if (!c->gload[j] || !has(&c->f->insn[j], ".nc") || !(c->base[j] & c->written & known))
            continue;
        int s = -1;
        for (int k = 0; k < c->n && s < 0; k++)
            if ((c->store_weak[k] || c->store_strong[k]) && (c->base[k] & c->base[j] & known))
                s = k;
        sl_text_printf(r->why, "the read-only load ");
        say(r, c, j);
        sl_text_printf(r->why, " (__ldg, or a const __restrict__ pointer) reads memory that this "
                               "kernel also writes");
        if (s >= 0) {
            sl_text_printf(r->why, " (");
            say(r, c, s);
            sl_text_printf(r->why, ")");
        }
        sl_text_printf(r->why, ": the read-only path is not kept coherent with writes made "
                               "during the launch, so it may return a stale value. Read it "
                               "with a plain (or volatile) load after the proper fence");
        return 1;
    }
    return 0;
}

/* Library kernels (CUB, thrust) are not judged: known by their mangled
 * name and the files their lines come from, by the compiler's dependency
 * list (ptx.h), never by a name alone: a student's cuda::foo is judged. */
static int library_function(const sl_ptx *p, int fi) { return sl_ptx_library_function(p, fi); }

/* Is the register instruction i writes read by some instruction (an
 * atomic whose old value is used reads memory)? */
static int result_used(const sl_flow *fl, int i)
{
    if (!sl_ptx_budget_spend(fl->nin))
        return 1;
    for (int d = 0; d < fl->in[i].ndst; d++)
        for (int j = 0; j < fl->nin; j++)
            for (int k = 0; k < fl->in[j].nsrc; k++)
                if (fl->in[j].src[k] == fl->in[i].dst[d])
                    return 1;
    return 0;
}

static int check_function(const sl_ptx *p, int fi, const sl_ptx_func *f, int coresident,
                          int no_atomics, const report *r)
{
    if (f->ninsn == 0 || library_function(p, fi))
        return 0;
    fn c = {0};
    c.p = p;
    c.f = f;
    c.n = f->ninsn;
    c.coresident = coresident;
    c.no_atomics = no_atomics;
    sl_cfg_build(f, &c.g);
    sl_flow_build(f, &c.fl);
    c.ord = calloc((size_t)c.n + 1, 1);
    c.gload = mask(&c);
    c.store_weak = mask(&c);
    c.store_strong = mask(&c);
    c.store_data = mask(&c);
    c.gread = mask(&c);
    c.spin_load = mask(&c);
    c.once = malloc(((size_t)c.fl.nreg + 1) * sizeof *c.once);
    for (int r = 0; r <= c.fl.nreg; r++)
        c.once[r] = -2;
    c.decided = calloc((size_t)c.n + 1, sizeof *c.decided);
    c.decided_done = mask(&c);
    c.base = calloc((size_t)c.n + 1, sizeof *c.base);
    for (int j = 0; j < c.n; j++) {
        const sl_ptx_insn *in = &f->insn[j];
        if (!sl_ptx_guarded(in))
            c.ord[j] = (unsigned char)ordering(p, in, 0);
        sl_bases copy = sl_flow_copy_source(f, &c.fl, j);
        if (copy) {
            c.base[j] = copy;
            c.gread[j] = 1;
            continue;
        }
        if (!sl_flow_is_global(&c.fl, j))
            continue;
        c.base[j] = sl_flow_addr_bases(&c.fl, j) & SL_BASES_GLOBAL;
        if (sl_ptx_matches(in, "ld.|ldu."))
            c.gload[j] = c.gread[j] = 1;
        else if (sl_ptx_matches(in, "atom.|red.")) {
            c.store_strong[j] = 1;
            c.store_data[j] = 1;
            c.gread[j] = result_used(&c.fl, j);
        } else if (sl_ptx_matches(in, "st.")) {
            (strong_access(in) ? c.store_strong : c.store_weak)[j] = 1;
            c.store_data[j] = 1;
        }
        if (c.store_strong[j] || c.store_weak[j])
            c.written |= c.base[j];
    }
    /* control dependence */
    c.dep = calloc((size_t)c.g.nb + 1, sizeof *c.dep);
    c.ndep = calloc((size_t)c.g.nb + 1, sizeof *c.ndep);
    char *dep = calloc((size_t)c.g.nb + 1, 1);
    for (int x = 0; x < c.g.nb && sl_ptx_budget_spend(2LL * c.g.nb); x++) {
        if (c.g.succ[x][1] < 0)
            continue;
        for (int k = 0; k < 2; k++) {
            sl_cfg_dependent(&c.g, x, k, dep);
            for (int y = 0; y < c.g.nb; y++)
                if (dep[y]) {
                    c.dep[y] = realloc(c.dep[y], (size_t)(c.ndep[y] + 1) * sizeof **c.dep);
                    c.dep[y][c.ndep[y]++] = x * 2 + k;
                }
        }
    }
    free(dep);
    int bad = check_spins(&c, r) || check_tickets(&c, r) || check_readonly_loads(&c, r);
    if (bad)
        sl_text_printf(r->why, " [in %s]", f->name);
    for (int b = 0; b <= c.g.nb; b++)
        free(c.dep[b]);
    free(c.dep);
    free(c.ndep);
    for (int i = 0; i < c.nkeys; i++)
        free(c.keys[i]);
    free(c.keys);
    free(c.ord);
    free(c.gload);
    free(c.gread);
    free(c.store_weak);
    free(c.store_strong);
    free(c.store_data);
    free(c.spin_load);
    for (int j = 0; j < c.n; j++)
        if (c.decided_done[j])
            decided_free(&c.decided[j]);
    free(c.decided);
    free(c.decided_done);
    free(c.once);
    free(c.base);
    sl_flow_free(&c.fl);
    sl_cfg_free(&c.g);
    return bad;
}

/* ---------- calls through a pointer ---------- */

/* A global (or generic) memory access, or a fence: what the order check
 * must see. Shared, local, param and const memory are a block's own. */
static int global_access(const sl_ptx_insn *in)
{
    if (sl_ptx_matches(in, "membar.|fence."))
        return 1;
    if (!sl_ptx_matches(in, "ld.|ldu.|st.|atom.|red.|cp.async|cp.reduce.async"))
        return 0;
    return sl_ptx_matches(in, "cp.") ||
           !(has(in, ".shared") || has(in, ".local") || has(in, ".param") || has(in, ".const"));
}

/* One that synchronizes: a strong access, an atomic or a fence. */
static int sync_access(const sl_ptx_insn *in)
{
    return global_access(in) &&
           (sl_ptx_matches(in, "membar.|fence.|atom.|red.") || strong_access(in));
}

/* mark[k]: function k, or a function it calls, has an instruction accepts
 * takes. */
static void functions_with(const sl_ptx *p, int (*accepts)(const sl_ptx_insn *), char *mark)
{
    for (int k = 0; k < p->nfunc; k++) {
        mark[k] = 0;
        for (int j = 0; j < p->func[k].ninsn && !mark[k]; j++)
            mark[k] = accepts(&p->func[k].insn[j]);
    }
    sl_ptx_mark_callers(p, mark);
}

/* A call through a function pointer in a kernel that synchronizes with
 * other blocks, to code that touches global memory: the flag, payload,
 * wait or fence may be in whichever function runs, and the check cannot
 * tell which. Rather than pass what it cannot see, it says so. */
static int hidden_call(const sl_ptx *p, int fi, const sl_ptx_func *f, const report *r)
{
    int call = -1;
    for (int j = 0; j < f->ninsn && call < 0 && !library_function(p, fi); j++)
        if (sl_ptx_indirect_call(&f->insn[j]))
            call = j;
    if (call < 0)
        return 0;
    char *taken = calloc((size_t)p->nfunc + 1, 1), *touches = calloc((size_t)p->nfunc + 1, 1),
         *syncs = calloc((size_t)p->nfunc + 1, 1);
    if (!taken || !touches || !syncs)
        abort();
    sl_ptx_address_taken(p, taken);
    functions_with(p, global_access, touches);
    functions_with(p, sync_access, syncs);
    int target_touches = 0, synchronizes = 0;
    for (int k = 0; k < p->nfunc; k++)
        if (taken[k] && !library_function(p, k)) {
            target_touches |= touches[k];
            synchronizes |= syncs[k];
        }
    for (int j = 0; j < f->ninsn && !synchronizes; j++)
        synchronizes = sync_access(&f->insn[j]);
    free(taken);
    free(touches);
    free(syncs);
    if (!target_touches || !synchronizes)
        return 0;
    sl_text_printf(r->why, "the call ");
    sl_ptx_say(p, &f->insn[call], r->why, r->where, r->wl);
    sl_text_printf(r->why,
                   " goes through a function pointer to code that reads or writes global "
                   "memory, in a kernel that synchronizes with other blocks: which "
                   "function runs is known only at run time, so the check of memory "
                   "order cannot see the flag, data, wait or fence in it. Call the "
                   "function directly (a __noinline__ helper is followed) [in %s]",
                   f->name);
    return 1;
}

int sl_ptx_order_violation(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                           void *arg, const sl_rule *rules, sl_text *why, char *where,
                           size_t wherelen)
{
    int coresident = 0, no_atomics = 0;
    const char *note = NULL;
    for (const sl_rule *r = rules; r && r->kind != SL_RULE_END; r++) {
        if (r->kind == SL_RULE_CORESIDENT)
            coresident = 1;
        else if (r->kind == SL_RULE_FORBID && !r->function && strstr(r->pattern, "atom."))
            no_atomics = 1;
        else if (r->kind == SL_RULE_ORDER_NOTE)
            note = r->why;
    }
    if (wherelen)
        where[0] = '\0';
    report rep = {p, why, where, wherelen};
    /* kernels are judged with their __noinline__ helpers inlined */
    sl_ptx_inlined inl;
    sl_ptx_inline_kernels(p, in_scope, arg, library_function, &inl);
    int bad = 0;
    for (int i = 0; i < p->nfunc && !bad; i++) {
        const sl_ptx_func *f = sl_ptx_inlined_view(&inl, i);
        if (!f || (in_scope && !in_scope(p->func[i].name, arg)))
            continue;
        sl_text msg = {0};
        report r = rep;
        r.why = &msg;
        if (hidden_call(p, i, f, &r) || check_function(p, i, f, coresident, no_atomics, &r)) {
            sl_text_printf(why, "%s", sl_text_str(&msg));
            if (note)
                sl_text_printf(why, ".\n%s", note);
            bad = 1;
        } else if (wherelen)
            where[0] = '\0';
        sl_text_free(&msg);
    }
    sl_ptx_inlined_free(&inl);
    return bad;
}
