#include "points.h"

#include <ini.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

enum { MAX_POINTS_FILE = 1 << 20 };

typedef struct {
    sl_points *p;
    const sl_lesson *const *lessons;
    sl_text *err;
    int errors;
} parse_state;

static const sl_lesson *find_lesson(const sl_lesson *const *lessons, const char *name)
{
    for (const sl_lesson *const *l = lessons; l && *l; l++)
        if (strcmp((*l)->name, name) == 0)
            return *l;
    return NULL;
}

static const sl_exercise *find_exercise(const sl_lesson *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->exercises[i].name, name) == 0)
            return &l->exercises[i];
    return NULL;
}

static sl_points_entry *find_entry(const sl_points *p, const char *lesson, const char *exercise)
{
    for (int i = 0; p && i < p->count; i++)
        if (strcmp(p->v[i].lesson, lesson) == 0 && strcmp(p->v[i].exercise, exercise) == 0)
            return &p->v[i];
    return NULL;
}

static int parse_value(const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    if (end == text || *end != '\0' || !isfinite(v) || v < 0 || v > 1e6)
        return -1;
    *out = v;
    return 0;
}

static int add(sl_points *p, const char *lesson, const char *exercise, double v)
{
    if (p->count == p->cap) {
        int cap = p->cap ? p->cap * 2 : 32;
        sl_points_entry *n = realloc(p->v, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        p->v = n;
        p->cap = cap;
    }
    sl_points_entry *e = &p->v[p->count++];
    snprintf(e->lesson, sizeof e->lesson, "%s", lesson);
    snprintf(e->exercise, sizeof e->exercise, "%s", exercise);
    e->points = v;
    return 0;
}

/* inih calls this for every "name = value" line; returning 1 keeps going
 * so every problem of the file is reported at once. */
static int on_entry(void *user, const char *section, const char *name, const char *value)
{
    parse_state *s = user;
    const sl_lesson *l = find_lesson(s->lessons, section);
    double v;
    if (!l) {
        sl_text_printf(s->err, "[%s]: no lesson of that name\n", section);
    } else if (!find_exercise(l, name)) {
        sl_text_printf(s->err, "[%s] %s: no exercise of that name in lesson %s\n", section, name,
                       section);
    } else if (parse_value(value, &v) != 0) {
        sl_text_printf(s->err, "[%s] %s = %s: points must be a number between 0 and 1000000\n",
                       section, name, value);
    } else if (find_entry(s->p, section, name)) {
        sl_text_printf(s->err, "[%s] %s: given twice\n", section, name);
    } else if (add(s->p, section, name, v) == 0) {
        return 1;
    }
    s->errors++;
    return 1;
}

int sl_points_parse(sl_points *p, const char *text, const sl_lesson *const *lessons, sl_text *err)
{
    memset(p, 0, sizeof *p);
    parse_state s = {p, lessons, err, 0};
    int line = ini_parse_string(text, on_entry, &s);
    if (line > 0) {
        sl_text_printf(err, "line %d: not an INI line (expected [lesson] or exercise = points)\n",
                       line);
        s.errors++;
    }
    if (s.errors) {
        sl_points_free(p);
        return -1;
    }
    return 0;
}

int sl_points_load(sl_points *p, const char *path, const sl_lesson *const *lessons, sl_text *err)
{
    char *text = sl_read_file(path, MAX_POINTS_FILE, NULL);
    if (!text) {
        memset(p, 0, sizeof *p);
        sl_text_printf(err, "%s: cannot be read\n", path);
        return -1;
    }
    sl_text mine = {0};
    int rc = sl_points_parse(p, text, lessons, &mine);
    /* every line of the report names the file */
    for (const char *s = sl_text_str(&mine); *s;) {
        size_t len = strcspn(s, "\n");
        sl_text_printf(err, "%s: %.*s\n", path, (int)len, s);
        s += len + (s[len] == '\n');
    }
    sl_text_free(&mine);
    free(text);
    return rc;
}

void sl_points_free(sl_points *p)
{
    free(p->v);
    memset(p, 0, sizeof *p);
}

double sl_points_for(const sl_points *p, const char *lesson, const char *exercise,
                     double default_points)
{
    const sl_points_entry *e = find_entry(p, lesson, exercise);
    return e ? e->points : default_points;
}

void sl_points_apply(const sl_points *p, sl_outcome *o, int count)
{
    for (int i = 0; i < count; i++) {
        o[i].max_points = sl_points_for(p, o[i].lesson, o[i].exercise, o[i].max_points);
        o[i].points = o[i].verdict == SL_V_PASS ? o[i].max_points : 0;
    }
}

void sl_points_write_defaults(FILE *f, const sl_lesson *const *lessons)
{
    fprintf(f, "; Points per exercise for syncgrade (--points FILE; this file is the default).\n"
               "; An exercise earns its points when its verdict is PASS, nothing otherwise.\n"
               "; Leave an exercise out to keep its default; set 0 to make it ungraded.\n"
               "; Regenerate the defaults with: syncgrade points > grading/points.ini\n");
    for (const sl_lesson *const *l = lessons; l && *l; l++) {
        fprintf(f, "\n; %s (%s)\n[%s]\n", (*l)->title, (*l)->doc, (*l)->name);
        for (int i = 0; i < (*l)->count; i++)
            fprintf(f, "%s = %d\n", (*l)->exercises[i].name, (*l)->exercises[i].points);
    }
}
