/* syncgrade lint (lint.h). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "files.h"
#include "lint.h"
#include "markdown.h"
#include "points.h"
#include "proc.h"
#include "verdict.h"
#include "zoo_expect.h"

enum { MAX_TEXT = 4 << 20, MAX_EXPECT = 16 };

static char *read_rel(const char *root, const char *rel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    return sl_read_file(path, MAX_TEXT, NULL);
}

static int exists_rel(const char *root, const char *rel)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", root, rel);
    return stat(path, &st) == 0;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int line_of(const char *text, const char *at)
{
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* The regular files of root/dir whose names end in one of suffixes
 * (NULL-ended), sorted, as "dir/name"; NULL-ended, or NULL when dir is not
 * there. Free with free_list. */
static char **list_dir(const char *root, const char *dir, const char *const *suffixes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, dir);
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0)
        return NULL;
    char **out = calloc((size_t)n + 1, sizeof *out);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        int wanted = name[0] != '.';
        int match = 0;
        for (const char *const *s = suffixes; wanted && *s; s++)
            match |= has_suffix(name, *s);
        char rel[4096];
        snprintf(rel, sizeof rel, "%s/%s", dir, name);
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", root, rel);
        if (out && match && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            out[k++] = strdup(rel);
        free(names[i]);
    }
    free(names);
    return out;
}

static void free_list(char **list)
{
    for (char **p = list; p && *p; p++)
        free(*p);
    free(list);
}

/* ---------- exercises: suite == exercises.h's list == the runner's table ---------- */

static const sl_exercise *exercise_named(const sl_lesson *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (l->exercises[i].name && strcmp(l->exercises[i].name, name) == 0)
            return &l->exercises[i];
    return NULL;
}

static const sl_declared *declared_named(const sl_lesson *l, const char *name)
{
    for (const sl_declared *d = l->declared; d && d->name; d++)
        if (strcmp(d->name, name) == 0)
            return d;
    return NULL;
}

/* The zoo's EXPECT lines may only name exercises of the lesson. */
static int lint_expect_names(const char *root, const sl_lesson *l, sl_text *out)
{
    static const char *const cu[] = {".cu", NULL};
    char dir[256];
    snprintf(dir, sizeof dir, "lessons/%s/zoo", l->name);
    char **zoo = list_dir(root, dir, cu);
    int bad = 0;
    for (char **f = zoo; f && *f; f++) {
        char *text = read_rel(root, *f);
        sl_expectation ex[MAX_EXPECT];
        int n = text ? sl_expectations_in_source(text, ex, MAX_EXPECT) : 0;
        for (int i = 0; i < n; i++)
            if (!exercise_named(l, ex[i].exercise)) {
                sl_text_printf(out,
                               "%s: EXPECT names exercise '%s', which lesson %s does not have\n",
                               *f, ex[i].exercise, l->name);
                bad++;
            }
        free(text);
    }
    free_list(zoo);
    return bad;
}

int sl_lint_exercises(const char *root, const sl_lesson *l, sl_text *out)
{
    int bad = 0;
    if (!l->declared) {
        sl_text_printf(out,
                       "lessons/%s/suite.c: sl_lesson_%s has no exercises.h list "
                       "(.declared = SL_DECLARED(SL_LESSON_EXERCISES))\n",
                       l->name, l->name);
        return 1;
    }
    for (int i = 0; i < l->count; i++) {
        const sl_exercise *e = &l->exercises[i];
        if (!e->name) {
            sl_text_printf(out, "lessons/%s/suite.c: exercise %d has no name\n", l->name, i + 1);
            bad++;
            continue;
        }
        for (int j = 0; j < i; j++)
            if (l->exercises[j].name && strcmp(l->exercises[j].name, e->name) == 0) {
                sl_text_printf(out, "lessons/%s/suite.c: exercise %s is defined twice\n", l->name,
                               e->name);
                bad++;
            }
        const sl_declared *d = declared_named(l, e->name);
        if (!d) {
            sl_text_printf(out,
                           "lessons/%s/suite.c: exercise %s is not in exercises.h's list, so "
                           "the runner has no such exercise\n",
                           l->name, e->name);
            bad++;
        } else if (!d->bench != !e->bench) {
            sl_text_printf(out,
                           "lessons/%s/suite.c: exercise %s: .bench = %d, but exercises.h "
                           "says %s (.bench = SL_BENCH_OF(%s))\n",
                           l->name, e->name, e->bench, d->bench ? "BENCH" : "NO_BENCH", e->name);
            bad++;
        }
    }
    int k = 0;
    for (const sl_declared *d = l->declared; d->name; d++, k++)
        if (!exercise_named(l, d->name)) {
            sl_text_printf(out,
                           "lessons/%s/exercises.h: exercise %s is listed, but suite.c "
                           "defines no such exercise\n",
                           l->name, d->name);
            bad++;
        }
    if (bad == 0) /* same names: then the same order, the one reports use */
        for (int i = 0; i < l->count && i < k; i++)
            if (strcmp(l->exercises[i].name, l->declared[i].name) != 0) {
                sl_text_printf(out,
                               "lessons/%s/suite.c: exercise %d is %s, but exercises.h lists "
                               "%s there (keep one order)\n",
                               l->name, i + 1, l->exercises[i].name, l->declared[i].name);
                bad++;
                break;
            }

    char rel[256];
    snprintf(rel, sizeof rel, "lessons/%s/harness.cu", l->name);
    char *harness = read_rel(root, rel);
    if (!harness) {
        sl_text_printf(out, "%s: missing\n", rel);
        bad++;
    } else if (!strstr(harness, "SL_RUNNER_TABLE(SL_LESSON_EXERCISES)")) {
        sl_text_printf(out,
                       "%s: the runner's table is not SL_RUNNER_TABLE(SL_LESSON_EXERCISES), "
                       "so its names are not checked against exercises.h\n",
                       rel);
        bad++;
    }
    free(harness);
    return bad + lint_expect_names(root, l, out);
}

/* ---------- links: docs/<file>.md#<anchor> and Markdown links ---------- */

typedef struct {
    char *rel; /* "docs/01-barriers.md" */
    int ok;    /* read and parsed */
    sl_md md;
} doc_entry;

typedef struct {
    const char *root;
    doc_entry *docs;
    int ndocs, cap;
    char **seen; /* "file\tref" already reported */
    int nseen, seen_cap;
    int bad;
    sl_text *out;
} link_check;

static const doc_entry *doc_get(link_check *c, const char *rel)
{
    for (int i = 0; i < c->ndocs; i++)
        if (strcmp(c->docs[i].rel, rel) == 0)
            return &c->docs[i];
    if (c->ndocs == c->cap) {
        int ncap = c->cap ? 2 * c->cap : 16;
        doc_entry *v = realloc(c->docs, (size_t)ncap * sizeof *v);
        if (!v)
            return NULL;
        c->docs = v;
        c->cap = ncap;
    }
    doc_entry *d = &c->docs[c->ndocs];
    memset(d, 0, sizeof *d);
    if (!(d->rel = strdup(rel)))
        return NULL;
    char *text = read_rel(c->root, rel);
    d->ok = text && sl_md_parse(text, &d->md) == 0;
    free(text);
    c->ndocs++;
    return d;
}

/* Reports once per file and reference. */
static void report(link_check *c, const char *file, int line, const char *ref, const char *fmt,
                   const char *arg)
{
    char key[4096];
    snprintf(key, sizeof key, "%s\t%s", file, ref);
    for (int i = 0; i < c->nseen; i++)
        if (strcmp(c->seen[i], key) == 0)
            return;
    if (c->nseen == c->seen_cap) {
        int ncap = c->seen_cap ? 2 * c->seen_cap : 16;
        char **v = realloc(c->seen, (size_t)ncap * sizeof *v);
        if (!v)
            return;
        c->seen = v;
        c->seen_cap = ncap;
    }
    c->seen[c->nseen++] = strdup(key);
    if (line > 0)
        sl_text_printf(c->out, "%s:%d: ", file, line);
    else
        sl_text_printf(c->out, "%s: ", file);
    sl_text_printf(c->out, fmt, ref, arg);
    sl_text_printf(c->out, "\n");
    c->bad++;
}

/* dir + "/" + target with "." and ".." resolved: "docs" + "../README.md"
 * -> "README.md". 0, or -1 when it leaves root. */
static int resolve(const char *dir, const char *target, char *out, size_t n)
{
    char joined[4096];
    snprintf(joined, sizeof joined, "%s%s%s", dir, *dir ? "/" : "", target);
    char *parts[256];
    int np = 0;
    for (char *save, *p = strtok_r(joined, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
        if (strcmp(p, ".") == 0)
            continue;
        if (strcmp(p, "..") == 0) {
            if (np == 0)
                return -1;
            np--;
            continue;
        }
        if (np < 256)
            parts[np++] = p;
    }
    out[0] = '\0';
    size_t k = 0;
    for (int i = 0; i < np; i++)
        k += (size_t)snprintf(out + k, k < n ? n - k : 0, "%s%s", i ? "/" : "", parts[i]);
    return k < n ? 0 : -1;
}

/* One reference "path#anchor" (path relative to dir; "" = file itself) made
 * in file at line (0: no line). */
static void check_ref(link_check *c, const char *file, int line, const char *dir, const char *ref)
{
    char path[4096], target[4096];
    snprintf(path, sizeof path, "%s", ref);
    char *hash = strchr(path, '#');
    const char *anchor = hash ? hash + 1 : NULL;
    if (hash)
        *hash = '\0';
    if (!path[0])
        snprintf(target, sizeof target, "%s", file);
    else if (resolve(dir, path, target, sizeof target) != 0) {
        report(c, file, line, ref, "%s: points outside the source tree%s", "");
        return;
    }
    if (!exists_rel(c->root, target)) {
        report(c, file, line, ref, "%s: no such file (%s)", target);
        return;
    }
    if (!anchor || !has_suffix(target, ".md"))
        return;
    const doc_entry *d = doc_get(c, target);
    if (d && d->ok && !sl_md_has_anchor(&d->md, anchor))
        report(c, file, line, ref, "%s: no heading of %s has this anchor", target);
}

/* "docs/<name>.md" and "docs/<name>.md#<anchor>" anywhere in text, relative
 * to the root. */
static void check_text_refs(link_check *c, const char *file, const char *text)
{
    for (const char *s = strstr(text, "docs/"); s; s = strstr(s + 1, "docs/")) {
        if (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '/' || s[-1] == '_' ||
                         s[-1] == '-' || s[-1] == '.'))
            continue;
        const char *p = s + 5;
        while (isalnum((unsigned char)*p) || *p == '-' || *p == '_')
            p++;
        if (p == s + 5 || strncmp(p, ".md", 3) != 0 || isalnum((unsigned char)p[3]) || p[3] == '_')
            continue;
        p += 3;
        if (*p == '#' && (isalnum((unsigned char)p[1]) || p[1] == '-' || p[1] == '_')) {
            p++;
            while (isalnum((unsigned char)*p) || *p == '-' || *p == '_')
                p++;
        }
        char ref[512];
        snprintf(ref, sizeof ref, "%.*s", (int)(p - s), s);
        check_ref(c, file, line_of(text, s), "", ref);
    }
}

/* A Markdown file: its links (relative to its folder) and its root-relative
 * docs/ mentions. */
static void check_markdown(link_check *c, const char *rel)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", rel);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        dir[0] = '\0';
    const doc_entry *d = doc_get(c, rel);
    for (int i = 0; d && d->ok && i < d->md.nlinks; i++) {
        const char *t = d->md.links[i].target;
        if (strstr(t, "://") || strncmp(t, "mailto:", 7) == 0)
            continue;
        check_ref(c, rel, d->md.links[i].line, dir, t);
    }
    char *text = read_rel(c->root, rel);
    if (text)
        check_text_refs(c, rel, text);
    free(text);
}

/* The docs/ mentions of the C, header and CUDA files of root/dir. */
static void check_code_dir(link_check *c, const char *dir)
{
    static const char *const code[] = {".c", ".h", ".cu", NULL};
    char **files = list_dir(c->root, dir, code);
    for (char **f = files; f && *f; f++) {
        char *text = read_rel(c->root, *f);
        if (text)
            check_text_refs(c, *f, text);
        free(text);
    }
    free_list(files);
}

int sl_lint_links(const char *root, const sl_lesson *const *lessons, sl_text *out)
{
    link_check c = {.root = root, .out = out};
    static const char *const code_dirs[] = {"starter",      "solutions",         "grader/util",
                                            "grader/run",   "grader/submission", "grader/static",
                                            "grader/judge", "grader/report",     "grader/class",
                                            "grader/cli",   "grader/runner"};
    for (size_t i = 0; i < sizeof code_dirs / sizeof code_dirs[0]; i++)
        check_code_dir(&c, code_dirs[i]);
    for (const sl_lesson *const *l = lessons; l && *l; l++) {
        char dir[256];
        snprintf(dir, sizeof dir, "lessons/%s", (*l)->name);
        check_code_dir(&c, dir);
        snprintf(dir, sizeof dir, "lessons/%s/zoo", (*l)->name);
        check_code_dir(&c, dir);
    }
    static const char *const md[] = {".md", NULL};
    static const char *const md_dirs[] = {".", "docs"};
    for (int i = 0; i < 2; i++) {
        char **files = list_dir(root, md_dirs[i], md);
        for (char **f = files; f && *f; f++)
            check_markdown(&c, strncmp(*f, "./", 2) == 0 ? *f + 2 : *f);
        free_list(files);
    }
    /* the suites' .doc fields, which may be built by macros (a .doc
     * written out in suite.c was reported above, with its line) */
    for (const sl_lesson *const *l = lessons; l && *l; l++) {
        char suite[256];
        snprintf(suite, sizeof suite, "lessons/%s/suite.c", (*l)->name);
        if ((*l)->doc)
            check_ref(&c, suite, 0, "", (*l)->doc);
        for (int i = 0; i < (*l)->count; i++) {
            const sl_exercise *e = &(*l)->exercises[i];
            if (!e->doc || !strchr(e->doc, '#'))
                report(&c, suite, 0, e->name ? e->name : "?",
                       "exercise %s: .doc names no section (want docs/<file>.md#<anchor>)%s", "");
            else
                check_ref(&c, suite, 0, "", e->doc);
        }
    }
    for (int i = 0; i < c.ndocs; i++) {
        free(c.docs[i].rel);
        if (c.docs[i].ok)
            sl_md_free(&c.docs[i].md);
    }
    for (int i = 0; i < c.nseen; i++)
        free(c.seen[i]);
    free(c.docs);
    free(c.seen);
    return c.bad;
}

/* ---------- zoo: the docs' bug-zoo tables against the EXPECT lines ---------- */

static void set_name(unsigned set, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
    for (int v = 0; v < SL_V_COUNT; v++)
        if (set & (1u << v))
            k += (size_t)snprintf(out + k, k < n ? n - k : 0, "%s%s", k ? "|" : "",
                                  sl_verdict_name((sl_verdict)v));
}

/* The verdict names in a table cell, as a set. */
static unsigned verdicts_in(const char *cell)
{
    unsigned set = 0;
    for (const char *p = cell; *p;) {
        if (!isupper((unsigned char)*p) || (p > cell && isalnum((unsigned char)p[-1]))) {
            p++;
            continue;
        }
        const char *q = p;
        while (isupper((unsigned char)*q))
            q++;
        char word[32];
        snprintf(word, sizeof word, "%.*s", (int)(q - p), p);
        int v = (q - p) < 32 && !isalnum((unsigned char)*q) ? sl_verdict_parse(word) : -1;
        if (v >= 0)
            set |= 1u << v;
        p = q;
    }
    return set;
}

typedef struct {
    char *name;        /* "missing_barrier.cu" */
    unsigned expected; /* from its EXPECT lines */
    int rows;          /* rows of the doc that name it */
} zoo_file;

static zoo_file *zoo_find(zoo_file *zoo, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(zoo[i].name, name) == 0)
            return &zoo[i];
    return NULL;
}

/* The zoo files a table row names: `name.cu` or `lessons/<l>/zoo/name.cu`
 * in backticks, in any cell but the verdict's. */
static void check_row(const char *doc, const sl_md_row *row, int verdict_col, zoo_file *zoo,
                      int nzoo, const char *zoo_dir, sl_text *out, int *bad)
{
    unsigned said = verdict_col < row->ncells ? verdicts_in(row->cell[verdict_col]) : 0;
    for (int c = 0; c < row->ncells; c++) {
        if (c == verdict_col)
            continue;
        for (const char *s = strchr(row->cell[c], '`'); s; s = strchr(s + 1, '`')) {
            const char *e = strchr(s + 1, '`');
            if (!e)
                break;
            char span[256];
            snprintf(span, sizeof span, "%.*s", (int)(e - s - 1), s + 1);
            s = e;
            const char *slash = strrchr(span, '/');
            if (!has_suffix(span, ".cu") || strchr(span, ' ') || (slash && !strstr(span, "zoo/")))
                continue;
            const char *name = slash ? slash + 1 : span;
            zoo_file *z = zoo_find(zoo, nzoo, name);
            if (!z) {
                sl_text_printf(out, "%s:%d: %s is not in %s/\n", doc, row->line, name, zoo_dir);
                (*bad)++;
                continue;
            }
            z->rows++;
            char want[128], got[128];
            set_name(z->expected, want, sizeof want);
            set_name(said, got, sizeof got);
            if (!said) {
                sl_text_printf(out,
                               "%s:%d: %s: no verdict in the verdict column (its EXPECT "
                               "lines say %s)\n",
                               doc, row->line, name, want);
                (*bad)++;
            } else if (said != z->expected) {
                sl_text_printf(out, "%s:%d: %s: the table says %s, its EXPECT lines say %s\n", doc,
                               row->line, name, got, want);
                (*bad)++;
            }
        }
    }
}

static int verdict_column(const sl_md_table *t)
{
    for (int c = 0; c < t->header.ncells; c++)
        if (strcasecmp(t->header.cell[c], "verdict") == 0)
            return c;
    return -1;
}

int sl_lint_zoo(const char *root, const sl_lesson *l, sl_lint_tree tree, sl_text *out)
{
    static const char *const cu[] = {".cu", NULL};
    char zoo_dir[256];
    snprintf(zoo_dir, sizeof zoo_dir, "lessons/%s/zoo", l->name);
    if (tree == SL_LINT_HANDOUT) { /* the tables name the instructors' zoo */
        if (!exists_rel(root, zoo_dir))
            return 0;
        sl_text_printf(out, "%s: a handout ships no bug zoo (its mutants include the solution)\n",
                       zoo_dir);
        return 1;
    }
    char **files = list_dir(root, zoo_dir, cu);
    int nzoo = 0, bad = 0;
    for (char **f = files; f && *f; f++)
        nzoo++;
    zoo_file *zoo = calloc((size_t)nzoo + 1, sizeof *zoo);
    for (int i = 0; zoo && i < nzoo; i++) {
        zoo[i].name = strrchr(files[i], '/') + 1;
        char *text = read_rel(root, files[i]);
        sl_expectation ex[MAX_EXPECT];
        int n = text ? sl_expectations_in_source(text, ex, MAX_EXPECT) : 0;
        free(text);
        if (n == 0) {
            sl_text_printf(out, "%s: no // EXPECT <exercise> <VERDICT> line\n", files[i]);
            bad++;
        }
        for (int k = 0; k < n; k++) {
            unsigned set;
            if (sl_verdict_set(ex[k].verdicts, &set) != 0) {
                sl_text_printf(out, "%s: EXPECT %s %s: not a verdict (PASS, WRONG, RACE, ...)\n",
                               files[i], ex[k].exercise, ex[k].verdicts);
                bad++;
            }
            zoo[i].expected |= set;
        }
    }

    char doc[4096];
    snprintf(doc, sizeof doc, "%s", l->doc ? l->doc : "");
    doc[strcspn(doc, "#")] = '\0';
    char *text = read_rel(root, doc);
    sl_md md;
    if (!text || sl_md_parse(text, &md) != 0) {
        sl_text_printf(out, "%s: cannot read lesson %s's doc\n", doc, l->name);
        bad++;
    } else {
        for (int t = 0; t < md.ntables; t++) {
            int col = verdict_column(&md.tables[t]);
            for (int r = 0; col >= 0 && r < md.tables[t].nrows; r++)
                check_row(doc, &md.tables[t].rows[r], col, zoo, nzoo, zoo_dir, out, &bad);
        }
        sl_md_free(&md);
        for (int i = 0; zoo && i < nzoo; i++)
            if (!zoo[i].rows) {
                char want[128];
                set_name(zoo[i].expected, want, sizeof want);
                sl_text_printf(out,
                               "%s: no row in %s's bug-zoo tables (a table with a verdict "
                               "column; EXPECT %s)\n",
                               files[i], doc, want);
                bad++;
            }
    }
    free(text);
    free(zoo);
    free_list(files);
    return bad;
}

/* ---------- instructor-only passages of the Markdown files ---------- */

/* One Markdown file's markers: in the repository each passage is closed
 * (an open one would take the rest of the file out of the handout), in a
 * handout none is left. */
static int lint_passages_of(const char *root, const char *rel, sl_lint_tree tree, sl_text *out)
{
    char *text = read_rel(root, rel);
    if (!text)
        return 0;
    const size_t nb = strlen(SL_INSTRUCTORS_BEGIN), ne = strlen(SL_INSTRUCTORS_END);
    const char *open = NULL;
    int bad = 0;
    for (const char *p = strstr(text, "<!-- "); p; p = strstr(p + 1, "<!-- ")) {
        int begin = strncmp(p, SL_INSTRUCTORS_BEGIN, nb) == 0;
        int end = strncmp(p, SL_INSTRUCTORS_END, ne) == 0;
        if (!begin && !end)
            continue;
        if (tree == SL_LINT_HANDOUT) {
            sl_text_printf(out,
                           "%s:%d: an instructor-only passage is left in the handout "
                           "(make handout takes them out)\n",
                           rel, line_of(text, p));
            bad++;
            break;
        }
        if (begin && open) {
            sl_text_printf(out, "%s:%d: %s inside the passage opened on line %d\n", rel,
                           line_of(text, p), SL_INSTRUCTORS_BEGIN, line_of(text, open));
            bad++;
        } else if (end && !open) {
            sl_text_printf(out, "%s:%d: %s closes no passage\n", rel, line_of(text, p),
                           SL_INSTRUCTORS_END);
            bad++;
        }
        open = begin ? p : NULL;
    }
    if (open) {
        sl_text_printf(out, "%s:%d: instructor-only passage not closed (%s)\n", rel,
                       line_of(text, open), SL_INSTRUCTORS_END);
        bad++;
    }
    free(text);
    return bad;
}

int sl_lint_passages(const char *root, sl_lint_tree tree, sl_text *out)
{
    static const char *const md[] = {".md", NULL};
    static const char *const md_dirs[] = {".", "docs"};
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        char **files = list_dir(root, md_dirs[i], md);
        for (char **f = files; f && *f; f++)
            bad += lint_passages_of(root, strncmp(*f, "./", 2) == 0 ? *f + 2 : *f, tree, out);
        free_list(files);
    }
    if (tree == SL_LINT_HANDOUT && exists_rel(root, "solutions")) {
        sl_text_printf(out, "solutions: a handout ships no reference solutions\n");
        bad++;
    }
    return bad;
}

/* ---------- points.ini ---------- */

int sl_lint_points(const char *root, const sl_lesson *const *lessons, sl_text *out)
{
    static const char FILE_REL[] = "grading/points.ini";
    static const char REGEN[] = "regenerate: syncgrade points > grading/points.ini";
    char *want = NULL;
    size_t want_len = 0;
    FILE *f = open_memstream(&want, &want_len);
    if (!f)
        return 1;
    sl_points_write_defaults(f, lessons);
    fclose(f);
    char *have = read_rel(root, FILE_REL);
    int bad = 0;
    if (!have) {
        sl_text_printf(out, "%s: missing (%s)\n", FILE_REL, REGEN);
        bad = 1;
    } else if (strcmp(have, want) != 0) {
        const char *a = have, *b = want;
        int line = 1;
        while (*a && *a == *b) { /* the first line that differs */
            line += *a == '\n';
            a++, b++;
        }
        while (a > have && a[-1] != '\n')
            a--, b--;
        sl_text_printf(out, "%s:%d: is '%.*s', the suites give '%.*s' (%s)\n", FILE_REL, line,
                       (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b, REGEN);
        bad = 1;
    }
    free(have);
    free(want);
    return bad;
}

/* ---------- README.md's lesson table ---------- */

/* The cells of a lesson's row. */
static void readme_cells(int number, const sl_lesson *l, sl_text cells[4])
{
    sl_text_printf(&cells[0], "%d", number);
    sl_text_printf(&cells[1], "%s (`%s`)", l->title, l->name);
    for (int i = 0; i < l->count; i++)
        sl_text_printf(&cells[2], "%s`%s`", i ? ", " : "", l->exercises[i].name);
    char doc[4096];
    snprintf(doc, sizeof doc, "%s", l->doc ? l->doc : "");
    doc[strcspn(doc, "#")] = '\0';
    sl_text_printf(&cells[3], "[%s](%s)", doc, doc);
}

void sl_lint_readme_row(int number, const sl_lesson *l, sl_text *out)
{
    sl_text cells[4] = {{0}};
    readme_cells(number, l, cells);
    sl_text_printf(out, "|");
    for (int i = 0; i < 4; i++) {
        sl_text_printf(out, " %s |", sl_text_str(&cells[i]));
        sl_text_free(&cells[i]);
    }
}

int sl_lint_readme(const char *root, const sl_lesson *const *lessons, sl_text *out)
{
    char *text = read_rel(root, "README.md");
    sl_md md;
    if (!text || sl_md_parse(text, &md) != 0) {
        free(text);
        sl_text_printf(out, "README.md: missing\n");
        return 1;
    }
    free(text);
    const sl_md_table *t = NULL;
    for (int i = 0; i < md.ntables && !t; i++)
        if (md.tables[i].header.ncells >= 2 && strcmp(md.tables[i].header.cell[0], "#") == 0 &&
            strcasecmp(md.tables[i].header.cell[1], "lesson") == 0)
            t = &md.tables[i];
    int bad = 0;
    if (!t) {
        sl_text_printf(out, "README.md: no lesson table (| # | lesson | you write | doc |)\n");
        sl_md_free(&md);
        return 1;
    }
    int n = 0;
    for (const sl_lesson *const *l = lessons; l && *l; l++, n++) {
        sl_text want = {0};
        sl_lint_readme_row(n + 1, *l, &want);
        if (n >= t->nrows) {
            sl_text_printf(out,
                           "README.md:%d: the lesson table has no row for lesson %s; add: %s\n",
                           t->rows && t->nrows ? t->rows[t->nrows - 1].line : t->header.line,
                           (*l)->name, sl_text_str(&want));
            bad++;
            sl_text_free(&want);
            continue;
        }
        const sl_md_row *row = &t->rows[n];
        sl_text cells[4] = {{0}};
        readme_cells(n + 1, *l, cells);
        int same = row->ncells == 4;
        for (int c = 0; c < 4 && same; c++)
            same = strcmp(row->cell[c], sl_text_str(&cells[c])) == 0;
        if (!same) {
            sl_text_printf(out, "README.md:%d: lesson %d's row is not current; want: %s\n",
                           row->line, n + 1, sl_text_str(&want));
            bad++;
        }
        for (int c = 0; c < 4; c++)
            sl_text_free(&cells[c]);
        sl_text_free(&want);
    }
    for (int r = n; r < t->nrows; r++) {
        sl_text_printf(out, "README.md:%d: the lesson table has a row for no lesson (%s)\n",
                       t->rows[r].line, t->rows[r].ncells > 1 ? t->rows[r].cell[1] : "");
        bad++;
    }
    sl_md_free(&md);
    return bad;
}

int sl_lint(const char *root, const sl_lesson *const *lessons, sl_lint_tree tree, sl_text *out)
{
    int bad = 0;
    for (const sl_lesson *const *l = lessons; l && *l; l++)
        bad += sl_lint_exercises(root, *l, out);
    bad += sl_lint_links(root, lessons, out);
    for (const sl_lesson *const *l = lessons; l && *l; l++)
        bad += sl_lint_zoo(root, *l, tree, out);
    bad += sl_lint_passages(root, tree, out);
    bad += sl_lint_points(root, lessons, out);
    bad += sl_lint_readme(root, lessons, out);
    return bad;
}
