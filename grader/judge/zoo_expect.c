/* EXPECT lines (zoo_expect.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"
#include "zoo_expect.h"

int sl_expectation_parse(const char *line, sl_expectation *e)
{
    char *copy = strndup(line, strcspn(line, "\n"));
    if (!copy)
        return 0;
    char word[16] = "";
    int words = sscanf(copy, "%63s %127s %15s", e->exercise, e->verdicts, word);
    free(copy);
    e->by_static = words == 3 && strcmp(word, "static") == 0;
    return words >= 2;
}

int sl_expectations_in_source(const char *text, sl_expectation *ex, int max)
{
    static const char MARK[] = "// EXPECT ";
    int n = 0;
    for (const char *s = strstr(text, MARK); s && n < max; s = strstr(s + 1, MARK))
        n += sl_expectation_parse(s + sizeof MARK - 1, &ex[n]);
    return n;
}

int sl_verdict_set(const char *verdicts, unsigned *set)
{
    *set = 0;
    for (const char *s = verdicts; *s;) {
        size_t len = strcspn(s, "|");
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)len, s);
        int v = sl_verdict_parse(name);
        if (v < 0)
            return -1;
        *set |= 1u << v;
        s += len + (s[len] == '|');
    }
    return 0;
}
