/* What syncgrade lint reads in the Markdown docs: the anchors GitHub gives
 * headings, the links, and the tables. Fenced code blocks are skipped (a
 * "# comment" there is no heading). Not a renderer: enough to check that
 * docs point at what exists. */
#ifndef SYNCLAB_MARKDOWN_H
#define SYNCLAB_MARKDOWN_H

#include <stddef.h>

enum { SL_MD_MAX_CELLS = 8 };

typedef struct {
    int line; /* 1-based */
    int ncells;
    char *cell[SL_MD_MAX_CELLS]; /* trimmed; cells past the last are dropped */
} sl_md_row;

typedef struct {
    sl_md_row header; /* the line above the | --- | line */
    sl_md_row *rows;
    int nrows;
} sl_md_table;

typedef struct {
    int line;
    char *target; /* "03-reduction.md#tree-reduce", "#grading" */
} sl_md_link;

typedef struct {
    char **anchors; /* every heading's, repeats numbered -1, -2 */
    int nanchors;
    sl_md_link *links; /* [text](target) and ![alt](target) */
    int nlinks;
    sl_md_table *tables;
    int ntables;
} sl_md;

/* GitHub's anchor of a heading's text: [text](url) keeps its text, then
 * lower case, every character but letters, digits, '-', '_', ' ' and
 * non-ASCII ones dropped, spaces to '-'. "Warps and `__syncwarp()`" ->
 * "warps-and-__syncwarp". */
void sl_md_slug(const char *heading, char *out, size_t n);

/* Parses a document. 0, or -1 when out of memory. */
int sl_md_parse(const char *text, sl_md *md);
void sl_md_free(sl_md *md);
int sl_md_has_anchor(const sl_md *md, const char *anchor);

#endif
