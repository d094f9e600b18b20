#include "csv.h"

#include <string.h>

static void separate(sl_csv *c)
{
    if (c->fields++ > 0)
        sl_text_append(&c->text, ",", 1);
    else
        sl_text_append(&c->text, "", 0);
}

void sl_csv_text(sl_csv *c, const char *field)
{
    const char *s = field ? field : "";
    size_t len = strlen(s);
    int formula =
        s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r';
    int quote = strpbrk(s, ",\"\r\n") != NULL || (len && (s[0] == ' ' || s[len - 1] == ' '));
    separate(c);
    if (quote)
        sl_text_append(&c->text, "\"", 1);
    if (formula)
        sl_text_append(&c->text, "'", 1);
    for (; *s; s++) {
        if (*s == '"')
            sl_text_append(&c->text, "\"", 1);
        sl_text_append(&c->text, s, 1);
    }
    if (quote)
        sl_text_append(&c->text, "\"", 1);
}

void sl_csv_number(sl_csv *c, double v)
{
    separate(c);
    sl_text_printf(&c->text, "%g", v);
}

void sl_csv_end_row(sl_csv *c)
{
    sl_text_append(&c->text, "\r\n", 2);
    c->fields = 0;
}

void sl_csv_free(sl_csv *c)
{
    sl_text_free(&c->text);
    c->fields = 0;
}
