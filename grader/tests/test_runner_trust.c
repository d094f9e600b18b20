/* Nothing the runner's side says is believed (docs/integrity.md): shell
 * scripts stand in for a cheating runner, graded by sl_grade_exercise in
 * the sandbox. No GPU needed: the grader's GPU probe is replaced through
 * SYNCLAB_GPU_PROBE. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "budget.h"
#include "files.h"
#include "grade.h"
#include "proc.h"
#include "unit.h"

static void one_input(sl_rng *rng, sl_input_set set, sl_inputs *out)
{
    (void)rng;
    (void)set;
    sl_input *in = sl_inputs_add(out, "n=4");
    int32_t *a = sl_case_add(&in->in, SL_I32, 4);
    for (int i = 0; i < 4; i++)
        a[i] = i;
}

static int any_output(const sl_case *in, const sl_case *out, sl_text *why)
{
    (void)in;
    (void)out;
    (void)why;
    return 1;
}

static const sl_exercise trust_ex = {
    .name = "trusted", .title = "T", .points = 1, .make_inputs = one_input, .check = any_output};
static const sl_lesson trust_lesson = {"trust", "Trust", "docs/t.md", &trust_ex, 1, NULL};

static char root[64], runner[128], ptx[128], work[128];

static void setup(void)
{
    snprintf(root, sizeof root, "/tmp/synclab-trust-%ld", (long)getpid());
    snprintf(runner, sizeof runner, "%s/runner", root);
    snprintf(ptx, sizeof ptx, "%s/student.ptx", root);
    snprintf(work, sizeof work, "%s/work", root);
    sl_remove_tree(root, 1);
    ck_assert_int_eq(sl_mkdirs(work), 0);
    chmod(root, 0755);
    chmod(work, 0755);
    ck_assert_int_eq(sl_write_file(ptx, ".version 8.0\n"), 0);
}

static void teardown(void) { sl_remove_tree(root, 1); }

/* A runner script (argv: run <exercise> <dir> <count> <outdir>) and a
 * probe answering `probe_code`; the grade of the one exercise. */
static void grade_swept(const char *body, int probe_code, const sl_swept *sw, sl_outcome *r)
{
    char script[4096], probe[160];
    snprintf(script, sizeof script, "#!/bin/bash\n%s\n", body);
    ck_assert_int_eq(sl_write_file(runner, script), 0);
    chmod(runner, 0755);
    snprintf(probe, sizeof probe, "%s/probe", root);
    snprintf(script, sizeof script, "#!/bin/sh\nexit %d\n", probe_code);
    ck_assert_int_eq(sl_write_file(probe, script), 0);
    chmod(probe, 0755);
    setenv("SYNCLAB_GPU_PROBE", probe, 1);
    sl_grade_ctx ctx = {0};
    ctx.runner = runner;
    ctx.ptx = ptx;
    ctx.source = "student.cu";
    ctx.workdir = work;
    ctx.sanitizer = sw ? "/bin/false" : NULL; /* never started: every tool was swept */
    ctx.seed = 1;
    ctx.swept = sw;
    sl_grade_exercise(&trust_lesson, &trust_ex, &ctx, r);
}

static void grade_with(const char *body, int probe_code, int swept, sl_outcome *r)
{
    sl_swept all = {.checks = SL_SWEPT_SMALL | SL_TOOLS_ALL};
    grade_swept(body, probe_code, swept ? &all : NULL, r);
}

/* What the harness does before any student code: its protocol on the
 * grader's descriptor, its stdout and stderr to the program's file. */
#define HARNESS                                                                                    \
    "read P Q <<<\"$SYNCLAB_PROTO_FDS\"; exec 1>&$Q 2>&$Q; echo @@ready >&$P; echo '@@case 0' "    \
    ">&$P;"

START_TEST(no_gpu_exit_with_a_gpu_is_launch)
{
    sl_outcome r;
    grade_with(HARNESS "exit 77", 0, 0, &r);
    ck_assert_str_eq(sl_verdict_name(r.verdict), sl_verdict_name(SL_V_LAUNCH));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&r.detail), "probe found a CUDA device"));
    sl_outcome_free(&r);
}
END_TEST

START_TEST(no_gpu_is_the_probes_to_say)
{
    sl_outcome r;
    /* the runner would pass; it is never started */
    grade_with("exit 0", 77, 0, &r);
    ck_assert_str_eq(sl_verdict_name(r.verdict), sl_verdict_name(SL_V_SKIP));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&r.detail), "probe found no CUDA device"));
    sl_outcome_free(&r);
}
END_TEST

START_TEST(printed_cuda_error_is_not_believed)
{
    sl_outcome r;
    grade_with(HARNESS "echo 'CUDA error: cudaErrorMemoryAllocation: out of memory'; "
                       "echo '@@case 5'; exit 4",
               0, 0, &r);
    ck_assert_str_eq(sl_verdict_name(r.verdict), sl_verdict_name(SL_V_LAUNCH));
    ck_assert_ptr_null(strstr(sl_text_str(&r.detail), "out of memory"));
    ck_assert_ptr_null(strstr(sl_text_str(&r.detail), "again with the GPU to itself"));
    ck_assert_ptr_null(strstr(sl_text_str(&r.detail), "input ?"));
    sl_outcome_free(&r);
}
END_TEST

START_TEST(fifo_output_is_wrong_not_a_hang)
{
    sl_outcome r;
    grade_with(HARNESS "mkfifo \"$5/case0.out\"; exit 0", 0, 1, &r);
    ck_assert_str_eq(sl_verdict_name(r.verdict), sl_verdict_name(SL_V_WRONG));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&r.detail), "not a regular file"));
    sl_outcome_free(&r);
}
END_TEST

/* A neighbour-like failure (out of memory) is judged after a rerun with
 * the GPU alone, which every other grader waits for: only as often as the
 * student's budget allows (budget.h), then the failure stands. */
START_TEST(exclusive_reruns_are_budgeted)
{
    sl_outcome r;
    const char *oom = HARNESS "echo 'CUDA error: cudaErrorMemoryAllocation: out of memory' >&$P; "
                              "exit 4";
    setenv("SYNCLAB_ALONE_RERUNS", "1", 1);
    sl_budget_begin();
    grade_with(oom, 0, 0, &r);
    ck_assert_str_eq(sl_verdict_name(r.verdict), sl_verdict_name(SL_V_LAUNCH));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&r.detail), "again with the GPU to itself"));
    sl_outcome_free(&r);
    grade_with(oom, 0, 0, &r); /* the same student: its one rerun is spent */
    ck_assert_str_eq(sl_verdict_name(r.verdict), sl_verdict_name(SL_V_LAUNCH));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&r.detail), "used its 1 exclusive reruns"));
    sl_outcome_free(&r);
    unsetenv("SYNCLAB_ALONE_RERUNS");
}
END_TEST

/* The sweep's plain run stalled in this exercise (a loaded GPU stalls
 * correct kernels too), and the student has no run alone left: the
 * exercise runs its inputs itself, shared, instead of taking the stall as
 * its TIMEOUT. */
START_TEST(sweep_stall_without_reruns_runs_shared)
{
    sl_outcome r;
    setenv("SYNCLAB_ALONE_RERUNS", "0", 1);
    sl_budget_begin();
    sl_swept hung = {.checks = SL_TOOLS_ALL, .hung = 1};
    grade_swept(HARNESS "for i in $(seq 0 $(($4 - 1))); do cp \"$3/case$i.in\" \"$5/case$i.out\"; "
                        "echo \"@@case $i\" >&$P; echo '@@launches 1' >&$P; done; exit 0",
                0, &hung, &r);
    ck_assert_msg(r.verdict == SL_V_PASS, "%s: %s", sl_verdict_name(r.verdict),
                  sl_text_str(&r.detail));
    sl_outcome_free(&r);
    unsetenv("SYNCLAB_ALONE_RERUNS");
}
END_TEST

/* A kernel that keeps making progress, but slowly (20 s a launch), meets
 * the exercise's time budget, not hours of per-input limits. */
START_TEST(exercise_time_is_budgeted)
{
    sl_outcome r;
    setenv("SYNCLAB_EXERCISE_BUDGET_S", "3", 1);
    double t0 = sl_now();
    grade_with(HARNESS "i=1; while :; do sleep 0.5; echo \"@@case $i\" >&$P; i=$((i+1)); done", 0,
               0, &r);
    ck_assert_double_lt(sl_now() - t0, 20);
    ck_assert_str_eq(sl_verdict_name(r.verdict), sl_verdict_name(SL_V_TIMEOUT));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&r.detail), "time budget"));
    sl_outcome_free(&r);
    unsetenv("SYNCLAB_EXERCISE_BUDGET_S");
}
END_TEST

/* Past the student's GPU time, an exercise does not run. */
START_TEST(student_gpu_time_is_budgeted)
{
    sl_outcome r;
    setenv("SYNCLAB_STUDENT_GPU_S", "1", 1);
    sl_budget_begin();
    sl_budget_spend(1.5);
    grade_with("exit 0", 0, 0, &r);
    ck_assert_str_eq(sl_verdict_name(r.verdict), sl_verdict_name(SL_V_TIMEOUT));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&r.detail), "GPU time budget"));
    sl_outcome_free(&r);
    unsetenv("SYNCLAB_STUDENT_GPU_S");
}
END_TEST

Suite *runner_trust_suite(void)
{
    Suite *s = suite_create("runner_trust");
    TCase *tc = tcase_create("trust");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, no_gpu_exit_with_a_gpu_is_launch);
    tcase_add_test(tc, no_gpu_is_the_probes_to_say);
    tcase_add_test(tc, printed_cuda_error_is_not_believed);
    tcase_add_test(tc, fifo_output_is_wrong_not_a_hang);
    tcase_add_test(tc, exclusive_reruns_are_budgeted);
    tcase_add_test(tc, sweep_stall_without_reruns_runs_shared);
    tcase_add_test(tc, exercise_time_is_budgeted);
    tcase_add_test(tc, student_gpu_time_is_budgeted);
    suite_add_tcase(s, tc);
    return s;
}
