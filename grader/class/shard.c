#include "shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "text.h"

enum { MAX_MANIFEST = 256 << 20, MAX_FIELD = 1 << 20 };

int sl_shard_parse(const char *spec, int *k, int *n)
{
    char *end;
    errno = 0;
    long a = strtol(spec, &end, 10);
    if (errno || end == spec || *end != '/' || spec[0] == '-' || spec[0] == '+')
        return -1;
    const char *rest = end + 1;
    long b = strtol(rest, &end, 10);
    if (errno || end == rest || *end || rest[0] == '-' || rest[0] == '+')
        return -1;
    if (a < 1 || b < 1 || a > b || b > SL_SHARD_MAX)
        return -1;
    *k = (int)a;
    *n = (int)b;
    return 0;
}

int sl_shard_take(char **names, int count, int k, int n)
{
    if (n <= 0)
        return count;
    int kept = 0;
    for (int i = 0; i < count; i++) {
        if (i % n == k - 1)
            names[kept++] = names[i];
        else
            free(names[i]);
    }
    return kept;
}

/* ---------- writing ---------- */

static void put_field(sl_text *t, const char *key, const char *value)
{
    size_t len = strlen(value);
    sl_text_printf(t, "%s %zu\n", key, len);
    sl_text_append(t, value, len);
    sl_text_append(t, "\n", 1);
}

int sl_shard_write(const char *path, const sl_shard_manifest *m)
{
    sl_text t = {0};
    sl_text_printf(&t, "synclab-shard 1\nshard %d\nshards %d\nclass %d\n", m->k, m->n,
                   m->class_size);
    put_field(&t, "run", m->run);
    put_field(&t, "header", m->header);
    for (int i = 0; i < m->count; i++) {
        put_field(&t, "student", m->students[i].name);
        put_field(&t, "dir", m->students[i].dir);
        put_field(&t, "row", m->students[i].row);
        sl_text_printf(&t, "errors %d\n", m->students[i].errors);
    }
    sl_text_printf(&t, "end %d\n", m->count);
    /* written beside, then renamed: a reader never sees half a manifest */
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.part", path);
    int rc = sl_write_file(tmp, sl_text_str(&t)) == 0 && rename(tmp, path) == 0 ? 0 : -1;
    sl_text_free(&t);
    return rc;
}

/* ---------- reading ---------- */

typedef struct {
    const char *p, *end;
} cursor;

/* "key NUMBER\n": 0 and *value, or -1. */
static int get_number(cursor *c, const char *key, long *value)
{
    size_t klen = strlen(key);
    if ((size_t)(c->end - c->p) <= klen + 1 || memcmp(c->p, key, klen) != 0 || c->p[klen] != ' ')
        return -1;
    char *e;
    errno = 0;
    *value = strtol(c->p + klen + 1, &e, 10);
    if (errno || e == c->p + klen + 1 || e >= c->end || *e != '\n')
        return -1;
    c->p = e + 1;
    return 0;
}

/* "key LEN\n" LEN bytes "\n": a malloc'd copy, or NULL. */
static char *get_field(cursor *c, const char *key)
{
    long len;
    if (get_number(c, key, &len) != 0 || len < 0 || len > MAX_FIELD || c->end - c->p < len + 1 ||
        c->p[len] != '\n' || memchr(c->p, '\0', (size_t)len))
        return NULL;
    char *s = strndup(c->p, (size_t)len);
    c->p += len + 1;
    return s;
}

static int fail(char *err, unsigned long n, const char *path, const char *why)
{
    snprintf(err, n, "%s: %s", path, why);
    return -1;
}

int sl_shard_read(const char *path, sl_shard_manifest *m, char *err, unsigned long n)
{
    memset(m, 0, sizeof *m);
    size_t size;
    char *text = sl_read_file(path, MAX_MANIFEST, &size);
    if (!text)
        return fail(err, n, path, "cannot read it (no shard here?)");
    cursor c = {text, text + size};
    long version, k, nn, class_size, count;
    int rc = -1;
    if (get_number(&c, "synclab-shard", &version) != 0 || version != 1) {
        fail(err, n, path, "not a shard manifest");
        goto out;
    }
    if (get_number(&c, "shard", &k) != 0 || get_number(&c, "shards", &nn) != 0 ||
        get_number(&c, "class", &class_size) != 0 || k < 1 || nn < 1 || k > nn ||
        nn > SL_SHARD_MAX || class_size < 0) {
        fail(err, n, path, "its shard lines are wrong");
        goto out;
    }
    m->k = (int)k;
    m->n = (int)nn;
    m->class_size = (int)class_size;
    if (!(m->run = get_field(&c, "run")) || !(m->header = get_field(&c, "header"))) {
        fail(err, n, path, "no run or header");
        goto out;
    }
    int cap = 0;
    while (c.p < c.end && strncmp(c.p, "end ", 4) != 0) {
        if (m->count == cap) {
            cap = cap ? 2 * cap : 64;
            sl_shard_student *more = realloc(m->students, (size_t)cap * sizeof *more);
            if (!more)
                goto out;
            m->students = more;
        }
        sl_shard_student *s = &m->students[m->count];
        memset(s, 0, sizeof *s);
        m->count++;
        long errors;
        s->name = get_field(&c, "student");
        s->dir = s->name ? get_field(&c, "dir") : NULL;
        s->row = s->dir ? get_field(&c, "row") : NULL;
        if (!s->row || get_number(&c, "errors", &errors) != 0 || errors < 0) {
            fail(err, n, path, "a student entry is malformed");
            goto out;
        }
        s->errors = (int)errors;
    }
    if (get_number(&c, "end", &count) != 0 || count != m->count || c.p != c.end) {
        fail(err, n, path, "it is cut short (did the shard finish?)");
        goto out;
    }
    rc = 0;
out:
    free(text);
    if (rc != 0)
        sl_shard_free(m);
    return rc;
}

void sl_shard_free(sl_shard_manifest *m)
{
    for (int i = 0; i < m->count; i++) {
        free(m->students[i].name);
        free(m->students[i].dir);
        free(m->students[i].row);
    }
    free(m->students);
    free(m->header);
    free(m->run);
    memset(m, 0, sizeof *m);
}
