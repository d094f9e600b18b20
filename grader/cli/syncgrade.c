/* syncgrade: the grader's command line. It never calls CUDA and never runs
 * student code itself: runners do, in child processes.
 *
 *   syncgrade grade  [--submission DIR] [--lesson L]... [--out DIR] [--seed N]
 *                    [--jobs N] [--bench] [--quiet]
 *   syncgrade check  --lesson L [--submission DIR] [--seed N]
 *   syncgrade expect --lesson L --source FILE [--all VERDICT] [--out DIR]
 *   syncgrade build  --lesson L --source FILE --out DIR
 *   syncgrade list
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lesson_run.h"
#include "proc.h"
#include "report.h"
#include "synclab_config.h"

enum { MAX_LESSONS = 32, MAX_ONLY = 16 };

typedef struct {
    const char *command;
    const char *submission;
    const char *source;
    const char *out;
    const char *all;
    const char *lessons[MAX_LESSONS];
    int nlessons;
    uint64_t seed;
    int have_seed;
    int jobs;
    int bench;
    int quiet;
    double timeout_scale;
} options;

static int usage(void)
{
    fprintf(stderr,
            "usage: syncgrade grade  [--submission DIR] [--lesson L]... [--out DIR] [--seed N]\n"
            "                        [--jobs N] [--bench] [--quiet] [--timeout-scale X]\n"
            "       syncgrade check  --lesson L [--submission DIR] [--seed N]\n"
            "       syncgrade expect --lesson L --source FILE [--all VERDICT] [--out DIR]\n"
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
        TAKE("--source", o->source = v)
        TAKE("--out", o->out = v)
        TAKE("--all", o->all = v)
        TAKE("--seed", (o->seed = strtoull(v, NULL, 0), o->have_seed = 1))
        TAKE("--jobs", o->jobs = atoi(v))
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

/* ---------- grade / check ---------- */

static int select_lessons(const options *o, const sl_lesson **out)
{
    int n = 0;
    if (o->nlessons == 0) {
        for (const sl_lesson *const *l = sl_lessons; *l && n < MAX_LESSONS; l++)
            out[n++] = *l;
        return n;
    }
    for (int i = 0; i < o->nlessons; i++) {
        const sl_lesson *l = sl_lesson_find(o->lessons[i]);
        if (!l) {
            fprintf(stderr, "syncgrade: no lesson named '%s' (see: syncgrade list)\n", o->lessons[i]);
            return -1;
        }
        out[n++] = l;
    }
    return n;
}

static int grade(const options *o, int check_mode)
{
    const sl_lesson *lessons[MAX_LESSONS];
    int nl = select_lessons(o, lessons);
    if (nl < 0)
        return 2;
    char submission[4096], out[4096];
    snprintf(submission, sizeof submission, "%s",
             o->submission ? o->submission : SYNCLAB_SOURCE_DIR "/starter");
    if (access(submission, R_OK) != 0) {
        fprintf(stderr, "syncgrade: %s: %s\n", submission, strerror(errno));
        return 2;
    }
    snprintf(out, sizeof out, "%s", o->out ? o->out : SYNCLAB_BINARY_DIR "/grade");
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
    }
    if (!o->quiet)
        printf("grading %s (seed %" PRIu64 ")\n", submission, eff.seed);
    fflush(stdout);

    /* Lessons in parallel, each in its own process: this process never
     * calls CUDA, so forking is safe. */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int max_jobs = o->jobs > 0 ? o->jobs : (int)(cpus > 2 ? cpus / 2 : 1);
    if (check_mode)
        max_jobs = 1;
    double t0 = sl_now();
    int running = 0, next = 0, done = 0;
    while (done < nl) {
        while (running < max_jobs && next < nl) {
            fflush(stdout);
            pid_t pid = max_jobs > 1 ? fork() : 0;
            if (pid == 0) {
                sl_lesson_run(lessons[next], &jobs[next]);
                if (max_jobs > 1)
                    _exit(0);
                done++;
                next++;
                if (!o->quiet && !check_mode)
                    printf("[%d/%d] %s\n", done, nl, lessons[next - 1]->name);
                continue;
            }
            if (pid < 0) {
                perror("fork");
                return 2;
            }
            running++;
            next++;
        }
        if (running > 0) {
            int status;
            if (wait(&status) > 0) {
                running--;
                done++;
                if (!o->quiet)
                    printf("[%d/%d] lessons done, %.0f s\n", done, nl, sl_now() - t0);
                fflush(stdout);
            }
        }
    }

    /* Collect every outcome, in lesson order. */
    int total = 0;
    for (int i = 0; i < nl; i++)
        total += lessons[i]->count;
    sl_outcome *all = calloc((size_t)total, sizeof *all);
    int n = 0, failures = 0;
    for (int i = 0; i < nl; i++) {
        sl_outcome *mine = calloc((size_t)lessons[i]->count, sizeof *mine);
        sl_lesson_collect(lessons[i], &jobs[i], mine);
        for (int k = 0; k < lessons[i]->count; k++) {
            all[n++] = mine[k];
            failures += mine[k].verdict != SL_V_PASS;
        }
        free(mine);
    }
    sl_report rep = {submission, eff.seed, sl_now() - t0, all, n};
    printf("\n");
    sl_report_print(stdout, &rep, 1);
    char json[4200];
    snprintf(json, sizeof json, "%s/results.json", out);
    if (sl_report_write_json(json, &rep) != 0)
        fprintf(stderr, "syncgrade: cannot write %s\n", json);
    else if (!o->quiet)
        printf("\nresults: %s\n", json);
    for (int i = 0; i < n; i++)
        sl_outcome_free(&all[i]);
    free(all);
    return check_mode ? (failures ? 1 : 0) : 0;
}

/* ---------- expect: the grader's own tests ---------- */

typedef struct {
    char exercise[64];
    char verdicts[128];   /* "RACE|SYNC" */
} expectation;

static int read_expectations(const char *source, expectation *ex, int max)
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

static int expect(const options *o)
{
    if (o->nlessons != 1 || !o->source)
        return usage();
    const sl_lesson *l = sl_lesson_find(o->lessons[0]);
    if (!l) {
        fprintf(stderr, "syncgrade: no lesson named '%s'\n", o->lessons[0]);
        return 2;
    }
    expectation ex[MAX_ONLY];
    int n;
    if (o->all) {
        n = 0;
        for (int i = 0; i < l->count && n < MAX_ONLY; i++, n++) {
            snprintf(ex[n].exercise, sizeof ex[n].exercise, "%s", l->exercises[i].name);
            snprintf(ex[n].verdicts, sizeof ex[n].verdicts, "%s", o->all);
        }
    } else {
        n = read_expectations(o->source, ex, MAX_ONLY);
    }
    if (n <= 0) {
        fprintf(stderr, "syncgrade: %s has no '// EXPECT <exercise> <VERDICT>' line\n", o->source);
        return 2;
    }
    const char *only[MAX_ONLY];
    for (int i = 0; i < n; i++)
        only[i] = ex[i].exercise;

    char out[4096];
    const char *base = strrchr(o->source, '/');
    base = base ? base + 1 : o->source;
    /* <out>/<lesson>/<parent folder>-<file>: starter/x.cu and solutions/x.cu
     * differ; the same place CMake's lesson_<name> target builds them */
    char parent[256] = ".";
    if (base != o->source) {
        const char *end = base - 1, *start = end;
        while (start > o->source && start[-1] != '/')
            start--;
        snprintf(parent, sizeof parent, "%.*s", (int)(end - start), start);
    }
    snprintf(out, sizeof out, "%s/%s/%s-%.*s", o->out ? o->out : SYNCLAB_BINARY_DIR "/expect",
             l->name, parent, (int)strcspn(base, "."), base);
    sl_build_config bc = build_config();
    options eff = *o;
    if (!eff.have_seed)
        eff.seed = sl_seed_unpredictable();
    sl_lesson_job job;
    job_defaults(&job, &eff, &bc);
    job.source = o->source;
    job.out_dir = out;
    job.only = only;
    job.nonly = n;
    sl_lesson_run(l, &job);
    sl_outcome *got = calloc((size_t)l->count, sizeof *got);
    sl_lesson_collect(l, &job, got);

    int mismatches = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        const sl_outcome *g = NULL;
        for (int k = 0; k < l->count; k++)
            if (strcmp(l->exercises[k].name, ex[i].exercise) == 0)
                g = &got[k];
        if (!g) {
            printf("%s: no exercise '%s' in lesson %s\n", base, ex[i].exercise, l->name);
            mismatches++;
            continue;
        }
        int ok = accepted(ex[i].verdicts, g->verdict);
        int skip = !ok && g->verdict == SL_V_SKIP;
        printf("%s: %-22s %-8s expected %-16s %s\n", base, ex[i].exercise,
               sl_verdict_name(g->verdict), ex[i].verdicts, ok ? "ok" : skip ? "skipped (no GPU)" : "MISMATCH");
        if (!ok && !skip) {
            mismatches++;
            printf("    where: %s\n", g->where);
            for (const char *s = g->detail ? g->detail : ""; *s;) {
                size_t len = strcspn(s, "\n");
                printf("    %.*s\n", (int)len, s);
                s += len + (s[len] == '\n');
            }
        }
        skipped += skip;
    }
    printf("seed %" PRIu64 "\n", eff.seed);
    for (int i = 0; i < l->count; i++)
        sl_outcome_free(&got[i]);
    free(got);
    if (mismatches)
        return 1;
    return skipped ? 77 : 0;
}

/* ---------- build / list ---------- */

static int build_only(const options *o)
{
    if (o->nlessons != 1 || !o->source || !o->out)
        return usage();
    const sl_lesson *l = sl_lesson_find(o->lessons[0]);
    if (!l) {
        fprintf(stderr, "syncgrade: no lesson named '%s'\n", o->lessons[0]);
        return 2;
    }
    sl_build_config bc = build_config();
    char lib[4096];
    snprintf(lib, sizeof lib, "%s/libsynclab_harness_%s.a", SYNCLAB_HARNESS_DIR, l->name);
    bc.harness_lib = lib;
    sl_build b;
    sl_build_lesson(&bc, l->name, o->source, o->out, &b);
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
    if (strcmp(o.command, "grade") == 0)
        return grade(&o, 0);
    if (strcmp(o.command, "check") == 0)
        return o.nlessons == 1 ? grade(&o, 1) : usage();
    if (strcmp(o.command, "expect") == 0)
        return expect(&o);
    if (strcmp(o.command, "build") == 0)
        return build_only(&o);
    if (strcmp(o.command, "list") == 0)
        return list();
    return usage();
}
