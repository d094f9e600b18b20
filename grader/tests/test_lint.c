#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "lint.h"
#include "points.h"
#include "proc.h"
#include "unit.h"

/* A source tree that agrees with unit_lessons (alpha: first, second; beta:
 * third), made anew for each test; a test breaks one thing in it. */
static char root[] = "/tmp/synclab_lint_XXXXXX";

static void write_file(const char *rel, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char DOC_A[] =
    "# Alpha\n\n## First\n\nSee [the second](#second) and [b](b.md#third).\n\n"
    "## Second\n\n## Bug zoo\n\n| file | bug | verdict |\n| --- | --- | --- |\n"
    "| `race.cu` | no barrier | RACE |\n"
    "| `ok_one.cu`, `ok_two.cu` | correct | PASS |\n";

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(root));
    write_file("docs/a.md", DOC_A);
    write_file("docs/b.md", "# Beta\n\n## Third\n\nBack to [alpha](a.md).\n");
    write_file("lessons/alpha/harness.cu", "SL_RUNNER_TABLE(SL_LESSON_EXERCISES)\n");
    write_file("lessons/alpha/alpha.h", "/* first (docs/a.md#first) */\n");
    write_file("lessons/alpha/zoo/race.cu", "// EXPECT first RACE\n");
    write_file("lessons/alpha/zoo/ok_one.cu", "// EXPECT first PASS\n");
    write_file("lessons/alpha/zoo/ok_two.cu", "// EXPECT second PASS\n");
    write_file("lessons/beta/harness.cu", "SL_RUNNER_TABLE(SL_LESSON_EXERCISES)\n");
    write_file("starter/alpha.cu", "// Read docs/a.md, then docs/a.md#second.\n");

    char *points = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&points, &len);
    sl_points_write_defaults(f, unit_lessons);
    fclose(f);
    write_file("grading/points.ini", points);
    free(points);

    sl_text readme = {0};
    sl_text_printf(&readme,
                   "# Lab\n\n| # | lesson | you write | doc |\n| --- | --- | --- | --- |\n");
    for (int i = 0; unit_lessons[i]; i++) {
        sl_lint_readme_row(i + 1, unit_lessons[i], &readme);
        sl_text_printf(&readme, "\n");
    }
    write_file("README.md", sl_text_str(&readme));
    sl_text_free(&readme);
}

static void teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    ck_assert_int_eq(system(cmd), 0);
    strcpy(root, "/tmp/synclab_lint_XXXXXX");
}

/* The whole lint on the tree: how many problems, and they in out. */
static int lint(sl_text *out)
{
    sl_text_clear(out);
    return sl_lint(root, unit_lessons, SL_LINT_REPOSITORY, out);
}

/* One problem, whose line contains what. */
static void one_problem(const char *what)
{
    sl_text out = {0};
    int bad = lint(&out);
    ck_assert_msg(bad == 1, "%d problems, not 1:\n%s", bad, sl_text_str(&out));
    ck_assert_msg(strstr(sl_text_str(&out), what), "no '%s' in:\n%s", what, sl_text_str(&out));
    sl_text_free(&out);
}

START_TEST(a_tree_that_agrees_is_clean)
{
    sl_text out = {0};
    ck_assert_msg(lint(&out) == 0, "%s", sl_text_str(&out));
    ck_assert_str_eq(sl_text_str(&out), "");
    sl_text_free(&out);
}
END_TEST

START_TEST(wrong_anchor_in_a_header)
{
    write_file("lessons/alpha/alpha.h", "/* one */\n/* first (docs/a.md#frist) */\n");
    one_problem(
        "lessons/alpha/alpha.h:2: docs/a.md#frist: no heading of docs/a.md has this anchor");
}
END_TEST

START_TEST(wrong_anchor_in_a_docs_link)
{
    write_file("docs/b.md", "# Beta\n\n## Third\n\nBack to [alpha](a.md#thrid).\n");
    one_problem("docs/b.md:5: a.md#thrid: no heading of docs/a.md has this anchor");
}
END_TEST

START_TEST(link_to_a_missing_file)
{
    write_file("starter/alpha.cu", "// Read docs/c.md first.\n");
    one_problem("starter/alpha.cu:1: docs/c.md: no such file (docs/c.md)");
}
END_TEST

START_TEST(renamed_heading_breaks_the_suite_doc)
{
    char doc[sizeof DOC_A + 16];
    snprintf(doc, sizeof doc, "%s", DOC_A);
    char *second = strstr(doc, "## Second");
    memcpy(second, "## Secund", 9);
    write_file("docs/a.md", doc);
    sl_text out = {0};
    int bad = lint(&out);
    const char *o = sl_text_str(&out);
    ck_assert_msg(bad == 3, "%s", o); /* the suite's .doc, the doc's link, the starter's */
    ck_assert_msg(strstr(o, "lessons/alpha/suite.c: docs/a.md#second: no heading of docs/a.md has "
                            "this anchor"),
                  "%s", o);
    ck_assert_msg(strstr(o, "docs/a.md:5: #second: no heading of docs/a.md has this anchor"), "%s",
                  o);
    ck_assert_msg(strstr(o, "starter/alpha.cu:1: docs/a.md#second: no heading"), "%s", o);
    sl_text_free(&out);
}
END_TEST

START_TEST(zoo_row_that_disagrees)
{
    write_file("lessons/alpha/zoo/race.cu", "// EXPECT first RACE|SYNC\n");
    one_problem("docs/a.md:13: race.cu: the table says RACE, its EXPECT lines say RACE|SYNC");
}
END_TEST

START_TEST(zoo_file_without_a_row)
{
    write_file("lessons/alpha/zoo/hang.cu", "// EXPECT second TIMEOUT\n");
    one_problem("lessons/alpha/zoo/hang.cu: no row in docs/a.md's bug-zoo tables");
}
END_TEST

START_TEST(zoo_row_for_a_missing_file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/lessons/alpha/zoo/ok_two.cu", root);
    ck_assert_int_eq(unlink(path), 0);
    one_problem("docs/a.md:14: ok_two.cu is not in lessons/alpha/zoo/");
}
END_TEST

START_TEST(zoo_file_without_expect_or_with_a_wrong_one)
{
    write_file("lessons/alpha/zoo/race.cu", "// no expectation\n");
    sl_text out = {0};
    ck_assert_int_ge(lint(&out), 1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "lessons/alpha/zoo/race.cu: no // EXPECT"));
    write_file("lessons/alpha/zoo/race.cu", "// EXPECT first RACY\n");
    ck_assert_int_ge(lint(&out), 1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "EXPECT first RACY: not a verdict"));
    write_file("lessons/alpha/zoo/race.cu", "// EXPECT frist RACE\n");
    ck_assert_int_eq(lint(&out), 1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "EXPECT names exercise 'frist', which lesson "
                                                    "alpha does not have"));
    sl_text_free(&out);
}
END_TEST

START_TEST(points_file_out_of_date)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/grading/points.ini", root);
    char *text = sl_read_file(path, 1 << 16, NULL);
    char *at = strstr(text, "second = 15");
    ck_assert_ptr_nonnull(at);
    at[10] = '6';
    write_file("grading/points.ini", text);
    free(text);
    one_problem("is 'second = 16', the suites give 'second = 15'");
    unlink(path);
    one_problem("grading/points.ini: missing");
}
END_TEST

START_TEST(readme_table_out_of_date)
{
    write_file("README.md", "| # | lesson | you write | doc |\n| --- | --- | --- | --- |\n"
                            "| 1 | Alpha (`alpha`) | `first` | [docs/a.md](docs/a.md) |\n");
    sl_text out = {0};
    ck_assert_int_eq(lint(&out), 2);
    const char *o = sl_text_str(&out);
    ck_assert_msg(strstr(o, "README.md:3: lesson 1's row is not current; want: | 1 | Alpha "
                            "(`alpha`) | `first`, `second` | [docs/a.md](docs/a.md) |"),
                  "%s", o);
    ck_assert_msg(strstr(o, "the lesson table has no row for lesson beta"), "%s", o);
    write_file("README.md", "# No table\n");
    ck_assert_int_eq(lint(&out), 1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "README.md: no lesson table"));
    sl_text_free(&out);
}
END_TEST

/* ---- the suite against its exercises.h list ---- */

static const sl_exercise two[] = {{.name = "first", .doc = "docs/a.md#first"},
                                  {.name = "second", .doc = "docs/a.md#second"}};
static const sl_exercise one[] = {{.name = "first", .doc = "docs/a.md#first"}};
static const sl_exercise twice[] = {{.name = "first", .doc = "docs/a.md#first"},
                                    {.name = "first", .doc = "docs/a.md#first"}};
static const sl_exercise swapped[] = {{.name = "second", .doc = "docs/a.md#second"},
                                      {.name = "first", .doc = "docs/a.md#first"}};
static const sl_exercise benched[] = {{.name = "first", .doc = "docs/a.md#first", .bench = 1},
                                      {.name = "second", .doc = "docs/a.md#second"}};
static const sl_declared list[] = {{"first", 0}, {"second", 0}, {NULL, 0}};

/* sl_lint_exercises on lesson alpha with these exercises: problems in out. */
static int exercises(const sl_exercise *e, int count, const sl_declared *declared, sl_text *out)
{
    const sl_lesson l = {"alpha", "Alpha", "docs/a.md", e, count, declared};
    sl_text_clear(out);
    return sl_lint_exercises(root, &l, out);
}

START_TEST(suite_and_list_agree)
{
    sl_text out = {0};
    ck_assert_msg(exercises(two, 2, list, &out) == 0, "%s", sl_text_str(&out));
    sl_text_free(&out);
}
END_TEST

START_TEST(missing_exercise)
{
    sl_text out = {0};
    /* and the zoo's ok_two.cu expects a verdict of it */
    ck_assert_int_eq(exercises(one, 1, list, &out), 2);
    ck_assert_str_eq(sl_text_str(&out), "lessons/alpha/exercises.h: exercise second is listed, but "
                                        "suite.c defines no such exercise\n"
                                        "lessons/alpha/zoo/ok_two.cu: EXPECT names exercise "
                                        "'second', which lesson alpha does not have\n");
    static const sl_declared short_list[] = {{"first", 0}, {NULL, 0}};
    ck_assert_int_eq(exercises(two, 2, short_list, &out), 1);
    ck_assert_ptr_nonnull(
        strstr(sl_text_str(&out), "exercise second is not in exercises.h's list"));
    ck_assert_int_eq(exercises(two, 2, NULL, &out), 1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "has no exercises.h list"));
    sl_text_free(&out);
}
END_TEST

START_TEST(twice_order_and_bench)
{
    sl_text out = {0};
    ck_assert_int_eq(exercises(twice, 2, list, &out), 3); /* twice, second missing, its zoo file */
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "exercise first is defined twice"));
    ck_assert_int_eq(exercises(swapped, 2, list, &out), 1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "exercise 1 is second, but exercises.h lists "
                                                    "first there"));
    ck_assert_int_eq(exercises(benched, 2, list, &out), 1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "exercise first: .bench = 1, but exercises.h "
                                                    "says NO_BENCH"));
    sl_text_free(&out);
}
END_TEST

START_TEST(hand_written_runner_table)
{
    write_file("lessons/alpha/harness.cu",
               "const sl_runner_exercise sl_runner_exercises[] = {\n"
               "    {\"first\", run_first, NULL}, {NULL, NULL, NULL}};\n");
    sl_text out = {0};
    ck_assert_int_eq(exercises(two, 2, list, &out), 1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "lessons/alpha/harness.cu: the runner's table "
                                                    "is not SL_RUNNER_TABLE(SL_LESSON_EXERCISES)"));
    sl_text_free(&out);
}
END_TEST

START_TEST(instructor_passages_closed_in_the_repository)
{
    write_file("docs/b.md", "# Beta\n\n## Third\n\nA <!-- instructors -->hint<!-- /instructors -->."
                            "\n<!-- instructors -->\nMore.\n<!-- /instructors -->\n");
    sl_text out = {0};
    ck_assert_msg(lint(&out) == 0, "%s", sl_text_str(&out));
    write_file("docs/b.md", "# Beta\n\n## Third\n\n<!-- instructors -->\nto the end\n");
    one_problem("docs/b.md:5: instructor-only passage not closed (<!-- /instructors -->)");
    write_file("docs/b.md", "# Beta\n\n## Third\n\nText.\n<!-- /instructors -->\n");
    one_problem("docs/b.md:6: <!-- /instructors --> closes no passage");
    write_file("docs/b.md", "# Beta\n\n<!-- instructors -->\n<!-- instructors -->\n"
                            "<!-- /instructors -->\n\n## Third\n");
    one_problem("docs/b.md:4: <!-- instructors --> inside the passage opened on line 3");
    sl_text_free(&out);
}
END_TEST

/* The tree make handout writes: no zoo, no solutions, no passages. */
static void make_handout_tree(void)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "rm -rf %s/lessons/alpha/zoo %s/solutions", root, root);
    ck_assert_int_eq(system(cmd), 0);
}

START_TEST(a_handout_names_the_zoo_without_shipping_it)
{
    make_handout_tree();
    sl_text out = {0};
    ck_assert_msg(sl_lint(root, unit_lessons, SL_LINT_HANDOUT, &out) == 0, "%s", sl_text_str(&out));
    /* as a repository, the same tree lacks the zoo files its table names */
    ck_assert_int_eq(lint(&out), 3);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "docs/a.md:13: race.cu is not in "
                                                    "lessons/alpha/zoo/"));
    /* a handout still links only what it ships */
    write_file("docs/b.md", "# Beta\n\n## Third\n\nSee [the guide](instructors.md).\n");
    sl_text_clear(&out);
    ck_assert_int_eq(sl_lint(root, unit_lessons, SL_LINT_HANDOUT, &out), 1);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&out), "docs/b.md:5: instructors.md: no such file"));
    sl_text_free(&out);
}
END_TEST

START_TEST(a_handout_with_zoo_solutions_or_passages)
{
    make_handout_tree();
    write_file("lessons/alpha/zoo/race.cu", "// EXPECT first RACE\n");
    write_file("solutions/alpha.cu", "/* the answers */\n");
    write_file("docs/b.md", "# Beta\n\n## Third\n\n<!-- instructors -->x<!-- /instructors -->\n");
    sl_text out = {0};
    ck_assert_int_eq(sl_lint(root, unit_lessons, SL_LINT_HANDOUT, &out), 3);
    const char *o = sl_text_str(&out);
    ck_assert_msg(strstr(o, "lessons/alpha/zoo: a handout ships no bug zoo"), "%s", o);
    ck_assert_msg(strstr(o, "solutions: a handout ships no reference solutions"), "%s", o);
    ck_assert_msg(strstr(o, "docs/b.md:5: an instructor-only passage is left in the handout"), "%s",
                  o);
    sl_text_free(&out);
}
END_TEST

Suite *lint_suite(void)
{
    Suite *s = suite_create("lint");
    TCase *tc = tcase_create("lint");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_tree_that_agrees_is_clean);
    tcase_add_test(tc, wrong_anchor_in_a_header);
    tcase_add_test(tc, wrong_anchor_in_a_docs_link);
    tcase_add_test(tc, link_to_a_missing_file);
    tcase_add_test(tc, renamed_heading_breaks_the_suite_doc);
    tcase_add_test(tc, zoo_row_that_disagrees);
    tcase_add_test(tc, zoo_file_without_a_row);
    tcase_add_test(tc, zoo_row_for_a_missing_file);
    tcase_add_test(tc, zoo_file_without_expect_or_with_a_wrong_one);
    tcase_add_test(tc, points_file_out_of_date);
    tcase_add_test(tc, readme_table_out_of_date);
    tcase_add_test(tc, suite_and_list_agree);
    tcase_add_test(tc, missing_exercise);
    tcase_add_test(tc, twice_order_and_bench);
    tcase_add_test(tc, hand_written_runner_table);
    tcase_add_test(tc, instructor_passages_closed_in_the_repository);
    tcase_add_test(tc, a_handout_names_the_zoo_without_shipping_it);
    tcase_add_test(tc, a_handout_with_zoo_solutions_or_passages);
    suite_add_tcase(s, tc);
    return s;
}
