#include "outcome.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src ? src : ""); }

void sl_outcome_init(sl_outcome *o, const sl_lesson *l, const sl_exercise *e)
{
    memset(o, 0, sizeof *o);
    copy(o->lesson, sizeof o->lesson, l->name);
    copy(o->exercise, sizeof o->exercise, e->name);
    copy(o->title, sizeof o->title, e->title);
    copy(o->doc, sizeof o->doc, e->doc);
    o->max_points = e->points;
    sl_outcome_set(o, SL_V_PASS);
}

void sl_outcome_set(sl_outcome *o, sl_verdict v)
{
    o->verdict = v;
    o->points = v == SL_V_PASS ? o->max_points : 0;
}

void *sl_outcome_to_json(const sl_outcome *o)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "lesson", o->lesson);
    cJSON_AddStringToObject(j, "exercise", o->exercise);
    cJSON_AddStringToObject(j, "title", o->title);
    cJSON_AddStringToObject(j, "verdict", sl_verdict_name(o->verdict));
    cJSON_AddStringToObject(j, "detail", sl_text_str(&o->detail));
    cJSON_AddStringToObject(j, "where", o->where);
    cJSON_AddStringToObject(j, "hint", o->hint);
    if (o->hint_step)
        cJSON_AddNumberToObject(j, "hint_step", o->hint_step);
    cJSON_AddStringToObject(j, "doc", o->doc);
    cJSON_AddNumberToObject(j, "seconds", o->seconds);
    cJSON_AddNumberToObject(j, "cases", o->cases);
    cJSON_AddNumberToObject(j, "points", o->points);
    cJSON_AddNumberToObject(j, "max_points", o->max_points);
    if (o->have_bench) {
        cJSON *b = cJSON_AddObjectToObject(j, "bandwidth_gbps");
        cJSON_AddNumberToObject(b, "student", o->student_gbps);
        cJSON_AddNumberToObject(b, "reference", o->reference_gbps);
        cJSON_AddStringToObject(b, "reference_name", o->bench_reference);
        cJSON_AddNumberToObject(b, "device_copy", o->copy_gbps);
    }
    return j;
}

int sl_outcome_write(const char *path, const sl_outcome *o)
{
    cJSON *j = sl_outcome_to_json(o);
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    int rc = sl_write_file(path, text);
    free(text);
    return rc;
}

static const char *str(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

int sl_outcome_from_json(const void *json, sl_outcome *o)
{
    const cJSON *j = json;
    memset(o, 0, sizeof *o);
    int v = cJSON_IsObject(j) ? sl_verdict_parse(str(j, "verdict")) : -1;
    if (v < 0)
        return -1;
    copy(o->lesson, sizeof o->lesson, str(j, "lesson"));
    copy(o->exercise, sizeof o->exercise, str(j, "exercise"));
    copy(o->title, sizeof o->title, str(j, "title"));
    o->verdict = (sl_verdict)v;
    sl_text_printf(&o->detail, "%s", str(j, "detail"));
    copy(o->where, sizeof o->where, str(j, "where"));
    copy(o->hint, sizeof o->hint, str(j, "hint"));
    o->hint_step = (int)num(j, "hint_step");
    copy(o->doc, sizeof o->doc, str(j, "doc"));
    o->seconds = num(j, "seconds");
    o->cases = (int)num(j, "cases");
    o->points = num(j, "points");
    o->max_points = num(j, "max_points");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "bandwidth_gbps");
    if (cJSON_IsObject(b)) {
        o->have_bench = 1;
        o->student_gbps = num(b, "student");
        o->reference_gbps = num(b, "reference");
        o->copy_gbps = num(b, "device_copy");
        copy(o->bench_reference, sizeof o->bench_reference, str(b, "reference_name"));
    }
    return 0;
}

char *sl_outcome_to_text(const sl_outcome *o)
{
    cJSON *j = sl_outcome_to_json(o);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return text;
}

int sl_outcome_from_text(const char *text, sl_outcome *o)
{
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    int rc = sl_outcome_from_json(j, o);
    cJSON_Delete(j);
    return rc;
}

int sl_outcome_read(const char *path, sl_outcome *o)
{
    memset(o, 0, sizeof *o);
    char *text = sl_read_file(path, 8 << 20, NULL);
    if (!text)
        return -1;
    int rc = sl_outcome_from_text(text, o);
    free(text);
    return rc;
}

void sl_outcome_free(sl_outcome *o) { sl_text_free(&o->detail); }
