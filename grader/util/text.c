#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(sl_text *t, size_t extra)
{
    if (t->len + extra + 1 <= t->cap)
        return;
    size_t cap = t->cap ? t->cap : 128;
    while (cap < t->len + extra + 1)
        cap *= 2;
    char *p = realloc(t->buf, cap);
    if (!p)
        abort(); /* out of memory in the grader: nothing sensible to do */
    t->buf = p;
    t->cap = cap;
}

void sl_text_append(sl_text *t, const char *s, size_t n)
{
    reserve(t, n);
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

void sl_text_vprintf(sl_text *t, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0) {
        reserve(t, (size_t)n);
        vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, again);
        t->len += (size_t)n;
    }
    va_end(again);
}

void sl_text_printf(sl_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sl_text_vprintf(t, fmt, ap);
    va_end(ap);
}

const char *sl_text_str(const sl_text *t) { return t->buf ? t->buf : ""; }

void sl_text_clear(sl_text *t)
{
    t->len = 0;
    if (t->buf)
        t->buf[0] = '\0';
}

void sl_text_free(sl_text *t)
{
    free(t->buf);
    t->buf = NULL;
    t->len = t->cap = 0;
}

int sl_text_replace(sl_text *t, const char *from, const char *to)
{
    size_t n = strlen(from);
    if (!n || !t->buf || !strstr(t->buf, from))
        return 0;
    sl_text out = {0};
    int count = 0;
    const char *s = t->buf;
    for (const char *hit; (hit = strstr(s, from)) != NULL; s = hit + n, count++) {
        sl_text_append(&out, s, (size_t)(hit - s));
        sl_text_append(&out, to, strlen(to));
    }
    sl_text_append(&out, s, strlen(s));
    sl_text_free(t);
    *t = out;
    return count;
}

int sl_has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        if (strncmp(l, line, n) == 0 && (l[n] == '\n' || l[n] == '\0'))
            return 1;
    return 0;
}
