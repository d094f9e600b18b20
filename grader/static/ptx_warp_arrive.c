/* Warp-leader arrivals on a block-wide mbarrier, proved from the PTX so that
 * the racecheck hazards they order can be dismissed (ptx_warp_arrive.h).
 * Every test here is one that, failing, keeps the hazard: sound first. */
#include "ptx_warp_arrive.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "ptx_budget.h"
#include "ptx_cfg.h"
#include "ptx_flow.h"

static int operand_count(const sl_ptx_insn *in)
{
    char buf[256];
    int k = 0;
    while (k < 8 && sl_ptx_operand(in, k, buf, sizeof buf))
        k++;
    return k;
}

static int reg_index(const sl_flow *fl, const char *name)
{
    for (int r = 0; r < fl->nreg; r++)
        if (strcmp(fl->reg[r], name) == 0)
            return r;
    return -1;
}

/* The one instruction that writes the register named by operand k of j. */
static int def_of_operand(const sl_ptx_func *f, const sl_flow *fl, int j, int k)
{
    char buf[64];
    if (!sl_ptx_operand(&f->insn[j], k, buf, sizeof buf))
        return -1;
    return sl_flow_only_def(fl, reg_index(fl, buf));
}

static int operand_is(const sl_ptx_insn *in, int k, const char *want)
{
    char buf[256];
    return sl_ptx_operand(in, k, buf, sizeof buf) && strcmp(buf, want) == 0;
}

/* "mov.u32 %r, <src>" or operand k naming src itself. */
static int holds(const sl_ptx_func *f, const sl_flow *fl, int j, int k, const char *src)
{
    if (operand_is(&f->insn[j], k, src))
        return 1;
    int d = def_of_operand(f, fl, j, k);
    return d >= 0 && sl_ptx_matches(&f->insn[d], "mov.u32|mov.b32") &&
           !sl_ptx_guarded(&f->insn[d]) && operand_is(&f->insn[d], 1, src);
}

/* Is operand k of j the lane, threadIdx.x & 31 or %laneid? */
static int is_lane(const sl_ptx_func *f, const sl_flow *fl, int j, int k)
{
    if (holds(f, fl, j, k, "%laneid"))
        return 1;
    int d = def_of_operand(f, fl, j, k);
    if (d < 0 || sl_ptx_guarded(&f->insn[d]) || !sl_ptx_matches(&f->insn[d], "and.b32"))
        return 0;
    return (operand_is(&f->insn[d], 2, "31") && holds(f, fl, d, 1, "%tid.x")) ||
           (operand_is(&f->insn[d], 1, "31") && holds(f, fl, d, 2, "%tid.x"));
}

/* The shared variable an mbarrier operand k ("[%r]" or "[sym]") names. */
static int barrier_symbol(const sl_ptx_func *f, const sl_flow *fl, int j, int k, char *sym,
                          size_t n)
{
    char buf[256];
    if (!sl_ptx_operand(&f->insn[j], k, buf, sizeof buf) || buf[0] != '[')
        return 0;
    size_t len = strlen(buf);
    if (buf[len - 1] != ']' || len - 2 >= n)
        return 0;
    memcpy(sym, buf + 1, len - 2);
    sym[len - 2] = '\0';
    if (strpbrk(sym, "+- "))
        return 0; /* an offset: another word than the barrier's */
    if (sym[0] != '%')
        return 1;
    int d = sl_flow_only_def(fl, reg_index(fl, sym));
    if (d < 0 || sl_ptx_guarded(&f->insn[d]) || !sl_ptx_matches(&f->insn[d], "mov.u32|mov.u64") ||
        !sl_ptx_operand(&f->insn[d], 1, buf, sizeof buf) || buf[0] == '%' ||
        isdigit((unsigned char)buf[0]) || strlen(buf) >= n)
        return 0;
    strcpy(sym, buf);
    return 1;
}

static int full_warp_sync(const sl_ptx_insn *in)
{
    char buf[32];
    return !sl_ptx_guarded(in) && sl_ptx_matches(in, "bar.warp.sync") &&
           sl_ptx_operand(in, 0, buf, sizeof buf) &&
           (strcmp(buf, "-1") == 0 || strcmp(buf, "0xffffffff") == 0 ||
            strcmp(buf, "0xFFFFFFFF") == 0 || strcmp(buf, "4294967295") == 0);
}

/* Arithmetic only: no memory, no synchronisation, no control flow. */
static int plain(const sl_ptx_insn *in)
{
    return !strchr(sl_ptx_operands(in), '[') &&
           !sl_ptx_matches(in, "call|bar|barrier|mbarrier|ret|exit|trap|bra|fence|membar");
}

/* Any access racecheck could report: shared, or generic (which may be). */
static int maybe_shared_access(const sl_ptx_insn *in)
{
    if (!strchr(sl_ptx_operands(in), '['))
        return 0;
    if (!sl_ptx_matches(in, "ld.|ldu.|st.|atom.|red.|cp.|ldmatrix|stmatrix|wmma.|mbarrier.|tex."))
        return 0;
    return !sl_ptx_op_has(in, ".global") && !sl_ptx_op_has(in, ".local") &&
           !sl_ptx_op_has(in, ".param") && !sl_ptx_op_has(in, ".const");
}

typedef struct {
    const sl_ptx_func *f;
    const sl_flow *fl;
    const sl_cfg *g;
    const char *bar; /* the barrier's symbol */
} ctx;

/* The one instruction that writes name: through the data flow for a
 * %register, by its first operand for a name inline asm declared (".reg
 * .pred p", which the flow does not follow); -1 for none or several. */
static int only_def_named(const ctx *c, const char *name)
{
    if (name[0] == '%')
        return sl_flow_only_def(c->fl, reg_index(c->fl, name));
    int found = -1;
    for (int j = 0; j < c->f->ninsn; j++)
        if (operand_is(&c->f->insn[j], 0, name) && !sl_ptx_matches(&c->f->insn[j], "st.|bra")) {
            if (found >= 0)
                return -1;
            found = j;
        }
    return found;
}

/* Does branching when the predicate register q (negated: neg) is true mean
 * the wait on token tok succeeded (1), failed (0), or is it unclear (-1)? */
static int wait_outcome(const ctx *c, const char *q, int neg, const char *tok)
{
    int d = only_def_named(c, q);
    if (d < 0 || sl_ptx_guarded(&c->f->insn[d]))
        return -1;
    const sl_ptx_insn *in = &c->f->insn[d];
    int success;
    if (sl_ptx_matches(in, "setp.eq.s32|setp.eq.u32|setp.eq.b32|setp.ne.s32|setp.ne.u32|"
                           "setp.ne.b32") &&
        operand_is(in, 2, "0") && operand_count(in) == 3) {
        /* setp.eq q, s, 0 with s = selp 1, 0, w: q is "the wait failed" */
        int s = def_of_operand(c->f, c->fl, d, 1);
        if (s < 0 || sl_ptx_guarded(&c->f->insn[s]) ||
            !sl_ptx_matches(&c->f->insn[s], "selp.b32|selp.u32|selp.s32") ||
            !operand_is(&c->f->insn[s], 1, "1") || !operand_is(&c->f->insn[s], 2, "0"))
            return -1;
        char w[64];
        if (!sl_ptx_operand(&c->f->insn[s], 3, w, sizeof w))
            return -1;
        int inner = wait_outcome(c, w, 0, tok);
        if (inner != 1)
            return -1;
        success = sl_ptx_op_has(in, ".ne");
    } else if (sl_ptx_matches(in, "mbarrier.try_wait|mbarrier.test_wait")) {
        char sym[256];
        if (sl_ptx_op_has(in, ".parity") || sl_ptx_op_has(in, ".relaxed") ||
            sl_ptx_op_has(in, "cluster") || !operand_is(in, 0, q) ||
            !barrier_symbol(c->f, c->fl, d, 1, sym, sizeof sym) || strcmp(sym, c->bar) != 0 ||
            !operand_is(in, 2, tok))
            return -1;
        success = 1;
    } else {
        return -1;
    }
    return neg ? !success : success;
}

/* The guard of a branch: its predicate register and whether it is negated. */
static int guard_of(const sl_ptx_insn *in, char *q, size_t n)
{
    const char *s = in->text + 1;
    int neg = *s == '!';
    s += neg;
    size_t len = strcspn(s, " \t");
    if (len >= n)
        len = n - 1;
    memcpy(q, s, len);
    q[len] = '\0';
    return neg;
}

/* An edge from block b (slot k) into the block after the region: only
 * where the wait on tok succeeded. */
static int success_edge(const ctx *c, int b, int k, const char *tok)
{
    const sl_ptx_func *f = c->f;
    int last = (b + 1 < c->g->nb ? c->g->first[b + 1] : f->ninsn) - 1;
    const sl_ptx_insn *in = &f->insn[last];
    char q[64];
    if (!sl_ptx_is_branch(in))
        return 0; /* falls in with no condition */
    if (k == 1)   /* the fall-through of "@q bra elsewhere": q must mean failure */
        return wait_outcome(c, q, guard_of(in, q, sizeof q), tok) == 0;
    if (sl_ptx_guarded(in))
        return wait_outcome(c, q, guard_of(in, q, sizeof q), tok) == 1;
    /* "@q bra retry; bra.uni after": the block is this one jump, entered only
     * by falling through the retry branch, so q was false */
    if (c->g->first[b] != last || last == 0 || !sl_ptx_is_branch(&f->insn[last - 1]) ||
        !sl_ptx_guarded(&f->insn[last - 1]))
        return 0;
    for (int i = 0; i < f->nlabel; i++)
        if (f->label_at[i] == last)
            return 0;
    return wait_outcome(c, q, guard_of(&f->insn[last - 1], q, sizeof q), tok) == 0;
}

/* From i (exclusive), the first instruction past plain ones in the same block. */
static int skip_plain(const ctx *c, int i)
{
    int j = i + 1;
    while (j < c->f->ninsn && c->g->block_of[j] == c->g->block_of[i] && plain(&c->f->insn[j]))
        j++;
    return j < c->f->ninsn && c->g->block_of[j] == c->g->block_of[i] ? j : -1;
}

typedef struct {
    int sw1, br, sw2, arrive;
} region;

/* An arrive on the barrier, unguarded, releasing at CTA scope, of count
 * count ("32", "31"; NULL: none written, 1), its token its own. */
static int arrival(const ctx *c, int j, const char *count)
{
    const sl_ptx_insn *in = &c->f->insn[j];
    char cnt[64], sym[256];
    int noc = sl_ptx_op_has(in, ".noComplete") != 0;
    if (sl_ptx_guarded(in) || noc != (count && strcmp(count, "31") == 0) ||
        sl_ptx_op_has(in, "expect_tx") || sl_ptx_op_has(in, "arrive_drop") ||
        sl_ptx_op_has(in, ".relaxed") || sl_ptx_op_has(in, "cluster") ||
        operand_count(in) != (count ? 3 : 2) ||
        !barrier_symbol(c->f, c->fl, j, 1, sym, sizeof sym) || strcmp(sym, c->bar) != 0)
        return 0;
    return !count || (sl_ptx_operand(in, 2, cnt, sizeof cnt) &&
                      (strcmp(cnt, count) == 0 || holds(c->f, c->fl, j, 2, count)));
}

/* A region starting at the full-mask bar.warp.sync sw1 (the shape ptx_warp_arrive.h lists). */
static int match_region(const ctx *c, int sw1, region *r, char *in_region, int *arrivals)
{
    const sl_ptx_func *f = c->f;
    const sl_cfg *g = c->g;
    int br = skip_plain(c, sw1);
    if (br < 0 || !sl_ptx_is_branch(&f->insn[br]) || !sl_ptx_guarded(&f->insn[br]))
        return 0;
    /* the branch is taken by every lane but lane 0 */
    char q[64];
    int neg = guard_of(&f->insn[br], q, sizeof q);
    int d = sl_flow_only_def(c->fl, reg_index(c->fl, q));
    if (d < 0 || sl_ptx_guarded(&f->insn[d]) || operand_count(&f->insn[d]) != 3 ||
        !sl_ptx_matches(&f->insn[d], "setp.ne.|setp.eq.") || !operand_is(&f->insn[d], 2, "0") ||
        !is_lane(f, c->fl, d, 1))
        return 0;
    if (sl_ptx_op_has(&f->insn[d], ".ne") == neg)
        return 0; /* taken by lane 0 */
    int bb = g->block_of[br], after = g->succ[bb][0], inside = g->succ[bb][1];
    if (after < 0 || after >= g->nb || inside < 0 || inside >= g->nb || after == inside)
        return 0;
    int sw2 = g->first[after];
    if (!full_warp_sync(&f->insn[sw2])) {
        int j = sw2;
        while (j < f->ninsn && g->block_of[j] == after && plain(&f->insn[j]))
            j++;
        if (j >= f->ninsn || g->block_of[j] != after || !full_warp_sync(&f->insn[j]))
            return 0;
        sw2 = j;
    }
    /* the blocks lane 0 runs in between: entered only from the branch,
     * left only into `after` */
    char *body = calloc((size_t)g->nb + 1, 1);
    int *stack = malloc(((size_t)g->nb + 1) * sizeof *stack);
    int top = 0, ok = 1, arrive = -1, pending = -1; /* pending: the noComplete half */
    body[inside] = 1;
    stack[top++] = inside;
    while (top && ok) {
        int b = stack[--top];
        for (int k = 0; k < 2 && ok; k++) {
            int s = g->succ[b][k];
            if (s < 0 || s == after)
                continue;
            if (s >= g->nb)
                ok = 0; /* the exit: lane 0 may leave without waiting */
            else if (!body[s]) {
                body[s] = 1;
                stack[top++] = s;
            }
        }
    }
    for (int b = 0; b < g->nb && ok; b++) {
        if (!sl_ptx_budget_spend(1))
            ok = 0;
        for (int k = 0; k < 2 && ok; k++)
            if (g->succ[b][k] >= 0 && g->succ[b][k] < g->nb && body[g->succ[b][k]] && !body[b] &&
                b != bb)
                ok = 0; /* a jump into the middle */
        if (!body[b] || !ok)
            continue;
        int end = b + 1 < g->nb ? g->first[b + 1] : f->ninsn;
        for (int j = g->first[b]; j < end && ok; j++) {
            const sl_ptx_insn *in = &f->insn[j];
            in_region[j] = 1;
            if (sl_ptx_matches(in, "mbarrier.try_wait|mbarrier.test_wait"))
                continue;
            if (sl_ptx_matches(in, "mbarrier.arrive")) {
                /* sm_90: one arrive of 32; before sm_90 nvcc splits it into
                 * a noComplete arrive of 31 and, right after, one of 1 */
                int second = pending >= 0 && j == skip_plain(c, pending);
                int split = !second && sl_ptx_op_has(in, ".noComplete");
                ok = (arrive < 0 || second) && arrival(c, j, second ? NULL : split ? "31" : "32");
                pending = split ? j : -1;
                arrive = j;
                (*arrivals)++;
            } else if (sl_ptx_matches(in, "call|ret|exit|trap|bar|barrier|mbarrier|cp.async")) {
                ok = 0;
            }
        }
    }
    in_region[sw1] = in_region[sw2] = 1;
    for (int j = br; j < f->ninsn && g->block_of[j] == bb; j++)
        in_region[j] = 1;
    for (int j = g->first[after]; j <= sw2; j++)
        in_region[j] = 1;
    char tok[64];
    ok = ok && arrive >= 0 && pending < 0 && sl_ptx_operand(&f->insn[arrive], 0, tok, sizeof tok) &&
         sl_flow_only_def(c->fl, reg_index(c->fl, tok)) == arrive;
    if (ok) {
        /* every way out passes the arrive, the arrive runs once, and lane 0
         * leaves only once its wait succeeded */
        char *at_sw2 = calloc((size_t)f->ninsn, 1), *at_arrive = calloc((size_t)f->ninsn, 1);
        signed char *cut = malloc((size_t)g->nb + 1);
        memset(cut, -1, (size_t)g->nb + 1);
        cut[bb] = 0;
        at_sw2[sw2] = 1;
        at_arrive[arrive] = 1;
        ok = sl_cfg_reach(f, g, br, at_sw2, at_arrive, cut) < 0 &&
             sl_cfg_reach(f, g, arrive, at_arrive, at_sw2, NULL) < 0;
        for (int b = 0; b < g->nb && ok; b++)
            for (int k = 0; k < 2 && ok; k++)
                if (body[b] && g->succ[b][k] == after)
                    ok = success_edge(c, b, k, tok);
        free(at_sw2);
        free(at_arrive);
        free(cut);
    }
    free(body);
    free(stack);
    *r = (region){sw1, br, sw2, arrive};
    return ok;
}

/* Does block-level point j run once in every thread, in one order: on
 * every path from the entry to the exit, and on no loop? */
static int on_spine(const ctx *c, int j)
{
    char *mark = calloc((size_t)c->f->ninsn, 1);
    mark[j] = 1;
    int ok = sl_cfg_postdominates(c->g, c->g->block_of[j], 0) &&
             sl_cfg_reach(c->f, c->g, j, mark, NULL, NULL) < 0;
    free(mark);
    return ok;
}

/* Does the stretch starting after from (-1: the entry) reach a marked
 * instruction before a synchronisation point? */
static int stretch_reaches(const ctx *c, int from, const char *target, const char *sync)
{
    if (from < 0) {
        if (target[0])
            return 1;
        if (sync[0])
            return 0;
        from = 0;
    }
    return sl_cfg_reach(c->f, c->g, from, target, sync, NULL) >= 0;
}

static int ordered_in(const sl_ptx_func *f, const char *in_a, const char *in_b)
{
    sl_cfg g;
    sl_flow fl;
    sl_cfg_build(f, &g);
    sl_cfg_ignore_traps(f, &g); /* an aborted kernel accesses nothing more */
    sl_flow_build(f, &fl);
    int n = f->ninsn, ok = 1, nregion = 0;
    char *in_region = calloc((size_t)n + 1, 1), *sync = calloc((size_t)n + 1, 1);
    char bar[256] = "";
    ctx c = {f, &fl, &g, bar};
    /* the barrier: one, initialised once with blockDim.x */
    int inits = 0;
    for (int j = 0; j < n && ok; j++) {
        const sl_ptx_insn *in = &f->insn[j];
        if (sl_ptx_matches(in, "call"))
            ok = 0; /* what a callee does to the barrier is not seen */
        else if (sl_ptx_matches(in, "mbarrier.init")) {
            ok = !sl_ptx_guarded(in) && inits++ == 0 && operand_count(in) == 2 &&
                 barrier_symbol(f, &fl, j, 0, bar, sizeof bar) && holds(f, &fl, j, 1, "%ntid.x");
        } else if (strstr(in->text, "mbarrier")) {
            ok = sl_ptx_matches(in, "mbarrier.arrive|mbarrier.try_wait|mbarrier.test_wait");
        }
    }
    ok = ok && inits == 1;
    /* its regions; every arrive must be one's */
    int arrives = 0, covered = 0;
    for (int j = 0; j < n && ok; j++) {
        if (sl_ptx_matches(&f->insn[j], "mbarrier.arrive"))
            arrives++;
        if (!full_warp_sync(&f->insn[j]) || in_region[j])
            continue;
        region r;
        int in_it = 0;
        if (match_region(&c, j, &r, in_region, &in_it)) {
            covered += in_it;
            if (!on_spine(&c, r.sw1) || !on_spine(&c, r.sw2))
                ok = 0;
            nregion++;
            sync[r.sw1] = sync[r.sw2] = 1;
        }
    }
    ok = ok && nregion > 0 && covered == arrives;
    /* unconditional __syncthreads() every thread passes also separate */
    for (int j = 0; j < n && ok; j++) {
        const sl_ptx_insn *in = &f->insn[j];
        if (!sl_ptx_guarded(in) &&
            sl_ptx_matches(in, "bar.sync|barrier.sync|bar.red|barrier.red") &&
            operand_count(in) == (sl_ptx_matches(in, "bar.red|barrier.red") ? 3 : 1) &&
            on_spine(&c, j))
            sync[j] = 1;
    }
    /* neither access inside a region (after lane 0's arrive, before the
     * second bar.warp.sync, a write is not released) */
    for (int j = 0; j < n && ok; j++)
        if ((in_a[j] || in_b[j]) && in_region[j])
            ok = 0;
    /* no stretch between synchronisation points holds both */
    for (int s = -1; s < n && ok; s++) {
        if (s >= 0 && !sync[s])
            continue;
        if (stretch_reaches(&c, s, in_a, sync) && stretch_reaches(&c, s, in_b, sync))
            ok = 0;
    }
    free(in_region);
    free(sync);
    sl_flow_free(&fl);
    sl_cfg_free(&g);
    return ok && !sl_ptx_budget_exhausted(NULL);
}

static int line_is(const sl_ptx *p, const sl_ptx_insn *in, const char *file, int line)
{
    if (in->src_line != line || in->src_file < 0 || in->src_file >= p->nfile)
        return 0;
    return strcmp(sl_base_name(p->file[in->src_file]), sl_base_name(file)) == 0;
}

int sl_ptx_warp_arrive_orders(const sl_ptx *p, const char *file_a, int line_a, const char *file_b,
                              int line_b)
{
    if (!p || !file_a || !file_b || line_a <= 0 || line_b <= 0 ||
        (line_a == line_b && strcmp(sl_base_name(file_a), sl_base_name(file_b)) == 0))
        return 0; /* one line against itself: two lanes of one instance */
    int fi = -1, na = 0, nb = 0, ok = 1;
    for (int i = 0; i < p->nfunc && ok; i++)
        for (int j = 0; j < p->func[i].ninsn && ok; j++) {
            const sl_ptx_insn *in = &p->func[i].insn[j];
            int a = line_is(p, in, file_a, line_a), b = line_is(p, in, file_b, line_b);
            if (!(a || b) || !maybe_shared_access(in))
                continue;
            if (fi >= 0 && fi != i)
                ok = 0; /* both lines' accesses must be in one kernel */
            fi = i;
            na += a;
            nb += b;
        }
    if (!ok || fi < 0 || !na || !nb || !p->func[fi].is_entry)
        return 0;
    const sl_ptx_func *f = &p->func[fi];
    char *in_a = calloc((size_t)f->ninsn + 1, 1), *in_b = calloc((size_t)f->ninsn + 1, 1);
    for (int j = 0; j < f->ninsn; j++) {
        in_a[j] = line_is(p, &f->insn[j], file_a, line_a) && maybe_shared_access(&f->insn[j]);
        in_b[j] = line_is(p, &f->insn[j], file_b, line_b) && maybe_shared_access(&f->insn[j]);
    }
    ok = ordered_in(f, in_a, in_b);
    free(in_a);
    free(in_b);
    return ok;
}
