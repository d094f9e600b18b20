#include "ptx_flow.h"
#include "ptx_budget.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- registers ---------- */

typedef struct {
    sl_flow *fl;
    int *slot; /* open addressing: register id + 1, 0 empty */
    int nslot;
} reg_table;

static unsigned name_hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void table_grow(reg_table *t);

static int reg_id(reg_table *t, const char *s, size_t n)
{
    if (n >= sizeof t->fl->reg[0])
        n = sizeof t->fl->reg[0] - 1;
    if ((t->fl->nreg + 1) * 2 >= t->nslot)
        table_grow(t);
    unsigned h = name_hash(s, n) % (unsigned)t->nslot;
    for (;; h = (h + 1) % (unsigned)t->nslot) {
        int id = t->slot[h] - 1;
        if (id < 0)
            break;
        if (strlen(t->fl->reg[id]) == n && strncmp(t->fl->reg[id], s, n) == 0)
            return id;
    }
    sl_flow *fl = t->fl;
    int id = fl->nreg++;
    fl->reg = realloc(fl->reg, (size_t)fl->nreg * sizeof *fl->reg);
    fl->base = realloc(fl->base, (size_t)fl->nreg * sizeof *fl->base);
    fl->taint = realloc(fl->taint, (size_t)fl->nreg * sizeof *fl->taint);
    fl->ndef = realloc(fl->ndef, (size_t)fl->nreg * sizeof *fl->ndef);
    memcpy(fl->reg[id], s, n);
    fl->reg[id][n] = '\0';
    fl->base[id] = 0;
    fl->ndef[id] = 0;
    const char *r = fl->reg[id];
    fl->taint[id] = strncmp(r, "%tid", 4) == 0 || strcmp(r, "%laneid") == 0 ||
                            strncmp(r, "%lanemask", 9) == 0 || strcmp(r, "%warpid") == 0
                        ? SL_TAINT_TID
                    : strncmp(r, "%ctaid", 6) == 0 || strncmp(r, "%cluster_ctaid", 14) == 0 ||
                            strncmp(r, "%clusterid", 10) == 0
                        ? SL_TAINT_CTAID
                        : 0;
    t->slot[h] = id + 1;
    return id;
}

static void table_grow(reg_table *t)
{
    int n = t->nslot ? t->nslot * 2 : 256;
    free(t->slot);
    t->slot = calloc((size_t)n, sizeof *t->slot);
    t->nslot = n;
    for (int id = 0; id < t->fl->nreg; id++) {
        const char *s = t->fl->reg[id];
        unsigned h = name_hash(s, strlen(s)) % (unsigned)n;
        while (t->slot[h])
            h = (h + 1) % (unsigned)n;
        t->slot[h] = id + 1;
    }
}

/* ---------- operands ---------- */

static int ident_start(int c) { return isalpha(c) || c == '_' || c == '$'; }
static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

/* A variable's bit: "<kernel>_param_3" is parameter 3. */
static sl_bases symbol_bits(const char *s, size_t n)
{
    size_t d = n;
    while (d > 0 && isdigit((unsigned char)s[d - 1]))
        d--;
    if (d < n && d >= 7 && strncmp(s + d - 7, "_param_", 7) == 0) {
        int k = atoi(s + d);
        return k < SL_BASE_SYMBOLS ? (sl_bases)1 << k : (sl_bases)1 << SL_BASE_UNKNOWN;
    }
    unsigned h = name_hash(s, n) % (SL_BASE_SHARED - SL_BASE_SYMBOLS);
    return (sl_bases)1 << (SL_BASE_SYMBOLS + h);
}

static int has_part(const char *op, size_t olen, const char *part)
{
    size_t n = strlen(part);
    for (size_t i = 0; i + n <= olen; i++)
        if (strncmp(op + i, part, n) == 0)
            return 1;
    return 0;
}

static int starts(const char *op, size_t olen, const char *prefixes)
{
    for (const char *p = prefixes; *p;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n <= olen && strncmp(op, p, n) == 0)
            return 1;
        if (!bar)
            break;
        p = bar + 1;
    }
    return 0;
}

/* Instructions that write no register: their first operand is read. */
static int writes_first_operand(const char *op, size_t olen)
{
    return !starts(op, olen,
                   "st.|red.|bar.sync|bar.arrive|bar.warp|barrier.sync|barrier.arrive|"
                   "barrier.cta.sync|barrier.cta.arrive|bar.cta.sync|bar.cta.arrive|"
                   "bra|ret|exit|trap|call|membar|fence|prefetch|cp.|mbarrier.init|"
                   "mbarrier.inval|nanosleep|brkpt|pmevent|griddepcontrol|setmaxnreg|"
                   "discard|applypriority|multimem.st|multimem.red|stmatrix|"
                   "tensormap.cp");
}

static int is_memory_op(const char *op, size_t olen)
{
    return starts(op, olen, "ld.|ldu.|st.|atom.|red.");
}

static char space_of(const char *op, size_t olen)
{
    if (!is_memory_op(op, olen))
        return 0;
    if (has_part(op, olen, ".global"))
        return 'g';
    if (has_part(op, olen, ".shared"))
        return 's';
    if (has_part(op, olen, ".local"))
        return 'l';
    if (has_part(op, olen, ".param"))
        return 'p';
    if (has_part(op, olen, ".const"))
        return 'c';
    return 'G';
}

static void add_src(sl_flow_insn *fi, int r, int opnd)
{
    if (fi->nsrc < SL_FLOW_MAX_SRC) {
        fi->src_op[fi->nsrc] = opnd;
        fi->src[fi->nsrc++] = r;
    }
}

/* Operands split at top-level commas; registers of operand 0 are written
 * when the instruction writes its first operand. */
static void read_operands(reg_table *t, const char *ops, int writer, int is_call, sl_flow_insn *fi)
{
    int opnd = 0, depth = 0, nbracket = 0;
    for (const char *s = ops; *s;) {
        char c = *s;
        if (c == ',' && depth == 0) {
            opnd++;
            s++;
        } else if (c == '{' || c == '(') {
            depth++;
            s++;
        } else if (c == '}' || c == ')') {
            depth--;
            s++;
        } else if (c == '[') {
            const char *e = strchr(s, ']');
            if (!e)
                e = s + strlen(s);
            int second = nbracket++ > 0;
            for (const char *q = s + 1; q < e;) {
                if (*q == '%') {
                    const char *r = q + 1;
                    while (r < e && ident_char((unsigned char)*r))
                        r++;
                    int id = reg_id(t, q, (size_t)(r - q));
                    if (second) {
                        if (fi->addr2 < 0)
                            fi->addr2 = id;
                    } else if (fi->addr < 0)
                        fi->addr = id;
                    add_src(fi, id, opnd);
                    q = r;
                } else if (ident_start((unsigned char)*q)) {
                    const char *r = q;
                    while (r < e && ident_char((unsigned char)*r))
                        r++;
                    if (second)
                        fi->addr2_sym |= symbol_bits(q, (size_t)(r - q));
                    else
                        fi->addr_sym |= symbol_bits(q, (size_t)(r - q));
                    q = r;
                } else {
                    q++;
                }
            }
            s = *e ? e + 1 : e;
        } else if (c == '%') {
            const char *r = s + 1;
            while (*r && ident_char((unsigned char)*r))
                r++;
            if (!is_call) {
                int id = reg_id(t, s, (size_t)(r - s));
                if (writer && opnd == 0 && depth <= 1) {
                    if (fi->ndst < SL_FLOW_MAX_DST)
                        fi->dst[fi->ndst++] = id;
                } else {
                    add_src(fi, id, opnd);
                }
            }
            s = r;
        } else {
            s++;
        }
    }
}

/* ---------- facts ---------- */

static int is64(const char *op, size_t olen)
{
    return (has_part(op, olen, ".u64") || has_part(op, olen, ".b64") ||
            has_part(op, olen, ".s64")) &&
           !has_part(op, olen, ".v2") && !has_part(op, olen, ".v4");
}

/* The symbol a "mov %r, name" copies, as bits; 0 when it copies a register
 * or a number. */
static sl_bases moved_symbol(const sl_ptx_insn *in)
{
    const char *ops = sl_ptx_operands(in);
    const char *comma = strchr(ops, ',');
    if (!comma)
        return 0;
    const char *s = comma + 1;
    while (isspace((unsigned char)*s))
        s++;
    if (!ident_start((unsigned char)*s))
        return 0;
    const char *e = s;
    while (*e && ident_char((unsigned char)*e))
        e++;
    return symbol_bits(s, (size_t)(e - s));
}

static sl_bases shared_tokens(sl_bases addr)
{
    const sl_bases syms =
        (((sl_bases)1 << SL_BASE_SHARED) - 1) & ~(((sl_bases)1 << SL_BASE_SYMBOLS) - 1);
    return addr & syms ? addr & syms : (sl_bases)1 << SL_BASE_SHARED;
}

sl_bases sl_flow_addr_bases(const sl_flow *fl, int i)
{
    const sl_flow_insn *fi = &fl->in[i];
    return fi->addr_sym | (fi->addr >= 0 ? fl->base[fi->addr] : 0);
}

sl_bases sl_flow_copy_source(const sl_ptx_func *f, const sl_flow *fl, int i)
{
    const sl_ptx_insn *in = &f->insn[i];
    if (!sl_ptx_matches(in, "cp.async.|cp.reduce.async."))
        return 0;
    /* the destination's space comes first: cp.async.ca.shared.global */
    size_t olen;
    const char *op = sl_ptx_opcode(in, &olen);
    const char *gl = NULL, *sh = NULL;
    for (size_t k = 0; k + 7 <= olen; k++) {
        if (!gl && strncmp(op + k, ".global", 7) == 0)
            gl = op + k;
        if (!sh && strncmp(op + k, ".shared", 7) == 0)
            sh = op + k;
    }
    if (!gl || !sh || gl < sh)
        return 0;
    const sl_flow_insn *fi = &fl->in[i];
    sl_bases b = fi->addr2_sym | (fi->addr2 >= 0 ? fl->base[fi->addr2] : 0);
    b &= SL_BASES_GLOBAL;
    return b ? b : (sl_bases)1 << SL_BASE_UNKNOWN;
}

unsigned sl_flow_addr_taint(const sl_flow *fl, int i)
{
    const sl_flow_insn *fi = &fl->in[i];
    return fi->addr >= 0 ? fl->taint[fi->addr] : 0;
}

int sl_flow_is_global(const sl_flow *fl, int i)
{
    char sp = fl->in[i].space;
    if (sp == 'g')
        return 1;
    if (sp != 'G')
        return 0;
    /* generic: global unless it points into shared memory (a shared
     * variable's name alone does not make it global) */
    sl_bases b = sl_flow_addr_bases(fl, i);
    const sl_bases params = ((sl_bases)1 << SL_BASE_SYMBOLS) - 1;
    if (b >> SL_BASE_SHARED & 1)
        return (b & (params | (sl_bases)1 << SL_BASE_UNKNOWN)) != 0;
    return b != 0;
}

int sl_flow_writes(const sl_flow *fl, int i, int r)
{
    for (int k = 0; k < fl->in[i].ndst; k++)
        if (fl->in[i].dst[k] == r)
            return 1;
    return 0;
}

int sl_flow_only_def(const sl_flow *fl, int r)
{
    sl_ptx_budget_spend(fl->nin / 8 + 1);
    if (r < 0 || r >= fl->nreg || fl->ndef[r] != 1)
        return -1;
    for (int i = 0; i < fl->nin; i++)
        if (sl_flow_writes(fl, i, r))
            return i;
    return -1;
}

void sl_flow_build(const sl_ptx_func *f, sl_flow *fl)
{
    memset(fl, 0, sizeof *fl);
    reg_table t = {fl, NULL, 0};
    table_grow(&t);
    fl->nin = f->ninsn;
    fl->in = calloc((size_t)f->ninsn + 1, sizeof *fl->in);
    for (int i = 0; i < f->ninsn; i++) {
        const sl_ptx_insn *in = &f->insn[i];
        sl_flow_insn *fi = &fl->in[i];
        fi->addr = fi->addr2 = fi->guard = -1;
        if (in->text[0] == '@') {
            const char *g = in->text + 1;
            fi->guard_neg = *g == '!';
            g += fi->guard_neg;
            const char *e = g;
            while (*e && !isspace((unsigned char)*e))
                e++;
            fi->guard = reg_id(&t, g, (size_t)(e - g));
        }
        size_t olen;
        const char *op = sl_ptx_opcode(in, &olen);
        fi->space = space_of(op, olen);
        int writer = writes_first_operand(op, olen);
        read_operands(&t, sl_ptx_operands(in), writer, starts(op, olen, "call"), fi);
        for (int k = 0; k < fi->ndst; k++)
            fl->ndef[fi->dst[k]]++;
    }
    /* bases and taint, to a fixed point */
    sl_bases shared_tok[3] = {0, 0, 0}; /* per taint kind: shared variables it was stored to */
    for (int changed = 1, pass = 0; changed && pass < 64 && sl_ptx_budget_spend(f->ninsn); pass++) {
        changed = 0;
        for (int i = 0; i < f->ninsn; i++) {
            const sl_ptx_insn *in = &f->insn[i];
            sl_flow_insn *fi = &fl->in[i];
            size_t olen;
            const char *op = sl_ptx_opcode(in, &olen);
            unsigned gt = fi->guard >= 0 ? fl->taint[fi->guard] : 0;
            sl_bases addr = sl_flow_addr_bases(fl, i);
            int shared_access =
                fi->space == 's' || (fi->space == 'G' && (addr >> SL_BASE_SHARED & 1));
            /* shared stores remember what they store */
            if (shared_access && starts(op, olen, "st.|atom.|red.")) {
                unsigned v = 0;
                for (int k = 0; k < fi->nsrc; k++)
                    if (fi->src[k] != fi->addr)
                        v |= fl->taint[fi->src[k]];
                v |= gt;
                for (int kind = 0; kind < 3; kind++)
                    if ((v >> kind & 1) &&
                        (shared_tok[kind] | shared_tokens(addr)) != shared_tok[kind]) {
                        shared_tok[kind] |= shared_tokens(addr);
                        changed = 1;
                    }
            }
            if (!fi->ndst)
                continue;
            sl_bases b = 0;
            unsigned tn = 0;
            if (starts(op, olen, "ld.|ldu.|atom.")) {
                if (fi->space == 'p')
                    b = fi->addr_sym & (((sl_bases)1 << SL_BASE_SYMBOLS) - 1) ? fi->addr_sym
                        : is64(op, olen) ? (sl_bases)1 << SL_BASE_UNKNOWN
                                         : 0;
                else if (is64(op, olen))
                    b = (sl_bases)1 << SL_BASE_UNKNOWN;
                if (shared_access) {
                    for (int kind = 0; kind < 3; kind++)
                        if (shared_tok[kind] & shared_tokens(addr))
                            tn |= 1u << kind;
                } else if (starts(op, olen, "atom.") && fi->space != 'l') {
                    tn |= SL_TAINT_ATOMIC;
                }
            } else {
                int uniformizes = starts(op, olen,
                                         "shfl.|vote.|bar.red|barrier.red|barrier.cta.red|"
                                         "bar.cta.red|redux.|match.|activemask");
                for (int k = 0; k < fi->nsrc; k++)
                    tn |= fl->taint[fi->src[k]];
                tn |= gt;
                if (uniformizes)
                    tn &= ~(unsigned)SL_TAINT_TID;
                if (starts(op, olen, "mov.")) {
                    b = moved_symbol(in);
                    /* a 32-bit address of a variable: shared memory */
                    if (b && (has_part(op, olen, ".u32") || has_part(op, olen, ".b32")))
                        b |= (sl_bases)1 << SL_BASE_SHARED;
                    for (int k = 0; k < fi->nsrc; k++)
                        b |= fl->base[fi->src[k]];
                } else if (starts(op, olen, "cvta.")) {
                    for (int k = 0; k < fi->nsrc; k++)
                        b |= fl->base[fi->src[k]];
                    if (has_part(op, olen, ".shared"))
                        b = (b & ~SL_BASES_GLOBAL) | shared_tokens(b) |
                            (sl_bases)1 << SL_BASE_SHARED;
                } else if (starts(op, olen, "add.|sub.|selp.|cvt.|and.b64|or.b64")) {
                    for (int k = 0; k < fi->nsrc; k++)
                        b |= fl->base[fi->src[k]];
                } else if (starts(op, olen, "mad.")) {
                    for (int k = 0; k < fi->nsrc; k++)
                        if (fi->src_op[k] == 3)
                            b |= fl->base[fi->src[k]];
                }
            }
            for (int k = 0; k < fi->ndst; k++) {
                int d = fi->dst[k];
                if ((fl->base[d] | b) != fl->base[d] || (fl->taint[d] | tn) != fl->taint[d]) {
                    fl->base[d] |= b;
                    fl->taint[d] |= tn;
                    changed = 1;
                }
            }
        }
    }
    free(t.slot);
}

void sl_flow_free(sl_flow *fl)
{
    free(fl->reg);
    free(fl->base);
    free(fl->taint);
    free(fl->ndef);
    free(fl->in);
    memset(fl, 0, sizeof *fl);
}
