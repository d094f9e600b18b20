#include "report.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

void sl_report_score(const sl_report *r, double *points, double *max_points)
{
    *points = *max_points = 0;
    for (int i = 0; i < r->count; i++) {
        *points += r->outcomes[i].points;
        *max_points += r->outcomes[i].max_points;
    }
}

static void print_indented(FILE *f, const char *text)
{
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        fprintf(f, "      %.*s\n", (int)len, s);
        s += len + (s[len] == '\n');
    }
}

void sl_report_explain(sl_text *out, const sl_outcome *o)
{
    sl_text_printf(out, "%s%s%s\n", sl_verdict_name(o->verdict), o->where[0] ? " at " : "",
                   o->where);
    if (o->detail && *o->detail)
        sl_text_printf(out, "%s%s", o->detail, o->detail[strlen(o->detail) - 1] == '\n' ? "" : "\n");
    if (o->hint[0])
        sl_text_printf(out, "hint: %s\n", o->hint);
    if (o->doc[0])
        sl_text_printf(out, "read: %s\n", o->doc);
}

void sl_report_print(FILE *f, const sl_report *r, int details)
{
    fprintf(f, "%-10s %-22s %-8s %9s %7s\n", "lesson", "exercise", "verdict", "points", "time");
    const char *last = "";
    for (int i = 0; i < r->count; i++) {
        const sl_outcome *o = &r->outcomes[i];
        fprintf(f, "%-10s %-22s %-8s %4g/%-4g %6.1fs", strcmp(o->lesson, last) ? o->lesson : "",
                o->exercise, sl_verdict_name(o->verdict), o->points, o->max_points, o->seconds);
        if (o->have_bench)
            fprintf(f, "  %.0f GB/s (%s %.0f GB/s, copy %.0f GB/s)", o->student_gbps,
                    o->bench_reference, o->reference_gbps, o->copy_gbps);
        fputc('\n', f);
        last = o->lesson;
    }
    double pts, max;
    sl_report_score(r, &pts, &max);
    fprintf(f, "score: %g / %g   (seed %" PRIu64 ", %.1f s)\n", pts, max, r->seed, r->seconds);
    if (!details)
        return;
    for (int i = 0; i < r->count; i++) {
        const sl_outcome *o = &r->outcomes[i];
        if (o->verdict == SL_V_PASS)
            continue;
        fprintf(f, "\n%s/%s: %s%s%s\n", o->lesson, o->exercise, sl_verdict_name(o->verdict),
                o->where[0] ? " at " : "", o->where);
        if (o->detail && *o->detail)
            print_indented(f, o->detail);
        if (o->hint[0])
            fprintf(f, "    hint: %s\n", o->hint);
        if (o->doc[0])
            fprintf(f, "    read: %s\n", o->doc);
    }
}

char *sl_report_to_text(const sl_report *r)
{
    cJSON *j = cJSON_CreateObject();
    double pts, max;
    sl_report_score(r, &pts, &max);
    cJSON_AddStringToObject(j, "submission", r->submission ? r->submission : "");
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, r->seed); /* a double would round it */
    cJSON_AddStringToObject(j, "seed", seed);
    cJSON_AddNumberToObject(j, "score", pts);
    cJSON_AddNumberToObject(j, "max_score", max);
    cJSON_AddNumberToObject(j, "seconds", r->seconds);
    cJSON *list = cJSON_AddArrayToObject(j, "exercises");
    for (int i = 0; i < r->count; i++)
        cJSON_AddItemToArray(list, (cJSON *)sl_outcome_to_json(&r->outcomes[i]));
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    return text;
}

int sl_report_write_json(const char *path, const sl_report *r)
{
    char *text = sl_report_to_text(r);
    int rc = sl_write_file(path, text);
    free(text);
    return rc;
}

int sl_report_parse(const char *text, sl_report_data *d)
{
    memset(d, 0, sizeof *d);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(j, "exercises");
    if (!cJSON_IsArray(list)) {
        cJSON_Delete(j);
        return -1;
    }
    const cJSON *sub = cJSON_GetObjectItemCaseSensitive(j, "submission");
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(j, "seed");
    const cJSON *secs = cJSON_GetObjectItemCaseSensitive(j, "seconds");
    snprintf(d->submission, sizeof d->submission, "%s", cJSON_IsString(sub) ? sub->valuestring : "");
    d->seed = cJSON_IsString(seed) ? strtoull(seed->valuestring, NULL, 10) : 0;
    d->seconds = cJSON_IsNumber(secs) ? secs->valuedouble : 0;
    int n = cJSON_GetArraySize(list);
    d->outcomes = calloc((size_t)(n > 0 ? n : 1), sizeof *d->outcomes);
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        if (d->outcomes && sl_outcome_from_json(item, &d->outcomes[d->count]) == 0)
            d->count++;
    }
    cJSON_Delete(j);
    return d->outcomes ? 0 : -1;
}

int sl_report_read_json(const char *path, sl_report_data *d)
{
    char *text = sl_read_file(path, 64u << 20, NULL);
    int rc = text ? sl_report_parse(text, d) : -1;
    if (!text)
        memset(d, 0, sizeof *d);
    free(text);
    return rc;
}

void sl_report_data_free(sl_report_data *d)
{
    for (int i = 0; i < d->count; i++)
        sl_outcome_free(&d->outcomes[i]);
    free(d->outcomes);
    d->outcomes = NULL;
    d->count = 0;
}
