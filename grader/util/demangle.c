#include "demangle.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libstdc++'s demangler, declared by hand: its header is C++ only. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *length, int *status);

const char *sl_demangle(const char *name, char *buf, size_t n)
{
    int status = -1;
    char *plain = strncmp(name, "_Z", 2) == 0 ? __cxa_demangle(name, NULL, NULL, &status) : NULL;
    snprintf(buf, n, "%s", status == 0 && plain ? plain : name);
    free(plain);
    return buf;
}

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

void sl_demangle_text(const char *text, sl_text *out)
{
    int quoted = 0;
    for (const char *s = text; *s;) {
        if (*s == '`')
            quoted = !quoted;
        int starts_word = s == text || !word_char(s[-1]);
        if (!quoted && starts_word && s[0] == '_' && s[1] == 'Z') {
            size_t len = 0;
            while (word_char(s[len]))
                len++;
            char name[512], plain[1024];
            snprintf(name, sizeof name, "%.*s", (int)len, s);
            sl_text_printf(out, "%s", sl_demangle(name, plain, sizeof plain));
            s += len;
            continue;
        }
        sl_text_append(out, s, 1);
        s++;
    }
}

void sl_demangle_in(sl_text *t)
{
    if (!t->len || !strstr(sl_text_str(t), "_Z"))
        return;
    sl_text plain = {0};
    sl_demangle_text(sl_text_str(t), &plain);
    sl_text_clear(t);
    sl_text_printf(t, "%s", sl_text_str(&plain));
    sl_text_free(&plain);
}
