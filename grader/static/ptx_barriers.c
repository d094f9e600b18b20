/* Block-wide barriers that only some threads of the block reach, found in
 * the PTX: control flow graph, post-dominators, control dependence, and
 * the thread index followed through registers. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "ptx_budget.h"
#include "ptx_cfg.h"

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
        } else if ((isalpha((unsigned char)*s) || *s == '_' || *s == '$') &&
                   (s == ops || !(isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '.'))) {
            /* a register named without '%' (inline asm: ".reg .pred p;") */
            const char *e = s + 1;
            while (*e && (isalnum((unsigned char)*e) || *e == '_' || *e == '$'))
                e++;
            size_t len = (size_t)(e - s);
            if (len >= sizeof t->tok[0])
                len = sizeof t->tok[0] - 1;
            memcpy(t->tok[t->n], s, len);
            t->tok[t->n][len] = '\0';
            t->n++;
            s = e;
        } else if (isdigit((unsigned char)*s)) {
            while (isalnum((unsigned char)*s) || *s == '.')
                s++;
        } else {
            s++;
        }
    }
}

/* The predicate of a guard "@p ..." / "@!p ..." (the reader's one spelling). */
static void guard_tokens(const sl_ptx_insn *in, tokens *t)
{
    const char *s = in->text + 1;
    if (*s == '!')
        s++;
    size_t len = strcspn(s, " \t");
    if (len >= sizeof t->tok[0])
        len = sizeof t->tok[0] - 1;
    memcpy(t->tok[0], s, len);
    t->tok[0][len] = '\0';
    t->n = len > 0;
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

/* Registers of the hardware that differ between threads of one block: the
 * thread's place, and the clocks (each warp reads its own moment). */
static int thread_varying_special(const char *tok)
{
    return strncmp(tok, "%tid", 4) == 0 || strcmp(tok, "%laneid") == 0 ||
           strncmp(tok, "%lanemask", 9) == 0 || strcmp(tok, "%warpid") == 0 ||
           strncmp(tok, "%clock", 6) == 0 || strncmp(tok, "%globaltimer", 12) == 0;
}

/* Instructions with no destination register: their first operand is read. */
static int writes_first_operand(const sl_ptx_insn *in)
{
    return !sl_ptx_matches(in,
                           "st.|bar.|barrier.|bra|ret|exit|red.|membar|fence|trap|call|prefetch|"
                           "cp.async|mbarrier.init|mbarrier.arrive_drop|@");
}

enum { MAX_PARAMS = 64 };

/* A parameter's thread-dependent parts, as a mask of its 4-byte words (bit
 * 63: every word from byte 252 on): a struct passed by value is followed
 * field by field. */
typedef uint64_t words;

/* What one function's check needs from the rest of the module: which
 * functions hold a block-wide barrier (themselves or through calls: a
 * __noinline__ helper's barrier is the caller's barrier at the call), and
 * which parameters of each some caller passes a thread-dependent value (a
 * helper that branches on its `t` parameter branches on the thread index). */
typedef struct {
    char *has_barrier;  /* per function */
    words *param_taint; /* per function, MAX_PARAMS each: its parameter k */
    words *ret_taint;   /* per function: its return value (func_retval0) */
    int changed;        /* a taint grew during this pass */
} module_facts;

/* Does the call at j reach a block-wide barrier? Through a register, any
 * function whose address the caller's module takes may be the one. */
static int call_has_barrier(const sl_ptx *p, const sl_ptx_func *f, int j, const module_facts *m)
{
    if (!m || !sl_ptx_matches(&f->insn[j], "call"))
        return 0;
    int k = sl_ptx_call_target(p, &f->insn[j]);
    if (k >= 0)
        return m->has_barrier[k];
    for (int c = 0; c < f->ncallee; c++)
        if (m->has_barrier[f->callee[c]])
            return 1;
    return 0;
}

static int full_block_barrier(const sl_ptx_insn *in);
static int whole_block_barrier_at(const sl_ptx_func *f, int j);
static int group_switch_barrier(const sl_ptx *p, const sl_ptx_func *f, int j);

/* Which functions reach a block-wide barrier, through direct and indirect
 * calls (the callee lists of sl_ptx_link_calls). A thread_group's sync()
 * (the block case of a switch on the group's type) does not count: such a
 * helper called for whole tiles under a branch is correct. */
static void find_barrier_functions(const sl_ptx *p, char *has)
{
    for (int i = 0; i < p->nfunc; i++)
        for (int j = 0; j < p->func[i].ninsn && !has[i]; j++)
            has[i] =
                whole_block_barrier_at(&p->func[i], j) && !group_switch_barrier(p, &p->func[i], j);
    sl_ptx_mark_callers(p, has);
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

/* Is the barrier at j one for the whole block? No thread count, or a count
 * that is blockDim.x (%ntid.x, directly or through one mov): the lessons'
 * blocks are one-dimensional, so that count is every thread of the block. */
static int whole_block_barrier_at(const sl_ptx_func *f, int j)
{
    const sl_ptx_insn *in = &f->insn[j];
    if (full_block_barrier(in))
        return 1;
    if (!sl_ptx_matches(in, "bar.sync|barrier.sync|barrier.cta.sync|bar.cta.sync|bar.red|"
                            "barrier.red|barrier.cta.red|bar.cta.red"))
        return 0;
    const char *ops = sl_ptx_operands(in);
    int red = sl_ptx_matches(in, "bar.red|barrier.red|barrier.cta.red|bar.cta.red");
    /* the count: the second operand of sync, the third of red */
    for (int c = 0; c < (red ? 2 : 1); c++) {
        ops = strchr(ops, ',');
        if (!ops)
            return 0;
        ops++;
    }
    while (isspace((unsigned char)*ops))
        ops++;
    size_t n = strcspn(ops, ", \t;");
    char count[32];
    if (n == 0 || n >= sizeof count)
        return 0;
    memcpy(count, ops, n);
    count[n] = '\0';
    if (strcmp(count, "%ntid.x") == 0)
        return 1;
    for (int k = j - 1; k >= 0; k--) {
        const sl_ptx_insn *d = &f->insn[k];
        tokens t;
        operand_tokens(sl_ptx_operands(d), &t);
        if (t.n == 0 || strcmp(t.tok[0], count) != 0 || !writes_first_operand(d))
            continue;
        return sl_ptx_matches(d, "mov.") && t.n == 2 && strcmp(t.tok[1], "%ntid.x") == 0;
    }
    return 0;
}

/* Marks (in dep) the blocks control-dependent on the branch ending block x:
 * those that post-dominate one of its successors but not x itself. */
static int mark_dependent(sl_cfg *g, int x, char *dep, int *cause, int cause_insn)
{
    int changed = 0;
    const sl_cfg_word *px = sl_cfg_pdom(g, x);
    for (int k = 0; k < 2; k++) {
        int s = g->succ[x][k];
        if (s < 0 || !g->live[s])
            continue;
        const sl_cfg_word *ps = sl_cfg_pdom(g, s);
        for (int y = 0; y < g->nb; y++)
            if (sl_cfg_bit(ps, y) && (y == x || !sl_cfg_bit(px, y)) && !dep[y]) {
                dep[y] = 1;
                cause[y] = cause_insn;
                changed = 1;
            }
    }
    return changed;
}

/* Can block `from` reach block `to` without passing block `avoid`? */
static int reaches(const sl_cfg *g, int from, int to, int avoid, char *seen, int *stack)
{
    memset(seen, 0, (size_t)g->nb + 1);
    int top = 0;
    stack[top++] = from;
    while (top) {
        int b = stack[--top];
        if (b == to)
            return 1;
        if (b == avoid || b < 0 || b >= g->nb || seen[b])
            continue;
        seen[b] = 1;
        for (int m = 0; m < 2; m++)
            if (g->succ[b][m] >= 0)
                stack[top++] = g->succ[b][m];
    }
    return 0;
}

/* The register a guarded branch's predicate compares with a constant
 * ("setp.gt.s16 %p5, %rs1, 3" before "@%p5 bra"), into reg, and the
 * constant; 0 when the predicate is not such a comparison. */
static int compared_register(const sl_ptx_func *f, int branch, char *reg, long *imm)
{
    tokens gt;
    guard_tokens(&f->insn[branch], &gt);
    if (gt.n == 0)
        return 0;
    for (int j = branch - 1; j >= 0; j--) {
        const sl_ptx_insn *in = &f->insn[j];
        tokens t;
        operand_tokens(sl_ptx_operands(in), &t);
        if (t.n == 0 || strcmp(t.tok[0], gt.tok[0]) != 0 || !writes_first_operand(in))
            continue;
        if (!sl_ptx_matches(in, "setp.") || t.n != 2)
            return 0;
        const char *last = strrchr(sl_ptx_operands(in), ',');
        char *end;
        *imm = last ? strtol(last + 1, &end, 0) : 0;
        if (!last || end == last + 1 || *end)
            return 0;
        snprintf(reg, 32, "%s", t.tok[1]);
        return 1;
    }
    return 0;
}

/* thread_group::sync() on a group whose type is known only at run time
 * compiles to a switch on that type: one case syncs the lanes of a tile
 * (bar.warp.sync), others the block or the grid (bar.sync). Called on a
 * tile under a branch whole tiles take, the block cases are dead code, so a
 * barrier in such a switch is not reported. Recognised from the structure,
 * not from the header it came from: a switch (one register compared with
 * several constants) whose cases, up to where they meet again, hold this
 * barrier and a tile sync in cases that exclude each other. A barrier in a
 * loop, or after a __syncwarp(), or under an if/else on the thread index,
 * stays reported. */
static int regset_has(const regset *r, const char *name);

/* Was the instruction written in a CUDA header (a cooperative group's
 * sync), by its own .loc, before inlining is resolved? */
static int from_cuda_header(const sl_ptx *p, const sl_ptx_insn *in)
{
    if (!sl_ptx_library_file(p, in->own_file) || !p->file[in->own_file])
        return 0; /* by the compiler's dependency list, never by the name alone */
    const char *path = p->file[in->own_file];
    size_t n = strlen(path);
    return strstr(path, "/include/") && !(n > 3 && strcmp(path + n - 3, ".cu") == 0) &&
           (strstr(path, "cuda") || strstr(path, "cooperative_groups"));
}

static int in_group_sync_switch(const sl_ptx *p, const sl_ptx_func *f, const sl_cfg *g,
                                int barrier_block, const regset *from_memory)
{
    int header_barrier = 0;
    for (int j = g->first[barrier_block]; j < f->ninsn && g->block_of[j] == barrier_block; j++)
        header_barrier |= whole_block_barrier_at(f, j) && from_cuda_header(p, &f->insn[j]);
    char *seen = calloc((size_t)g->nb + 1, 1);
    int *stack = malloc(((size_t)g->nb * 2 + 4) * sizeof *stack);
    int found = 0;
    for (int x = 0; x < g->nb && !found; x++) {
        int last = (x + 1 < g->nb ? g->first[x + 1] : f->ninsn) - 1;
        char reg[32];
        long imm;
        if (!sl_ptx_is_branch(&f->insn[last]) || !sl_ptx_guarded(&f->insn[last]) ||
            g->succ[x][1] < 0 || !compared_register(f, last, reg, &imm))
            continue;
        /* A group's type comes from the group object (memory, a parameter),
         * packed with thread-dependent fields, or the barrier is a group's
         * sync from a CUDA header; a __syncthreads() the student wrote in a
         * switch on a value made of the thread index and constants alone
         * ("switch (t % 3)") is no group's sync. */
        if (!regset_has(from_memory, reg) && !header_barrier)
            continue;
        int join = sl_cfg_join(g, x);
        int in_case = 0;
        for (int k = 0; k < 2 && !in_case; k++)
            in_case = reaches(g, g->succ[x][k], barrier_block, join, seen, stack);
        if (!in_case || reaches(g, barrier_block, x, join, seen, stack))
            continue;
        /* a switch: another branch of the region compares reg with another constant */
        int is_switch = 0;
        for (int y = 0; y < g->nb && !is_switch; y++) {
            int ly = (y + 1 < g->nb ? g->first[y + 1] : f->ninsn) - 1;
            char ry[32];
            long iy;
            if (y == x || !sl_ptx_is_branch(&f->insn[ly]) || !sl_ptx_guarded(&f->insn[ly]) ||
                !compared_register(f, ly, ry, &iy) || strcmp(ry, reg) != 0 || iy == imm)
                continue;
            for (int k = 0; k < 2 && !is_switch; k++)
                is_switch = reaches(g, g->succ[x][k], y, join, seen, stack);
        }
        for (int j = 0; j < f->ninsn && is_switch && !found; j++) {
            int w = g->block_of[j];
            if (!sl_ptx_matches(&f->insn[j], "bar.warp.sync") || w == barrier_block)
                continue;
            int w_in_case = 0;
            for (int k = 0; k < 2 && !w_in_case; k++)
                w_in_case = reaches(g, g->succ[x][k], w, join, seen, stack);
            found = w_in_case && !reaches(g, w, barrier_block, join, seen, stack) &&
                    !reaches(g, barrier_block, w, join, seen, stack);
        }
    }
    free(seen);
    free(stack);
    return found;
}

/* The barrier at j is a group's sync in a switch on the group's type. */
static int group_switch_barrier(const sl_ptx *p, const sl_ptx_func *f, int j)
{
    sl_cfg g;
    sl_cfg_build(f, &g);
    regset none = {0};
    int yes = in_group_sync_switch(p, f, &g, g.block_of[j], &none);
    sl_cfg_free(&g);
    return yes;
}

/* meets: the blocks of has_barrier, and those where threads arrive at the
 * barrier at j without waiting ("barrier.arrive 0, %r1" where j is
 * "barrier.sync 0, %r1"): producers that signal and leave are counted
 * there, so a side that arrives is no way round it. */
static void arrivals_at(const sl_ptx_func *f, const sl_cfg *g, int j, const char *has_barrier,
                        char *meets)
{
    memcpy(meets, has_barrier, (size_t)g->nb + 1);
    const char *ops = sl_ptx_operands(&f->insn[j]);
    while (isspace((unsigned char)*ops))
        ops++;
    size_t idn = strcspn(ops, ",; \t");
    if (sl_ptx_matches(&f->insn[j], "bar.red|barrier.red|barrier.cta.red|bar.cta.red"))
        return; /* a reduction's result is the waiters' alone */
    for (int k = 0; k < f->ninsn; k++) {
        const sl_ptx_insn *in = &f->insn[k];
        if (!sl_ptx_matches(in, "bar.arrive|barrier.arrive|barrier.cta.arrive|bar.cta.arrive"))
            continue;
        const char *a = sl_ptx_operands(in);
        while (isspace((unsigned char)*a))
            a++;
        if (idn > 0 && strcspn(a, ",; \t") == idn && strncmp(a, ops, idn) == 0 &&
            !sl_ptx_guarded(in))
            meets[g->block_of[k]] = 1;
    }
}

/* Can one side of the branch ending block x reach the join without
 * passing a block that holds a barrier? */
static int has_barrier_free_side(sl_cfg *g, int x, const char *has_barrier)
{
    int join = sl_cfg_join(g, x);
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

/* Bytes one ld.param/st.param moves; a word when its type is not sized. */
static int param_access_bytes(const sl_ptx_insn *in)
{
    int bytes = sl_ptx_access_bytes(in);
    return bytes ? bytes : 4;
}

/* The words of bytes [off, off + bytes). */
static words word_mask(long off, int bytes)
{
    words m = 0;
    for (long w = off / 4; w <= (off + bytes - 1) / 4; w++)
        m |= (words)1 << (w < 63 ? w : 63);
    return m;
}

/* In's address "[<base><digits>+<off>]": the number after base into *k and
 * the words it touches; 0 when it names another address. */
static int param_address(const sl_ptx_insn *in, const char *base, int *k, words *touched)
{
    const char *b = strchr(sl_ptx_operands(in), '[');
    size_t n = strlen(base);
    if (!b || strncmp(b + 1, base, n) != 0 || !isdigit((unsigned char)b[1 + n]))
        return 0;
    char *e;
    long idx = strtol(b + 1 + n, &e, 10), off = 0;
    if (*e == '+')
        off = strtol(e + 1, &e, 0);
    if (*e != ']' || idx < 0 || idx >= MAX_PARAMS || off < 0)
        return 0;
    *k = (int)idx;
    *touched = word_mask(off, param_access_bytes(in));
    return 1;
}

/* Does `in` load words of f's own parameter that callers fill with a
 * thread-dependent value? */
static int loads_tainted_param(const sl_ptx_func *f, int fi, const sl_ptx_insn *in,
                               const module_facts *m)
{
    char base[600];
    int k;
    words touched;
    snprintf(base, sizeof base, "%s_param_", f->name);
    return sl_ptx_matches(in, "ld.param") && param_address(in, base, &k, &touched) &&
           (m->param_taint[(size_t)fi * MAX_PARAMS + (size_t)k] & touched);
}

/* Taints the registers a load writes: "%r1" or "{%r1, %r2}", before its
 * address. */
static int taint_destinations(const sl_ptx_insn *in, regset *tainted)
{
    const char *ops = sl_ptx_operands(in);
    char dst[256];
    size_t n = strcspn(ops, "[");
    if (n >= sizeof dst)
        n = sizeof dst - 1;
    memcpy(dst, ops, n);
    dst[n] = '\0';
    tokens t;
    operand_tokens(dst, &t);
    int changed = 0;
    for (int v = 0; v < t.n; v++)
        changed |= regset_add(tainted, t.tok[v]);
    return changed;
}

/* The return value's words a call may bring back thread-dependent: its
 * callee's, or for a call through a register those of every function the
 * caller may reach (sl_ptx_link_calls). */
static words call_return_taint(const sl_ptx *p, const sl_ptx_func *f, int j, const module_facts *m)
{
    int callee = sl_ptx_call_target(p, &f->insn[j]);
    if (callee >= 0)
        return m->ret_taint[callee];
    words w = 0;
    for (int c = 0; c < f->ncallee; c++)
        w |= m->ret_taint[f->callee[c]];
    return w;
}

/* The name a call puts its return value in: "call.uni (retval0), f, ..." */
static int call_return_name(const sl_ptx_insn *in, char *name, size_t n)
{
    const char *s = sl_ptx_operands(in);
    while (isspace((unsigned char)*s))
        s++;
    if (*s != '(')
        return 0;
    s++;
    while (isspace((unsigned char)*s))
        s++;
    size_t len = 0;
    while (isalnum((unsigned char)s[len]) || s[len] == '_' || s[len] == '$')
        len++;
    while (len > 0 && isdigit((unsigned char)s[len - 1]))
        len--; /* the base: "retval" of "retval0" */
    if (len == 0 || len >= n)
        return 0;
    memcpy(name, s, len);
    name[len] = '\0';
    return 1;
}

/* The call at j passes a thread-dependent value as argument k: record it
 * on the callee's parameter k. Arguments are the names of the last "( )"
 * list; each was filled by an "st.param [name+0], %r" before the call. */
static void pass_taint_to_callee(const sl_ptx *p, const sl_ptx_func *f, int j,
                                 const regset *tainted, module_facts *m)
{
    int callee = sl_ptx_call_target(p, &f->insn[j]);
    if (callee < 0)
        return;
    const char *ops = sl_ptx_operands(&f->insn[j]);
    const char *open = strrchr(ops, '(');
    if (!open || open == ops)
        return;
    int k = 0;
    for (const char *s = open + 1; *s && *s != ')' && k < MAX_PARAMS; k++) {
        while (isspace((unsigned char)*s))
            s++;
        size_t n = strcspn(s, ", \t)");
        char arg[64];
        if (n == 0 || n >= sizeof arg)
            break;
        memcpy(arg, s, n);
        arg[n] = '\0';
        s += n;
        while (isspace((unsigned char)*s) || *s == ',')
            s++;
        /* every store into this argument since the previous call: a
         * struct's fields are stored one by one ("[param0+4]") */
        for (int d = j - 1; d >= 0 && d >= j - 256 && !sl_ptx_matches(&f->insn[d], "call"); d--) {
            const sl_ptx_insn *st = &f->insn[d];
            if (!sl_ptx_matches(st, "st.param"))
                continue;
            const char *b = strchr(sl_ptx_operands(st), '[');
            if (!b || strncmp(b + 1, arg, n) != 0 || (b[1 + n] != '+' && b[1 + n] != ']'))
                continue;
            long off = b[1 + n] == '+' ? strtol(b + 2 + n, NULL, 0) : 0;
            tokens t;
            operand_tokens(strchr(b, ']') ? strchr(b, ']') + 1 : b, &t);
            int any = 0;
            for (int v = 0; v < t.n && !any; v++)
                any = regset_has(tainted, t.tok[v]);
            words *slot = &m->param_taint[(size_t)callee * MAX_PARAMS + (size_t)k];
            words w = word_mask(off < 0 ? 0 : off, param_access_bytes(st));
            if (any && (*slot | w) != *slot) {
                *slot |= w;
                m->changed = 1;
            }
        }
    }
}

/* One function: taint from the thread index (and from the parameters m
 * says callers fill with it), then the barriers only some threads reach.
 * With report 0 it only passes taint on to callees. */
static int divergent_barrier_in(const sl_ptx *p, int fi, module_facts *m, int report, sl_text *why,
                                char *where, size_t wl)
{
    const sl_ptx_func *f = &p->func[fi];
    if (f->ninsn == 0)
        return 0;
    sl_cfg g;
    sl_cfg_build(f, &g);
    /* a trap aborts the whole kernel: not a way round a barrier */
    sl_cfg_ignore_traps(f, &g);
    regset tainted = {0};
    regset from_memory = {0}; /* values that depend on a load or a parameter */
    regset from_data = {0};   /* values that depend on a load other than a parameter */
    char *divergent = calloc((size_t)g.nb + 1, 1); /* reached by a thread-dependent subset */
    int *cause = calloc((size_t)g.nb + 1, sizeof *cause);
    int found = 0;
    for (int changed = 1, pass = 0; changed && pass < 100 && sl_ptx_budget_spend(4LL * f->ninsn);
         pass++) {
        changed = 0;
        char ret_name[32] = ""; /* where the last call put its return value */
        words ret_words = 0;    /* and which of its words depend on the thread */
        for (int j = 0; j < f->ninsn; j++) {
            const sl_ptx_insn *in = &f->insn[j];
            int b = g.block_of[j];
            int guard_tainted = 0;
            if (sl_ptx_guarded(in)) {
                tokens gt;
                guard_tokens(in, &gt);
                guard_tainted = gt.n > 0 && regset_has(&tainted, gt.tok[0]);
            }
            if (sl_ptx_is_branch(in) || (sl_ptx_guarded(in) && sl_ptx_matches(in, "ret|exit"))) {
                if (sl_ptx_guarded(in) && (guard_tainted || divergent[b]))
                    changed |= mark_dependent(&g, b, divergent, cause, j);
                continue;
            }
            if (sl_ptx_matches(in, "call")) {
                pass_taint_to_callee(p, f, j, &tainted, m);
                ret_words = call_return_taint(p, f, j, m);
                if (!call_return_name(in, ret_name, sizeof ret_name))
                    ret_name[0] = '\0';
                continue;
            }
            tokens t;
            operand_tokens(sl_ptx_operands(in), &t);
            /* a thread-dependent return value: the caller's too */
            int rk;
            words rw;
            if (sl_ptx_matches(in, "st.param") && param_address(in, "func_retval", &rk, &rw)) {
                int any = guard_tainted;
                for (int v = 0; v < t.n && !any; v++)
                    any = regset_has(&tainted, t.tok[v]);
                if (any && rk == 0 && (m->ret_taint[fi] | rw) != m->ret_taint[fi]) {
                    m->ret_taint[fi] |= rw;
                    m->changed = 1;
                }
                continue;
            }
            if (writes_first_operand(in) && t.n > 0) {
                int loaded = sl_ptx_matches(in, "ld.|ldu.|atom.");
                int data = loaded && !sl_ptx_matches(in, "ld.param");
                for (int k = 1; k < t.n; k++) {
                    loaded |= regset_has(&from_memory, t.tok[k]);
                    data |= regset_has(&from_data, t.tok[k]);
                }
                if (loaded)
                    changed |= regset_add(&from_memory, t.tok[0]);
                if (data)
                    changed |= regset_add(&from_data, t.tok[0]);
            }
            if (t.n > 0 && (loads_tainted_param(f, fi, in, m) ||
                            (ret_name[0] && sl_ptx_matches(in, "ld.param") &&
                             param_address(in, ret_name, &rk, &rw) && (ret_words & rw)))) {
                changed |= taint_destinations(in, &tainted);
                continue;
            }
            /* Loaded values are left out: a barrier under a data-dependent
             * branch is rare in practice, and values that happen to be
             * uniform (a block total every thread read from shared memory)
             * would otherwise look thread-dependent. Shuffles, votes and
             * warp reductions of values made from the thread index and
             * parameters alone are followed: they differ from warp to warp
             * at least (__any_sync(full, i < n) is false in warps past n).
             * Of loaded data they are not (a warp scan of block totals
             * read from shared memory, broadcast from lane 31, is the same
             * in every warp). */
            if (!writes_first_operand(in) || sl_ptx_matches(in, "ld.|ldu.|atom."))
                continue;
            if (sl_ptx_matches(in, "shfl.|vote.|redux.|match.")) {
                int data = 0;
                for (int k = 1; k < t.n; k++)
                    data |= regset_has(&from_data, t.tok[k]);
                if (data)
                    continue;
            }
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
        if (whole_block_barrier_at(f, j) || call_has_barrier(p, f, j, m))
            has_barrier[g.block_of[j]] = 1;
    char *meets = calloc((size_t)g.nb + 1, 1); /* has_barrier, and arrivals at this one */
    for (int j = 0; j < f->ninsn && !found && report && sl_ptx_budget_spend(1); j++) {
        int via_call = !whole_block_barrier_at(f, j) && call_has_barrier(p, f, j, m);
        if (!whole_block_barrier_at(f, j) && !via_call)
            continue;
        /* "@%p bar.sync 0" with p from the thread index: only some arrive */
        int pred_tainted = 0;
        if (sl_ptx_guarded(&f->insn[j]) && g.live[g.block_of[j]]) {
            tokens gt;
            guard_tokens(&f->insn[j], &gt);
            pred_tainted = gt.n > 0 && regset_has(&tainted, gt.tok[0]);
        }
        if (pred_tainted) {
            cause[g.block_of[j]] = j;
        } else {
            if (!divergent[g.block_of[j]])
                continue;
            if (in_group_sync_switch(p, f, &g, g.block_of[j], &from_memory))
                continue;
            /* The compiler may copy a barrier into both sides of a branch: that
             * is fine as long as every path meets one. Report only when the
             * branch that makes it divergent also has a way round it. */
            int x = g.block_of[cause[g.block_of[j]]];
            sl_ptx_budget_spend(2LL * g.nb);
            arrivals_at(f, &g, j, has_barrier, meets);
            if (!has_barrier_free_side(&g, x, meets))
                continue;
        }
        sl_text_printf(why, via_call ? "the call " : "the block-wide barrier ");
        sl_ptx_say(p, &f->insn[j], why, where, wl);
        if (via_call)
            sl_text_printf(why, ", which reaches a block-wide barrier,");
        sl_text_printf(why, " is inside a branch or loop that depends on the thread index (");
        sl_ptx_say(p, &f->insn[cause[g.block_of[j]]], why, where, wl);
        /* what is wrong, not the fix: that is the hint ladder's last step */
        sl_text_printf(why, "): threads that skip it never arrive, so the threads that wait "
                            "there wait for them (found in the PTX; synccheck does not always "
                            "see it)");
        found = 1;
    }
    free(has_barrier);
    free(meets);
    free(tainted.name);
    free(from_memory.name);
    free(from_data.name);
    free(divergent);
    free(cause);
    sl_cfg_free(&g);
    return found;
}

int sl_ptx_divergent_barrier(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                             void *arg, sl_text *why, char *where, size_t wherelen)
{
    if (wherelen)
        where[0] = '\0';
    /* the exercise's functions and every function they call */
    char *mark = calloc((size_t)p->nfunc + 1, 1);
    if (!mark)
        abort();
    sl_ptx_scope(p, in_scope, arg, mark);
    module_facts m = {calloc((size_t)p->nfunc + 1, 1),
                      calloc(((size_t)p->nfunc + 1) * MAX_PARAMS, sizeof(words)),
                      calloc((size_t)p->nfunc + 1, sizeof(words)), 0};
    if (!m.has_barrier || !m.param_taint || !m.ret_taint)
        abort();
    find_barrier_functions(p, m.has_barrier);
    /* the thread index passed down to helpers, until nothing new is passed */
    for (int round = 0; round < 16; round++) {
        m.changed = 0;
        for (int i = 0; i < p->nfunc; i++)
            if (mark[i])
                divergent_barrier_in(p, i, &m, 0, why, where, wherelen);
        if (!m.changed)
            break;
    }
    int found = 0;
    for (int i = 0; i < p->nfunc && !found; i++)
        found = mark[i] && divergent_barrier_in(p, i, &m, 1, why, where, wherelen);
    free(m.has_barrier);
    free(m.param_taint);
    free(m.ret_taint);
    free(mark);
    return found;
}
