#include "gradescope.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "utf8.h"

enum { MAX_TEST_OUTPUT = 16 << 10 };

static char g_nonce[128];
static int g_no_gpu_error; /* sl_gradescope_set_no_gpu: 0 static, 1 error */

int sl_gradescope_set_no_gpu(const char *mode)
{
    if (!mode || strcmp(mode, "static") == 0)
        g_no_gpu_error = 0;
    else if (strcmp(mode, "error") == 0)
        g_no_gpu_error = 1;
    else
        return -1;
    return 0;
}

void sl_gradescope_set_nonce(const char *nonce)
{
    snprintf(g_nonce, sizeof g_nonce, "%s", nonce ? nonce : "");
}

void sl_gradescope_take_nonce(void)
{
    char *v = getenv("SYNCLAB_RESULT_NONCE");
    if (!v)
        return;
    sl_gradescope_set_nonce(v);
    memset(v, 0, strlen(v));
    unsetenv("SYNCLAB_RESULT_NONCE");
}

int sl_gradescope_visibility_ok(const char *v)
{
    static const char *const ok[] = {"hidden", "after_due_date", "after_published", "visible",
                                     NULL};
    for (const char *const *k = ok; *k; k++)
        if (v && strcmp(v, *k) == 0)
            return 1;
    return 0;
}

static void add_clean_string(cJSON *j, const char *key, const char *s, size_t max)
{
    sl_text t = {0};
    sl_utf8_clean(&t, s, max, 0);
    cJSON_AddStringToObject(j, key, sl_text_str(&t));
    sl_text_free(&t);
}

/* "1.2": the lesson's place in the report, then the exercise's. */
static void test_number(const sl_report *r, int i, char *out, size_t n)
{
    int lesson = 1, exercise = 1;
    for (int k = 1; k <= i; k++) {
        if (strcmp(r->outcomes[k].lesson, r->outcomes[k - 1].lesson) != 0)
            lesson++, exercise = 1;
        else
            exercise++;
    }
    snprintf(out, n, "%d.%d", lesson, exercise);
}

/* A SKIP shown as the static checks' result (no GPU, mode static). */
static int static_only(const sl_outcome *o) { return o->verdict == SL_V_SKIP && !g_no_gpu_error; }

static cJSON *test_of(const sl_report *r, int i, const char *visibility)
{
    const sl_outcome *o = &r->outcomes[i];
    cJSON *t = cJSON_CreateObject();
    char name[320], number[32];
    snprintf(name, sizeof name, "%s / %s: %s", o->lesson, o->exercise, o->title);
    test_number(r, i, number, sizeof number);
    add_clean_string(t, "name", name, sizeof name);
    cJSON_AddStringToObject(t, "number", number);
    int passed = o->verdict == SL_V_PASS || static_only(o);
    cJSON_AddStringToObject(t, "status", passed ? "passed" : "failed");
    cJSON_AddNumberToObject(t, "score", o->points);
    cJSON_AddNumberToObject(t, "max_score", static_only(o) ? 0 : o->max_points);
    sl_text out = {0};
    if (o->verdict == SL_V_PASS)
        sl_text_printf(&out, "PASS (%d inputs compared)\n", o->cases);
    else if (static_only(o))
        sl_text_printf(&out, "SKIP: the static checks passed (it compiles, no TODO, the rules "
                             "hold), but this autograder has no GPU to run it. Not scored "
                             "here: your instructor grades it on a GPU.\n");
    else
        sl_report_explain(&out, o);
    add_clean_string(t, "output", sl_text_str(&out), MAX_TEST_OUTPUT);
    sl_text_free(&out);
    cJSON_AddStringToObject(t, "output_format", "text");
    cJSON *tags = cJSON_AddArrayToObject(t, "tags");
    cJSON_AddItemToArray(tags, cJSON_CreateString(sl_verdict_name(o->verdict)));
    cJSON_AddStringToObject(t, "visibility", visibility);
    return t;
}

void *sl_gradescope_json(const sl_report *r, const char *visibility)
{
    const char *vis = visibility ? visibility : "visible";
    double score, max;
    sl_report_score(r, &score, &max);
    int skipped = 0, failed = 0;
    for (int i = 0; i < r->count; i++) {
        skipped += r->outcomes[i].verdict == SL_V_SKIP;
        failed += r->outcomes[i].verdict != SL_V_SKIP && r->outcomes[i].verdict != SL_V_PASS;
        if (static_only(&r->outcomes[i]))
            max -= r->outcomes[i].max_points;
    }
    char summary[512];
    if (skipped && g_no_gpu_error) {
        score = 0;
        snprintf(summary, sizeof summary,
                 "The autograder failed (it has no GPU, so %d exercises could not run): not your "
                 "fault, tell your instructor.\n",
                 skipped);
    } else if (skipped) {
        char fix[128] = "";
        if (failed)
            snprintf(fix, sizeof fix, " %d failed them (below): fix those first.", failed);
        snprintf(summary, sizeof summary,
                 "CUDA Sync Lab, static checks only: this autograder has no GPU, so no kernel "
                 "ran. %d of %d exercises passed the static checks (it compiles, no TODO, the "
                 "rules hold) and are not scored here: your instructor grades them on a GPU.%s\n",
                 skipped, r->count, fix);
    } else
        snprintf(summary, sizeof summary,
                 "CUDA Sync Lab: %g / %g points (inputs from seed %" PRIu64 ")\n", score, max,
                 r->seed);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "score", score);
    cJSON_AddNumberToObject(j, "max_score", max);
    cJSON_AddNumberToObject(j, "execution_time", r->seconds);
    cJSON_AddStringToObject(j, "output", summary);
    cJSON_AddStringToObject(j, "output_format", "text");
    cJSON_AddStringToObject(j, "visibility", vis);
    /* the grader's own log is for the instructor */
    cJSON_AddStringToObject(j, "stdout_visibility", "hidden");
    if (g_nonce[0]) {
        /* Gradescope's free-form field: run_autograder's proof of origin */
        cJSON *extra = cJSON_AddObjectToObject(j, "extra_data");
        cJSON_AddStringToObject(extra, "synclab_nonce", g_nonce);
    }
    cJSON *tests = cJSON_AddArrayToObject(j, "tests");
    for (int i = 0; i < r->count; i++)
        cJSON_AddItemToArray(tests, test_of(r, i, vis));
    return j;
}

char *sl_gradescope_text(const sl_report *r, const char *visibility)
{
    cJSON *j = sl_gradescope_json(r, visibility);
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    return text;
}

int sl_gradescope_write(const char *path, const sl_report *r, const char *visibility)
{
    char *text = sl_gradescope_text(r, visibility);
    int rc = sl_write_file(path, text);
    free(text);
    return rc;
}
