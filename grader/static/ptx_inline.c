/* Calls followed into the functions they call (ptx_inline.h). */
#include "ptx_inline.h"
#include "ptx_budget.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_cfg.h"
#include "text.h"

enum { MAX_LIST = 64 };

static char *dup_text(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        abort();
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static const char *skip_space(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* As ptx.c names registers and labels: ptx_flow.c reads a whole
 * "%rd1__scope2__in3" as one register (its ident_char also takes '.', so
 * "%tid.x" is one name there). */
static int name_start(int c) { return isalpha(c) || c == '_' || c == '$'; }
static int name_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* ---------- renaming ---------- */

/* The hardware's registers ("%tid" of "%tid.x") are the same in every
 * function; nvcc's (%r, %rd, %p, %SP, ...) are the function's own. */
static int special_register(const char *s, size_t n)
{
    static const char *const names[] = {"tid",
                                        "ntid",
                                        "laneid",
                                        "warpid",
                                        "nwarpid",
                                        "ctaid",
                                        "nctaid",
                                        "smid",
                                        "nsmid",
                                        "gridid",
                                        "clock",
                                        "clock64",
                                        "clock_hi",
                                        "lanemask_eq",
                                        "lanemask_le",
                                        "lanemask_lt",
                                        "lanemask_ge",
                                        "lanemask_gt",
                                        "globaltimer",
                                        "globaltimer_lo",
                                        "globaltimer_hi",
                                        "total_smem_size",
                                        "dynamic_smem_size",
                                        "aggr_smem_size",
                                        "reserved_smem_offset_begin",
                                        "reserved_smem_offset_end",
                                        "reserved_smem_offset_cap",
                                        "reserved_smem_offset_0",
                                        "reserved_smem_offset_1",
                                        "is_explicit_cluster",
                                        "clusterid",
                                        "nclusterid",
                                        "cluster_ctaid",
                                        "cluster_nctaid",
                                        "cluster_ctarank",
                                        "cluster_nctarank",
                                        "current_graph_exec"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && strncmp(names[i], s, n) == 0)
            return 1;
    /* %envreg0..31, %pm0..7, %pm0_64.. */
    size_t k = n >= 6 && strncmp(s, "envreg", 6) == 0 ? 6
               : n >= 2 && strncmp(s, "pm", 2) == 0   ? 2
                                                      : 0;
    if (!k || k == n || !isdigit((unsigned char)s[k]))
        return 0;
    while (k < n && isdigit((unsigned char)s[k]))
        k++;
    return k == n || (n - k == 3 && strncmp(s + k, "_64", 3) == 0);
}

/* A register an inner { } block declared without '%' (inline asm's
 * ".reg .pred p"), as ptx.c renamed it: "p__scope4". */
static int scoped_name(const char *s, size_t n)
{
    size_t d = n;
    while (d > 0 && isdigit((unsigned char)s[d - 1]))
        d--;
    return d < n && d >= 7 && strncmp(s + d - 7, "__scope", 7) == 0;
}

static int is_label(const sl_ptx_func *f, const char *s, size_t n)
{
    for (int i = 0; i < f->nlabel; i++)
        if (strlen(f->label[i]) == n && strncmp(f->label[i], s, n) == 0)
            return 1;
    return 0;
}

/* text with f's registers and labels suffixed by sfx ("" keeps it). */
static char *rename_text(const char *text, const sl_ptx_func *f, const char *sfx)
{
    if (!*sfx)
        return dup_text(text, strlen(text));
    sl_text out = {0};
    for (const char *s = text; *s;) {
        int after_name = s > text && (name_char((unsigned char)s[-1]) || s[-1] == '.');
        if (after_name || !(*s == '%' || name_start((unsigned char)*s))) {
            sl_text_append(&out, s++, 1);
            continue;
        }
        const char *b = s + (*s == '%'), *e = b;
        while (*e && name_char((unsigned char)*e))
            e++;
        size_t n = (size_t)(e - b);
        int rename = *s == '%' ? n > 0 && !special_register(b, n)
                               : is_label(f, s, (size_t)(e - s)) || scoped_name(s, n);
        sl_text_append(&out, s, (size_t)(e - s));
        if (rename)
            sl_text_printf(&out, "%s", sfx);
        s = e;
    }
    char *r = dup_text(sl_text_str(&out), out.len);
    sl_text_free(&out);
    return r;
}

/* ---------- calls and their parameters ---------- */

typedef struct {
    const char *s;
    size_t n;
} span;

typedef struct {
    int callee; /* a function of the module, -1: none (indirect, extern) */
    span ret[MAX_LIST], arg[MAX_LIST];
    int nret, narg;
} call_site;

/* "(a, b)" at *s: the names, trimmed; advances past ')'. 0 when too many. */
static int read_list(const char **s, span *out, int *n)
{
    const char *q = *s + 1;
    *n = 0;
    for (;;) {
        q = skip_space(q);
        if (*q == ')' || !*q)
            break;
        const char *e = q;
        while (*e && *e != ',' && *e != ')')
            e++;
        size_t len = (size_t)(e - q);
        while (len && isspace((unsigned char)q[len - 1]))
            len--;
        if (*n == MAX_LIST)
            return 0;
        out[(*n)++] = (span){q, len};
        q = *e == ',' ? e + 1 : e;
    }
    *s = *q ? q + 1 : q;
    return 1;
}

/* "call.uni (retval0), name, (param0, param1)": 0 when not a direct call
 * of a function defined in the module. */
static int parse_call(const sl_ptx *p, const sl_ptx_insn *in, call_site *c)
{
    memset(c, 0, sizeof *c);
    c->callee = -1;
    if (!sl_ptx_matches(in, "call"))
        return 0;
    const char *s = skip_space(sl_ptx_operands(in));
    if (*s == '(') {
        if (!read_list(&s, c->ret, &c->nret))
            return 0;
        s = skip_space(s);
        if (*s == ',')
            s = skip_space(s + 1);
    }
    if (!name_start((unsigned char)*s))
        return 0; /* through a register */
    const char *e = s;
    while (*e && name_char((unsigned char)*e))
        e++;
    char *name = dup_text(s, (size_t)(e - s));
    c->callee = sl_ptx_function_index(p, name);
    free(name);
    s = skip_space(e);
    if (*s == ',')
        s = skip_space(s + 1);
    if (*s == '(' && !read_list(&s, c->arg, &c->narg))
        return 0;
    return c->callee >= 0;
}

/* "[name+8]" in ops: the name and the offset. */
static int param_ref(const char *ops, span *name, long *off)
{
    const char *b = strchr(ops, '[');
    if (!b)
        return 0;
    const char *s = skip_space(b + 1), *e = s;
    while (*e && name_char((unsigned char)*e))
        e++;
    if (e == s)
        return 0;
    *name = (span){s, (size_t)(e - s)};
    e = skip_space(e);
    *off = 0;
    if (*e == '+')
        *off = strtol(e + 1, NULL, 0);
    return 1;
}

static int span_is(span a, span b) { return a.n == b.n && strncmp(a.s, b.s, a.n) == 0; }

static int list_index(const span *list, int n, span name)
{
    for (int i = 0; i < n; i++)
        if (span_is(list[i], name))
            return i;
    return -1;
}

/* "<prefix><digits>" (name of the callee's parameter k, "func_retval0"):
 * the number, or -1. */
static int numbered(span name, const char *prefix, size_t plen)
{
    if (name.n <= plen || strncmp(name.s, prefix, plen) != 0)
        return -1;
    for (size_t i = plen; i < name.n; i++)
        if (!isdigit((unsigned char)name.s[i]))
            return -1;
    return atoi(name.s + plen);
}

/* The operand before the '[' of "ld.param.u64 %rd1, [p+0]" (maybe "{%r1, %r2}"),
 * or after the ']' of "st.param.b32 [p+0], %r3". */
static span load_dest(const char *ops)
{
    const char *b = strchr(ops, '['), *e = b;
    while (e > ops && *e != ',')
        e--;
    while (e > ops && isspace((unsigned char)e[-1]))
        e--;
    ops = skip_space(ops);
    return (span){ops, e > ops ? (size_t)(e - ops) : 0};
}

static span store_value(const char *ops)
{
    const char *e = strchr(ops, ']');
    e = e ? skip_space(e + 1) : ops + strlen(ops);
    if (*e == ',')
        e = skip_space(e + 1);
    size_t n = strlen(e);
    while (n && isspace((unsigned char)e[n - 1]))
        n--;
    return (span){e, n};
}

/* The parameter (or return value) k at offset off: the caller's operand. */
typedef struct {
    int k;
    long off;
    char *text;
} binding;

typedef struct {
    binding *b;
    int n;
} bindings;

static const binding *bound(const bindings *bs, int k, long off)
{
    for (int i = 0; bs && i < bs->n; i++)
        if (bs->b[i].k == k && bs->b[i].off == off)
            return &bs->b[i];
    return NULL;
}

static void bind(bindings *bs, int k, long off, char *text)
{
    bs->b = realloc(bs->b, (size_t)(bs->n + 1) * sizeof *bs->b);
    if (!bs->b)
        abort();
    bs->b[bs->n++] = (binding){k, off, text};
}

static void bindings_free(bindings *bs)
{
    for (int i = 0; i < bs->n; i++)
        free(bs->b[i].text);
    free(bs->b);
    memset(bs, 0, sizeof *bs);
}

/* ---------- the copy ---------- */

typedef struct {
    const sl_ptx *p;
    int (*skip)(const sl_ptx *p, int function);
    int max_insn;
    sl_ptx_func *out;
    char *inlined;
    int stack[SL_INLINE_MAX_DEPTH + 1]; /* the functions being copied */
    int depth;
    int next_id;
    int calls;
    int too_big;
} inliner;

/* A call that is replaced: its callee, arguments, results. */
typedef struct {
    call_site c;
    bindings args, rets;
} site;

static void emit(inliner *in, const sl_ptx_insn *loc, char *text)
{
    sl_ptx_func *f = in->out;
    if (f->ninsn >= in->max_insn || !sl_ptx_budget_spend(1)) {
        in->too_big = 1;
        free(text);
        return;
    }
    f->insn = realloc(f->insn, (size_t)(f->ninsn + 1) * sizeof *f->insn);
    if (!f->insn)
        abort();
    f->insn[f->ninsn] = *loc;
    f->insn[f->ninsn++].text = text;
}

static void emit_label(inliner *in, char *name)
{
    sl_ptx_func *f = in->out;
    f->label = realloc(f->label, (size_t)(f->nlabel + 1) * sizeof *f->label);
    f->label_at = realloc(f->label_at, (size_t)(f->nlabel + 1) * sizeof *f->label_at);
    if (!f->label || !f->label_at)
        abort();
    f->label[f->nlabel] = name;
    f->label_at[f->nlabel++] = f->ninsn;
}

static int can_copy(const inliner *in, int g)
{
    if (g < 0 || in->p->func[g].is_entry || in->depth >= SL_INLINE_MAX_DEPTH ||
        (in->skip && in->skip(in->p, g)))
        return 0;
    for (int d = 0; d <= in->depth; d++)
        if (in->stack[d] == g)
            return 0; /* recursion */
    return 1;
}

/* Does callee g read only parameters the call passes, each with ld.param
 * "[<g>_param_K+off]"? (An address taken of one, "mov %rd1, g_param_0",
 * would need the parameter's memory: such a call is kept.) */
static int params_bound(const sl_ptx_func *g, const bindings *args)
{
    size_t gl = strlen(g->name);
    for (int j = 0; j < g->ninsn; j++) {
        const char *t = g->insn[j].text;
        for (const char *s = strstr(t, g->name); s; s = strstr(s + 1, g->name)) {
            if (strncmp(s + gl, "_param_", 7) != 0)
                continue;
            span name;
            long off;
            if (!sl_ptx_matches(&g->insn[j], "ld.param") ||
                !param_ref(sl_ptx_operands(&g->insn[j]), &name, &off))
                return 0;
            int k = name.n > gl && strncmp(name.s, g->name, gl) == 0
                        ? numbered((span){name.s + gl, name.n - gl}, "_param_", 7)
                        : -1;
            if (k < 0 || !bound(args, k, off))
                return 0;
        }
    }
    return 1;
}

/* The call at j of f, when it is copied: the st.param of its arguments
 * since the previous call, the ld.param of its results before the next
 * (nvcc's callseq block), each marked in drop. */
static int plan_call(inliner *in, const sl_ptx_func *f, int j, const char *sfx, site *st,
                     char *drop)
{
    if (!parse_call(in->p, &f->insn[j], &st->c) || !can_copy(in, st->c.callee))
        return 0;
    char *mine = calloc((size_t)f->ninsn + 1, 1);
    for (int i = j - 1; i >= 0 && !sl_ptx_matches(&f->insn[i], "call"); i--) {
        span name;
        long off;
        int k;
        if (!sl_ptx_matches(&f->insn[i], "st.param") ||
            !param_ref(sl_ptx_operands(&f->insn[i]), &name, &off) ||
            (k = list_index(st->c.arg, st->c.narg, name)) < 0)
            continue;
        mine[i] = 1;
        if (bound(&st->args, k, off))
            continue; /* the latest store is the one passed */
        span v = store_value(sl_ptx_operands(&f->insn[i]));
        char *raw = dup_text(v.s, v.n);
        bind(&st->args, k, off, rename_text(raw, f, sfx));
        free(raw);
    }
    for (int i = j + 1; i < f->ninsn && !sl_ptx_matches(&f->insn[i], "call"); i++) {
        span name;
        long off;
        int k;
        if (!sl_ptx_matches(&f->insn[i], "ld.param") ||
            !param_ref(sl_ptx_operands(&f->insn[i]), &name, &off) ||
            (k = list_index(st->c.ret, st->c.nret, name)) < 0)
            continue;
        mine[i] = 1;
        span d = load_dest(sl_ptx_operands(&f->insn[i]));
        char *raw = dup_text(d.s, d.n);
        bind(&st->rets, k, off, rename_text(raw, f, sfx));
        free(raw);
    }
    int ok = params_bound(&in->p->func[st->c.callee], &st->args);
    for (int i = 0; ok && i < f->ninsn; i++)
        drop[i] |= mine[i];
    free(mine);
    if (!ok) {
        bindings_free(&st->args);
        bindings_free(&st->rets);
    }
    return ok;
}

/* "@%p1 " of an instruction, renamed; "" when unguarded. */
static char *guard_of(const sl_ptx_insn *ins, const sl_ptx_func *f, const char *sfx)
{
    size_t olen;
    const char *op = sl_ptx_opcode(ins, &olen);
    char *raw = dup_text(ins->text, (size_t)(op - ins->text));
    char *g = rename_text(raw, f, sfx);
    free(raw);
    return g;
}

/* "mov<type> dst, src" for "ld.param.u64" / "st.param.v2.b32". */
static char *move(const sl_ptx_insn *ins, const char *guard, const char *dst, const char *src)
{
    size_t olen;
    const char *op = sl_ptx_opcode(ins, &olen);
    const char *type = op + 8;       /* after "ld.param" / "st.param" */
    if (strncmp(type, "::", 2) == 0) /* ld.param::func */
        while (type < op + olen && *type != '.')
            type++;
    sl_text t = {0};
    sl_text_printf(&t, "%smov%.*s %s, %s", guard, (int)(op + olen - type), type, dst, src);
    char *r = dup_text(sl_text_str(&t), t.len);
    sl_text_free(&t);
    return r;
}

static void emit_function(inliner *in, int fi, const char *sfx, const bindings *args,
                          const bindings *rets, const char *end_label);

static void emit_call(inliner *in, const sl_ptx_func *f, int j, const char *sfx, site *st)
{
    int id = ++in->next_id;
    char sub[32], end[48];
    snprintf(sub, sizeof sub, "__in%d", id);
    snprintf(end, sizeof end, "$L__ret__in%d", id);
    const sl_ptx_insn *call = &f->insn[j];
    if (sl_ptx_guarded(call)) { /* "@%p call": skip the copy when !%p */
        char *g = guard_of(call, f, sfx);
        int neg = g[1] == '!';
        const char *reg = g + 1 + neg;
        sl_text t = {0};
        sl_text_printf(&t, "@%s%.*s bra %s", neg ? "" : "!", (int)strcspn(reg, " "), reg, end);
        free(g);
        emit(in, call, dup_text(sl_text_str(&t), t.len));
        sl_text_free(&t);
    }
    in->stack[++in->depth] = st->c.callee;
    emit_function(in, st->c.callee, sub, &st->args, &st->rets, end);
    in->depth--;
    emit_label(in, dup_text(end, strlen(end)));
    if (in->inlined)
        in->inlined[st->c.callee] = 1;
    in->calls++;
}

/* Instruction j of a copied callee f: parameters and results become movs,
 * ret a branch to end_label, the rest is renamed. */
static char *translate(const sl_ptx_func *f, int j, const char *sfx, const bindings *args,
                       const bindings *rets, const char *end_label)
{
    const sl_ptx_insn *ins = &f->insn[j];
    const char *ops = sl_ptx_operands(ins);
    char *text = NULL, *guard = guard_of(ins, f, sfx);
    span name;
    long off;
    size_t gl = strlen(f->name);
    if (sl_ptx_matches(ins, "ld.param") && param_ref(ops, &name, &off) && name.n > gl &&
        strncmp(name.s, f->name, gl) == 0) {
        /* params_bound checked that it is bound */
        const binding *b =
            bound(args, numbered((span){name.s + gl, name.n - gl}, "_param_", 7), off);
        span d = load_dest(ops);
        char *raw = dup_text(d.s, d.n), *dst = rename_text(raw, f, sfx);
        text = move(ins, guard, dst, b ? b->text : "0");
        free(raw);
        free(dst);
    } else if (sl_ptx_matches(ins, "st.param") && param_ref(ops, &name, &off) &&
               numbered(name, "func_retval", 11) >= 0) {
        const binding *b = bound(rets, numbered(name, "func_retval", 11), off);
        if (b) {
            span v = store_value(ops);
            char *raw = dup_text(v.s, v.n), *src = rename_text(raw, f, sfx);
            text = move(ins, guard, b->text, src);
            free(raw);
            free(src);
        } else {
            text = dup_text("", 0); /* a result the caller does not read */
        }
    } else if (sl_ptx_matches(ins, "ret")) {
        sl_text t = {0};
        sl_text_printf(&t, "%sbra%s %s", guard, *guard ? "" : ".uni", end_label);
        text = dup_text(sl_text_str(&t), t.len);
        sl_text_free(&t);
    } else {
        text = rename_text(ins->text, f, sfx);
    }
    free(guard);
    return text;
}

/* Copies function fi into in->out with suffix sfx ("" for the root, which
 * keeps its names and its ret), replacing the calls it can. */
static void emit_function(inliner *in, int fi, const char *sfx, const bindings *args,
                          const bindings *rets, const char *end_label)
{
    const sl_ptx_func *f = &in->p->func[fi];
    char *drop = calloc((size_t)f->ninsn + 1, 1);
    site *sites = calloc((size_t)f->ninsn + 1, sizeof *sites);
    char *planned = calloc((size_t)f->ninsn + 1, 1);
    for (int j = 0; j < f->ninsn; j++)
        planned[j] = (char)plan_call(in, f, j, sfx, &sites[j], drop);
    for (int j = 0; j <= f->ninsn && !in->too_big; j++) {
        for (int l = 0; l < f->nlabel; l++)
            if (f->label_at[l] == j)
                emit_label(in, rename_text(f->label[l], f, sfx));
        if (j == f->ninsn || drop[j])
            continue;
        if (planned[j]) {
            emit_call(in, f, j, sfx, &sites[j]);
            continue;
        }
        char *t = *sfx ? translate(f, j, sfx, args, rets, end_label)
                       : dup_text(f->insn[j].text, strlen(f->insn[j].text));
        if (*t)
            emit(in, &f->insn[j], t);
        else
            free(t);
    }
    for (int j = 0; j < f->ninsn; j++) {
        bindings_free(&sites[j].args);
        bindings_free(&sites[j].rets);
    }
    free(sites);
    free(planned);
    free(drop);
}

void sl_ptx_func_free(sl_ptx_func *f)
{
    for (int j = 0; j < f->ninsn; j++)
        free(f->insn[j].text);
    free(f->insn);
    free(f->name);
    for (int j = 0; j < f->nlabel; j++)
        free(f->label[j]);
    free(f->label);
    free(f->label_at);
    free(f->callee);
    memset(f, 0, sizeof *f);
}

int sl_ptx_inline(const sl_ptx *p, int fi, int (*skip)(const sl_ptx *p, int function), int max_insn,
                  sl_ptx_func *out, char *inlined)
{
    if (fi < 0 || fi >= p->nfunc)
        return 0;
    sl_ptx_func copy = {0};
    copy.name = dup_text(p->func[fi].name, strlen(p->func[fi].name));
    copy.is_entry = p->func[fi].is_entry;
    char *marks = calloc((size_t)p->nfunc + 1, 1);
    inliner in = {p, skip, max_insn > 0 ? max_insn : SL_INLINE_MAX_INSN, &copy, marks, {fi}, 0, 0,
                  0, 0};
    emit_function(&in, fi, "", NULL, NULL, NULL);
    int n = in.too_big ? -1 : in.calls;
    if (n > 0) {
        *out = copy;
        for (int g = 0; inlined && g < p->nfunc; g++)
            inlined[g] |= marks[g];
    } else {
        sl_ptx_func_free(&copy);
    }
    free(marks);
    return n;
}

/* ---------- per kernel ---------- */

void sl_ptx_inline_kernels(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                           void *arg, int (*skip)(const sl_ptx *p, int function), sl_ptx_inlined *m)
{
    size_t n = (size_t)p->nfunc + 1;
    m->p = p;
    m->body = calloc(n, sizeof *m->body);
    m->has_body = calloc(n, 1);
    m->covered = calloc(n, 1);
    if (!m->body || !m->has_body || !m->covered)
        abort();
    for (int i = 0; i < p->nfunc; i++) {
        const sl_ptx_func *f = &p->func[i];
        if (!f->is_entry || (in_scope && !in_scope(f->name, arg)) || (skip && skip(p, i)))
            continue;
        m->has_body[i] = sl_ptx_inline(p, i, skip, SL_INLINE_MAX_INSN, &m->body[i], m->covered) > 0;
    }
}

const sl_ptx_func *sl_ptx_inlined_view(const sl_ptx_inlined *m, int i)
{
    if (m->has_body[i])
        return &m->body[i];
    if (m->covered[i] && !m->p->func[i].is_entry)
        return NULL;
    return &m->p->func[i];
}

void sl_ptx_inlined_free(sl_ptx_inlined *m)
{
    for (int i = 0; m->p && i < m->p->nfunc; i++)
        if (m->has_body[i])
            sl_ptx_func_free(&m->body[i]);
    free(m->body);
    free(m->has_body);
    free(m->covered);
    memset(m, 0, sizeof *m);
}
