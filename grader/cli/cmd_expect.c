/* syncgrade expect and determinism: the grader's tests of itself. */
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
#include "zoo_expect.h"

#include "cli.h"

/* ---------- expect: the grader's own tests ---------- */

typedef sl_expectation expectation;

/* "// EXPECT <exercise> <VERDICTS>" lines of a source. */
static int read_source_expectations(const char *source, expectation *ex, int max)
{
    char *text = sl_read_file(source, 1 << 20, NULL);
    if (!text)
        return -1;
    int n = sl_expectations_in_source(text, ex, max);
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
        n += sl_expectation_parse(line, &ex[n]);
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
            ex[n].by_static = 0;
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

/* Every verdict of set is one the static stages give (build, policy,
 * PTX rules, nothing written yet): no GPU is needed to reach it. */
static int only_static(const char *set)
{
    static const sl_verdict STATIC[] = {SL_V_BUILD, SL_V_RULE, SL_V_TODO};
    for (const char *s = set; *s;) {
        size_t len = strcspn(s, "|");
        int found = 0;
        for (size_t k = 0; k < sizeof STATIC / sizeof STATIC[0]; k++) {
            const char *name = sl_verdict_name(STATIC[k]);
            found |= strlen(name) == len && strncmp(s, name, len) == 0;
        }
        if (!found)
            return 0;
        s += len + (s[len] == '|');
    }
    return 1;
}

/* <out>/<lesson>/<parent folder>-<file>: starter/x.cu and solutions/x.cu
 * differ; the same place CMake's lesson_<name> target builds them. */
void cli_source_out_dir(const char *root, const sl_lesson *l, const char *source, char *out,
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
    sl_build_config bc = cli_build_config();
    options eff = *o;
    eff.seed = seed;
    sl_lesson_job job;
    cli_job_defaults(&job, &eff, &bc);
    job.source = source;
    job.out_dir = out_dir;
    job.only = only;
    job.nonly = nonly;
    job.policy = policy;
    job.static_only = o->static_only;
    sl_outcome *got = calloc((size_t)l->count, sizeof *got);
    if (!got || sl_lesson_open_channels(l, &job) != 0) {
        free(got);
        return NULL;
    }
    sl_lesson_run(l, &job);
    sl_lesson_collect(l, &job, got);
    sl_report_write_lesson(job.out_dir, job.source, job.seed, got, l->count);
    sl_lesson_close_channels(l, &job);
    return got;
}

static void print_mismatch(const sl_outcome *g)
{
    printf("    where: %s\n", g->where);
    for (const char *s = sl_text_str(&g->detail); *s;) {
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

int cli_expect(const options *o)
{
    if (o->nlessons != 1 || o->nsources != 1)
        return cli_usage();
    const sl_lesson *l = cli_lesson_named(o->lessons[0]);
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
    cli_source_out_dir(o->out ? o->out : SYNCLAB_BINARY_DIR "/expect", l, source, out, sizeof out);
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
        /* a skip means the static stages let the file through: where only
         * static verdicts are expected, that is a bypass, GPU or not */
        int skip =
            !ok && g->verdict == SL_V_SKIP && !only_static(ex[i].verdicts) && !ex[i].by_static;
        /* --static: letting it through is all the static stages were asked */
        int passed_static = skip && o->static_only;
        if (passed_static)
            skip = 0, ok = 1;
        printf("%s: %-22s %-8s expected %-16s %s\n", base, ex[i].exercise,
               sl_verdict_name(g->verdict), ex[i].verdicts,
               passed_static ? "ok (static stages)"
               : ok          ? "ok"
               : skip        ? "skipped (no GPU)"
                             : "MISMATCH");
        if (!ok && !skip) {
            mismatches++;
            if (g->verdict == SL_V_SKIP)
                printf("    the static stages (build, submission policy, PTX rules) let it "
                       "through: only static verdicts were expected\n");
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
    char **verdicts; /* per source: "exercise EXPECTED V1 V2 V3\n" lines */
} determinism_state;

/* The exercises a source is about: its EXPECT lines (their verdicts in
 * expected[]), or all of them (expected "-": any verdict, if steady). */
static int exercises_of(const sl_lesson *l, const char *source, const char **only,
                        char expected[][128])
{
    expectation ex[MAX_ONLY];
    int n = read_source_expectations(source, ex, MAX_ONLY);
    static char names[MAX_ONLY][64];
    if (n <= 0) {
        for (n = 0; n < l->count && n < MAX_ONLY; n++) {
            only[n] = l->exercises[n].name;
            strcpy(expected[n], "-");
        }
        return n;
    }
    for (int i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "%s", ex[i].exercise);
        only[i] = names[i];
        snprintf(expected[i], sizeof expected[i], "%s", ex[i].verdicts);
    }
    return n;
}

static int determinism_source(int s, void *arg)
{
    determinism_state *d = arg;
    const char *source = d->o->sources[s];
    const char *only[MAX_ONLY];
    char expected[MAX_ONLY][128];
    int n = exercises_of(d->l, source, only, expected);
    char out[4096];
    cli_source_out_dir(d->o->out ? d->o->out : SYNCLAB_BINARY_DIR "/determinism", d->l, source, out,
                       sizeof out);
    sl_text table = {0};
    sl_verdict seen[MAX_ONLY][16];
    /* each run's first detail line: shown when a verdict flips, so that a
     * flip on a loaded machine says why without another run */
    static char why[MAX_ONLY][16][160];
    int runs = d->runs < 16 ? d->runs : 16, skipped = 0;
    for (int r = 0; r < runs && !skipped; r++) {
        /* a different seed each run: a verdict must not hang on the data */
        uint64_t seed = d->base_seed + 0x9E3779B97F4A7C15ull * (uint64_t)(r + 1);
        sl_outcome *got = grade_source(d->o, d->l, source, out, seed, only, n, 0);
        for (int i = 0; i < n; i++) {
            const sl_outcome *g = got ? outcome_named(d->l, got, only[i]) : NULL;
            seen[i][r] = g ? g->verdict : SL_V_ERROR;
            skipped |= seen[i][r] == SL_V_SKIP;
            const char *detail = g ? sl_text_str(&g->detail) : "no outcome";
            snprintf(why[i][r], sizeof why[i][r], "seed %" PRIu64 ": %.*s", seed,
                     (int)strcspn(detail, "\n"), detail);
        }
        if (skipped) /* no GPU: more runs would tell nothing */
            runs = r + 1;
        for (int i = 0; got && i < d->l->count; i++)
            sl_outcome_free(&got[i]);
        free(got);
    }
    for (int i = 0; i < n; i++) {
        sl_text_printf(&table, "%s %s", only[i], expected[i]);
        for (int r = 0; r < runs; r++)
            sl_text_printf(&table, " %s", sl_verdict_name(seen[i][r]));
        sl_text_printf(&table, "\n");
        for (int r = 0; r < runs; r++) /* tab lines: report_source shows them on a flip */
            sl_text_printf(&table, "\t%s %s\n", sl_verdict_name(seen[i][r]), why[i][r]);
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

/* Prints one source's table; returns 1 on a flip or a verdict its EXPECT
 * line does not accept, 0 if steady, and sets *skipped when some run could
 * not judge (no GPU). */
static int report_source(const char *source, const char *table, int *skipped)
{
    const char *base = strrchr(source, '/') ? strrchr(source, '/') + 1 : source;
    int flips = 0;
    if (!table || !*table) {
        printf("%s: no verdicts (the grading process failed)\n", base);
        return 1;
    }
    int last_flipped = 0;
    for (const char *s = table; *s;) {
        size_t len = strcspn(s, "\n");
        char line[1024], name[64], want[128], first[16] = "", v[16];
        snprintf(line, sizeof line, "%.*s", (int)len, s);
        if (line[0] == '\t') { /* a run's detail, under its exercise's line */
            if (last_flipped)
                printf("    %s\n", line + 1);
            s += len + (s[len] == '\n');
            continue;
        }
        int steady = 1, expected = 1, pos = 0, k = 0;
        sscanf(line, "%63s %127s%n", name, want, &pos);
        for (const char *p = line + pos; sscanf(p, "%15s%n", v, &k) == 1; p += k) {
            if (!first[0])
                snprintf(first, sizeof first, "%s", v);
            steady &= strcmp(v, first) == 0;
            int got = sl_verdict_parse(v);
            /* a run that could not judge (no GPU) is no verdict */
            expected &= strcmp(want, "-") == 0 || strcmp(v, "SKIP") == 0 ||
                        (got >= 0 && accepted(want, (sl_verdict)got));
            *skipped |= strcmp(v, "SKIP") == 0;
        }
        printf("%s: %-22s %-40s %s", base, name, line + pos + strspn(line + pos, " "),
               !steady    ? "FLIP"
               : expected ? "steady"
                          : "steady, UNEXPECTED");
        if (!expected)
            printf(" (its EXPECT line: %s)", want);
        printf("\n");
        flips += !steady || !expected;
        last_flipped = !steady || !expected;
        s += len + (s[len] == '\n');
    }
    return flips > 0;
}

int cli_determinism(const options *o)
{
    if (o->nlessons != 1 || o->nsources < 1)
        return cli_usage();
    const sl_lesson *l = cli_lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    determinism_state d = {
        o,    l,   o->runs > 1 ? o->runs : 3, o->have_seed ? o->seed : sl_seed_unpredictable(),
        NULL, NULL};
    d.channels = malloc((size_t)o->nsources * sizeof *d.channels);
    d.verdicts = calloc((size_t)o->nsources, sizeof *d.verdicts);
    if (!d.channels || !d.verdicts)
        return 2;
    sl_jobs j = {
        o->nsources,        o->jobs > 0 ? o->jobs : 1, &d, determinism_prepare,
        determinism_source, determinism_done,          0 /* CTest's TIMEOUT bounds the grader's tests */};
    sl_jobs_run(&j);
    int flips = 0, skipped = 0;
    for (int s = 0; s < o->nsources; s++) {
        flips += report_source(o->sources[s], d.verdicts[s], &skipped);
        free(d.verdicts[s]);
    }
    printf("%d runs per source, seeds from %" PRIu64 ": %s\n", d.runs, d.base_seed,
           flips     ? "verdicts FLIPPED or not as expected"
           : skipped ? "steady, but some runs were skipped (no GPU)"
                     : "every verdict steady");
    free(d.channels);
    free(d.verdicts);
    return flips ? 1 : skipped ? 77 : 0;
}
