/* The grader's own unit tests: one Check suite per module. */
#ifndef SYNCLAB_UNIT_H
#define SYNCLAB_UNIT_H
#include <check.h>
Suite *case_suite(void);
Suite *exercise_suite(void);
Suite *outcome_suite(void);
Suite *proc_suite(void);
Suite *ptx_suite(void);
Suite *ptx_order_suite(void);
Suite *sanitizer_suite(void);
Suite *points_suite(void);
Suite *csv_suite(void);
Suite *junit_suite(void);
Suite *gradescope_suite(void);
Suite *policy_suite(void);
Suite *hostobj_suite(void);
Suite *contain_suite(void);
Suite *class_suite(void);
Suite *shard_suite(void);
Suite *progress_suite(void);
Suite *gpu_turn_suite(void);
Suite *diagnose_suite(void);
Suite *sandbox_suite(void);
Suite *mps_suite(void);
Suite *markdown_suite(void);
Suite *lint_suite(void);
Suite *locate_suite(void);
Suite *demangle_suite(void);
Suite *runner_trust_suite(void);
Suite *gpu_arch_suite(void);
Suite *scale_suite(void);
Suite *warp_arrive_suite(void);
/* The folder this run of the tests writes its files in (made by main under
 * $TMPDIR, removed at the end): never a fixed /tmp name, which another
 * user's run or another build's (root's, on a shared GPU node) would own. */
const char *unit_tmp_dir(void);
/* A fake nvidia-smi in dir (made if missing) that runs body: put dir first
 * on the PATH, and sl_gpu_target_forget() before the grader asks again. */
void unit_fake_smi(const char *dir, const char *body);
/* Two small lessons for the tests of modules that take lessons. */
#include "exercise.h"
extern const sl_lesson unit_lesson_a, unit_lesson_b;
extern const sl_lesson *const unit_lessons[];
#endif
