#include "lesson_run.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "contain.h"
#include "files.h"
#include "gpu_probe.h"
#include "hostobj.h"
#include "memory.h"
#include "policy.h"
#include "sandbox.h"
#include "sweep.h"

enum { MAX_OUTCOME = 8 << 20 };

/* Check's test functions take no arguments: the lesson being judged is
 * handed to them here, before the forked children are made. */
static const sl_lesson *g_lesson;
static sl_grade_ctx g_ctx;
static const int *g_channels;
static int g_refused; /* the policy refused the file: BUILD, with its own hint */
static int g_missing; /* no such file in the submission */
static const sl_lesson_job *g_job;
/* what verdicts must not show (the grading machine's folders), with '/' */
static char g_build_src[4300], g_out[4200], g_source_dir[4200], g_source_real[4200],
    g_project[4200];

static const char POLICY_HINT[] =
    "The submission policy refused this file (see the lines above): hand in kernels and "
    "launchers only, without main, constructors, exit, files or other programs "
    "(docs/students.md#the-submission-policy).";

/* The grading machine's folders out of a verdict: the file as nvcc saw it
 * (build.h's link), the submission's folder, the lesson's output folder
 * and the project become paths relative to the submission
 * ("<abs>/dave/barriers.cu(25): error" is "barriers.cu(25): error"). */
static void relative_paths(sl_outcome *o)
{
    const char *shown = g_job->shown_folder ? g_job->shown_folder : "";
    const char *const prefixes[] = {g_build_src, g_source_real, g_source_dir, g_out, g_project};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (prefixes[i][0] == '/' && prefixes[i][1]) /* absolute, never "/" alone */
            sl_text_replace(&o->detail, prefixes[i], i < 3 ? shown : "");
}

START_TEST(judge_exercise)
{
    const sl_exercise *e = &g_lesson->exercises[_i];
    sl_outcome o;
    /* a daemon some runner of this exercise starts becomes our child */
    sl_contain_adopt_orphans();
    sl_grade_exercise(g_lesson, e, &g_ctx, &o);
    if (g_refused && o.verdict == SL_V_BUILD)
        snprintf(o.hint, sizeof o.hint, "%s", POLICY_HINT);
    if ((g_refused || g_missing) && o.verdict == SL_V_BUILD)
        o.hint_step = 0; /* a hint of its own, not the ladder's question */
    if (g_missing && o.verdict == SL_V_BUILD)
        snprintf(o.hint, sizeof o.hint,
                 "The submission has no file for this lesson%s%s%s: "
                 "hand in %s.cu, laid out like starter/.",
                 g_job->missing_note ? " (" : "", g_job->missing_note ? g_job->missing_note : "",
                 g_job->missing_note ? ")" : "", g_lesson->name);
    relative_paths(&o);
    /* nothing the student started outlives the verdict */
    sl_contain_kill_children(NULL, 0, 5.0);
    char *text = sl_outcome_to_text(&o);
    int sent = text && sl_channel_put(g_channels[_i], text) == 0;
    free(text);
    int pass = o.verdict == SL_V_PASS;
    char msg[1024];
    const char *d = sl_text_str(&o.detail);
    snprintf(msg, sizeof msg, "%s%s%s: %.*s", sl_verdict_name(o.verdict), o.where[0] ? " at " : "",
             o.where, (int)strcspn(d, "\n"), d);
    sl_outcome_free(&o);
    ck_assert_msg(sent, "cannot send the outcome of %s", e->name);
    ck_assert_msg(pass, "%s", msg);
}
END_TEST

/* The lesson's Check suite over exercises which[0..n-1]: one test case
 * each, each judged in a forked child. */
static void run_suite(const sl_lesson *l, const sl_lesson_job *job, const int *which, int n)
{
    Suite *s = suite_create(l->name);
    for (int k = 0; k < n; k++) {
        int i = which[k];
        TCase *tc = tcase_create(l->exercises[i].name);
        tcase_set_timeout(tc, 24 * 3600); /* our own limits apply per process */
        tcase_add_loop_test(tc, judge_exercise, i, i + 1);
        suite_add_tcase(s, tc);
    }
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    /* the grader's table reports the verdicts: Check itself prints nothing
     * (its failure lines look like a grader crash) unless asked to debug */
    srunner_run_all(sr, job->verbosity >= 2 ? CK_VERBOSE : CK_SILENT);
    srunner_free(sr);
}

static int wanted(const sl_lesson_job *job, const char *name)
{
    if (!job->only)
        return 1;
    for (int i = 0; i < job->nonly; i++)
        if (strcmp(job->only[i], name) == 0)
            return 1;
    return 0;
}

int sl_lesson_open_channels(const sl_lesson *l, sl_lesson_job *job)
{
    job->channels = malloc((size_t)l->count * sizeof *job->channels);
    if (!job->channels)
        return -1;
    for (int i = 0; i < l->count; i++)
        job->channels[i] = -1;
    job->oom_before = sl_oom_kills();
    for (int i = 0; i < l->count; i++)
        if ((job->channels[i] = sl_channel_open(l->exercises[i].name)) < 0) {
            sl_lesson_close_channels(l, job);
            return -1;
        }
    return 0;
}

void sl_lesson_close_channels(const sl_lesson *l, sl_lesson_job *job)
{
    if (!job->channels)
        return;
    for (int i = 0; i < l->count; i++)
        sl_channel_close(&job->channels[i]);
    free(job->channels);
    job->channels = NULL;
}

int sl_lesson_policy_check(const sl_lesson *l, const char *grader_source_dir, const char *source,
                           sl_text *why)
{
    /* includes are judged by build.c, from the compiler's dependency list */
    (void)grader_source_dir;
    sl_policy p = {l->name};
    return sl_policy_check_file(&p, source, why);
}

/* Builds the student's file, unless the policy refuses it before (the
 * source) or after (the object) the compiler: then b->ok is 0 and b->log
 * says why, which the grader reports as BUILD. */
static int build_student(const sl_lesson *l, const sl_lesson_job *job, const sl_build_config *bc,
                         const char *build_dir, sl_build *b)
{
    sl_text why = {0};
    int refused = 0;
    if (job->missing_note) { /* not found (locate.h): whatever is there is not built */
        memset(b, 0, sizeof *b);
        snprintf(b->ptx, sizeof b->ptx, "%s/none.ptx", build_dir);
        sl_text_printf(&why, "error: %s.cu: not in the submission (%s)\n", l->name,
                       job->missing_note);
        b->log = strdup(sl_text_str(&why));
        sl_text_free(&why);
        return 0;
    }
    if (job->policy && !sl_lesson_policy_check(l, bc->source_dir, job->source, &why)) {
        memset(b, 0, sizeof *b);
        snprintf(b->ptx, sizeof b->ptx, "%s/none.ptx", build_dir);
        b->log = strdup(sl_text_str(&why));
        sl_text_free(&why);
        /* a missing file is not a policy matter */
        return access(job->source, F_OK) == 0;
    }
    sl_build_lesson(bc, l->name, job->source, build_dir, b);
    if (job->policy && b->ok) {
        char object[4200];
        snprintf(object, sizeof object, "%s/student.o", build_dir);
        if (sl_hostobj_check(object, sl_base_name(job->source), &why) != 1 ||
            sl_hostobj_check_harness(object, bc->harness_lib, sl_base_name(job->source), &why) !=
                1) {
            b->ok = 0;
            free(b->log);
            b->log = strdup(sl_text_str(&why));
            refused = 1;
        }
    }
    sl_text_free(&why);
    return refused;
}

/* Student code never sees the submission's folder or this lesson's
 * outputs (its PTX, object, other exercises' work): sandbox.h. */
static void hide_from_runners(const sl_lesson_job *job, const char *out_dir)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", job->source);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        sl_sandbox_hide(dir);
    } else if (!slash) {
        sl_sandbox_hide("."); /* a file in the current folder */
    }
    sl_sandbox_hide(out_dir);
}

/* Each with its '/': "/a/b" must not turn "/a/bc" into "c". */
static void folder_prefix(char *buf, size_t n, const char *path, size_t len)
{
    snprintf(buf, n, "%.*s%s", (int)len, path, len && path[len - 1] == '/' ? "" : "/");
}

static void remember_folders(const sl_lesson_job *job, const sl_build_config *bc,
                             const char *out_dir, const char *build_dir)
{
    g_job = job;
    char dir[4096], real[4096];
    const char *slash = strrchr(job->source, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - job->source) : 1,
             slash ? job->source : ".");
    char cwd[4096];
    if (dir[0] != '/' && getcwd(cwd, sizeof cwd)) {
        char joined[8200];
        snprintf(joined, sizeof joined, "%s/%s", cwd, dir);
        folder_prefix(g_source_dir, sizeof g_source_dir, joined, strlen(joined));
    } else {
        folder_prefix(g_source_dir, sizeof g_source_dir, dir, strlen(dir));
    }
    g_source_real[0] = '\0';
    if (realpath(dir, real))
        folder_prefix(g_source_real, sizeof g_source_real, real, strlen(real));
    snprintf(g_build_src, sizeof g_build_src, "%s/src/", build_dir);
    folder_prefix(g_out, sizeof g_out, out_dir, strlen(out_dir));
    g_project[0] = '\0';
    if (bc->source_dir && realpath(bc->source_dir, real))
        folder_prefix(g_project, sizeof g_project, real, strlen(real));
}

/* What prepare and prebuild share: the lesson's folders, its harness
 * library, what runners may not see, and the build's configuration. */
static void prep_folders(const sl_lesson *l, const sl_lesson_job *job, sl_lesson_prep *p,
                         sl_build_config *bc)
{
    p->l = l;
    p->job = job;
    sl_mkdirs(job->out_dir);
    /* absolute: runners start in their own output folder (sandbox.h) */
    if (!realpath(job->out_dir, p->out_dir))
        snprintf(p->out_dir, sizeof p->out_dir, "%s", job->out_dir);
    snprintf(p->build_dir, sizeof p->build_dir, "%s/build", p->out_dir);
    snprintf(p->work, sizeof p->work, "%s/work", p->out_dir);
    sl_build_harness_lib(job->harness_lib_dir, l->name, p->lib, sizeof p->lib);
    sl_mkdirs(p->build_dir);
    sl_mkdirs(p->work);
    hide_from_runners(job, p->out_dir);
    *bc = *job->build;
    bc->harness_lib = p->lib;
    bc->submission = job->policy; /* includes only from the submission's folder */
}

void sl_lesson_prebuild(const sl_lesson *l, const sl_lesson_job *job)
{
    sl_lesson_prep *p = calloc(1, sizeof *p);
    if (!p)
        return;
    sl_build_config bc;
    prep_folders(l, job, p, &bc);
    if (job->channels) { /* as prepare: no channels, no build */
        /* as prepare too: what a compile leaves running is ours to end,
         * and each sandbox's init is reaped with its CPU time (proc.c) */
        sl_contain_adopt_orphans();
        build_student(l, job, &bc, p->build_dir, &p->b);
        sl_build_free(&p->b);
    }
    free(p);
}

sl_lesson_prep *sl_lesson_prepare(const sl_lesson *l, const sl_lesson_job *job)
{
    sl_lesson_prep *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    sl_build_config bc;
    prep_folders(l, job, p, &bc);
    if (!job->channels)
        return p; /* nowhere to send verdicts: sl_lesson_collect reports ERROR */
    for (int i = 0; i < l->count; i++)
        sl_channel_put(job->channels[i], ""); /* a stale verdict must never be read back */
    sl_contain_adopt_orphans();

    p->missing = job->missing_note || access(job->source, F_OK) != 0;
    p->refused = build_student(l, job, &bc, p->build_dir, &p->b);
    p->built = 1;

    sl_grade_ctx *c = &p->ctx;
    c->runner = p->b.ok ? p->b.runner : NULL;
    c->ptx = p->b.ptx;
    c->object = p->b.object;
    c->source = job->source;
    c->build_log = p->b.log;
    c->build_no_disk = p->b.no_disk;
    c->build_no_memory = p->b.no_memory;
    c->workdir = p->work;
    c->sanitizer = job->sanitizer;
    c->seed = job->seed;
    c->bench = job->bench;
    c->bench_log2n = job->bench_log2n;
    c->timeout_scale = job->timeout_scale;
    c->static_only = job->static_only;
    /* the runner's archs and the GPU's: can it run there at all? */
    char archs_path[4200];
    snprintf(archs_path, sizeof archs_path, "%.*s.archs", (int)(strlen(p->lib) - 2), p->lib);
    p->harness_archs = sl_read_file(archs_path, 4096, NULL);
    if (p->harness_archs)
        p->harness_archs[strcspn(p->harness_archs, "\n")] = '\0';
    c->target = &p->b.target;
    c->harness_archs = p->harness_archs;
    c->cuda_version = job->build->cuda_version;
    if (p->b.ok && !job->static_only &&
        sl_arch_mismatch(&p->b.target, p->harness_archs, job->build->cuda_version, NULL,
                         p->arch_why, sizeof p->arch_why))
        c->arch_error = p->arch_why;

    /* Every static verdict (build, TODO, PTX rules) before the first
     * runner starts: nothing a runner does can change them. */
    p->statics = calloc((size_t)l->count + 1, sizeof *p->statics);
    if (p->statics) {
        sl_grade_statics(l, c, p->statics);
        c->statics = p->statics;
    }
    p->which = calloc((size_t)l->count + 1, sizeof *p->which);
    for (int i = 0; p->which && i < l->count; i++)
        if (wanted(job, l->exercises[i].name))
            p->which[p->graded++] = i;
    p->swept = calloc((size_t)l->count + 1, sizeof *p->swept);
    /* once, before the sweep and the judges' forks: they inherit it */
    int gpu = job->static_only ? SL_GPU_UNKNOWN : sl_gpu_probe();
    p->sweepable = p->swept && p->which && sl_sweep_enabled() && !job->static_only &&
                   gpu != SL_GPU_NONE && !c->arch_error;
    return p;
}

void sl_lesson_judge(sl_lesson_prep *p)
{
    if (!p)
        return;
    const sl_lesson *l = p->l;
    const sl_lesson_job *job = p->job;
    if (job->channels && p->built) {
        /* the judges' globals: another lesson may have been prepared since */
        remember_folders(job, job->build, p->out_dir, p->build_dir);
        if (p->sweepable && !p->presweep) {
            double t0 = sl_now();
            sl_sweep_lesson(l, &p->ctx, p->which, p->graded, p->swept);
            p->ctx.sweep_seconds = sl_now() - t0;
            sl_contain_kill_children(NULL, 0, 5.0); /* nothing a sweep runner started stays */
        }
        if (p->sweepable)
            p->ctx.swept = p->swept;
        /* before Check forks the judges: they inherit what the sweep found */
        g_lesson = l;
        g_channels = job->channels;
        g_ctx = p->ctx;
        g_missing = p->missing;
        g_refused = p->refused;
        run_suite(l, job, p->which, p->graded);
        memset(&g_ctx, 0, sizeof g_ctx); /* it pointed into p */
    }
    sl_grade_statics_free(p->statics, l->count);
    free(p->statics);
    sl_grade_swept_free(p->swept, l->count);
    free(p->swept);
    free(p->which);
    free(p->harness_archs);
    if (p->built)
        sl_build_free(&p->b);
    free(p);
    /* whatever escaped a judge that died is ours now: it goes */
    sl_contain_kill_children(NULL, 0, 5.0);
}

int sl_lesson_run(const sl_lesson *l, const sl_lesson_job *job)
{
    sl_lesson_prep *p = sl_lesson_prepare(l, job);
    int graded = p && job->channels ? p->graded : 0;
    sl_lesson_judge(p);
    return graded;
}

static void missing_outcome(const sl_lesson *l, const sl_exercise *e, const sl_lesson_job *job,
                            sl_outcome *o)
{
    /* the judging process died: the grader's fault, said so, and the
     * likeliest why when the OOM killer stopped something meanwhile (it
     * takes the biggest process, often a judge with its runner's logs) */
    sl_outcome_init(o, l, e);
    sl_outcome_set(o, SL_V_ERROR);
    snprintf(o->hint, sizeof o->hint, "%s", sl_verdict_hint(SL_V_ERROR));
    sl_text_printf(&o->detail, "the test process for %s ended without a verdict\n", e->name);
    long long now = job->channels && job->oom_before >= 0 ? sl_oom_kills() : -1;
    if (now > job->oom_before)
        sl_text_printf(&o->detail,
                       "the kernel's OOM killer stopped %lld of the grader's processes "
                       "meanwhile: the machine ran out of memory (grade it again with fewer "
                       "students at once, --jobs, or more memory)\n",
                       now - job->oom_before);
}

void sl_lesson_collect(const sl_lesson *l, const sl_lesson_job *job, sl_outcome *outcomes)
{
    for (int i = 0; i < l->count; i++) {
        const sl_exercise *e = &l->exercises[i];
        sl_outcome *o = &outcomes[i];
        if (!wanted(job, e->name)) {
            memset(o, 0, sizeof *o);
            o->verdict = SL_V_COUNT;
            continue;
        }
        char *text = job->channels ? sl_channel_get(job->channels[i], MAX_OUTCOME) : NULL;
        /* the outcome must be this exercise's: a channel carries one only */
        if (sl_outcome_from_text(text, o) != 0 || strcmp(o->exercise, e->name) != 0) {
            sl_outcome_free(o);
            missing_outcome(l, e, job, o);
        }
        free(text);
    }
}

const sl_lesson *sl_lesson_find(const char *name)
{
    for (const sl_lesson *const *l = sl_lessons; *l; l++)
        if (strcmp((*l)->name, name) == 0)
            return *l;
    return NULL;
}
