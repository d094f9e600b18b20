#include "report.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"
#include "hint.h"

void sl_report_score(const sl_report *r, double *points, double *max_points)
{
    *points = *max_points = 0;
    for (int i = 0; i < r->count; i++) {
        *points += r->outcomes[i].points;
        *max_points += r->outcomes[i].max_points;
    }
}

static void print_indented(FILE *f, const char *text, const char *indent)
{
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        fprintf(f, "%s%.*s\n", indent, (int)len, s);
        s += len + (s[len] == '\n');
    }
}

/* Line `line` of `file` (a name as PTX locations give it), looked for in the
 * submission: a folder, or the lesson's file itself. 1 found. */
static int source_line(const char *submission, const char *file, int line, char *buf, size_t n)
{
    char dir[4096], path[8300];
    struct stat st;
    snprintf(dir, sizeof dir, "%s", submission ? submission : ".");
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        char *slash = strrchr(dir, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - dir) : 1, slash ? submission : ".");
    }
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int at = 0, found = 0;
    while (!found && fgets(buf, (int)n, f))
        if (strchr(buf, '\n') || feof(f))
            found = ++at == line;
    fclose(f);
    if (found) {
        buf[strcspn(buf, "\r\n")] = '\0';
        for (char *c = buf; *c; c++)
            if (*c == '\t')
                *c = ' ';
    }
    return found;
}

/* The student's lines at each place of `where` ("file:line, file:line"). */
static void source_lines(sl_text *out, const char *where, const char *submission)
{
    for (const char *w = where; *w;) {
        size_t len = strcspn(w, ",");
        char loc[256], file[256], line[512];
        snprintf(loc, sizeof loc, "%.*s", (int)len, w);
        char *colon = strrchr(loc, ':');
        if (colon) {
            snprintf(file, sizeof file, "%.*s", (int)(colon - loc), loc);
            int n = atoi(colon + 1);
            const char *text = line;
            if (n > 0 && source_line(submission, file, n, line, sizeof line)) {
                while (*text == ' ')
                    text++;
                sl_text_printf(out, "%s: %s\n", loc, text);
            }
        }
        w += len;
        while (*w == ',' || *w == ' ')
            w++;
    }
}

void sl_report_detail(sl_text *out, const sl_outcome *o, const char *submission)
{
    const char *d = sl_text_str(&o->detail);
    if ((o->verdict != SL_V_SYNC && o->verdict != SL_V_RULE) || !strchr(d, '`')) {
        sl_text_printf(out, "%s", d);
        return;
    }
    source_lines(out, o->where, submission);
    /* `ptx` (file:line) becomes file:line; the PTX goes to the last line */
    sl_text ptx = {0};
    for (const char *s = d; *s;) {
        const char *tick = strchr(s, '`');
        const char *end = tick ? strchr(tick + 1, '`') : NULL;
        if (!end) {
            sl_text_printf(out, "%s", s);
            break;
        }
        sl_text_append(out, s, (size_t)(tick - s));
        const char *after = end + 1;
        size_t loclen = 0;
        if (after[0] == ' ' && after[1] == '(' && (loclen = strcspn(after + 2, ")\n")) &&
            after[2 + loclen] == ')') {
            sl_text_append(out, after + 2, loclen);
            after += 3 + loclen;
        }
        sl_text_printf(&ptx, "%s", ptx.len ? "; " : "");
        for (const char *c = tick + 1; c < end; c++)
            if (*c != '\t' || (c > tick + 1 && c[-1] != ' '))
                sl_text_append(&ptx, *c == '\t' ? " " : c, 1);
        if (loclen)
            sl_text_printf(&ptx, " (%.*s)", (int)loclen, end + 3);
        s = after;
    }
    if (out->len && out->buf[out->len - 1] != '\n')
        sl_text_printf(out, "\n");
    sl_text_printf(out, "ptx: %s\n", sl_text_str(&ptx));
    sl_text_free(&ptx);
}

void sl_report_explain(sl_text *out, const sl_outcome *o)
{
    sl_text_printf(out, "%s%s%s\n", sl_verdict_name(o->verdict), o->where[0] ? " at " : "",
                   o->where);
    if (o->detail.len)
        sl_text_printf(out, "%s%s", sl_text_str(&o->detail),
                       o->detail.buf[o->detail.len - 1] == '\n' ? "" : "\n");
    if (o->hint[0])
        sl_text_printf(out, "hint: %s\n", o->hint);
    if (o->doc[0])
        sl_text_printf(out, "read: %s\n", o->doc);
}

/* The ladder's first step, and where the next one is; a hint of its own
 * (the policy's, say) as it is. */
static void print_hint(FILE *f, const sl_outcome *o)
{
    if (!o->hint[0])
        return;
    if (o->hint_step == 1)
        fprintf(f, "    hint 1/%d: %s  (make hint LESSON=%s EXERCISE=%s for the next step)\n",
                SL_HINT_STEPS, o->hint, o->lesson, o->exercise);
    else
        fprintf(f, "    hint: %s\n", o->hint);
}

/* Exercises not started all say the same: one block for them, not four
 * lines each (22 on a fresh starter). */
static void print_todos(FILE *f, const sl_report *r)
{
    fprintf(f, "\nnot started yet (TODO): SYNCLAB_TODO(...) is still in the code of");
    const char *lesson = "";
    for (int i = 0; i < r->count; i++) {
        const sl_outcome *o = &r->outcomes[i];
        if (o->verdict != SL_V_TODO)
            continue;
        if (strcmp(o->lesson, lesson) != 0)
            fprintf(f, "\n      %s:", o->lesson);
        fprintf(f, " %s", o->exercise);
        lesson = o->lesson;
    }
    fprintf(f,
            "\n    hint 1/%d: What does the exercise's section of its lesson ask each thread "
            "to do?  (make hint LESSON=<lesson> EXERCISE=<name> for the next step)\n",
            SL_HINT_STEPS);
    /* each lesson's page once: the exercises' sections without their anchors */
    fprintf(f, "    read:");
    char last[256] = "";
    for (int i = 0; i < r->count; i++) {
        const sl_outcome *o = &r->outcomes[i];
        char page[256];
        snprintf(page, sizeof page, "%.*s", (int)strcspn(o->doc, "#"), o->doc);
        if (o->verdict == SL_V_TODO && page[0] && strcmp(page, last) != 0)
            fprintf(f, " %s", page);
        if (o->verdict == SL_V_TODO && page[0])
            snprintf(last, sizeof last, "%s", page);
    }
    fprintf(f, " (each exercise has its section)\n");
}

/* A lesson file that does not compile fails every exercise of it with the
 * same compiler lines: one block names them all. */
static int same_build_failure(const sl_outcome *a, const sl_outcome *b)
{
    return a->verdict == SL_V_BUILD && b->verdict == SL_V_BUILD &&
           strcmp(a->lesson, b->lesson) == 0 && strcmp(a->where, b->where) == 0 &&
           strcmp(sl_text_str(&a->detail), sl_text_str(&b->detail)) == 0;
}

/* Outcome i was named in an earlier outcome's block. */
static int shown_with_earlier(const sl_report *r, int i)
{
    for (int j = 0; j < i; j++)
        if (same_build_failure(&r->outcomes[j], &r->outcomes[i]))
            return 1;
    return 0;
}

void sl_report_print(FILE *f, const sl_report *r, int details)
{
    fprintf(f, "%-10s %-22s %-8s %9s %7s\n", "lesson", "exercise", "verdict", "points", "time");
    const char *last = "";
    for (int i = 0; i < r->count; i++) {
        const sl_outcome *o = &r->outcomes[i];
        fprintf(f, "%-10s %-22s %-8s %4g/%-4g %6.1fs", strcmp(o->lesson, last) ? o->lesson : "",
                o->exercise, sl_verdict_name(o->verdict), o->points, o->max_points, o->seconds);
        if (o->have_bench) /* the ratio: both measured in the same run */
            fprintf(f, "  %.0f GB/s = %.0f%% of %s (%.0f GB/s; copy %.0f GB/s)", o->student_gbps,
                    o->reference_gbps > 0 ? 100 * o->student_gbps / o->reference_gbps : 0,
                    o->bench_reference, o->reference_gbps, o->copy_gbps);
        fputc('\n', f);
        last = o->lesson;
    }
    double pts, max;
    sl_report_score(r, &pts, &max);
    fprintf(f, "score: %g / %g   (seed %" PRIu64 ", %.1f s)\n", pts, max, r->seed, r->seconds);
    if (!details)
        return;
    int todo = 0;
    for (int i = 0; i < r->count; i++)
        todo += r->outcomes[i].verdict == SL_V_TODO;
    if (todo > 1)
        print_todos(f, r);
    for (int i = 0; i < r->count; i++) {
        const sl_outcome *o = &r->outcomes[i];
        if (o->verdict == SL_V_PASS || (todo > 1 && o->verdict == SL_V_TODO) ||
            shown_with_earlier(r, i))
            continue;
        fprintf(f, "\n%s/%s", o->lesson, o->exercise);
        for (int j = i + 1; j < r->count; j++)
            if (same_build_failure(o, &r->outcomes[j]))
                fprintf(f, ", %s", r->outcomes[j].exercise);
        fprintf(f, ": %s%s%s\n", sl_verdict_name(o->verdict), o->where[0] ? " at " : "", o->where);
        if (o->detail.len) {
            sl_text d = {0};
            sl_report_detail(&d, o, r->submission);
            print_indented(f, sl_text_str(&d), "      ");
            sl_text_free(&d);
        }
        print_hint(f, o);
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
    snprintf(d->submission, sizeof d->submission, "%s",
             cJSON_IsString(sub) ? sub->valuestring : "");
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

void sl_report_write_lesson(const char *out_dir, const char *source, uint64_t seed,
                            const sl_outcome *outcomes, int count)
{
    sl_outcome *graded = calloc((size_t)(count > 0 ? count : 1), sizeof *graded);
    int n = 0;
    for (int i = 0; graded && i < count; i++)
        if (outcomes[i].verdict != SL_V_COUNT)
            graded[n++] = outcomes[i]; /* shallow: freed by the caller */
    char path[4200];
    snprintf(path, sizeof path, "%s/results.json", out_dir);
    sl_report rep = {source, seed, 0, graded, n};
    if (graded)
        sl_report_write_json(path, &rep);
    free(graded);
}
