#include "junit.h"

#include <stdio.h>
#include <string.h>

#include "report.h"
#include "proc.h"
#include "utf8.h"

enum { MAX_TEXT = 64 << 10 };

void sl_xml_escape(sl_text *out, const char *s, int attribute)
{
    sl_text clean = {0};
    sl_utf8_clean(&clean, s, MAX_TEXT, 1);
    sl_text_append(out, "", 0);
    for (const char *p = sl_text_str(&clean); *p; p++) {
        switch (*p) {
        case '&': sl_text_printf(out, "&amp;"); break;
        case '<': sl_text_printf(out, "&lt;"); break;
        case '>': sl_text_printf(out, "&gt;"); break;
        case '"': sl_text_printf(out, "&quot;"); break;
        case '\'': sl_text_printf(out, "&apos;"); break;
        case '\n': sl_text_printf(out, attribute ? "&#10;" : "\n"); break;
        case '\r': sl_text_printf(out, "&#13;"); break;
        case '\t': sl_text_printf(out, attribute ? "&#9;" : "\t"); break;
        default: sl_text_append(out, p, 1);
        }
    }
    sl_text_free(&clean);
}

typedef struct {
    int tests, failures, errors, skipped;
    double seconds;
} tally;

static void count(tally *t, const sl_outcome *o)
{
    t->tests++;
    t->seconds += o->seconds;
    if (o->verdict == SL_V_SKIP)
        t->skipped++;
    else if (o->verdict == SL_V_ERROR)
        t->errors++;
    else if (o->verdict != SL_V_PASS)
        t->failures++;
}

static void attr(sl_text *out, const char *key, const char *value)
{
    sl_text_printf(out, " %s=\"", key);
    sl_xml_escape(out, value, 1);
    sl_text_printf(out, "\"");
}

static void counts(sl_text *out, const tally *t)
{
    sl_text_printf(out, " tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\"",
                   t->tests, t->failures, t->errors, t->skipped, t->seconds);
}

static void testcase(sl_text *out, const char *name, const sl_outcome *o)
{
    char classname[256];
    snprintf(classname, sizeof classname, "%s.%s", name, o->lesson);
    sl_text_printf(out, "    <testcase");
    attr(out, "classname", classname);
    attr(out, "name", o->exercise);
    sl_text_printf(out, " time=\"%.3f\">\n", o->seconds);
    if (o->verdict != SL_V_PASS) {
        const char *tag = o->verdict == SL_V_SKIP ? "skipped" : o->verdict == SL_V_ERROR ? "error"
                                                                                      : "failure";
        char message[768];
        snprintf(message, sizeof message, "%s%s%s", sl_verdict_name(o->verdict),
                 o->where[0] ? " at " : "", o->where);
        sl_text body = {0};
        sl_report_explain(&body, o);
        sl_text_printf(out, "      <%s", tag);
        attr(out, "message", message);
        attr(out, "type", sl_verdict_name(o->verdict));
        sl_text_printf(out, ">");
        sl_xml_escape(out, sl_text_str(&body), 0);
        sl_text_printf(out, "</%s>\n", tag);
        sl_text_free(&body);
    }
    sl_text_printf(out, "      <system-out>points: %g / %g</system-out>\n", o->points,
                   o->max_points);
    sl_text_printf(out, "    </testcase>\n");
}

void sl_junit_render(sl_text *out, const char *name, const sl_outcome *o, int n, double seconds)
{
    tally all = {0};
    for (int i = 0; i < n; i++)
        count(&all, &o[i]);
    all.seconds = seconds;
    sl_text_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
    attr(out, "name", name);
    counts(out, &all);
    sl_text_printf(out, ">\n");
    /* outcomes come lesson by lesson: one testsuite per run of a lesson */
    for (int i = 0; i < n;) {
        int end = i;
        tally t = {0};
        while (end < n && strcmp(o[end].lesson, o[i].lesson) == 0)
            count(&t, &o[end++]);
        sl_text_printf(out, "  <testsuite");
        attr(out, "name", o[i].lesson);
        counts(out, &t);
        sl_text_printf(out, ">\n");
        for (; i < end; i++)
            testcase(out, name, &o[i]);
        sl_text_printf(out, "  </testsuite>\n");
    }
    sl_text_printf(out, "</testsuites>\n");
}

int sl_junit_write(const char *path, const char *name, const sl_outcome *o, int n, double seconds)
{
    sl_text xml = {0};
    sl_junit_render(&xml, name, o, n, seconds);
    int rc = sl_write_file(path, sl_text_str(&xml));
    sl_text_free(&xml);
    return rc;
}
