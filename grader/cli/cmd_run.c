/* syncgrade run: the playground. The student's kernel on one tiny input of
 * their choosing (n, block, seed, or values from a file), printed beside the
 * CPU reference's output with the differences marked; optionally under one
 * sanitizer. The runner starts exactly as in grading (sl_runner_opts: the
 * same sandbox, limits and environment). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "grade.h"
#include "lesson_run.h"
#include "proc.h"
#include "sandbox.h"
#include "synclab_config.h"

#include "cli.h"

enum { ROWS_SHOWN = 128, MAX_COLUMNS = 8, RUN_TIMEOUT_S = 60 };
enum { DEFAULT_N = 10, DEFAULT_BLOCK = 32 };

static int tool_named(const char *name)
{
    static const int tools[] = {SL_TOOL_MEMCHECK, SL_TOOL_SYNCCHECK, SL_TOOL_RACECHECK,
                                SL_TOOL_INITCHECK};
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
        if (strcmp(name, sl_tool_name(tools[i])) == 0)
            return tools[i];
    return -1;
}

/* The numbers of an --input file: separated by blanks, commas or newlines;
 * '#' starts a comment. The count, or -1 (said on stderr). */
static int64_t read_values(const char *path, double **out)
{
    char *text = sl_read_file(path, 1 << 20, NULL);
    if (!text) {
        fprintf(stderr, "syncgrade run: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    int64_t n = 0, cap = 64;
    double *v = malloc((size_t)cap * sizeof *v);
    for (char *p = text; v && *p;) {
        if (*p == '#') {
            p += strcspn(p, "\n");
            continue;
        }
        if (strchr(" \t\r\n,;", *p)) {
            p++;
            continue;
        }
        char *end;
        double x = strtod(p, &end);
        if (end == p) {
            fprintf(stderr, "syncgrade run: %s: '%.20s' is not a number\n", path, p);
            free(v);
            free(text);
            return -1;
        }
        if (n == cap) {
            double *w = realloc(v, (size_t)(cap *= 2) * sizeof *v);
            if (!w)
                break;
            v = w;
        }
        v[n++] = x;
        p = end;
    }
    free(text);
    *out = v;
    return v ? n : -1;
}

static double value_at(const sl_array *a, uint64_t i)
{
    switch (a->type) {
    case SL_I32: return ((const int32_t *)a->data)[i];
    case SL_U32: return ((const uint32_t *)a->data)[i];
    case SL_F32: return ((const float *)a->data)[i];
    case SL_F64: return ((const double *)a->data)[i];
    case SL_I64: return (double)((const int64_t *)a->data)[i];
    }
    return 0;
}

static void set_value(sl_array *a, uint64_t i, double x)
{
    switch (a->type) {
    case SL_I32: ((int32_t *)a->data)[i] = (int32_t)x; break;
    case SL_U32: ((uint32_t *)a->data)[i] = (uint32_t)x; break;
    case SL_F32: ((float *)a->data)[i] = (float)x; break;
    case SL_F64: ((double *)a->data)[i] = x; break;
    case SL_I64: ((int64_t *)a->data)[i] = (int64_t)x; break;
    }
}

static void print_value(const sl_array *a, uint64_t i)
{
    if (!a || i >= a->count) {
        printf(" %12s", "");
        return;
    }
    switch (a->type) {
    case SL_I32: printf(" %12" PRId32, ((const int32_t *)a->data)[i]); break;
    case SL_U32: printf(" %12" PRIu32, ((const uint32_t *)a->data)[i]); break;
    case SL_I64: printf(" %12" PRId64, ((const int64_t *)a->data)[i]); break;
    default: printf(" %12.6g", value_at(a, i)); break;
    }
}

static int same_value(const sl_array *x, const sl_array *y, uint64_t i)
{
    if (i >= x->count) /* the reference expects nothing there */
        return 1;
    if (i >= y->count)
        return 0;
    double a = value_at(x, i), b = value_at(y, i);
    if (x->type == SL_F32 || x->type == SL_F64)
        return fabs(a - b) <= 1e-5 * (fabs(a) > 1 ? fabs(a) : 1);
    return a == b;
}

/* One input of n elements and `block` threads per block: the exercise's
 * own, else its first small input with every array of n elements redrawn
 * at length n from that array's values. 0 ok. */
static int make_input(const sl_exercise *e, int64_t n, int block, uint64_t seed, sl_inputs *out)
{
    sl_rng rng;
    sl_rng_seed(&rng, seed);
    if (e->make_input) {
        e->make_input(n, block, &rng, out);
        return out->count >= 1 ? 0 : -1;
    }
    sl_inputs small = {0};
    e->make_inputs(&rng, SL_INPUTS_SMALL, &small);
    if (small.count == 0)
        return -1;
    const sl_case *t = &small.v[0].in;
    int64_t tn = t->param[SL_P_N];
    sl_input *c = sl_inputs_add(out, "n=%" PRId64 " block=%d", n, block);
    if (!c) {
        sl_inputs_free(&small);
        return -1;
    }
    memcpy(c->in.param, t->param, sizeof c->in.param);
    c->in.param[SL_P_N] = n;
    c->in.param[SL_P_BLOCK] = block;
    if (t->param[SL_P_GRID])
        c->in.param[SL_P_GRID] = (n + block - 1) / block;
    for (int k = 0; k < t->narrays; k++) {
        const sl_array *a = &t->array[k];
        int resized = tn > 0 && a->count == (uint64_t)tn;
        uint64_t count = resized ? (uint64_t)n : a->count;
        void *data = sl_case_add(&c->in, a->type, count);
        size_t size = sl_elem_size(a->type);
        for (uint64_t i = 0; data && i < count; i++) {
            uint64_t from = resized ? sl_rng_u64(&rng) % (uint64_t)tn : i;
            memcpy((char *)data + i * size, (const char *)a->data + from * size, size);
        }
    }
    sl_inputs_free(&small);
    return 0;
}

/* Input arrays, then expected and got per output array, row by row. Rows
 * are marked where got differs from expected, unless the check passed
 * (a free order, a float tolerance): then expected is one right answer. */
static int print_table(const sl_case *in, const sl_case *expected, const sl_case *got,
                       int check_passed)
{
    uint64_t rows = 0;
    int nin = in->narrays < MAX_COLUMNS ? in->narrays : MAX_COLUMNS;
    int nout = expected ? expected->narrays : got ? got->narrays : 0;
    if (nout > MAX_COLUMNS / 2)
        nout = MAX_COLUMNS / 2;
    for (int k = 0; k < nin; k++)
        rows = in->array[k].count > rows ? in->array[k].count : rows;
    for (int k = 0; k < nout; k++) {
        if (expected && k < expected->narrays && expected->array[k].count > rows)
            rows = expected->array[k].count;
        if (got && k < got->narrays && got->array[k].count > rows)
            rows = got->array[k].count;
    }
    printf("%6s", "i");
    for (int k = 0; k < nin; k++) {
        char name[16];
        snprintf(name, sizeof name, nin > 1 ? "input %d" : "input", k);
        printf(" %12s", name);
    }
    for (int k = 0; k < nout; k++)
        printf(" %12s %12s", "expected", "got");
    printf("\n");
    int differ = 0;
    for (uint64_t i = 0; i < rows; i++) {
        int row_differs = 0;
        for (int k = 0; k < nout; k++) {
            const sl_array *x = expected && k < expected->narrays ? &expected->array[k] : NULL;
            const sl_array *y = got && k < got->narrays ? &got->array[k] : NULL;
            if (x && y && !check_passed && !same_value(x, y, i))
                row_differs = 1;
        }
        differ += row_differs;
        if (i >= ROWS_SHOWN)
            continue;
        printf("%6" PRIu64, i);
        for (int k = 0; k < nin; k++)
            print_value(&in->array[k], i);
        for (int k = 0; k < nout; k++) {
            print_value(expected && k < expected->narrays ? &expected->array[k] : NULL, i);
            if (got && k < got->narrays)
                print_value(&got->array[k], i);
            else
                printf(" %12s", "-");
        }
        printf("%s\n", row_differs ? "   <-- differs" : "");
    }
    if (rows > ROWS_SHOWN)
        printf("(%" PRIu64 " more rows not shown)\n", rows - ROWS_SHOWN);
    return differ;
}

/* Builds the student's file as grading does (policy included). 0 ok. */
static int build_source(const sl_lesson *l, const char *source, const char *dir, sl_build *b)
{
    sl_text why = {0};
    if (!sl_lesson_policy_check(l, SYNCLAB_SOURCE_DIR, source, &why)) {
        printf("%s", sl_text_str(&why));
        sl_text_free(&why);
        memset(b, 0, sizeof *b);
        return -1;
    }
    sl_text_free(&why);
    sl_build_config bc = cli_build_config();
    char lib[4096];
    sl_build_harness_lib(SYNCLAB_HARNESS_DIR, l->name, lib, sizeof lib);
    bc.harness_lib = lib;
    sl_build_lesson(&bc, l->name, source, dir, b);
    if (!b->ok)
        printf("%s", b->log ? b->log : "the build failed\n");
    return b->ok ? 0 : -1;
}

/* The runner on in_dir's one case, plain or under tool. */
static void run_runner(const sl_grade_ctx *ctx, const sl_exercise *e, int tool, const char *in_dir,
                       const char *out_dir, const char *log, sl_proc_result *pr)
{
    const char *argv[SL_RUNNER_ARGV(1)];
    sl_runner_group one = {e->name, in_dir, "1", out_dir};
    sl_runner_argv(ctx->runner, ctx->sanitizer, tool, &one, 1, argv);
    sl_sandbox box;
    sl_proc_opts opts;
    double limit = sl_grade_limit(ctx, RUN_TIMEOUT_S * (tool ? 5 : 1));
    sl_runner_opts(ctx->runner, ctx->sanitizer, tool, in_dir, out_dir, 1, log, limit, &box, &opts);
    sl_proc_run_opts((char *const *)argv, &opts, pr);
}

/* What the run said beside its output: 1 when it went wrong. */
static int report_run(const sl_grade_ctx *ctx, int tool, const sl_proc_result *pr, const char *log,
                      const char *source)
{
    char *text = sl_read_file(log, 1 << 20, NULL);
    int bad = 0;
    if (pr->exited && pr->code == SL_EXIT_NO_GPU) {
        printf("no CUDA device here: the kernel did not run (expected values only)\n");
        bad = 1;
    } else if (pr->timed_out && pr->not_ready) {
        printf("the runner did not get a CUDA context within %d s, before your code ran: the "
               "machine is overloaded or the GPU unwell; try again\n",
               SL_RUNNER_START_S);
        bad = 1;
    } else if (pr->timed_out) {
        printf("the run did not finish in %.0f s: a barrier some threads never reach, or a "
               "spin on a value nobody writes?\n",
               pr->seconds);
        bad = 1;
    } else if (tool) {
        sl_text detail = {0};
        char where[512] = "";
        sl_verdict v = sl_sanitizer_parse(tool, text ? text : "", sl_base_name(source), &detail,
                                          where, sizeof where);
        if (v == SL_V_PASS && pr->exited && pr->code == 0) {
            printf("%s: clean\n", sl_tool_name(tool));
        } else {
            printf("%s: %s%s%s\n%s", sl_tool_name(tool), sl_verdict_name(v), where[0] ? " at " : "",
                   where, sl_text_str(&detail));
            bad = 1;
        }
        sl_text_free(&detail);
    } else if (!pr->exited || pr->code != 0) {
        printf("the runner %s %d:\n", pr->exited ? "exited with code" : "was killed by signal",
               pr->exited ? pr->code : pr->sig);
        bad = 1;
    }
    if (bad && !(pr->exited && pr->code == SL_EXIT_NO_GPU) && !tool) {
        /* the runner's own lines, then what the program printed */
        char program_path[4300];
        sl_runner_program_log(log, program_path, sizeof program_path);
        char *program = sl_read_ends(program_path, 4000, 4000);
        for (const char *t = text; t; t = t == text ? program : NULL)
            if (t && *t) {
                size_t len = strlen(t);
                printf("%s", len > 4000 ? t + len - 4000 : t);
            }
        free(program);
    }
    (void)ctx;
    free(text);
    return bad;
}

int cli_run(const options *o)
{
    if (o->nlessons != 1 || !o->exercise) {
        fprintf(stderr,
                "usage: make run LESSON=<name> EXERCISE=<name> [N=%d] [BLOCK=%d] "
                "[SEED=s] [INPUT=file] [TOOL=racecheck]\n",
                DEFAULT_N, DEFAULT_BLOCK);
        return 2;
    }
    const sl_lesson *l = cli_lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    const sl_exercise *e = NULL;
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->exercises[i].name, o->exercise) == 0)
            e = &l->exercises[i];
    if (!e) {
        fprintf(stderr, "syncgrade run: no exercise '%s' in %s; its exercises:", o->exercise,
                l->name);
        for (int i = 0; i < l->count; i++)
            fprintf(stderr, " %s", l->exercises[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    int tool = 0;
    if (o->tool && (tool = tool_named(o->tool)) < 0) {
        fprintf(stderr, "syncgrade run: TOOL is racecheck, synccheck, memcheck or initcheck\n");
        return 2;
    }
    const char *sanitizer = cli_find_sanitizer();
    if (tool && !sanitizer) {
        fprintf(stderr, "syncgrade run: no compute-sanitizer found (set SYNCLAB_SANITIZER)\n");
        return 2;
    }
    double *values = NULL;
    int64_t nvalues = o->input ? read_values(o->input, &values) : 0;
    if (nvalues < 0)
        return 2;
    int64_t n = o->input ? nvalues : o->n > 0 ? o->n : DEFAULT_N;
    int block = o->block > 0 ? o->block : DEFAULT_BLOCK;
    uint64_t seed = o->have_seed ? o->seed : 1;
    /* Only shapes the contract allows: a correct kernel on another shape
     * could differ from the reference, and grading never launches it. */
    sl_text why_shape = {0};
    if (!sl_shape_allows(e, n, block, &why_shape)) {
        fprintf(stderr, "syncgrade run: %s/%s: %s", l->name, e->name, sl_text_str(&why_shape));
        sl_text_free(&why_shape);
        free(values);
        return 2;
    }
    sl_text_free(&why_shape);
    if (e->shape.launcher_picks && o->block > 0)
        printf("(BLOCK is not used: %s)\n", e->shape.says);

    sl_inputs inputs = {0};
    if (n < 1 || make_input(e, n, block, seed, &inputs) != 0) {
        fprintf(stderr, "syncgrade run: cannot make an input of %" PRId64 " elements\n", n);
        free(values);
        return 2;
    }
    sl_case *in = &inputs.v[0].in;
    for (int64_t i = 0;
         values && in->narrays > 0 && i < nvalues && (uint64_t)i < in->array[0].count; i++)
        set_value(&in->array[0], (uint64_t)i, values[i]);
    free(values);

    char source[4096], dir[4096], build_dir[4200], in_dir[4200], out_dir[4200], log[4200];
    snprintf(source, sizeof source, "%s/%s.cu",
             o->submission ? o->submission : SYNCLAB_SOURCE_DIR "/starter", l->name);
    snprintf(dir, sizeof dir, "%s/%s/run", cli_default_out(o), l->name);
    snprintf(build_dir, sizeof build_dir, "%s/build", dir);
    snprintf(in_dir, sizeof in_dir, "%s/in", dir);
    snprintf(out_dir, sizeof out_dir, "%s/out", dir);
    snprintf(log, sizeof log, "%s/run.log", dir);
    sl_build b;
    int rc = 1;
    sl_case expected = {0}, got = {0};
    int have_expected = 0, have_got = 0;
    if (build_source(l, source, build_dir, &b) != 0)
        goto done;
    sl_remove_tree(out_dir, 0);
    sl_mkdirs(out_dir);
    if (sl_grade_write_inputs(&inputs, in_dir) != 0) {
        fprintf(stderr, "syncgrade run: cannot write %s\n", in_dir);
        goto done;
    }
    sl_grade_ctx ctx = {0};
    ctx.runner = b.runner;
    ctx.ptx = b.ptx;
    ctx.object = b.object;
    ctx.source = source;
    ctx.workdir = dir;
    ctx.sanitizer = sanitizer;
    ctx.seed = seed;
    ctx.timeout_scale = cli_timeout_scale(o);
    sl_proc_result pr;
    run_runner(&ctx, e, tool, in_dir, out_dir, log, &pr);

    printf("%s/%s on %s (seed %" PRIu64 ")%s%s\n", l->name, e->name, inputs.v[0].label, seed,
           tool ? ", under " : "", tool ? sl_tool_name(tool) : "");
    int bad = report_run(&ctx, tool, &pr, log, source);
    char path[4300], err[256];
    snprintf(path, sizeof path, "%s/case0.out", out_dir);
    have_got = sl_case_read(path, &got, 64u << 20, err, sizeof err) == 0;
    have_expected = e->expected && e->expected(in, &expected) == 0;
    sl_text why = {0};
    int ok = have_got && e->check(in, &got, &why);
    printf("\n");
    int differ = print_table(in, have_expected ? &expected : NULL, have_got ? &got : NULL, ok);
    if (have_got)
        printf("\n%s%s",
               ok ? "matches the CPU reference\n" : "WRONG: ", ok ? "" : sl_text_str(&why));
    else if (!bad)
        printf("\nthe runner wrote no output (%s)\n", err);
    if (have_got && have_expected && !ok && differ == 0)
        printf("(the differences are outside the rows the reference fills)\n");
    sl_text_free(&why);
    rc = ok && !bad ? 0 : 1;
done:
    if (have_got)
        sl_case_free(&got);
    if (have_expected)
        sl_case_free(&expected);
    sl_build_free(&b);
    sl_inputs_free(&inputs);
    return rc;
}
