/* syncgrade: the grader's command line. It never calls CUDA and never runs
 * student code itself: runners do, in child processes.
 *
 *   syncgrade grade  [--submission DIR] [--lesson L]... [--out DIR] [--seed N]
 *                    [--jobs N] [--bench] [--quiet] [--points FILE]
 *                    [--gradescope FILE] [--junit FILE] [--visibility V]
 *   syncgrade check  --lesson L [--submission DIR] [--seed N] [--out DIR]
 *   syncgrade class  --submissions DIR [--out DIR] [--jobs N] [--points FILE]
 *                    [--seed N] [--lesson L]... [--visibility V] [--quiet]
 *   syncgrade hint   --lesson L [--exercise E] [--submission DIR] [--out DIR]
 *   syncgrade progress [--submission DIR] [--out DIR]
 *   syncgrade expect --lesson L --source FILE [--all VERDICT | --expect FILE]
 *                    [--policy] [--out DIR]
 *   syncgrade determinism --lesson L --source FILE... [--runs N] [--jobs N] [--out DIR]
 *   syncgrade policy --lesson L --source FILE [--out DIR]
 *   syncgrade points [--points FILE]
 *   syncgrade build  --lesson L --source FILE --out DIR
 *   syncgrade list
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "channel.h"
#include "class.h"
#include "contain.h"
#include "gradescope.h"
#include "hostobj.h"
#include "jobs.h"
#include "junit.h"
#include "lesson_run.h"
#include "points.h"
#include "proc.h"
#include "progress.h"
#include "report.h"
#include "synclab_config.h"

enum { MAX_LESSONS = 32, MAX_ONLY = 16, MAX_SOURCES = 256 };

typedef struct {
    const char *command;
    const char *submission;
    const char *submissions;
    const char *sources[MAX_SOURCES];
    int nsources;
    const char *out;
    const char *all;
    const char *expect_file;
    const char *exercise;
    const char *points;
    const char *gradescope;
    const char *junit;
    const char *visibility;
    const char *lessons[MAX_LESSONS];
    int nlessons;
    uint64_t seed;
    int have_seed;
    int jobs;
    int runs;
    int bench;
    int quiet;
    int policy;
    double timeout_scale;
} options;

static int usage(void)
{
    fprintf(stderr,
            "usage: syncgrade grade  [--submission DIR] [--lesson L]... [--out DIR] [--seed N]\n"
            "                        [--jobs N] [--bench] [--quiet] [--timeout-scale X]\n"
            "                        [--points FILE] [--gradescope FILE] [--junit FILE]\n"
            "                        [--visibility V]\n"
            "       syncgrade check  --lesson L [--submission DIR] [--seed N] [--out DIR]\n"
            "       syncgrade class  --submissions DIR [--out DIR] [--jobs N] [--points FILE]\n"
            "                        [--seed N] [--lesson L]... [--visibility V] [--quiet]\n"
            "       syncgrade hint   --lesson L [--exercise E] [--submission DIR] [--out DIR]\n"
            "       syncgrade progress [--submission DIR] [--out DIR]\n"
            "       syncgrade expect --lesson L --source FILE [--all VERDICT | --expect FILE]\n"
            "                        [--policy] [--out DIR]\n"
            "       syncgrade determinism --lesson L --source FILE... [--runs N] [--jobs N]\n"
            "                        [--out DIR] [--seed N]\n"
            "       syncgrade policy --lesson L --source FILE [--out DIR]\n"
            "       syncgrade points [--points FILE]\n"
            "       syncgrade build  --lesson L --source FILE --out DIR\n"
            "       syncgrade list\n");
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->command = argc > 1 && argv[1][0] != '-' ? argv[1] : "grade";
    for (int i = argv[1] && argv[1][0] != '-' ? 2 : 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKE(flag, field)                                                                   \
    if (strcmp(a, flag) == 0) {                                                             \
        if (!v) {                                                                           \
            fprintf(stderr, "syncgrade: %s needs a value\n", flag);                         \
            return -1;                                                                      \
        }                                                                                   \
        field;                                                                              \
        i++;                                                                                \
        continue;                                                                           \
    }
        TAKE("--submission", o->submission = v)
        TAKE("--submissions", o->submissions = v)
        TAKE("--source", o->nsources < MAX_SOURCES ? (void)(o->sources[o->nsources++] = v) : (void)0)
        TAKE("--out", o->out = v)
        TAKE("--all", o->all = v)
        TAKE("--expect", o->expect_file = v)
        TAKE("--exercise", o->exercise = v)
        TAKE("--points", o->points = v)
        TAKE("--gradescope", o->gradescope = v)
        TAKE("--junit", o->junit = v)
        TAKE("--visibility", o->visibility = v)
        TAKE("--seed", (o->seed = strtoull(v, NULL, 0), o->have_seed = 1))
        TAKE("--jobs", o->jobs = atoi(v))
        TAKE("--runs", o->runs = atoi(v))
        TAKE("--timeout-scale", o->timeout_scale = atof(v))
        TAKE("--lesson", o->nlessons < MAX_LESSONS ? (void)(o->lessons[o->nlessons++] = v) : (void)0)
#undef TAKE
        if (strcmp(a, "--bench") == 0) {
            o->bench = 1;
            continue;
        }
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
            continue;
        }
        if (strcmp(a, "--policy") == 0) {
            o->policy = 1;
            continue;
        }
        fprintf(stderr, "syncgrade: unknown argument '%s'\n", a);
        return -1;
    }
    return 0;
}

/* compute-sanitizer: $SYNCLAB_SANITIZER, the one found at configure time,
 * or the PATH. NULL when none exists (the dynamic checks then say so). */
static const char *find_sanitizer(void)
{
    const char *env = getenv("SYNCLAB_SANITIZER");
    if (env && *env)
        return env;
    if (SYNCLAB_SANITIZER[0] && access(SYNCLAB_SANITIZER, X_OK) == 0)
        return SYNCLAB_SANITIZER;
    const char *path = getenv("PATH");
    static char found[4096];
    for (const char *p = path; p && *p;) {
        size_t len = strcspn(p, ":");
        snprintf(found, sizeof found, "%.*s/compute-sanitizer", (int)len, p);
        if (access(found, X_OK) == 0)
            return found;
        p += len + (p[len] == ':');
    }
    return NULL;
}

static sl_build_config build_config(void)
{
    sl_build_config c = {0};
    const char *nvcc = getenv("SYNCLAB_NVCC");
    c.nvcc = nvcc && *nvcc ? nvcc : SYNCLAB_NVCC;
    c.arch = SYNCLAB_CUDA_ARCH;
    c.source_dir = SYNCLAB_SOURCE_DIR;
    c.timeout_s = 600;
    return c;
}

static double timeout_scale(const options *o)
{
    if (o->timeout_scale > 0)
        return o->timeout_scale;
    const char *env = getenv("SYNCLAB_TIMEOUT_SCALE");
    return env && atof(env) > 0 ? atof(env) : 1.0;
}

static void job_defaults(sl_lesson_job *job, const options *o, const sl_build_config *bc)
{
    memset(job, 0, sizeof *job);
    job->build = bc;
    job->harness_lib_dir = SYNCLAB_HARNESS_DIR;
    job->sanitizer = find_sanitizer();
    job->seed = o->seed;
    job->bench = o->bench;
    job->timeout_scale = timeout_scale(o);
}

static const sl_lesson *lesson_named(const char *name)
{
    const sl_lesson *l = sl_lesson_find(name);
    if (!l)
        fprintf(stderr, "syncgrade: no lesson named '%s' (see: syncgrade list)\n", name);
    return l;
}

static int select_lessons(const options *o, const sl_lesson **out)
{
    int n = 0;
    if (o->nlessons == 0) {
        for (const sl_lesson *const *l = sl_lessons; *l && n < MAX_LESSONS; l++)
            out[n++] = *l;
        return n;
    }
    for (int i = 0; i < o->nlessons; i++) {
        const sl_lesson *l = lesson_named(o->lessons[i]);
        if (!l)
            return -1;
        out[n++] = l;
    }
    return n;
}

/* --points FILE, else grading/points.ini when it exists, else the suites'
 * defaults. 0 ok; -1 when the file is wrong (said on stderr). */
static int load_points(const options *o, sl_points *p)
{
    memset(p, 0, sizeof *p);
    const char *path = o->points;
    if (!path) {
        path = SYNCLAB_SOURCE_DIR "/grading/points.ini";
        if (access(path, R_OK) != 0)
            return 0;
    }
    sl_text err = {0};
    int rc = sl_points_load(p, path, sl_lessons, &err);
    if (rc != 0)
        fprintf(stderr, "syncgrade: the points file is wrong:\n%s", sl_text_str(&err));
    sl_text_free(&err);
    return rc;
}

static int visibility_ok(const options *o)
{
    if (!o->visibility || sl_gradescope_visibility_ok(o->visibility))
        return 1;
    fprintf(stderr, "syncgrade: --visibility must be hidden, after_due_date, after_published or "
                    "visible\n");
    return 0;
}

static const char *default_out(const options *o) { return o->out ? o->out : SYNCLAB_BINARY_DIR "/grade"; }

/* ---------- grade / check ---------- */

typedef struct {
    const sl_lesson **lessons;
    sl_lesson_job *jobs;
    int count;
    int quiet, check_mode;
    int done;
    double t0;
} grade_state;

static int prepare_lesson(int i, void *arg)
{
    grade_state *g = arg;
    return sl_lesson_open_channels(g->lessons[i], &g->jobs[i]);
}

static int run_lesson(int i, void *arg)
{
    grade_state *g = arg;
    sl_lesson_run(g->lessons[i], &g->jobs[i]);
    return 0;
}

static void lesson_done(int i, int status, void *arg)
{
    grade_state *g = arg;
    (void)status;
    g->done++;
    if (!g->quiet && !g->check_mode)
        printf("[%d/%d] %s done, %.0f s\n", g->done, g->count, g->lessons[i]->name,
               sl_now() - g->t0);
}

/* Every outcome, in lesson order, with the instructor's points. */
static sl_outcome *collect_all(grade_state *g, const sl_points *points, int *count)
{
    int total = 0, n = 0;
    for (int i = 0; i < g->count; i++)
        total += g->lessons[i]->count;
    sl_outcome *all = calloc((size_t)(total ? total : 1), sizeof *all);
    sl_outcome *mine = calloc((size_t)(total ? total : 1), sizeof *mine);
    for (int i = 0; all && mine && i < g->count; i++) {
        sl_lesson_collect(g->lessons[i], &g->jobs[i], mine);
        sl_lesson_close_channels(g->lessons[i], &g->jobs[i]);
        for (int k = 0; k < g->lessons[i]->count; k++)
            if (mine[k].verdict != SL_V_COUNT)
                all[n++] = mine[k];
    }
    free(mine);
    sl_points_apply(points, all, n);
    *count = n;
    return all;
}

static void write_outputs(const options *o, const char *out, const sl_report *rep)
{
    char json[4200];
    snprintf(json, sizeof json, "%s/results.json", out);
    if (sl_report_write_json(json, rep) != 0)
        fprintf(stderr, "syncgrade: cannot write %s\n", json);
    else if (!o->quiet)
        printf("\nresults: %s\n", json);
    if (o->gradescope && sl_gradescope_write(o->gradescope, rep, o->visibility) != 0)
        fprintf(stderr, "syncgrade: cannot write %s\n", o->gradescope);
    if (o->junit && sl_junit_write(o->junit, rep->submission, rep->outcomes, rep->count,
                                   rep->seconds) != 0)
        fprintf(stderr, "syncgrade: cannot write %s\n", o->junit);
}

static int grade(const options *o, int check_mode)
{
    const sl_lesson *lessons[MAX_LESSONS] = {0};
    int nl = select_lessons(o, lessons);
    sl_points points;
    if (nl < 0 || !visibility_ok(o) || load_points(o, &points) != 0)
        return 2;
    char submission[4096], out[4096];
    snprintf(submission, sizeof submission, "%s",
             o->submission ? o->submission : SYNCLAB_SOURCE_DIR "/starter");
    if (access(submission, R_OK) != 0) {
        fprintf(stderr, "syncgrade: %s: %s\n", submission, strerror(errno));
        return 2;
    }
    snprintf(out, sizeof out, "%s", default_out(o));
    sl_build_config bc = build_config();
    options eff = *o;
    if (!eff.have_seed)
        eff.seed = sl_seed_unpredictable(); /* a student cannot tune to it */

    sl_lesson_job jobs[MAX_LESSONS];
    char sources[MAX_LESSONS][4096], dirs[MAX_LESSONS][4096];
    for (int i = 0; i < nl; i++) {
        job_defaults(&jobs[i], &eff, &bc);
        snprintf(sources[i], sizeof sources[i], "%s/%s.cu", submission, lessons[i]->name);
        snprintf(dirs[i], sizeof dirs[i], "%s/%s", out, lessons[i]->name);
        jobs[i].source = sources[i];
        jobs[i].out_dir = dirs[i];
        jobs[i].verbosity = check_mode ? 1 : 0;
        jobs[i].policy = 1; /* a student's files */
    }
    if (!o->quiet)
        printf("grading %s (seed %" PRIu64 ")\n", submission, eff.seed);

    /* Lessons in parallel, each in its own process. */
    grade_state g = {lessons, jobs, nl, o->quiet, check_mode, 0, sl_now()};
    sl_jobs j = {nl, check_mode ? 1 : o->jobs > 0 ? o->jobs : sl_jobs_default_parallel(), &g,
                 prepare_lesson, run_lesson, lesson_done};
    sl_jobs_run(&j);

    int n, failures = 0;
    sl_outcome *all = collect_all(&g, &points, &n);
    for (int i = 0; i < n; i++)
        failures += all[i].verdict != SL_V_PASS;
    sl_report rep = {submission, eff.seed, sl_now() - g.t0, all, n};
    printf("\n");
    sl_report_print(stdout, &rep, 1);
    write_outputs(o, out, &rep);
    for (int i = 0; i < n; i++)
        sl_outcome_free(&all[i]);
    free(all);
    sl_points_free(&points);
    return check_mode ? (failures ? 1 : 0) : 0;
}

/* ---------- class ---------- */

static int grade_class(const options *o)
{
    if (!o->submissions)
        return usage();
    const sl_lesson *lessons[MAX_LESSONS] = {0};
    int nl = select_lessons(o, lessons);
    sl_points points;
    if (nl < 0 || !visibility_ok(o) || load_points(o, &points) != 0)
        return 2;
    sl_build_config bc = build_config();
    char out[4096];
    snprintf(out, sizeof out, "%s", o->out ? o->out : SYNCLAB_BINARY_DIR "/class");
    sl_class c = {0};
    c.submissions = o->submissions;
    c.out = out;
    c.jobs = o->jobs > 0 ? o->jobs : 2;
    c.points = &points;
    c.seed = o->seed;
    c.have_seed = o->have_seed;
    c.lessons = lessons;
    c.nlessons = nl;
    c.build = &bc;
    c.harness_lib_dir = SYNCLAB_HARNESS_DIR;
    c.sanitizer = find_sanitizer();
    c.timeout_scale = timeout_scale(o);
    c.visibility = o->visibility;
    c.quiet = o->quiet;
    int rc = sl_class_grade(&c);
    sl_points_free(&points);
    return rc;
}

/* ---------- hint / progress ---------- */

/* Says so when the last results are of another folder than the one asked
 * about. */
static void same_submission(const sl_lesson_status *st, const char *submission)
{
    char want[PATH_MAX], have[PATH_MAX];
    if (!submission || !st->checked || !realpath(submission, want))
        return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", st->last.submission);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    if (!realpath(dir, have) || strcmp(want, have) != 0)
        printf("(the last results of %s are of %s, not %s)\n", st->lesson->name,
               st->last.submission, submission);
}

static int hint(const options *o)
{
    if (o->nlessons != 1)
        return usage();
    const sl_lesson *l = lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    sl_lesson_status st;
    sl_progress_load(default_out(o), &l, 1, &st);
    same_submission(&st, o->submission);
    sl_hint_print(stdout, &st, o->exercise);
    sl_progress_free(&st, 1);
    return 0;
}

static int progress(const options *o)
{
    const sl_lesson *lessons[MAX_LESSONS] = {0};
    int n = select_lessons(o, lessons);
    if (n < 0)
        return 2;
    sl_lesson_status st[MAX_LESSONS];
    sl_progress_load(default_out(o), lessons, n, st);
    for (int i = 0; i < n; i++)
        same_submission(&st[i], o->submission);
    sl_progress_print(stdout, st, n);
    sl_progress_free(st, n);
    return 0;
}

/* ---------- expect: the grader's own tests ---------- */

typedef struct {
    char exercise[64];
    char verdicts[128];   /* "RACE|SYNC" */
} expectation;

/* "// EXPECT <exercise> <VERDICTS>" lines of a source. */
static int read_source_expectations(const char *source, expectation *ex, int max)
{
    char *text = sl_read_file(source, 1 << 20, NULL);
    if (!text)
        return -1;
    int n = 0;
    for (char *s = strstr(text, "// EXPECT "); s && n < max; s = strstr(s + 1, "// EXPECT ")) {
        if (sscanf(s + 10, "%63s %127s", ex[n].exercise, ex[n].verdicts) == 2)
            n++;
    }
    free(text);
    return n;
}

/* An expectation file: "<exercise> <VERDICTS>" per line, # comments. */
static int read_expect_file(const char *path, expectation *ex, int max)
{
    char *text = sl_read_file(path, 1 << 20, NULL);
    if (!text)
        return -1;
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) {
        line += strspn(line, " \t");
        if (*line == '#' || *line == '\0')
            continue;
        if (sscanf(line, "%63s %127s", ex[n].exercise, ex[n].verdicts) == 2)
            n++;
    }
    free(text);
    return n;
}

static int expectations(const options *o, const sl_lesson *l, expectation *ex)
{
    int n = 0;
    if (o->all) {
        for (int i = 0; i < l->count && n < MAX_ONLY; i++, n++) {
            snprintf(ex[n].exercise, sizeof ex[n].exercise, "%s", l->exercises[i].name);
            snprintf(ex[n].verdicts, sizeof ex[n].verdicts, "%s", o->all);
        }
        return n;
    }
    if (o->expect_file)
        return read_expect_file(o->expect_file, ex, MAX_ONLY);
    return read_source_expectations(o->sources[0], ex, MAX_ONLY);
}

static int accepted(const char *set, sl_verdict v)
{
    const char *name = sl_verdict_name(v);
    size_t n = strlen(name);
    for (const char *s = set; *s;) {
        size_t len = strcspn(s, "|");
        if (len == n && strncmp(s, name, n) == 0)
            return 1;
        s += len + (s[len] == '|');
    }
    return 0;
}

/* <out>/<lesson>/<parent folder>-<file>: starter/x.cu and solutions/x.cu
 * differ; the same place CMake's lesson_<name> target builds them. */
static void source_out_dir(const char *root, const sl_lesson *l, const char *source, char *out,
                           size_t n)
{
    const char *base = strrchr(source, '/');
    base = base ? base + 1 : source;
    char parent[256] = ".";
    const char *end = base;
    while (end > source && end[-1] == '/') /* "dir//x.cu" */
        end--;
    if (end > source) {
        const char *start = end;
        while (start > source && start[-1] != '/')
            start--;
        snprintf(parent, sizeof parent, "%.*s", (int)(end - start), start);
    }
    snprintf(out, n, "%s/%s/%s-%.*s", root, l->name, parent, (int)strcspn(base, "."), base);
}

/* Grades the exercises of only[] of one source in this process. */
static sl_outcome *grade_source(const options *o, const sl_lesson *l, const char *source,
                                const char *out_dir, uint64_t seed, const char *const *only,
                                int nonly, int policy)
{
    sl_build_config bc = build_config();
    options eff = *o;
    eff.seed = seed;
    sl_lesson_job job;
    job_defaults(&job, &eff, &bc);
    job.source = source;
    job.out_dir = out_dir;
    job.only = only;
    job.nonly = nonly;
    job.policy = policy;
    sl_outcome *got = calloc((size_t)l->count, sizeof *got);
    if (!got || sl_lesson_open_channels(l, &job) != 0) {
        free(got);
        return NULL;
    }
    sl_lesson_run(l, &job);
    sl_lesson_collect(l, &job, got);
    sl_lesson_close_channels(l, &job);
    return got;
}

static void print_mismatch(const sl_outcome *g)
{
    printf("    where: %s\n", g->where);
    for (const char *s = g->detail ? g->detail : ""; *s;) {
        size_t len = strcspn(s, "\n");
        printf("    %.*s\n", (int)len, s);
        s += len + (s[len] == '\n');
    }
}

static const sl_outcome *outcome_named(const sl_lesson *l, const sl_outcome *got, const char *name)
{
    for (int k = 0; k < l->count; k++)
        if (strcmp(l->exercises[k].name, name) == 0)
            return &got[k];
    return NULL;
}

static int expect(const options *o)
{
    if (o->nlessons != 1 || o->nsources != 1)
        return usage();
    const sl_lesson *l = lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    const char *source = o->sources[0];
    expectation ex[MAX_ONLY];
    int n = expectations(o, l, ex);
    if (n <= 0) {
        fprintf(stderr, "syncgrade: %s has no '<exercise> <VERDICT>' expectation\n",
                o->expect_file ? o->expect_file : source);
        return 2;
    }
    const char *only[MAX_ONLY];
    for (int i = 0; i < n; i++)
        only[i] = ex[i].exercise;
    char out[4096];
    source_out_dir(o->out ? o->out : SYNCLAB_BINARY_DIR "/expect", l, source, out, sizeof out);
    uint64_t seed = o->have_seed ? o->seed : sl_seed_unpredictable();
    sl_outcome *got = grade_source(o, l, source, out, seed, only, n, o->policy);
    if (!got)
        return 2;
    const char *base = strrchr(source, '/') ? strrchr(source, '/') + 1 : source;
    int mismatches = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        const sl_outcome *g = outcome_named(l, got, ex[i].exercise);
        if (!g) {
            printf("%s: no exercise '%s' in lesson %s\n", base, ex[i].exercise, l->name);
            mismatches++;
            continue;
        }
        int ok = accepted(ex[i].verdicts, g->verdict);
        int skip = !ok && g->verdict == SL_V_SKIP;
        printf("%s: %-22s %-8s expected %-16s %s\n", base, ex[i].exercise,
               sl_verdict_name(g->verdict), ex[i].verdicts,
               ok ? "ok" : skip ? "skipped (no GPU)" : "MISMATCH");
        if (!ok && !skip) {
            mismatches++;
            print_mismatch(g);
        }
        skipped += skip;
    }
    printf("seed %" PRIu64 "\n", seed);
    for (int i = 0; i < l->count; i++)
        sl_outcome_free(&got[i]);
    free(got);
    if (mismatches)
        return 1;
    return skipped ? 77 : 0;
}

/* ---------- determinism: the same verdicts whatever the seed ---------- */

typedef struct {
    const options *o;
    const sl_lesson *l;
    int runs;
    uint64_t base_seed;
    int *channels;
    char **verdicts;     /* per source: "exercise V1 V2 V3\n" lines */
} determinism_state;

/* The exercises a source is about: its EXPECT lines, or all of them. */
static int exercises_of(const sl_lesson *l, const char *source, const char **only)
{
    expectation ex[MAX_ONLY];
    int n = read_source_expectations(source, ex, MAX_ONLY);
    static char names[MAX_ONLY][64];
    if (n <= 0) {
        for (n = 0; n < l->count && n < MAX_ONLY; n++)
            only[n] = l->exercises[n].name;
        return n;
    }
    for (int i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "%s", ex[i].exercise);
        only[i] = names[i];
    }
    return n;
}

static int determinism_source(int s, void *arg)
{
    determinism_state *d = arg;
    const char *source = d->o->sources[s];
    const char *only[MAX_ONLY];
    int n = exercises_of(d->l, source, only);
    char out[4096];
    source_out_dir(d->o->out ? d->o->out : SYNCLAB_BINARY_DIR "/determinism", d->l, source, out,
                   sizeof out);
    sl_text table = {0};
    sl_verdict seen[MAX_ONLY][16];
    int runs = d->runs < 16 ? d->runs : 16, skipped = 0;
    for (int r = 0; r < runs && !skipped; r++) {
        /* a different seed each run: a verdict must not hang on the data */
        uint64_t seed = d->base_seed + 0x9E3779B97F4A7C15ull * (uint64_t)(r + 1);
        sl_outcome *got = grade_source(d->o, d->l, source, out, seed, only, n, 0);
        for (int i = 0; i < n; i++) {
            const sl_outcome *g = got ? outcome_named(d->l, got, only[i]) : NULL;
            seen[i][r] = g ? g->verdict : SL_V_ERROR;
            skipped |= seen[i][r] == SL_V_SKIP;
        }
        if (skipped) /* no GPU: more runs would tell nothing */
            runs = r + 1;
        for (int i = 0; got && i < d->l->count; i++)
            sl_outcome_free(&got[i]);
        free(got);
    }
    for (int i = 0; i < n; i++) {
        sl_text_printf(&table, "%s", only[i]);
        for (int r = 0; r < runs; r++)
            sl_text_printf(&table, " %s", sl_verdict_name(seen[i][r]));
        sl_text_printf(&table, "\n");
    }
    int rc = sl_channel_put(d->channels[s], sl_text_str(&table)) == 0 ? 0 : 3;
    sl_text_free(&table);
    return rc;
}

static int determinism_prepare(int s, void *arg)
{
    determinism_state *d = arg;
    d->channels[s] = sl_channel_open("determinism");
    return d->channels[s] >= 0 ? 0 : -1;
}

static void determinism_done(int s, int status, void *arg)
{
    determinism_state *d = arg;
    (void)status;
    d->verdicts[s] = sl_channel_get(d->channels[s], 1 << 20);
    sl_channel_close(&d->channels[s]);
}

/* Prints one source's table; returns 1 on a flip, 0 if steady, and sets
 * *skipped when some run could not judge (no GPU). */
static int report_source(const char *source, const char *table, int *skipped)
{
    const char *base = strrchr(source, '/') ? strrchr(source, '/') + 1 : source;
    int flips = 0;
    if (!table || !*table) {
        printf("%s: no verdicts (the grading process failed)\n", base);
        return 1;
    }
    for (const char *s = table; *s;) {
        size_t len = strcspn(s, "\n");
        char line[1024], name[64], first[16] = "", v[16];
        snprintf(line, sizeof line, "%.*s", (int)len, s);
        int steady = 1, pos = 0, k = 0;
        sscanf(line, "%63s%n", name, &pos);
        for (const char *p = line + pos; sscanf(p, "%15s%n", v, &k) == 1; p += k) {
            if (!first[0])
                snprintf(first, sizeof first, "%s", v);
            steady &= strcmp(v, first) == 0;
            *skipped |= strcmp(v, "SKIP") == 0;
        }
        printf("%s: %-22s %-40s %s\n", base, name, line + pos, steady ? "steady" : "FLIP");
        flips += !steady;
        s += len + (s[len] == '\n');
    }
    return flips > 0;
}

static int determinism(const options *o)
{
    if (o->nlessons != 1 || o->nsources < 1)
        return usage();
    const sl_lesson *l = lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    determinism_state d = {o, l, o->runs > 1 ? o->runs : 3,
                           o->have_seed ? o->seed : sl_seed_unpredictable(), NULL, NULL};
    d.channels = malloc((size_t)o->nsources * sizeof *d.channels);
    d.verdicts = calloc((size_t)o->nsources, sizeof *d.verdicts);
    if (!d.channels || !d.verdicts)
        return 2;
    sl_jobs j = {o->nsources, o->jobs > 0 ? o->jobs : 1, &d, determinism_prepare,
                 determinism_source, determinism_done};
    sl_jobs_run(&j);
    int flips = 0, skipped = 0;
    for (int s = 0; s < o->nsources; s++) {
        flips += report_source(o->sources[s], d.verdicts[s], &skipped);
        free(d.verdicts[s]);
    }
    printf("%d runs per source, seeds from %" PRIu64 ": %s\n", d.runs, d.base_seed,
           flips ? "verdicts FLIPPED" : skipped ? "steady, but some runs were skipped (no GPU)"
                                              : "every verdict steady");
    free(d.channels);
    free(d.verdicts);
    return flips ? 1 : skipped ? 77 : 0;
}

/* ---------- policy / points / build / list ---------- */

/* The submission policy on one file, before and after the compiler. */
static int policy(const options *o)
{
    if (o->nlessons != 1 || o->nsources != 1)
        return usage();
    const sl_lesson *l = lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    sl_text why = {0};
    int ok = sl_lesson_policy_check(l, SYNCLAB_SOURCE_DIR, o->sources[0], &why);
    if (ok) {
        char dir[4096], out[4200], lib[4096], object[4300];
        /* where the lesson_<name> target builds the same file: no second compile */
        source_out_dir(o->out ? o->out : SYNCLAB_BINARY_DIR "/expect", l, o->sources[0], dir,
                       sizeof dir);
        snprintf(out, sizeof out, "%s/build", dir);
        sl_build_config bc = build_config();
        snprintf(lib, sizeof lib, "%s/libsynclab_harness_%s.a", SYNCLAB_HARNESS_DIR, l->name);
        bc.harness_lib = lib;
        sl_build b;
        sl_build_lesson(&bc, l->name, o->sources[0], out, &b);
        snprintf(object, sizeof object, "%s/student.o", out);
        if (!b.ok && access(object, R_OK) != 0)
            sl_text_printf(&why, "%s", b.log); /* does not compile: nothing to inspect */
        else
            ok = sl_hostobj_check(object, o->sources[0], &why) == 1;
        sl_build_free(&b);
    }
    printf("%s%s", sl_text_str(&why), ok ? "policy: accepted\n" : "policy: REJECTED\n");
    sl_text_free(&why);
    return ok ? 0 : 1;
}

static int points(const options *o)
{
    if (!o->points) {
        sl_points_write_defaults(stdout, sl_lessons);
        return 0;
    }
    sl_points p;
    if (load_points(o, &p) != 0)
        return 1;
    for (const sl_lesson *const *l = sl_lessons; *l; l++)
        for (int i = 0; i < (*l)->count; i++) {
            const sl_exercise *e = &(*l)->exercises[i];
            printf("%-10s %-22s %g\n", (*l)->name, e->name,
                   sl_points_for(&p, (*l)->name, e->name, e->points));
        }
    sl_points_free(&p);
    return 0;
}

static int build_only(const options *o)
{
    if (o->nlessons != 1 || o->nsources != 1 || !o->out)
        return usage();
    const sl_lesson *l = lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    sl_build_config bc = build_config();
    char lib[4096];
    snprintf(lib, sizeof lib, "%s/libsynclab_harness_%s.a", SYNCLAB_HARNESS_DIR, l->name);
    bc.harness_lib = lib;
    sl_build b;
    sl_build_lesson(&bc, l->name, o->sources[0], o->out, &b);
    if (!b.ok)
        fprintf(stderr, "%s", b.log);
    int rc = b.ok ? 0 : 1;
    sl_build_free(&b);
    return rc;
}

static int list(void)
{
    for (const sl_lesson *const *l = sl_lessons; *l; l++) {
        printf("%s: %s (%s)\n", (*l)->name, (*l)->title, (*l)->doc);
        for (int i = 0; i < (*l)->count; i++)
            printf("  %-22s %3d points  %s\n", (*l)->exercises[i].name, (*l)->exercises[i].points,
                   (*l)->exercises[i].title);
    }
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o) != 0)
        return usage();
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* no runner may open our descriptors or memory through /proc */
    sl_contain_protect_self();
    static const struct {
        const char *name;
        int (*run)(const options *);
    } commands[] = {
        {"class", grade_class}, {"hint", hint}, {"progress", progress}, {"expect", expect},
        {"determinism", determinism}, {"policy", policy}, {"points", points},
        {"build", build_only},
    };
    if (strcmp(o.command, "grade") == 0)
        return grade(&o, 0);
    if (strcmp(o.command, "check") == 0)
        return o.nlessons == 1 ? grade(&o, 1) : usage();
    if (strcmp(o.command, "list") == 0)
        return list();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(o.command, commands[i].name) == 0)
            return commands[i].run(&o);
    return usage();
}
