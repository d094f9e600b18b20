/* Headings' anchors, links and tables of a Markdown document (markdown.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markdown.h"

/* Appends to a growable array of elem-sized items; -1 out of memory. */
static int grow(void **v, int count, int *cap, size_t elem)
{
    if (count < *cap)
        return 0;
    int ncap = *cap ? 2 * *cap : 16;
    void *nv = realloc(*v, (size_t)ncap * elem);
    if (!nv)
        return -1;
    *v = nv;
    *cap = ncap;
    return 0;
}

static char *dup_range(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return strndup(s, n);
}

void sl_md_slug(const char *heading, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = heading; *p && k + 1 < n; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == ']' && p[1] == '(') { /* [text](url): the text only */
            const char *close = strchr(p, ')');
            if (close) {
                p = close;
                continue;
            }
        }
        if (isalnum(c) || c == '-' || c == '_' || c >= 0x80)
            out[k++] = (char)tolower(c);
        else if (c == ' ')
            out[k++] = '-';
    }
    out[k] = '\0';
}

int sl_md_has_anchor(const sl_md *md, const char *anchor)
{
    for (int i = 0; i < md->nanchors; i++)
        if (strcmp(md->anchors[i], anchor) == 0)
            return 1;
    return 0;
}

/* A repeated heading gets "-1", "-2"... as on GitHub. */
static int add_anchor(sl_md *md, int *cap, const char *heading)
{
    char slug[512], unique[540];
    sl_md_slug(heading, slug, sizeof slug);
    snprintf(unique, sizeof unique, "%s", slug);
    for (int k = 1; sl_md_has_anchor(md, unique); k++)
        snprintf(unique, sizeof unique, "%s-%d", slug, k);
    if (grow((void **)&md->anchors, md->nanchors, cap, sizeof *md->anchors) != 0)
        return -1;
    if (!(md->anchors[md->nanchors] = strdup(unique)))
        return -1;
    md->nanchors++;
    return 0;
}

/* "## Title ##" -> "Title"; NULL when the line is no ATX heading. */
static char *heading_text(const char *line, size_t len)
{
    size_t i = 0, hashes = 0;
    while (i < len && i < 3 && line[i] == ' ')
        i++;
    while (i < len && line[i] == '#')
        i++, hashes++;
    if (hashes < 1 || hashes > 6 || (i < len && line[i] != ' ' && line[i] != '\t'))
        return NULL;
    size_t end = len;
    while (end > i && isspace((unsigned char)line[end - 1]))
        end--;
    size_t closing = end;
    while (closing > i && line[closing - 1] == '#')
        closing--;
    if (closing < end && (closing == i || line[closing - 1] == ' '))
        end = closing;
    return dup_range(line + i, end - i);
}

/* The links of one line, outside `code spans`. */
static int add_links(sl_md *md, int *cap, const char *line, size_t len, int lineno)
{
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '`') { /* skip to the end of the span, if it has one */
            size_t run = 0, j;
            while (i + run < len && line[i + run] == '`')
                run++;
            for (j = i + run; j < len;) {
                size_t r = 0;
                while (j + r < len && line[j + r] == '`')
                    r++;
                if (r == run)
                    break;
                j += r ? r : 1;
            }
            i = (j < len ? j : i) + run - 1;
            continue;
        }
        if (line[i] != ']' || i + 1 >= len || line[i + 1] != '(')
            continue;
        size_t start = i + 2, end = start;
        while (end < len && line[end] != ')' && line[end] != ' ')
            end++;
        if (end == start || end >= len)
            continue;
        if (grow((void **)&md->links, md->nlinks, cap, sizeof *md->links) != 0)
            return -1;
        sl_md_link *l = &md->links[md->nlinks];
        l->line = lineno;
        if (!(l->target = strndup(line + start, end - start)))
            return -1;
        md->nlinks++;
        i = end;
    }
    return 0;
}

static int is_table_line(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i < len && line[i] == '|';
}

/* "| --- | :---: |" */
static int is_delimiter_line(const char *line, size_t len)
{
    int dashes = 0;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (c == '-')
            dashes++;
        else if (c != '|' && c != ':' && c != ' ' && c != '\t')
            return 0;
    }
    return dashes > 0 && is_table_line(line, len);
}

/* Cells split at every '|' not escaped by '\' (GitHub does so inside code
 * spans too), without the empty cells outside the first and last '|'. */
static int split_row(const char *line, size_t len, int lineno, sl_md_row *row)
{
    memset(row, 0, sizeof *row);
    row->line = lineno;
    while (len && isspace((unsigned char)line[len - 1]))
        len--;
    size_t i = 0;
    while (i < len && isspace((unsigned char)line[i]))
        i++;
    if (i < len && line[i] == '|')
        i++;
    if (len > i && line[len - 1] == '|' && (len < 2 || line[len - 2] != '\\'))
        len--;
    size_t start = i;
    for (; i <= len; i++) {
        if (i < len && (line[i] != '|' || line[i - 1] == '\\'))
            continue;
        if (row->ncells < SL_MD_MAX_CELLS) {
            if (!(row->cell[row->ncells] = dup_range(line + start, i - start)))
                return -1;
            row->ncells++;
        }
        start = i + 1;
    }
    return 0;
}

static void free_row(sl_md_row *r)
{
    for (int i = 0; i < r->ncells; i++)
        free(r->cell[i]);
    r->ncells = 0;
}

int sl_md_parse(const char *text, sl_md *md)
{
    memset(md, 0, sizeof *md);
    int anchor_cap = 0, link_cap = 0, table_cap = 0, row_cap = 0;
    char fence = 0;            /* '`' or '~' inside a fenced code block */
    sl_md_table *table = NULL; /* the one being read */
    const char *prev = NULL;
    size_t prev_len = 0;
    int lineno = 0;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        lineno++;
        const char *lead = line;
        while (lead < line + len && lead - line < 3 && *lead == ' ')
            lead++;
        int fence_line = line + len - lead >= 3 && (lead[0] == '`' || lead[0] == '~') &&
                         lead[1] == lead[0] && lead[2] == lead[0];
        if (fence_line && (!fence || lead[0] == fence)) {
            fence = fence ? 0 : lead[0];
            table = NULL;
        } else if (!fence) {
            char *h = heading_text(line, len);
            int rc = h ? add_anchor(md, &anchor_cap, h) : 0;
            free(h);
            if (rc != 0 || add_links(md, &link_cap, line, len, lineno) != 0)
                goto oom;
            if (table && is_table_line(line, len)) {
                if (grow((void **)&table->rows, table->nrows, &row_cap, sizeof *table->rows) != 0 ||
                    split_row(line, len, lineno, &table->rows[table->nrows]) != 0)
                    goto oom;
                table->nrows++;
            } else if (prev && is_delimiter_line(line, len) && is_table_line(prev, prev_len)) {
                if (grow((void **)&md->tables, md->ntables, &table_cap, sizeof *md->tables) != 0)
                    goto oom;
                table = &md->tables[md->ntables++];
                memset(table, 0, sizeof *table);
                row_cap = 0;
                if (split_row(prev, prev_len, lineno - 1, &table->header) != 0)
                    goto oom;
            } else
                table = NULL;
        }
        prev = line;
        prev_len = len;
        line += len + (nl != NULL);
    }
    return 0;
oom:
    sl_md_free(md);
    return -1;
}

void sl_md_free(sl_md *md)
{
    for (int i = 0; i < md->nanchors; i++)
        free(md->anchors[i]);
    for (int i = 0; i < md->nlinks; i++)
        free(md->links[i].target);
    for (int t = 0; t < md->ntables; t++) {
        free_row(&md->tables[t].header);
        for (int r = 0; r < md->tables[t].nrows; r++)
            free_row(&md->tables[t].rows[r]);
        free(md->tables[t].rows);
    }
    free(md->anchors);
    free(md->links);
    free(md->tables);
    memset(md, 0, sizeof *md);
}
