/* A growable string: reports are assembled piece by piece. */
#ifndef SYNCLAB_TEXT_H
#define SYNCLAB_TEXT_H

#include <stdarg.h>
#include <stddef.h>

typedef struct {
    char *buf; /* always NUL-terminated once anything was added */
    size_t len;
    size_t cap;
} sl_text;

void sl_text_printf(sl_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sl_text_vprintf(sl_text *t, const char *fmt, va_list ap);
void sl_text_append(sl_text *t, const char *s, size_t n);
const char *sl_text_str(const sl_text *t); /* "" when empty */
void sl_text_clear(sl_text *t);
/* Every occurrence of from (not empty) replaced by to; returns how many. */
int sl_text_replace(sl_text *t, const char *from, const char *to);
void sl_text_free(sl_text *t);
/* Whether line is one of text's lines, whole (a protocol mark such as
 * "@@ready": a longer line that starts with it is not it). */
int sl_has_line(const char *text, const char *line);

#endif
