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

static void add_where(char *where, size_t n, const char *loc)
{
    if (!n || !loc || strcmp(loc, "?") == 0)
        return;
    if (strstr(where, loc))
        return;
    size_t len = strlen(where);
    snprintf(where + len, n - len, "%s%s", len ? ", " : "", loc);
}

void sl_ptx_say(const sl_ptx *p, const sl_ptx_insn *in, sl_text *why, char *where,
                size_t wherelen)
{
    char loc[256];
    sl_ptx_where(p, in, loc, sizeof loc);
    sl_text_printf(why, "`%s` (%s)", in->text, loc);
    add_where(where, wherelen, loc);
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
