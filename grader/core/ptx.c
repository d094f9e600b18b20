#include "ptx.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- parsing ---------- */

static char *dup_range(const char *s, size_t n)
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
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* ".file 3 "path", 123, 456" -> file[3] = path */
static void parse_file_directive(sl_ptx *p, const char *s)
{
    char *end;
    long idx = strtol(s, &end, 10);
    const char *q = strchr(end, '"');
    if (idx < 0 || idx > 100000 || !q)
        return;
    const char *q2 = strchr(q + 1, '"');
    if (!q2)
        return;
    if (idx >= p->nfile) {
        p->file = realloc(p->file, (size_t)(idx + 1) * sizeof *p->file);
        for (long i = p->nfile; i <= idx; i++)
            p->file[i] = NULL;
        p->nfile = (int)idx + 1;
    }
    free(p->file[idx]);
    p->file[idx] = dup_range(q + 1, (size_t)(q2 - q - 1));
}

/* The name of a function declared on this line (".entry NAME(" or
 * ".func (.param ...) NAME("), or NULL. */
static char *function_name(const char *line, int *is_entry)
{
    const char *k = strstr(line, ".entry");
    *is_entry = k != NULL;
    if (!k) {
        k = strstr(line, ".func");
        if (!k)
            return NULL;
    }
    const char *s = skip_space(k + (*is_entry ? 6 : 5));
    if (*s == '(') { /* return value list */
        int depth = 0;
        for (; *s; s++) {
            if (*s == '(') depth++;
            if (*s == ')' && --depth == 0) { s++; break; }
        }
        s = skip_space(s);
    }
    const char *e = s;
    while (*e && (isalnum((unsigned char)*e) || *e == '_' || *e == '$' || *e == '.'))
        e++;
    return e > s ? dup_range(s, (size_t)(e - s)) : NULL;
}

static void add_insn(sl_ptx_func *f, const char *s, size_t n, int file, int line, int own_file)
{
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    s = skip_space(s);
    if (!*s || n == 0)
        return;
    f->insn = realloc(f->insn, (size_t)(f->ninsn + 1) * sizeof *f->insn);
    sl_ptx_insn *in = &f->insn[f->ninsn++];
    in->text = dup_range(s, n);
    in->src_file = file;
    in->src_line = line;
    in->own_file = own_file;
}

/* Locations should point at the student's lines, not at the library header
 * an atomic or barrier was inlined from: a .loc in a file that has code of
 * its own ("top level") is kept; an inlined one is replaced by its
 * inlined_at site when that is top level, else the last good location
 * stays (deeper inlining chains already resolved to it). */
enum { MAX_TRACKED_FILES = 4096 };
static void track_loc(const char *s, unsigned char *toplevel, int *file, int *line, int *own)
{
    int f = 0, l = 0, af = 0, al = 0;
    if (sscanf(s, "%d %d", &f, &l) != 2 || f < 0 || f >= MAX_TRACKED_FILES)
        return;
    *own = f;
    const char *at = strstr(s, "inlined_at");
    if (!at) {
        toplevel[f] = 1;
        *file = f;
        *line = l;
    } else if (toplevel[f]) {
        *file = f;
        *line = l;
    } else if (sscanf(at + 10, "%d %d", &af, &al) == 2 && af >= 0 && af < MAX_TRACKED_FILES &&
               toplevel[af]) {
        *file = af;
        *line = al;
    }
}

static void add_label(sl_ptx_func *f, const char *s, size_t n)
{
    f->label = realloc(f->label, (size_t)(f->nlabel + 1) * sizeof *f->label);
    f->label_at = realloc(f->label_at, (size_t)(f->nlabel + 1) * sizeof *f->label_at);
    f->label[f->nlabel] = dup_range(s, n);
    f->label_at[f->nlabel] = f->ninsn;
    f->nlabel++;
}

int sl_ptx_parse(const char *text, sl_ptx *p)
{
    memset(p, 0, sizeof *p);
    unsigned char *toplevel = calloc(MAX_TRACKED_FILES, 1);
    if (!toplevel)
        abort();
    sl_ptx_func *cur = NULL;
    int depth = 0, pending = 0; /* pending: a function header awaits its '{' */
    int file = 0, line = 0, own_file = 0;
    const char *s = text;
    while (*s) {
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        char *buf = dup_range(s, len);
        char *c = strstr(buf, "//");
        if (c)
            *c = '\0';
        const char *t = skip_space(buf);
        int is_entry;
        char *name;
        if (strncmp(t, ".file", 5) == 0 && isspace((unsigned char)t[5])) {
            parse_file_directive(p, t + 5);
        } else if (strncmp(t, ".loc", 4) == 0 && isspace((unsigned char)t[4])) {
            track_loc(t + 4, toplevel, &file, &line, &own_file);
        } else if (depth == 0 && (name = function_name(t, &is_entry)) != NULL) {
            p->func = realloc(p->func, (size_t)(p->nfunc + 1) * sizeof *p->func);
            cur = &p->func[p->nfunc++];
            memset(cur, 0, sizeof *cur);
            cur->name = name;
            cur->is_entry = is_entry;
            pending = 1;
        } else {
            /* Body text: split on ';', track braces (inline asm nests them). */
            const char *start = t;
            for (const char *q = t;; q++) {
                if (*q == '{' || *q == '}' || *q == ';' || *q == '\0') {
                    if (cur && depth > 0 && q > start && q[-1] == ':' && *q != ';')
                        add_label(cur, start, (size_t)(q - start - 1));
                    else if (cur && depth > 0 && *start != '.' && *start != '$' &&
                             !(q > start && q[-1] == ':'))
                        add_insn(cur, start, (size_t)(q - start), file, line, own_file);
                    if (*q == '{') {
                        depth++;
                        pending = 0;
                    } else if (*q == '}' && depth > 0 && --depth == 0) {
                        cur = NULL;
                    } else if (*q == ';' && pending && depth == 0) {
                        cur = NULL; /* a declaration without a body */
                        pending = 0;
                        p->nfunc--;
                        free(p->func[p->nfunc].name);
                    }
                    if (*q == '\0')
                        break;
                    start = skip_space(q + 1);
                }
            }
        }
        free(buf);
        if (!eol)
            break;
        s = eol + 1;
    }
    free(toplevel);
    return 0;
}

void sl_ptx_free(sl_ptx *p)
{
    for (int i = 0; i < p->nfunc; i++) {
        for (int j = 0; j < p->func[i].ninsn; j++)
            free(p->func[i].insn[j].text);
        free(p->func[i].insn);
        free(p->func[i].name);
        for (int j = 0; j < p->func[i].nlabel; j++)
            free(p->func[i].label[j]);
        free(p->func[i].label);
        free(p->func[i].label_at);
    }
    free(p->func);
    for (int i = 0; i < p->nfile; i++)
        free(p->file[i]);
    free(p->file);
    memset(p, 0, sizeof *p);
}

void sl_ptx_where(const sl_ptx *p, const sl_ptx_insn *in, char *buf, size_t n)
{
    if (!in->src_line) {
        snprintf(buf, n, "?");
        return;
    }
    const char *path = in->src_file >= 0 && in->src_file < p->nfile && p->file[in->src_file]
                           ? p->file[in->src_file] : "?";
    const char *base = strrchr(path, '/');
    snprintf(buf, n, "%s:%d", base ? base + 1 : path, in->src_line);
}

/* ---------- instruction classes ---------- */

/* The opcode, without a leading predicate guard ("@%p1 ", "@!%p2 "). */
static const char *opcode(const sl_ptx_insn *in, size_t *len)
{
    const char *s = in->text;
    if (*s == '@') {
        while (*s && !isspace((unsigned char)*s))
            s++;
        s = skip_space(s);
    }
    const char *e = s;
    while (*e && !isspace((unsigned char)*e))
        e++;
    *len = (size_t)(e - s);
    return s;
}

/* Does the opcode start with one of the '|'-separated prefixes? */
static int matches(const sl_ptx_insn *in, const char *prefixes)
{
    size_t olen;
    const char *op = opcode(in, &olen);
    const char *p = prefixes;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n && n <= olen && strncmp(op, p, n) == 0)
            return 1;
        if (!bar)
            break;
        p = bar + 1;
    }
    return 0;
}

static int op_has(const sl_ptx_insn *in, const char *part)
{
    size_t olen;
    const char *op = opcode(in, &olen);
    size_t n = strlen(part);
    for (size_t i = 0; i + n <= olen; i++)
        if (strncmp(op + i, part, n) == 0)
            return 1;
    return 0;
}

static int wide_scope(const sl_ptx_insn *in) { return op_has(in, ".gpu") || op_has(in, ".sys"); }

typedef enum { C_OTHER, C_STORE, C_PUBLISH, C_FENCE_WIDE, C_FENCE_NARROW } insn_class;

static insn_class classify(const sl_ptx_insn *in, int *release)
{
    *release = 0;
    if (matches(in, "membar.gl|membar.sys"))
        return C_FENCE_WIDE;
    if (matches(in, "membar.cta"))
        return C_FENCE_NARROW;
    if (matches(in, "fence.sc.|fence.acq_rel.|fence.release."))
        return wide_scope(in) ? C_FENCE_WIDE : C_FENCE_NARROW;
    if (matches(in, "atom.|red.")) {
        /* atom's scope defaults to .gpu when none is written */
        int scoped_narrow = op_has(in, ".cta") || op_has(in, ".cluster");
        *release = (op_has(in, ".release") || op_has(in, ".acq_rel")) && !scoped_narrow;
        return C_PUBLISH;
    }
    if (matches(in, "st.")) {
        if (op_has(in, ".shared") || op_has(in, ".local") || op_has(in, ".param") ||
            op_has(in, ".async"))
            return C_OTHER;
        if (op_has(in, ".volatile") || op_has(in, ".relaxed") || op_has(in, ".release") ||
            op_has(in, ".mmio")) {
            *release = op_has(in, ".release") && wide_scope(in);
            return C_PUBLISH;
        }
        return C_STORE;
    }
    return C_OTHER;
}

/* ---------- rules ---------- */

static int in_scope(const sl_ptx_func *f, const sl_rule *r)
{
    return !r->function || strstr(f->name, r->function) != NULL;
}

static void add_where(char *where, size_t n, const char *loc)
{
    if (!n || !loc || strcmp(loc, "?") == 0)
        return;
    if (strstr(where, loc))
        return;
    size_t len = strlen(where);
    snprintf(where + len, n - len, "%s%s", len ? ", " : "", loc);
}

static void say_insn(const sl_ptx *p, const sl_ptx_insn *in, sl_text *why, char *where,
                     size_t wherelen)
{
    char loc[256];
    sl_ptx_where(p, in, loc, sizeof loc);
    sl_text_printf(why, "`%s` (%s)", in->text, loc);
    add_where(where, wherelen, loc);
}

static int check_forbid(const sl_ptx *p, const sl_rule *r, sl_text *why, char *where, size_t wl)
{
    for (int i = 0; i < p->nfunc; i++) {
        const sl_ptx_func *f = &p->func[i];
        if (!in_scope(f, r))
            continue;
        for (int j = 0; j < f->ninsn; j++) {
            if (matches(&f->insn[j], r->pattern)) {
                sl_text_printf(why, "the PTX of %s contains ", f->name);
                say_insn(p, &f->insn[j], why, where, wl);
                sl_text_printf(why, ", which this exercise forbids");
                return 0;
            }
        }
    }
    return 1;
}

static int check_require(const sl_ptx *p, const sl_rule *r, sl_text *why)
{
    for (int i = 0; i < p->nfunc; i++) {
        const sl_ptx_func *f = &p->func[i];
        if (!in_scope(f, r))
            continue;
        for (int j = 0; j < f->ninsn; j++)
            if (matches(&f->insn[j], r->pattern))
                return 1;
    }
    sl_text_printf(why, "no instruction matching '%s' in %s", r->pattern,
                   r->function ? r->function : "the PTX");
    return 0;
}

static int check_fenced_publish_func(const sl_ptx *p, const sl_ptx_func *f, sl_text *why,
                                     char *where, size_t wl)
{
    int last_store = -1, wide_after = -1, narrow_after = -1, wide_before = -1;
    int wide_since_publish = -1;
    for (int j = 0; j < f->ninsn; j++) {
        int release;
        switch (classify(&f->insn[j], &release)) {
        case C_STORE:
            if (wide_after >= 0)
                wide_before = wide_after;
            else if (wide_since_publish >= 0)
                wide_before = wide_since_publish;
            last_store = j;
            wide_after = narrow_after = -1;
            break;
        case C_FENCE_WIDE:
            wide_after = j;
            if (last_store < 0)
                wide_since_publish = j;
            break;
        case C_FENCE_NARROW:
            narrow_after = j;
            break;
        case C_PUBLISH:
            if (last_store < 0) {
                wide_since_publish = -1;
                break; /* nothing stored yet: nothing to publish */
            }
            if (release || wide_after >= 0)
                return 1;
            sl_text_printf(why, "in %s, the store ", f->name);
            say_insn(p, &f->insn[last_store], why, where, wl);
            sl_text_printf(why, " is published by ");
            say_insn(p, &f->insn[j], why, where, wl);
            if (narrow_after >= 0) {
                sl_text_printf(why, " with only ");
                say_insn(p, &f->insn[narrow_after], why, where, wl);
                sl_text_printf(why, " between them: that fence orders memory for the threads of "
                                    "one block only; other blocks need __threadfence() (gpu scope)");
            } else if (wide_before >= 0) {
                sl_text_printf(why, ", but the fence ");
                say_insn(p, &f->insn[wide_before], why, where, wl);
                sl_text_printf(why, " comes before the store: a fence orders what comes before "
                                    "it against what comes after, so it must sit between the "
                                    "store and the publish");
            } else {
                sl_text_printf(why, " with no fence between them: another block may see the "
                                    "flag before the data");
            }
            return 0;
        default:
            break;
        }
    }
    return 1;
}

int sl_rules_check(const sl_ptx *p, const sl_rule *rules, sl_text *why, char *where,
                   size_t wherelen)
{
    if (wherelen)
        where[0] = '\0';
    if (!rules)
        return 1;
    for (const sl_rule *r = rules; r->kind != SL_RULE_END; r++) {
        int ok = 1, seen = 0;
        sl_text msg = {0};
        switch (r->kind) {
        case SL_RULE_FORBID:
            ok = check_forbid(p, r, &msg, where, wherelen);
            break;
        case SL_RULE_REQUIRE:
            ok = check_require(p, r, &msg);
            break;
        case SL_RULE_FENCED_PUBLISH:
            for (int i = 0; ok && i < p->nfunc; i++)
                if (in_scope(&p->func[i], r)) {
                    seen = 1;
                    ok = check_fenced_publish_func(p, &p->func[i], &msg, where, wherelen);
                }
            (void)seen;
            break;
        default:
            break;
        }
        if (!ok) {
            sl_text_printf(why, "%s", sl_text_str(&msg));
            if (r->why)
                sl_text_printf(why, ".\n%s", r->why);
            sl_text_free(&msg);
            return 0;
        }
        sl_text_free(&msg);
    }
    return 1;
}

/* ---------- barriers under thread-dependent control flow ---------- */

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

/* Operands after the opcode (and after a predicate guard). */
static const char *operands(const sl_ptx_insn *in)
{
    size_t olen;
    const char *op = opcode(in, &olen);
    return op + olen;
}

/* Instructions with no destination register: their first operand is read. */
static int writes_first_operand(const sl_ptx_insn *in)
{
    return !matches(in, "st.|bar.|barrier.|bra|ret|exit|red.|membar|fence|trap|call|prefetch|"
                        "cp.async|mbarrier.init|mbarrier.arrive_drop|@");
}

static int full_block_barrier(const sl_ptx_insn *in)
{
    if (!matches(in, "bar.sync|bar.red|barrier.sync|barrier.red|barrier.cta.sync|"
                     "barrier.cta.red|bar.cta.sync|bar.cta.red"))
        return 0;
    /* operands: sync "a" (full block) vs "a, b" (b threads); red "d, a, c" vs "d, a, b, c" */
    int commas = 0;
    for (const char *s = operands(in); *s; s++)
        commas += *s == ',';
    int red = matches(in, "bar.red|barrier.red|barrier.cta.red|bar.cta.red");
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

static int is_branch(const sl_ptx_insn *in) { return matches(in, "bra"); }
static int ends_flow(const sl_ptx_insn *in) { return matches(in, "ret|exit|trap"); }
static int guarded(const sl_ptx_insn *in) { return in->text[0] == '@'; }

static int branch_target(const sl_ptx_func *f, const sl_ptx_insn *in)
{
    const char *ops = skip_space(operands(in));
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
            if (!writes_first_operand(in) || matches(in, "ld.|ldu.|shfl.|atom.|vote."))
                continue;
            tokens t;
            operand_tokens(operands(in), &t);
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
                if (matches(in, "setp.") && t.n > 1 && strchr(operands(in), '|'))
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
        say_insn(p, &f->insn[j], why, where, wl);
        sl_text_printf(why, " is inside a branch or loop that depends on the thread index (");
        say_insn(p, &f->insn[cause[g.block_of[j]]], why, where, wl);
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

int sl_ptx_has_todo(const char *ptx_text, const char *exercise)
{
    static const char marker[] = "// SYNCLAB_TODO ";
    size_t n = strlen(exercise);
    for (const char *s = strstr(ptx_text, marker); s; s = strstr(s + 1, marker)) {
        const char *name = s + sizeof marker - 1;
        if (strncmp(name, exercise, n) == 0 &&
            (name[n] == '\0' || isspace((unsigned char)name[n])))
            return 1;
    }
    return 0;
}
