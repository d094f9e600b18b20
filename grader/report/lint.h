/* syncgrade lint: the files that describe the lessons agree with one
 * another and with the suites. Read statically: no GPU, nothing built
 * but syncgrade itself (the suites are linked into it).
 *
 *   exercises  each suite's exercises are its exercises.h list, which the
 *              runner's table is made from (harness.cu: SL_RUNNER_TABLE);
 *              zoo EXPECT lines name exercises of the lesson
 *   links      every docs/<file>.md#<anchor> named in the lessons, starters,
 *              solutions and grader, and every link of the Markdown files,
 *              names a file that exists and a heading of it
 *   zoo        the bug-zoo tables of each lesson's doc (tables with a
 *              "verdict" column) give each zoo file its EXPECT verdicts,
 *              and every zoo file has a row
 *   points     grading/points.ini is what `syncgrade points` writes
 *   readme     README.md's lesson table is one row per lesson, from the suites
 *
 *   passages   the instructor-only passages of the Markdown files (between
 *              SL_INSTRUCTORS_BEGIN and SL_INSTRUCTORS_END) are closed
 *
 * A handout (make handout) is linted as one (SL_LINT_HANDOUT): it ships no
 * solutions/ and no bug zoo, so the zoo tables' file names are not looked
 * for (the tables stay: what the grader says about each bug), but a zoo
 * folder or solutions/ in it is a problem, and so is an instructor-only
 * passage left in its Markdown (make handout takes them out). Links are
 * checked as in the repository: a handout links only what it ships.
 *
 * Each check appends one line per problem to out, "<file>[:<line>]: <what is
 * wrong>", and returns how many it found (0: clean). root is the source
 * tree; lessons is NULL-ended. */
#ifndef SYNCLAB_LINT_H
#define SYNCLAB_LINT_H

#include "exercise.h"
#include "text.h"

/* The tree lint reads. */
typedef enum { SL_LINT_REPOSITORY, SL_LINT_HANDOUT } sl_lint_tree;

/* A passage of a Markdown file that only the instructors' copy keeps:
 * make handout deletes from SL_INSTRUCTORS_BEGIN to SL_INSTRUCTORS_END,
 * both included, within a line or across lines. Not nested. */
#define SL_INSTRUCTORS_BEGIN "<!-- instructors -->"
#define SL_INSTRUCTORS_END "<!-- /instructors -->"

int sl_lint_exercises(const char *root, const sl_lesson *l, sl_text *out);
int sl_lint_links(const char *root, const sl_lesson *const *lessons, sl_text *out);
int sl_lint_zoo(const char *root, const sl_lesson *l, sl_lint_tree tree, sl_text *out);
int sl_lint_passages(const char *root, sl_lint_tree tree, sl_text *out);
int sl_lint_points(const char *root, const sl_lesson *const *lessons, sl_text *out);
int sl_lint_readme(const char *root, const sl_lesson *const *lessons, sl_text *out);
/* Every check, every lesson. */
int sl_lint(const char *root, const sl_lesson *const *lessons, sl_lint_tree tree, sl_text *out);

/* README.md's row of lesson number (1-based), as lint wants it:
 * | 1 | Barriers (`barriers`) | `tile_reverse`, `halo_diff` | [docs/01-barriers.md](docs/01-barriers.md) | */
void sl_lint_readme_row(int number, const sl_lesson *l, sl_text *out);

#endif
