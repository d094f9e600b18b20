/* syncgrade's options and the settings every command shares. */
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

#include "cli.h"

int cli_usage(void)
{
    fprintf(stderr,
            "usage: syncgrade grade  [--submission DIR] [--lesson L]... [--out DIR] [--seed N]\n"
            "                        [--jobs N] [--bench] [--quiet]\n"
            "                        [--timeout-scale X] [--points FILE] [--gradescope FILE]\n"
            "                        [--junit FILE] [--visibility V]\n"
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
            "       syncgrade inputs --lesson L --seed N --out DIR [--exercise E]\n"
            "       syncgrade list\n");
    return 2;
}

int cli_parse(int argc, char **argv, options *o)
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
const char *cli_find_sanitizer(void)
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

sl_build_config cli_build_config(void)
{
    sl_build_config c = {0};
    const char *nvcc = getenv("SYNCLAB_NVCC");
    c.nvcc = nvcc && *nvcc ? nvcc : SYNCLAB_NVCC;
    c.arch = SYNCLAB_CUDA_ARCH;
    c.source_dir = SYNCLAB_SOURCE_DIR;
    c.timeout_s = 600;
    return c;
}

double cli_timeout_scale(const options *o)
{
    if (o->timeout_scale > 0)
        return o->timeout_scale;
    const char *env = getenv("SYNCLAB_TIMEOUT_SCALE");
    return env && atof(env) > 0 ? atof(env) : 1.0;
}

void cli_job_defaults(sl_lesson_job *job, const options *o, const sl_build_config *bc)
{
    memset(job, 0, sizeof *job);
    job->build = bc;
    job->harness_lib_dir = SYNCLAB_HARNESS_DIR;
    job->sanitizer = cli_find_sanitizer();
    job->seed = o->seed;
    job->bench = o->bench;
    job->timeout_scale = cli_timeout_scale(o);
}

const sl_lesson *cli_lesson_named(const char *name)
{
    const sl_lesson *l = sl_lesson_find(name);
    if (!l)
        fprintf(stderr, "syncgrade: no lesson named '%s' (see: syncgrade list)\n", name);
    return l;
}

int cli_select_lessons(const options *o, const sl_lesson **out)
{
    int n = 0;
    if (o->nlessons == 0) {
        for (const sl_lesson *const *l = sl_lessons; *l && n < MAX_LESSONS; l++)
            out[n++] = *l;
        return n;
    }
    for (int i = 0; i < o->nlessons; i++) {
        const sl_lesson *l = cli_lesson_named(o->lessons[i]);
        if (!l)
            return -1;
        out[n++] = l;
    }
    return n;
}

/* --points FILE, else grading/points.ini when it exists, else the suites'
 * defaults. 0 ok; -1 when the file is wrong (said on stderr). */
int cli_load_points(const options *o, sl_points *p)
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

int cli_visibility_ok(const options *o)
{
    if (!o->visibility || sl_gradescope_visibility_ok(o->visibility))
        return 1;
    fprintf(stderr, "syncgrade: --visibility must be hidden, after_due_date, after_published or "
                    "visible\n");
    return 0;
}

const char *cli_default_out(const options *o) { return o->out ? o->out : SYNCLAB_BINARY_DIR "/grade"; }

