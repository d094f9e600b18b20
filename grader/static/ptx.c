#include "ptx.h"
#include "ptx_budget.h"

#include <ctype.h>
#include <limits.h>
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

static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

/* A copy of the PTX without comments, so that nothing written in one (inline
 * asm can put any text there: a fake fence, a fake arrive, a '}') is read as
 * code. A block comment becomes one space but keeps its newlines, so lines
 * stay where they were; a line comment is cut to the end of its line.
 * Strings ("path" of .file, .pragma) are copied whole. */
static char *strip_comments(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (!out)
        abort();
    char *o = out;
    for (const char *s = text; *s;) {
        if (s[0] == '/' && s[1] == '*') {
            const char *e = strstr(s + 2, "*/");
            const char *stop = e ? e + 2 : s + strlen(s);
            *o++ = ' ';
            for (; s < stop; s++)
                if (*s == '\n')
                    *o++ = '\n';
        } else if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n')
                s++;
        } else if (*s == '"') {
            *o++ = *s++;
            while (*s && *s != '"' && *s != '\n') {
                if (*s == '\\' && s[1] && s[1] != '\n')
                    *o++ = *s++;
                *o++ = *s++;
            }
            if (*s == '"')
                *o++ = *s++;
        } else {
            *o++ = *s++;
        }
    }
    *o = '\0';
    return out;
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

/* The name of the function a header statement declares (".entry NAME(" or
 * ".func (.param ...) NAME("), or NULL when it declares none. */
static char *function_name(const char *stmt, int *is_entry)
{
    const char *k = NULL;
    *is_entry = 0;
    for (const char *s = stmt; *s; s++) {
        if (*s != '.' || (s > stmt && ident_char((unsigned char)s[-1])))
            continue;
        if (strncmp(s, ".entry", 6) == 0 && !ident_char((unsigned char)s[6])) {
            k = s + 6;
            *is_entry = 1;
            break;
        }
        if (strncmp(s, ".func", 5) == 0 && !ident_char((unsigned char)s[5])) {
            k = s + 5;
            break;
        }
    }
    if (!k)
        return NULL;
    const char *s = skip_space(k);
    if (*s == '(') { /* return value list */
        int depth = 0;
        for (; *s; s++) {
            if (*s == '(')
                depth++;
            if (*s == ')' && --depth == 0) {
                s++;
                break;
            }
        }
        s = skip_space(s);
    }
    const char *e = s;
    while (*e && ident_char((unsigned char)*e))
        e++;
    return e > s ? dup_range(s, (size_t)(e - s)) : NULL;
}

/* ---- source locations ----
 * Locations should name the student's lines, not the CUDA header an atomic
 * or barrier was inlined from. A .loc of inlined code names its call site
 * ("inlined_at F L C"), and that site is itself a .loc seen a little
 * earlier with its own call site: the chain is followed until it reaches a
 * file with code of its own (a .loc that is not inlined, line > 0: the
 * student's file; CUDA headers only ever appear inlined). */
enum { MAX_TRACKED_FILES = 4096, LOC_SLOTS = 4096 };

typedef struct {
    int f, l, c;    /* a location... */
    int pf, pl, pc; /* ...and where it was inlined (pf < 0: not inlined) */
} loc_link;

typedef struct {
    unsigned char *toplevel;   /* files with code of their own */
    loc_link *link;            /* hash of the latest call site of each location */
    int file, line, own_file;  /* the current instruction's location */
    int via[SL_PTX_VIA], nvia; /* the files of its inlined_at chain */
} loc_state;

static unsigned loc_hash(int f, int l, int c)
{
    return ((unsigned)f * 2654435761u ^ (unsigned)l * 40503u ^ (unsigned)c * 97u) % LOC_SLOTS;
}

static int parse_loc(const char *s, int *f, int *l, int *c, int *pf, int *pl, int *pc)
{
    *c = 0;
    *pf = -1;
    if (sscanf(s, "%d %d %d", f, l, c) < 2 || *f < 0 || *f >= MAX_TRACKED_FILES)
        return 0;
    const char *at = strstr(s, "inlined_at");
    *pl = *pc = 0;
    if (at && (sscanf(at + 10, "%d %d %d", pf, pl, pc) < 2 || *pf < 0 || *pf >= MAX_TRACKED_FILES))
        *pf = -1;
    return 1;
}

/* First pass: which files have code of their own. */
static void find_toplevel_files(const char *text, unsigned char *toplevel)
{
    for (const char *s = text; (s = strstr(s, ".loc")) != NULL; s += 4) {
        if (!isspace((unsigned char)s[4]) || (s > text && !isspace((unsigned char)s[-1])))
            continue;
        size_t len = strcspn(s, "\n");
        char *line = dup_range(s + 4, len - 4);
        int f, l, c, pf, pl, pc;
        if (parse_loc(line, &f, &l, &c, &pf, &pl, &pc) && l > 0 && !strstr(line, "inlined_at"))
            toplevel[f] = 1;
        free(line);
    }
}

static void track_loc(const char *s, loc_state *ls)
{
    int f, l, c, pf, pl, pc;
    if (!parse_loc(s, &f, &l, &c, &pf, &pl, &pc) || l <= 0)
        return; /* line 0: code with no line of its own; keep the last one */
    ls->own_file = f;
    ls->nvia = 0;
    loc_link *slot = &ls->link[loc_hash(f, l, c)];
    *slot = (loc_link){f, l, c, pf, pl, pc};
    /* Follow the call sites to the first location in a top-level file. */
    for (int hops = 0; hops < 64; hops++) {
        if (ls->nvia < SL_PTX_VIA && (ls->nvia == 0 || ls->via[ls->nvia - 1] != f))
            ls->via[ls->nvia++] = f; /* each file once in a row: helpers call helpers */
        if (ls->toplevel[f]) {
            ls->file = f;
            ls->line = l;
            return;
        }
        if (pf < 0)
            break;
        f = pf, l = pl, c = pc;
        const loc_link *up = &ls->link[loc_hash(f, l, c)];
        if (up->f == f && up->l == l && up->c == c)
            pf = up->pf, pl = up->pl, pc = up->pc;
        else
            pf = -1;
    }
    /* No top-level file on the chain: keep the outermost site seen. */
    ls->file = f;
    ls->line = l;
}

/* ---- register scopes ----
 * Inlined PTX opens { } blocks with registers of their own (__syncthreads_or
 * declares %p1 and %p2 in one): such a register shadows the function's
 * register of the same name. Each is renamed "<name>__scopeN" so that the
 * analyses never take one for the other. */
typedef struct {
    char name[32];
    int range; /* "%p<4>" declares %p0..%p3: range 4; 0 for a single name */
    int scope; /* unique id of the { } block */
} scoped_reg;

typedef struct {
    scoped_reg *reg;
    int n, cap;
    int depth_of[256]; /* register count at each open block, to pop them */
    int id_of[256];
    int label_of[256]; /* the function's label and instruction counts there */
    int insn_of[256];
    int next_id;
} reg_scopes;

static int name_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%'; }
static int name_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

static void scope_declare(reg_scopes *rs, int depth, const char *decl)
{
    /* ".reg .b32 %a, %b<3>" (inline asm may leave out the '%': ".reg .pred p") */
    for (const char *s = decl + 4; *s;) {
        if (*s == '.') { /* a type or vector qualifier */
            while (*s && !isspace((unsigned char)*s))
                s++;
            continue;
        }
        if (!name_start((unsigned char)*s)) {
            s++;
            continue;
        }
        const char *e = s + 1;
        while (*e && name_char((unsigned char)*e))
            e++;
        int range = 0;
        if (*e == '<')
            range = atoi(e + 1);
        if (rs->n == rs->cap) {
            rs->cap = rs->cap ? rs->cap * 2 : 16;
            rs->reg = realloc(rs->reg, (size_t)rs->cap * sizeof *rs->reg);
        }
        scoped_reg *r = &rs->reg[rs->n++];
        snprintf(r->name, sizeof r->name, "%.*s", (int)(e - s), s);
        r->range = range;
        r->scope = rs->id_of[depth < 256 ? depth : 255];
        s = e;
        while (*s && *s != ',')
            s++;
    }
}

/* The block that declares the register token [s, s+n), or -1. */
static int scope_of(const reg_scopes *rs, const char *s, size_t n)
{
    for (int i = rs->n - 1; i >= 0; i--) {
        const scoped_reg *r = &rs->reg[i];
        size_t len = strlen(r->name);
        if (!r->range) {
            if (len == n && strncmp(r->name, s, n) == 0)
                return r->scope;
        } else if (n > len && strncmp(r->name, s, len) == 0) {
            int all_digits = 1;
            for (size_t k = len; k < n; k++)
                all_digits &= isdigit((unsigned char)s[k]) != 0;
            if (all_digits && atoi(s + len) < r->range)
                return r->scope;
        }
    }
    return -1;
}

/* stmt with every register of an inner block renamed. */
static char *rename_scoped(const reg_scopes *rs, const char *stmt)
{
    if (rs->n == 0)
        return dup_range(stmt, strlen(stmt));
    sl_text out = {0};
    for (const char *s = stmt; *s;) {
        int starts = name_start((unsigned char)*s) &&
                     (s == stmt || !(name_char((unsigned char)s[-1]) || s[-1] == '.'));
        if (starts) {
            const char *e = s + 1;
            while (*e && name_char((unsigned char)*e))
                e++;
            int id = scope_of(rs, s, (size_t)(e - s));
            sl_text_append(&out, s, (size_t)(e - s));
            if (id >= 0)
                sl_text_printf(&out, "__scope%d", id);
            s = e;
        } else {
            sl_text_append(&out, s++, 1);
        }
    }
    char *r = dup_range(sl_text_str(&out), out.len);
    sl_text_free(&out);
    return r;
}

/* ---- statements ---- */

/* One spelling for every instruction, for every consumer: ptxas accepts
 * spaces after '@' and '!' ("@ ! p bar.sync 0") and between an opcode and
 * its modifiers ("bar .sync 0", "red .shared .add.u32", or pieces a
 * comment or a line break split): the guard becomes "@p " / "@!p " and the
 * opcode one word ("red.shared.add.u32"). Operands never start with '.'. */
static char *canonical_insn(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 2), *o = d;
    if (!d)
        abort();
    s = skip_space(s);
    if (*s == '@') {
        *o++ = *s++;
        s = skip_space(s);
        if (*s == '!') {
            *o++ = *s++;
            s = skip_space(s);
        }
        while (*s && !isspace((unsigned char)*s))
            *o++ = *s++;
        *o++ = ' ';
        s = skip_space(s);
    }
    while (*s && !isspace((unsigned char)*s))
        *o++ = *s++;
    for (;;) {
        const char *t = skip_space(s);
        if (*t != '.')
            break;
        s = t;
        while (*s && !isspace((unsigned char)*s))
            *o++ = *s++;
    }
    strcpy(o, s);
    return d;
}

static void add_insn(sl_ptx_func *f, const char *s, const loc_state *ls)
{
    /* a step per instruction read; past the limit the rest is not read
     * and the verdict says the PTX is too large to analyse */
    if (f->ninsn >= SL_PTX_MAX_INSNS || !sl_ptx_budget_spend(1)) {
        char what[96];
        snprintf(what, sizeof what, "a function of more than %d instructions", SL_PTX_MAX_INSNS);
        sl_ptx_budget_exhaust(what);
        return;
    }
    f->insn = realloc(f->insn, (size_t)(f->ninsn + 1) * sizeof *f->insn);
    sl_ptx_insn *in = &f->insn[f->ninsn++];
    in->text = canonical_insn(s);
    in->src_file = ls->file;
    in->src_line = ls->line;
    in->own_file = ls->own_file;
    in->nvia = ls->nvia;
    memcpy(in->via_file, ls->via, sizeof in->via_file);
}

static void add_label(sl_ptx_func *f, const char *s, size_t n)
{
    f->label = realloc(f->label, (size_t)(f->nlabel + 1) * sizeof *f->label);
    f->label_at = realloc(f->label_at, (size_t)(f->nlabel + 1) * sizeof *f->label_at);
    f->label[f->nlabel] = dup_range(s, n);
    f->label_at[f->nlabel] = f->ninsn;
    f->nlabel++;
}

/* Whitespace runs (a statement may span lines: a call's operands) become one
 * space; ends trimmed. */
static char *normalize(const char *s, size_t n)
{
    char *d = malloc(n + 1), *o = d;
    if (!d)
        abort();
    int space = 0;
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)s[i])) {
            space = o > d;
            continue;
        }
        if (space)
            *o++ = ' ';
        space = 0;
        *o++ = s[i];
    }
    *o = '\0';
    return d;
}

static int ends_with(const char *s, char c)
{
    size_t n = strlen(s);
    return n && s[n - 1] == c;
}

/* "$L__BB0_2" before a ':' */
static int is_label_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '$'))
            return 0;
    return 1;
}

typedef struct {
    sl_ptx *p;
    sl_ptx_func *cur; /* function whose body is open */
    int depth;        /* { } depth; 1 inside a function body */
    loc_state loc;
    reg_scopes regs;
} parser;

/* One statement ended by ';' (or by the '{' of a body, header = 1). */
static void statement(parser *ps, char *stmt, int header)
{
    if (!*stmt)
        return;
    if (ps->depth == 0 && !header && strchr(stmt, '=')) {
        /* ".global .u64 table[2] = {f, g}": the functions named there have
         * their address taken (kept for sl_ptx_link_calls) */
        const char *eq = strchr(stmt, '=');
        size_t old = ps->p->module_init ? strlen(ps->p->module_init) : 0, add = strlen(eq + 1);
        ps->p->module_init = realloc(ps->p->module_init, old + add + 2);
        if (!ps->p->module_init)
            abort();
        memcpy(ps->p->module_init + old, eq + 1, add);
        ps->p->module_init[old + add] = ' ';
        ps->p->module_init[old + add + 1] = '\0';
        return;
    }
    if (ps->depth == 0) {
        int is_entry;
        char *name = function_name(stmt, &is_entry);
        if (!name)
            return;
        if (!header) { /* a declaration without a body */
            free(name);
            return;
        }
        sl_ptx *p = ps->p;
        p->func = realloc(p->func, (size_t)(p->nfunc + 1) * sizeof *p->func);
        ps->cur = &p->func[p->nfunc++];
        memset(ps->cur, 0, sizeof *ps->cur);
        ps->cur->name = name;
        ps->cur->is_entry = is_entry;
        return;
    }
    if (!ps->cur)
        return;
    if (stmt[0] == '.') {
        if (strncmp(stmt, ".reg", 4) == 0 && isspace((unsigned char)stmt[4]) && ps->depth > 1)
            scope_declare(&ps->regs, ps->depth, stmt);
        return; /* other directives: .shared, .param, .pragma, ... */
    }
    char *renamed = rename_scoped(&ps->regs, stmt);
    add_insn(ps->cur, renamed, &ps->loc);
    free(renamed);
}

static void open_block(parser *ps)
{
    ps->depth++;
    if (ps->depth < 256) {
        ps->regs.depth_of[ps->depth] = ps->regs.n;
        ps->regs.id_of[ps->depth] = ps->regs.next_id++;
        ps->regs.label_of[ps->depth] = ps->cur ? ps->cur->nlabel : 0;
        ps->regs.insn_of[ps->depth] = ps->cur ? ps->cur->ninsn : 0;
    }
}

/* Replaces each whole-word old in *text by new. */
static void replace_word(char **text, const char *old, const char *new)
{
    size_t n = strlen(old);
    sl_text out = {0};
    int changed = 0;
    for (const char *s = *text; *s;) {
        if (strncmp(s, old, n) == 0 && (s == *text || !name_char((unsigned char)s[-1])) &&
            !name_char((unsigned char)s[n])) {
            sl_text_printf(&out, "%s", new);
            s += n;
            changed = 1;
        } else {
            sl_text_append(&out, s++, 1);
        }
    }
    if (changed) {
        free(*text);
        *text = dup_range(sl_text_str(&out), out.len);
    }
    sl_text_free(&out);
}

/* Labels are local to the { } block that holds them too (inline asm copied
 * twice repeats its labels): rename those of an inner block at its end. */
static void rename_block_labels(parser *ps)
{
    sl_ptx_func *f = ps->cur;
    if (!f || ps->depth < 2 || ps->depth >= 256)
        return;
    for (int k = ps->regs.label_of[ps->depth]; k < f->nlabel; k++) {
        char renamed[256];
        snprintf(renamed, sizeof renamed, "%s__scope%d", f->label[k], ps->regs.id_of[ps->depth]);
        for (int j = ps->regs.insn_of[ps->depth]; j < f->ninsn; j++)
            replace_word(&f->insn[j].text, f->label[k], renamed);
        free(f->label[k]);
        f->label[k] = dup_range(renamed, strlen(renamed));
    }
}

static void close_block(parser *ps)
{
    if (ps->depth == 0)
        return;
    rename_block_labels(ps);
    if (ps->depth < 256)
        ps->regs.n = ps->regs.depth_of[ps->depth];
    if (--ps->depth == 0)
        ps->cur = NULL;
}

/* The line directives (.loc, .file) end at the end of their line, not at a
 * ';'. Handles one if the line at s is one; returns 1 then. */
/* Where a .loc's operands end ("1 12 3", ", function_name $L__info_string0",
 * ", inlined_at 1 7 2"): ptxas reads what follows as the next statement. */
static size_t loc_length(const char *line)
{
    const char *s = line + 4;
    for (int k = 0; k < 3; k++) {
        s = skip_space(s);
        while (isdigit((unsigned char)*s) || *s == '-' || *s == '+')
            s++;
    }
    for (;;) {
        const char *t = skip_space(s);
        if (*t != ',')
            break;
        t = skip_space(t + 1);
        int words = strncmp(t, "inlined_at", 10) == 0      ? 4
                    : strncmp(t, "function_name", 13) == 0 ? 2
                                                           : 1;
        for (int k = 0; k < words; k++) {
            t = skip_space(t);
            while (*t && !isspace((unsigned char)*t) && *t != ',' && *t != ';')
                t++;
        }
        s = t;
    }
    return (size_t)(s - line);
}

static int line_directive(parser *ps, const char *s, size_t len, size_t *used)
{
    const char *s0 = s;
    while ((size_t)(s - s0) < len && isspace((unsigned char)*s))
        s++;
    len -= (size_t)(s - s0);
    char *line = dup_range(s, len);
    int done = 1;
    *used = 0;
    if (strncmp(line, ".file", 5) == 0 && isspace((unsigned char)line[5]))
        parse_file_directive(ps->p, line + 5);
    else if (strncmp(line, ".loc", 4) == 0 && isspace((unsigned char)line[4])) {
        track_loc(line + 4, &ps->loc);
        size_t k = loc_length(line);
        const char *rest = skip_space(line + k);
        if (*rest && *rest != ';')
            *used = (size_t)(s - s0) + k; /* an instruction follows on the line */
    } else if ((strncmp(line, ".version", 8) == 0 || strncmp(line, ".target", 7) == 0 ||
                strncmp(line, ".address_size", 13) == 0) &&
               ps->depth == 0)
        ;
    else
        done = 0;
    free(line);
    return done;
}

int sl_ptx_parse(const char *text, sl_ptx *p)
{
    memset(p, 0, sizeof *p);
    char *clean = strip_comments(text);
    parser ps = {0};
    ps.p = p;
    ps.loc.toplevel = calloc(MAX_TRACKED_FILES, 1);
    ps.loc.link = calloc(LOC_SLOTS, sizeof *ps.loc.link);
    if (!ps.loc.toplevel || !ps.loc.link)
        abort();
    for (int i = 0; i < LOC_SLOTS; i++)
        ps.loc.link[i].f = -1;
    find_toplevel_files(clean, ps.loc.toplevel);

    sl_text stmt = {0};
    int vector_braces = 0; /* inside "{%r1, %r2}" of an operand */
    for (const char *s = clean; *s;) {
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        const char *t = skip_space(s);
        size_t used = 0;
        if (*t == '.' && line_directive(&ps, s, len, &used)) {
            if (!used) {
                s += len + (eol != NULL);
                continue;
            }
            s += used; /* the rest of the line is read as statements */
            len -= used;
        }
        for (size_t i = 0; i < len; i++) {
            char c = s[i];
            if (c == '"') { /* a string: copied whole */
                size_t j = i + 1;
                while (j < len && s[j] != '"')
                    j++;
                sl_text_append(&stmt, s + i, j - i + (j < len));
                i = j;
                continue;
            }
            if (c != ';' && c != '{' && c != '}' && c != ':') {
                sl_text_append(&stmt, &c, 1);
                continue;
            }
            char *n = normalize(sl_text_str(&stmt), stmt.len);
            if (c == ';' && !vector_braces) {
                statement(&ps, n, 0);
                sl_text_clear(&stmt);
            } else if (c == '{' && !vector_braces && (ps.depth == 0 ? !ends_with(n, '=') : !*n)) {
                if (ps.depth == 0)
                    statement(&ps, n, 1);
                sl_text_clear(&stmt);
                open_block(&ps);
            } else if (c == '{') {
                vector_braces++;
                sl_text_append(&stmt, &c, 1);
            } else if (c == '}' && vector_braces) {
                vector_braces--;
                sl_text_append(&stmt, &c, 1);
            } else if (c == '}') {
                statement(&ps, n, 0); /* a last statement without ';' */
                sl_text_clear(&stmt);
                close_block(&ps);
            } else if (c == ':' && ps.cur && ps.depth > 0 && is_label_name(n)) {
                add_label(ps.cur, n, strlen(n));
                sl_text_clear(&stmt);
            } else {
                sl_text_append(&stmt, &c, 1);
            }
            free(n);
        }
        sl_text_append(&stmt, " ", 1);
        s += len + (eol != NULL);
    }
    sl_text_free(&stmt);
    free(ps.regs.reg);
    free(ps.loc.toplevel);
    free(ps.loc.link);
    free(clean);
    sl_ptx_link_calls(p);
    return 0;
}

/* ---------- library code ---------- */

void sl_ptx_mark_library(sl_ptx *p, const char *list)
{
    free(p->library);
    p->library = calloc((size_t)p->nfile + 1, 1);
    if (!p->library)
        abort();
    for (int i = 0; list && i < p->nfile; i++) {
        if (!p->file[i] || !p->file[i][0])
            continue;
        char real[PATH_MAX];
        const char *resolved = realpath(p->file[i], real) ? real : NULL;
        for (const char *s = list; *s && !p->library[i];) {
            size_t n = strcspn(s, "\n");
            p->library[i] = (n == strlen(p->file[i]) && strncmp(s, p->file[i], n) == 0) ||
                            (resolved && n == strlen(resolved) && strncmp(s, resolved, n) == 0);
            s += n + (s[n] == '\n');
        }
    }
}

int sl_ptx_library_file(const sl_ptx *p, int file)
{
    return p->library && file >= 0 && file < p->nfile && p->library[file];
}

int sl_ptx_library_function(const sl_ptx *p, int fi)
{
    static const char *const prefixes[] = {
        "_ZN3cub",  "_ZN6thrust",  "_ZN4cuda",  "_ZN18cooperative_groups",
        "_ZNK3cub", "_ZNK6thrust", "_ZNK4cuda", "_ZNK18cooperative_groups"};
    const sl_ptx_func *f = &p->func[fi];
    int named = 0;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && !named; i++)
        named = strncmp(f->name, prefixes[i], strlen(prefixes[i])) == 0;
    if (!named)
        return 0;
    int located = 0;
    for (int j = 0; j < f->ninsn; j++) {
        if (f->insn[j].own_file < 0 || f->insn[j].src_line <= 0)
            continue;
        if (!sl_ptx_library_file(p, f->insn[j].own_file))
            return 0; /* a line of the student's: the student's function */
        located = 1;
    }
    return located;
}

/* ---------- the call graph ---------- */

static int function_index(const sl_ptx *p, const char *name, size_t n)
{
    for (int i = 0; i < p->nfunc; i++)
        if (strlen(p->func[i].name) == n && strncmp(p->func[i].name, name, n) == 0)
            return i;
    return -1;
}

int sl_ptx_function_index(const sl_ptx *p, const char *name)
{
    return function_index(p, name, strlen(name));
}

/* Every name of a function in an instruction is an edge: a call's target
 * ("call.uni (retval0), f, (a, b)"), and an address taken for an indirect
 * call ("mov.u64 %rd1, f"). */
/* Adds function k to f's callees once. */
static void add_callee(sl_ptx_func *f, int k)
{
    for (int m = 0; m < f->ncallee; m++)
        if (f->callee[m] == k)
            return;
    f->callee = realloc(f->callee, (size_t)(f->ncallee + 1) * sizeof *f->callee);
    f->callee[f->ncallee++] = k;
}

/* Marks in taken the functions named in s (names, not registers). */
static void mark_named(const sl_ptx *p, const char *s, char *taken)
{
    while (*s) {
        if (*s == '%') {
            while (*++s && ident_char((unsigned char)*s))
                ;
            continue;
        }
        if (!(isalpha((unsigned char)*s) || *s == '_' || *s == '$')) {
            s++;
            continue;
        }
        const char *e = s;
        while (*e && (isalnum((unsigned char)*e) || *e == '_' || *e == '$'))
            e++;
        int k = function_index(p, s, (size_t)(e - s));
        if (k >= 0)
            taken[k] = 1;
        s = e;
    }
}

int sl_ptx_access_bytes(const sl_ptx_insn *in)
{
    int lanes = sl_ptx_op_has(in, ".v4") ? 4 : sl_ptx_op_has(in, ".v2") ? 2 : 1;
    static const struct {
        const char *t;
        int bytes;
    } types[] = {{".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8}, {".b32", 4},
                 {".u32", 4}, {".s32", 4}, {".f32", 4}, {".b16", 2}, {".u16", 2},
                 {".s16", 2}, {".f16", 2}, {".b8", 1},  {".u8", 1},  {".s8", 1}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (sl_ptx_op_has(in, types[i].t))
            return lanes * types[i].bytes;
    return 0;
}

int sl_ptx_call_target(const sl_ptx *p, const sl_ptx_insn *in)
{
    const char *s = sl_ptx_operands(in);
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '(') {
        const char *close = strchr(s, ')');
        if (!close)
            return -1;
        s = close + 1;
        while (isspace((unsigned char)*s) || *s == ',')
            s++;
    }
    size_t n = 0;
    while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '$'))
        n++;
    if (n == 0 || n >= 512)
        return -1;
    char name[512];
    memcpy(name, s, n);
    name[n] = '\0';
    return sl_ptx_function_index(p, name);
}

int sl_ptx_indirect_call(const sl_ptx_insn *in)
{
    if (!sl_ptx_matches(in, "call"))
        return 0;
    const char *s = skip_space(sl_ptx_operands(in));
    if (*s == '(') {
        const char *close = strchr(s, ')');
        if (!close)
            return 0;
        s = skip_space(close + 1);
        if (*s == ',')
            s = skip_space(s + 1);
    }
    return *s == '%';
}

void sl_ptx_address_taken(const sl_ptx *p, char *taken)
{
    memset(taken, 0, (size_t)p->nfunc);
    if (p->module_init)
        mark_named(p, p->module_init, taken);
    /* "mov.u64 %rd1, fn"; an indirect call's prototype names no function */
    for (int i = 0; i < p->nfunc; i++)
        for (int j = 0; j < p->func[i].ninsn; j++)
            if (!sl_ptx_matches(&p->func[i].insn[j], "call") ||
                sl_ptx_indirect_call(&p->func[i].insn[j]))
                mark_named(p, sl_ptx_operands(&p->func[i].insn[j]), taken);
}

static void link_indirect_calls(sl_ptx *p)
{
    char *taken = calloc((size_t)p->nfunc + 1, 1);
    if (!taken)
        abort();
    sl_ptx_address_taken(p, taken);
    for (int i = 0; i < p->nfunc; i++)
        for (int j = 0; j < p->func[i].ninsn; j++)
            if (sl_ptx_indirect_call(&p->func[i].insn[j])) {
                for (int k = 0; k < p->nfunc; k++)
                    if (taken[k])
                        add_callee(&p->func[i], k);
                break;
            }
    free(taken);
}

void sl_ptx_link_calls(sl_ptx *p)
{
    for (int i = 0; i < p->nfunc; i++) {
        sl_ptx_func *f = &p->func[i];
        free(f->callee);
        f->callee = NULL;
        f->ncallee = 0;
        for (int j = 0; j < f->ninsn; j++) {
            const char *s = sl_ptx_operands(&f->insn[j]);
            while (*s) {
                if (*s == '%' || !(isalpha((unsigned char)*s) || *s == '_' || *s == '$')) {
                    /* skip a register or a non-name character */
                    if (*s == '%')
                        while (*++s && ident_char((unsigned char)*s))
                            ;
                    else
                        s++;
                    continue;
                }
                const char *e = s;
                while (*e && (isalnum((unsigned char)*e) || *e == '_' || *e == '$'))
                    e++;
                int k = function_index(p, s, (size_t)(e - s));
                int seen = 0;
                for (int m = 0; m < f->ncallee && !seen; m++)
                    seen = f->callee[m] == k;
                if (k >= 0 && !seen) {
                    f->callee = realloc(f->callee, (size_t)(f->ncallee + 1) * sizeof *f->callee);
                    f->callee[f->ncallee++] = k;
                }
                s = e;
            }
        }
    }
    link_indirect_calls(p);
}

void sl_ptx_mark_callers(const sl_ptx *p, char *mark)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = 0; k < p->nfunc; k++)
            for (int c = 0; c < p->func[k].ncallee && !mark[k]; c++)
                if (mark[p->func[k].callee[c]])
                    changed = mark[k] = 1;
    }
}

int sl_ptx_reachable(const sl_ptx *p, int root, char *mark)
{
    if (root < 0 || root >= p->nfunc)
        return 0;
    int *stack = malloc((size_t)p->nfunc * sizeof *stack + sizeof *stack);
    int top = 0, count = 0;
    if (!mark[root]) {
        mark[root] = 1;
        count++;
    }
    stack[top++] = root;
    while (top) {
        const sl_ptx_func *f = &p->func[stack[--top]];
        for (int m = 0; m < f->ncallee; m++)
            if (!mark[f->callee[m]]) {
                mark[f->callee[m]] = 1;
                count++;
                stack[top++] = f->callee[m];
            }
    }
    free(stack);
    return count;
}

int sl_ptx_scope(const sl_ptx *p, int (*is_root)(const char *function, void *arg), void *arg,
                 char *mark)
{
    int count = 0;
    memset(mark, 0, (size_t)p->nfunc);
    for (int i = 0; i < p->nfunc; i++)
        if (!is_root || is_root(p->func[i].name, arg))
            count += sl_ptx_reachable(p, i, mark);
    return count;
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
        free(p->func[i].callee);
    }
    free(p->func);
    for (int i = 0; i < p->nfile; i++)
        free(p->file[i]);
    free(p->file);
    free(p->library);
    free(p->module_init);
    memset(p, 0, sizeof *p);
}

void sl_ptx_where(const sl_ptx *p, const sl_ptx_insn *in, char *buf, size_t n)
{
    if (!in->src_line) {
        snprintf(buf, n, "?");
        return;
    }
    const char *path = in->src_file >= 0 && in->src_file < p->nfile && p->file[in->src_file]
                           ? p->file[in->src_file]
                           : "?";
    const char *base = strrchr(path, '/');
    snprintf(buf, n, "%s:%d", base ? base + 1 : path, in->src_line);
}

/* ---------- instructions ---------- */

/* The opcode, without a leading predicate guard ("@%p1 ", "@!%p2 "). */
const char *sl_ptx_opcode(const sl_ptx_insn *in, size_t *len)
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
int sl_ptx_matches(const sl_ptx_insn *in, const char *prefixes)
{
    size_t olen;
    const char *op = sl_ptx_opcode(in, &olen);
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

int sl_ptx_op_has(const sl_ptx_insn *in, const char *part)
{
    size_t olen;
    const char *op = sl_ptx_opcode(in, &olen);
    size_t n = strlen(part);
    for (size_t i = 0; i + n <= olen; i++)
        if (strncmp(op + i, part, n) == 0)
            return 1;
    return 0;
}

/* Operands after the opcode (and after a predicate guard). */
const char *sl_ptx_operands(const sl_ptx_insn *in)
{
    size_t olen;
    const char *op = sl_ptx_opcode(in, &olen);
    return op + olen;
}

/* Brackets, braces and parentheses hold commas that split nothing. */
static int nesting(char c)
{
    return (c == '{' || c == '(' || c == '[') - (c == '}' || c == ')' || c == ']');
}

int sl_ptx_operand(const sl_ptx_insn *in, int k, char *buf, size_t n)
{
    const char *s = sl_ptx_operands(in);
    int depth = 0;
    for (; k > 0 && *s; s++) {
        depth += nesting(*s);
        if (*s == ',' && depth == 0)
            k--;
    }
    if (k > 0)
        return 0;
    while (isspace((unsigned char)*s))
        s++;
    size_t len = 0;
    for (depth = 0; s[len] && s[len] != ';' && (s[len] != ',' || depth > 0); len++)
        depth += nesting(s[len]);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0 || len >= n)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return 1;
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

void sl_ptx_say(const sl_ptx *p, const sl_ptx_insn *in, sl_text *why, char *where, size_t wherelen)
{
    char loc[256];
    sl_ptx_where(p, in, loc, sizeof loc);
    sl_text_printf(why, "`%s` (%s)", in->text, loc);
    add_where(where, wherelen, loc);
}

/* Only a real line comment counts: nvcc writes the asm text
 * "// SYNCLAB_TODO name" on a line of its own. The same words inside a block
 * comment or a string (which inline asm could produce) are not the marker. */
int sl_ptx_has_todo(const char *ptx_text, const char *exercise)
{
    static const char marker[] = "// SYNCLAB_TODO ";
    size_t n = strlen(exercise);
    for (const char *s = ptx_text; *s;) {
        if (s[0] == '/' && s[1] == '*') {
            const char *e = strstr(s + 2, "*/");
            if (!e)
                return 0;
            s = e + 2;
        } else if (*s == '"') {
            s++;
            while (*s && *s != '"' && *s != '\n')
                s += (*s == '\\' && s[1]) ? 2 : 1;
            if (*s == '"')
                s++;
        } else if (s[0] == '/' && s[1] == '/') {
            if (strncmp(s, marker, sizeof marker - 1) == 0) {
                const char *name = s + sizeof marker - 1;
                if (strncmp(name, exercise, n) == 0 &&
                    (name[n] == '\0' || isspace((unsigned char)name[n])))
                    return 1;
            }
            while (*s && *s != '\n')
                s++;
        } else {
            s++;
        }
    }
    return 0;
}
