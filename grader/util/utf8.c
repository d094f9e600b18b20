#include "utf8.h"

#include <string.h>

/* Length of the well-formed UTF-8 sequence at s (1..4), or 0. Overlong
 * forms, surrogates and code points above U+10FFFF are not well-formed. */
static int sequence_length(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    int n = s[0] >= 0xC2 && s[0] <= 0xDF   ? 2
            : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
            : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                           : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if (n == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0)))
        return 0;
    if (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)))
        return 0;
    /* U+FFFE and U+FFFF are not characters in XML */
    if (n == 3 && s[0] == 0xEF && s[1] == 0xBF && (s[2] == 0xBE || s[2] == 0xBF))
        return 0;
    return n;
}

void sl_utf8_clean(sl_text *out, const char *s, size_t max, int drop_controls)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t done = 0;
    sl_text_append(out, "", 0);
    while (*p) {
        if (done >= max) {
            sl_text_printf(out, "\n[... cut]\n");
            return;
        }
        int n = sequence_length(p);
        if (n == 0) {
            sl_text_append(out, "\xEF\xBF\xBD", 3);
            p++;
            done++;
            continue;
        }
        int control = n == 1 && (*p < 0x20 || *p == 0x7F) && *p != '\t' && *p != '\n' && *p != '\r';
        if (!(control && drop_controls))
            sl_text_append(out, (const char *)p, (size_t)n);
        p += n;
        done += (size_t)n;
    }
}
