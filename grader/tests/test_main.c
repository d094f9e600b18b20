#include <stdio.h>
#include <stdlib.h>

#include "files.h"
#include "unit.h"

static char g_tmp[4096];

const char *unit_tmp_dir(void) { return g_tmp; }

/* Two lessons with no inputs: enough for points, CSV and progress. */
static const sl_exercise exercises_a[] = {
    {.name = "first",
     .title = "First",
     .doc = "docs/a.md#first",
     .points = 10,
     .hint = {[SL_V_RACE] = "Put a barrier between the write and the read."}},
    {.name = "second", .title = "Second", .doc = "docs/a.md#second", .points = 15},
};
static const sl_exercise exercises_b[] = {
    {.name = "third", .title = "Third", .doc = "docs/b.md#third", .points = 5},
};
static const sl_declared declared_a[] = {{"first", 0}, {"second", 0}, {NULL, 0}};
static const sl_declared declared_b[] = {{"third", 0}, {NULL, 0}};
const sl_lesson unit_lesson_a = {"alpha", "Alpha", "docs/a.md", exercises_a, 2, declared_a};
const sl_lesson unit_lesson_b = {"beta", "Beta", "docs/b.md", exercises_b, 1, declared_b};
const sl_lesson *const unit_lessons[] = {&unit_lesson_a, &unit_lesson_b, NULL};
/* The lessons registry syncgrade gets from CMake: here the two above. */
const sl_lesson *const sl_lessons[] = {&unit_lesson_a, &unit_lesson_b, NULL};

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(g_tmp, sizeof g_tmp, "%s/synclab-unit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(g_tmp)) {
        perror(g_tmp);
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(case_suite());
    srunner_add_suite(sr, exercise_suite());
    srunner_add_suite(sr, outcome_suite());
    srunner_add_suite(sr, proc_suite());
    srunner_add_suite(sr, ptx_suite());
    srunner_add_suite(sr, ptx_order_suite());
    srunner_add_suite(sr, sanitizer_suite());
    srunner_add_suite(sr, points_suite());
    srunner_add_suite(sr, csv_suite());
    srunner_add_suite(sr, junit_suite());
    srunner_add_suite(sr, gradescope_suite());
    srunner_add_suite(sr, policy_suite());
    srunner_add_suite(sr, hostobj_suite());
    srunner_add_suite(sr, contain_suite());
    srunner_add_suite(sr, class_suite());
    srunner_add_suite(sr, shard_suite());
    srunner_add_suite(sr, progress_suite());
    srunner_add_suite(sr, gpu_turn_suite());
    srunner_add_suite(sr, diagnose_suite());
    srunner_add_suite(sr, sandbox_suite());
    srunner_add_suite(sr, mps_suite());
    srunner_add_suite(sr, markdown_suite());
    srunner_add_suite(sr, lint_suite());
    srunner_add_suite(sr, locate_suite());
    srunner_add_suite(sr, demangle_suite());
    srunner_add_suite(sr, runner_trust_suite());
    srunner_add_suite(sr, gpu_arch_suite());
    srunner_add_suite(sr, scale_suite());
    srunner_add_suite(sr, warp_arrive_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    sl_remove_tree(g_tmp, 1);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
