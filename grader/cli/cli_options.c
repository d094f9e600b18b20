/* syncgrade's options and the settings every command shares. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "channel.h"
#include "class.h"
#include "contain.h"
#include "files.h"
#include "gradescope.h"
#include "hostobj.h"
#include "jobs.h"
#include "junit.h"
#include "lesson_run.h"
#include "points.h"
#include "progress.h"
#include "report.h"
#include "synclab_config.h"

#include "cli.h"

/* Long options only; getopt_long returns the id. To add an option: an id,
 * a row in long_options, a case in apply_option and the synopsis of its
 * commands in the command table (commands.c). */
enum option_id {
    OPT_SUBMISSION = 256,
    OPT_SUBMISSIONS,
    OPT_SOURCE,
    OPT_OUT,
    OPT_ALL,
    OPT_EXPECT,
    OPT_EXERCISE,
    OPT_POINTS,
    OPT_GRADESCOPE,
    OPT_JUNIT,
    OPT_VISIBILITY,
    OPT_SEED,
    OPT_JOBS,
    OPT_RUNS,
    OPT_TIMEOUT_SCALE,
    OPT_LESSON,
    OPT_BENCH,
    OPT_QUIET,
    OPT_EXIT_STATUS,
    OPT_POLICY,
    OPT_STATIC,
    OPT_N,
    OPT_BLOCK,
    OPT_INPUT,
    OPT_TOOL,
    OPT_HELP,
    OPT_SHARD,
    OPT_GPUS,
    OPT_MPS,
    OPT_ROOT,
    OPT_HANDOUT,
    OPT_KEEP_WORK,
};

static const struct option long_options[] = {
    {"submission", required_argument, NULL, OPT_SUBMISSION},
    {"submissions", required_argument, NULL, OPT_SUBMISSIONS},
    {"source", required_argument, NULL, OPT_SOURCE},
    {"out", required_argument, NULL, OPT_OUT},
    {"all", required_argument, NULL, OPT_ALL},
    {"expect", required_argument, NULL, OPT_EXPECT},
    {"exercise", required_argument, NULL, OPT_EXERCISE},
    {"points", required_argument, NULL, OPT_POINTS},
    {"gradescope", required_argument, NULL, OPT_GRADESCOPE},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"visibility", required_argument, NULL, OPT_VISIBILITY},
    {"seed", required_argument, NULL, OPT_SEED},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"runs", required_argument, NULL, OPT_RUNS},
    {"timeout-scale", required_argument, NULL, OPT_TIMEOUT_SCALE},
    {"lesson", required_argument, NULL, OPT_LESSON},
    {"bench", no_argument, NULL, OPT_BENCH},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"exit-status", no_argument, NULL, OPT_EXIT_STATUS},
    {"policy", no_argument, NULL, OPT_POLICY},
    {"static", no_argument, NULL, OPT_STATIC},
    {"n", required_argument, NULL, OPT_N},
    {"block", required_argument, NULL, OPT_BLOCK},
    {"input", required_argument, NULL, OPT_INPUT},
    {"tool", required_argument, NULL, OPT_TOOL},
    {"help", no_argument, NULL, OPT_HELP},
    {"shard", required_argument, NULL, OPT_SHARD},
    {"gpus", required_argument, NULL, OPT_GPUS},
    {"mps", no_argument, NULL, OPT_MPS},
    {"root", required_argument, NULL, OPT_ROOT},
    {"handout", no_argument, NULL, OPT_HANDOUT},
    {"keep-work", no_argument, NULL, OPT_KEEP_WORK},
    {NULL, 0, NULL, 0},
};

static int parse_u64(const char *flag, const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || end == v || *end || v[0] == '-') {
        fprintf(stderr, "syncgrade: --%s wants a non-negative whole number, not '%s'\n", flag, v);
        return -1;
    }
    *out = x;
    return 0;
}

static int parse_int(const char *flag, const char *v, int *out)
{
    uint64_t x;
    if (parse_u64(flag, v, &x) != 0)
        return -1;
    if (x > INT_MAX) {
        fprintf(stderr, "syncgrade: --%s %s is too large\n", flag, v);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int parse_double(const char *flag, const char *v, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(v, &end);
    if (errno || end == v || *end || *out <= 0) {
        fprintf(stderr, "syncgrade: --%s wants a positive number, not '%s'\n", flag, v);
        return -1;
    }
    return 0;
}

static int add_to(const char **list, int *count, int max, const char *v, const char *what)
{
    if (*count >= max) {
        fprintf(stderr, "syncgrade: at most %d %s\n", max, what);
        return -1;
    }
    list[(*count)++] = v;
    return 0;
}

/* One parsed option into o; -1 (said on stderr) when its value is wrong. */
static int apply_option(int id, const char *flag, const char *v, options *o)
{
    switch (id) {
    case OPT_SUBMISSION: o->submission = v; return 0;
    case OPT_SUBMISSIONS: o->submissions = v; return 0;
    case OPT_SOURCE: return add_to(o->sources, &o->nsources, MAX_SOURCES, v, "--source files");
    case OPT_OUT: o->out = v; return 0;
    case OPT_ALL: o->all = v; return 0;
    case OPT_EXPECT: o->expect_file = v; return 0;
    case OPT_EXERCISE: o->exercise = v; return 0;
    case OPT_POINTS: o->points = v; return 0;
    case OPT_GRADESCOPE: o->gradescope = v; return 0;
    case OPT_JUNIT: o->junit = v; return 0;
    case OPT_VISIBILITY: o->visibility = v; return 0;
    case OPT_SEED: o->have_seed = 1; return parse_u64(flag, v, &o->seed);
    case OPT_JOBS: return parse_int(flag, v, &o->jobs);
    case OPT_RUNS: return parse_int(flag, v, &o->runs);
    case OPT_TIMEOUT_SCALE: return parse_double(flag, v, &o->timeout_scale);
    case OPT_LESSON: return add_to(o->lessons, &o->nlessons, MAX_LESSONS, v, "--lesson names");
    case OPT_BENCH: o->bench = 1; return 0;
    case OPT_QUIET: o->quiet = 1; return 0;
    case OPT_EXIT_STATUS: o->exit_status = 1; return 0;
    case OPT_POLICY: o->policy = 1; return 0;
    case OPT_STATIC: o->static_only = 1; return 0;
    case OPT_N: return parse_int(flag, v, &o->n);
    case OPT_BLOCK: return parse_int(flag, v, &o->block);
    case OPT_INPUT: o->input = v; return 0;
    case OPT_TOOL: o->tool = v; return 0;
    case OPT_HELP: o->command = "help"; return 0;
    case OPT_SHARD: o->shard = v; return 0;
    case OPT_GPUS: o->gpus = v; return 0;
    case OPT_MPS: o->mps = 1; return 0;
    case OPT_ROOT: o->root = v; return 0;
    case OPT_HANDOUT: o->handout = 1; return 0;
    case OPT_KEEP_WORK: o->keep_work = 1; return 0;
    }
    return -1;
}

/* syncgrade [COMMAND] [--option[=value]]...; the command defaults to grade.
 * 0, or -1 after saying on stderr what is wrong. */
int cli_parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    int first = argc > 1 && argv[1][0] != '-';
    o->command = first ? argv[1] : "grade";
    /* getopt_long on the arguments after the command; optind = 0 resets
     * glibc's state so that parsing can run again (the unit tests do). */
    char *args[argc + 1];
    int nargs = 0;
    args[nargs++] = argv[0];
    for (int i = 1 + first; i < argc; i++)
        args[nargs++] = argv[i];
    args[nargs] = NULL;
    optind = 0;
    opterr = 0;
    int id, index;
    while ((id = getopt_long(nargs, args, "+:", long_options, &index)) != -1) {
        const char *bad = args[optind - 1];
        if (id == '?') {
            fprintf(stderr, "syncgrade: unknown option '%s'\n", bad);
            return -1;
        }
        if (id == ':') {
            fprintf(stderr, "syncgrade: %s needs a value\n", bad);
            return -1;
        }
        if (apply_option(id, long_options[index].name, optarg, o) != 0)
            return -1;
    }
    /* merge: the shard folders follow the options */
    for (; optind < nargs && strcmp(o->command, "merge") == 0; optind++) {
        if (args[optind][0] == '-') {
            fprintf(stderr, "syncgrade: merge: options go before the shard folders\n");
            return -1;
        }
        if (add_to(o->operands, &o->noperands, MAX_SOURCES, args[optind], "shard folders") != 0)
            return -1;
    }
    if (optind < nargs) {
        fprintf(stderr, "syncgrade: unexpected argument '%s'\n", args[optind]);
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
    /* Students' files are built for the GPU that grades (gpu_arch.h: asked
     * here once, before any child is forked), else SYNCLAB_CUDA_ARCH.
     * SYNCLAB_ARCH=80 builds for another GPU (the static tests check the
     * PTX of sm_80, sm_89 and sm_90; nvcc needs no GPU for that). */
    const char *arch = getenv("SYNCLAB_ARCH");
    c.arch = arch && *arch && strspn(arch, "0123456789af") == strlen(arch) ? arch : NULL;
    c.default_arch = SYNCLAB_CUDA_ARCH;
    c.nvcc_archs = SYNCLAB_NVCC_ARCHS;
    c.cuda_version = SYNCLAB_CUDA_VERSION;
    sl_gpu_target warm;
    sl_gpu_target_pick(c.arch, c.default_arch, c.nvcc_archs, &warm);
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
    if (!l) {
        fprintf(stderr, "syncgrade: no lesson named '%s'; the lessons:", name);
        for (const sl_lesson *const *k = sl_lessons; *k; k++)
            fprintf(stderr, " %s", (*k)->name);
        fputc('\n', stderr);
    }
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

/* build/grade holds the checkout's own results (starter/: make check, hint,
 * progress). Another folder's go beside them, to
 * build/submissions/<its name>~<hash of its real path>: checking a
 * student's folder in an instructor's checkout never overwrites the
 * instructor's results, and hint or progress with the same --submission
 * find its results again. */
const char *cli_default_out(const options *o)
{
    static char out[PATH_MAX + 64];
    char mine[PATH_MAX], theirs[PATH_MAX];
    if (o->out)
        return o->out;
    if (!o->submission || !realpath(o->submission, theirs) ||
        (realpath(SYNCLAB_SOURCE_DIR "/starter", mine) && strcmp(mine, theirs) == 0))
        return SYNCLAB_BINARY_DIR "/grade";
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)theirs; *c; c++)
        h = (h ^ *c) * 0x100000001b3ull;
    char name[48];
    size_t k = 0;
    for (const char *c = sl_base_name(theirs); *c && k + 1 < sizeof name; c++)
        name[k++] = isalnum((unsigned char)*c) || strchr("._-", *c) ? *c : '_';
    name[k] = '\0';
    if (name[0] == '.' || name[0] == '-')
        name[0] = '_';
    snprintf(out, sizeof out, "%s/submissions/%s~%016" PRIx64, SYNCLAB_BINARY_DIR, name, h);
    return out;
}

int cli_out_ok(const char *out)
{
    char abs[PATH_MAX + 8], cwd[PATH_MAX];
    if (out[0] != '/' && getcwd(cwd, sizeof cwd))
        snprintf(abs, sizeof abs, "%s/%s", cwd, out);
    else
        snprintf(abs, sizeof abs, "%s", out);
    if (sl_build_folder_ok(abs))
        return 1;
    fprintf(stderr,
            "syncgrade: --out %s: nvcc cannot build in a folder whose path holds , \" $ ` \\ or "
            "a control character: choose another\n",
            abs);
    return 0;
}
