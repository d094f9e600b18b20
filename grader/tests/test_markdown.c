#include <check.h>
#include <string.h>

#include "markdown.h"
#include "unit.h"

static const char *slug(const char *heading)
{
    static char out[256];
    sl_md_slug(heading, out, sizeof out);
    return out;
}

START_TEST(slugs_as_github_makes_them)
{
    ck_assert_str_eq(slug("Tile reverse"), "tile-reverse");
    ck_assert_str_eq(slug("Warps, independent thread scheduling and `__syncwarp()`"),
                     "warps-independent-thread-scheduling-and-__syncwarp");
    ck_assert_str_eq(slug("Bug zoo: what the grader says"), "bug-zoo-what-the-grader-says");
    ck_assert_str_eq(slug("`cuda::memcpy_async` and a barrier"), "cudamemcpy_async-and-a-barrier");
    ck_assert_str_eq(slug("See [the limits](#limits) here"), "see-the-limits-here");
    ck_assert_str_eq(slug("Scan (prefix sum)"), "scan-prefix-sum");
}
END_TEST

START_TEST(anchors_skip_code_and_number_repeats)
{
    const char *doc = "# Lesson\n\n## Honest limits\n\n```sh\n# not a heading\n```\n\n"
                      "### Honest limits ###\n#hashtag is no heading\n~~~\n## Inside\n~~~\n";
    sl_md md;
    ck_assert_int_eq(sl_md_parse(doc, &md), 0);
    ck_assert_int_eq(md.nanchors, 3);
    ck_assert(sl_md_has_anchor(&md, "lesson"));
    ck_assert(sl_md_has_anchor(&md, "honest-limits"));
    ck_assert(sl_md_has_anchor(&md, "honest-limits-1"));
    ck_assert(!sl_md_has_anchor(&md, "not-a-heading"));
    ck_assert(!sl_md_has_anchor(&md, "inside"));
    sl_md_free(&md);
}
END_TEST

START_TEST(links_outside_code_spans)
{
    const char *doc = "See [a](03-reduction.md#tree-reduce) and ![fig](figures/x.svg \"title\").\n"
                      "Not `[code](here.md)`, but [b](#local) and [c](https://example.org).\n"
                      "```\n[fenced](no.md)\n```\n";
    sl_md md;
    ck_assert_int_eq(sl_md_parse(doc, &md), 0);
    ck_assert_int_eq(md.nlinks, 4);
    ck_assert_str_eq(md.links[0].target, "03-reduction.md#tree-reduce");
    ck_assert_int_eq(md.links[0].line, 1);
    ck_assert_str_eq(md.links[1].target, "figures/x.svg");
    ck_assert_str_eq(md.links[2].target, "#local");
    ck_assert_int_eq(md.links[2].line, 2);
    ck_assert_str_eq(md.links[3].target, "https://example.org");
    sl_md_free(&md);
}
END_TEST

START_TEST(tables_with_their_rows_and_lines)
{
    const char *doc = "Intro.\n\n| file | verdict |\n| --- | :---: |\n| `a.cu` | RACE |\n"
                      "| `b.cu` and a \\| pipe | WRONG |\n\nText.\n\n| lone | line |\n"
                      "| x | y |\n";
    sl_md md;
    ck_assert_int_eq(sl_md_parse(doc, &md), 0);
    ck_assert_int_eq(md.ntables, 1); /* the second has no | --- | line */
    const sl_md_table *t = &md.tables[0];
    ck_assert_int_eq(t->header.line, 3);
    ck_assert_int_eq(t->header.ncells, 2);
    ck_assert_str_eq(t->header.cell[1], "verdict");
    ck_assert_int_eq(t->nrows, 2);
    ck_assert_int_eq(t->rows[0].line, 5);
    ck_assert_str_eq(t->rows[0].cell[0], "`a.cu`");
    ck_assert_str_eq(t->rows[1].cell[0], "`b.cu` and a \\| pipe");
    ck_assert_str_eq(t->rows[1].cell[1], "WRONG");
    sl_md_free(&md);
}
END_TEST

Suite *markdown_suite(void)
{
    Suite *s = suite_create("markdown");
    TCase *tc = tcase_create("markdown");
    tcase_add_test(tc, slugs_as_github_makes_them);
    tcase_add_test(tc, anchors_skip_code_and_number_repeats);
    tcase_add_test(tc, links_outside_code_spans);
    tcase_add_test(tc, tables_with_their_rows_and_lines);
    suite_add_tcase(s, tc);
    return s;
}
