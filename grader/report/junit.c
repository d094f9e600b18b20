#include "junit.h"

#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "utf8.h"

enum { MAX_TEXT = 64 << 10 };

/* libxml2 escapes markup; what it cannot write (control characters, bytes
 * that are not UTF-8) is cleaned out first. */
static sl_text clean(const char *s)
{
    sl_text t = {0};
    sl_utf8_clean(&t, s ? s : "", MAX_TEXT, 1);
    sl_text_append(&t, "", 0);
    return t;
}

static void attr(xmlTextWriterPtr w, const char *key, const char *value)
{
    sl_text t = clean(value);
    xmlTextWriterWriteAttribute(w, BAD_CAST key, BAD_CAST sl_text_str(&t));
    sl_text_free(&t);
}

static void attrf(xmlTextWriterPtr w, const char *key, const char *fmt, double value)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, value);
    xmlTextWriterWriteAttribute(w, BAD_CAST key, BAD_CAST buf);
}

static void text(xmlTextWriterPtr w, const char *s)
{
    sl_text t = clean(s);
    xmlTextWriterWriteString(w, BAD_CAST sl_text_str(&t));
    sl_text_free(&t);
}

void sl_xml_escape(sl_text *out, const char *s, int attribute)
{
    /* through the same writer: an element's text or an attribute's value */
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (!w) {
        xmlBufferFree(buf);
        return;
    }
    xmlTextWriterStartElement(w, BAD_CAST "x");
    if (attribute)
        attr(w, "v", s);
    else
        text(w, s);
    xmlTextWriterEndElement(w);
    xmlFreeTextWriter(w);
    const char *x = (const char *)xmlBufferContent(buf);
    const char *start = attribute ? strchr(x, '"') + 1 : strchr(x, '>') + 1;
    const char *end = attribute ? strrchr(x, '"') : strrchr(x, '<');
    sl_text_append(out, start, end > start ? (size_t)(end - start) : 0);
    xmlBufferFree(buf);
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

static void counts(xmlTextWriterPtr w, const tally *t)
{
    attrf(w, "tests", "%.0f", t->tests);
    attrf(w, "failures", "%.0f", t->failures);
    attrf(w, "errors", "%.0f", t->errors);
    attrf(w, "skipped", "%.0f", t->skipped);
    attrf(w, "time", "%.3f", t->seconds);
}

static void testcase(xmlTextWriterPtr w, const char *name, const sl_outcome *o)
{
    char classname[256], message[768], points[96];
    snprintf(classname, sizeof classname, "%s.%s", name, o->lesson);
    xmlTextWriterStartElement(w, BAD_CAST "testcase");
    attr(w, "classname", classname);
    attr(w, "name", o->exercise);
    attrf(w, "time", "%.3f", o->seconds);
    if (o->verdict != SL_V_PASS) {
        const char *tag = o->verdict == SL_V_SKIP    ? "skipped"
                          : o->verdict == SL_V_ERROR ? "error"
                                                     : "failure";
        snprintf(message, sizeof message, "%s%s%s", sl_verdict_name(o->verdict),
                 o->where[0] ? " at " : "", o->where);
        sl_text body = {0};
        sl_report_explain(&body, o);
        xmlTextWriterStartElement(w, BAD_CAST tag);
        attr(w, "message", message);
        attr(w, "type", sl_verdict_name(o->verdict));
        text(w, sl_text_str(&body));
        xmlTextWriterEndElement(w);
        sl_text_free(&body);
    }
    snprintf(points, sizeof points, "points: %g / %g", o->points, o->max_points);
    xmlTextWriterWriteElement(w, BAD_CAST "system-out", BAD_CAST points);
    xmlTextWriterEndElement(w);
}

/* The whole document into buf; 0 ok. */
static int render(xmlBufferPtr buf, const char *name, const sl_outcome *o, int n, double seconds)
{
    xmlTextWriterPtr w = xmlNewTextWriterMemory(buf, 0);
    if (!w)
        return -1;
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, BAD_CAST "  ");
    tally all = {0};
    for (int i = 0; i < n; i++)
        count(&all, &o[i]);
    all.seconds = seconds;
    xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL);
    xmlTextWriterStartElement(w, BAD_CAST "testsuites");
    attr(w, "name", name);
    counts(w, &all);
    /* outcomes come lesson by lesson: one testsuite per run of a lesson */
    for (int i = 0; i < n;) {
        int end = i;
        tally t = {0};
        while (end < n && strcmp(o[end].lesson, o[i].lesson) == 0)
            count(&t, &o[end++]);
        xmlTextWriterStartElement(w, BAD_CAST "testsuite");
        attr(w, "name", o[i].lesson);
        counts(w, &t);
        for (; i < end; i++)
            testcase(w, name, &o[i]);
        xmlTextWriterEndElement(w);
    }
    int rc = xmlTextWriterEndDocument(w) < 0 ? -1 : 0;
    xmlFreeTextWriter(w);
    return rc;
}

void sl_junit_render(sl_text *out, const char *name, const sl_outcome *o, int n, double seconds)
{
    xmlBufferPtr buf = xmlBufferCreate();
    if (buf && render(buf, name, o, n, seconds) == 0)
        sl_text_printf(out, "%s", (const char *)xmlBufferContent(buf));
    xmlBufferFree(buf);
}

int sl_junit_write(const char *path, const char *name, const sl_outcome *o, int n, double seconds)
{
    xmlBufferPtr buf = xmlBufferCreate();
    int rc = buf ? render(buf, name, o, n, seconds) : -1;
    FILE *f = rc == 0 ? fopen(path, "w") : NULL;
    if (f) {
        rc = fputs((const char *)xmlBufferContent(buf), f) < 0 ? -1 : 0;
        rc |= fclose(f) != 0 ? -1 : 0;
    } else {
        rc = -1;
    }
    xmlBufferFree(buf);
    return rc;
}
