#include "lesson_run.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

/* Check's test functions take no arguments: the lesson being judged is
 * handed to them here, before the forked children are made. */
static const sl_lesson *g_lesson;
static sl_grade_ctx g_ctx;
static char g_results[4096];

static void outcome_path(char *buf, size_t n, const char *dir, const char *exercise)
{
    snprintf(buf, n, "%s/%s.json", dir, exercise);
}

START_TEST(judge_exercise)
{
    const sl_exercise *e = &g_lesson->exercises[_i];
    sl_result r;
    sl_outcome o;
    char path[4096];
    sl_grade_exercise(g_lesson, e, &g_ctx, &r);
    sl_outcome_from_result(&o, g_lesson, e, &r);
    outcome_path(path, sizeof path, g_results, e->name);
    ck_assert_msg(sl_outcome_write(path, &o) == 0, "cannot write %s", path);
    int pass = r.verdict == SL_V_PASS;
    char msg[1024];
    const char *d = sl_text_str(&r.detail);
    snprintf(msg, sizeof msg, "%s%s%s: %.*s", sl_verdict_name(r.verdict), r.where[0] ? " at " : "",
             r.where, (int)strcspn(d, "\n"), d);
    sl_outcome_free(&o);
    sl_result_free(&r);
    ck_assert_msg(pass, "%s", msg);
}
END_TEST

static int wanted(const sl_lesson_job *job, const char *name)
{
    if (!job->only)
        return 1;
    for (int i = 0; i < job->nonly; i++)
        if (strcmp(job->only[i], name) == 0)
            return 1;
    return 0;
}

int sl_lesson_run(const sl_lesson *l, const sl_lesson_job *job)
{
    char build_dir[4096], work[4096], lib[4096];
    snprintf(build_dir, sizeof build_dir, "%s/build", job->out_dir);
    snprintf(work, sizeof work, "%s/work", job->out_dir);
    snprintf(g_results, sizeof g_results, "%s/results", job->out_dir);
    snprintf(lib, sizeof lib, "%s/libsynclab_harness_%s.a", job->harness_lib_dir, l->name);
    sl_mkdirs(build_dir);
    sl_mkdirs(work);
    sl_mkdirs(g_results);

    sl_build_config bc = *job->build;
    bc.harness_lib = lib;
    sl_build b;
    sl_build_lesson(&bc, l->name, job->source, build_dir, &b);

    g_lesson = l;
    memset(&g_ctx, 0, sizeof g_ctx);
    g_ctx.runner = b.ok ? b.runner : NULL;
    g_ctx.ptx = b.ptx;
    g_ctx.source = job->source;
    g_ctx.build_log = b.log;
    g_ctx.workdir = work;
    g_ctx.sanitizer = job->sanitizer;
    g_ctx.seed = job->seed;
    g_ctx.bench = job->bench;
    g_ctx.bench_log2n = job->bench_log2n;
    g_ctx.timeout_scale = job->timeout_scale;

    Suite *s = suite_create(l->name);
    int graded = 0;
    for (int i = 0; i < l->count; i++) {
        const sl_exercise *e = &l->exercises[i];
        char path[4096];
        outcome_path(path, sizeof path, g_results, e->name);
        unlink(path); /* a stale verdict must never be read back */
        if (!wanted(job, e->name))
            continue;
        TCase *tc = tcase_create(e->name);
        tcase_set_timeout(tc, 24 * 3600); /* our own limits apply per process */
        tcase_add_loop_test(tc, judge_exercise, i, i + 1);
        suite_add_tcase(s, tc);
        graded++;
    }
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, job->verbosity >= 2 ? CK_VERBOSE : job->verbosity == 1 ? CK_NORMAL
                                                                                : CK_SILENT);
    srunner_free(sr);
    sl_build_free(&b);
    return graded;
}

void sl_lesson_collect(const sl_lesson *l, const sl_lesson_job *job, sl_outcome *outcomes)
{
    char results[4096];
    snprintf(results, sizeof results, "%s/results", job->out_dir);
    for (int i = 0; i < l->count; i++) {
        const sl_exercise *e = &l->exercises[i];
        sl_outcome *o = &outcomes[i];
        char path[4096];
        outcome_path(path, sizeof path, results, e->name);
        if (!wanted(job, e->name)) {
            memset(o, 0, sizeof *o);
            o->verdict = SL_V_COUNT;
            continue;
        }
        if (sl_outcome_read(path, o) != 0) {
            /* the judging process died: the grader's fault, said so */
            sl_result r = {0};
            r.verdict = SL_V_ERROR;
            r.hint = sl_verdict_hint(SL_V_ERROR);
            r.doc = e->doc;
            sl_text_printf(&r.detail, "the test process for %s ended without a verdict\n", e->name);
            sl_outcome_from_result(o, l, e, &r);
            sl_result_free(&r);
        }
    }
}

const sl_lesson *sl_lesson_find(const char *name)
{
    for (const sl_lesson *const *l = sl_lessons; *l; l++)
        if (strcmp((*l)->name, name) == 0)
            return *l;
    return NULL;
}
