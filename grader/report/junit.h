/* JUnit XML, as CI dashboards (Jenkins, GitLab, GitHub test reporters)
 * read it: one <testsuite> per lesson, one <testcase> per exercise.
 * PASS is a plain testcase, SKIP <skipped/>, ERROR (the grader's fault)
 * <error>, every other verdict <failure type="VERDICT">. */
#ifndef SYNCLAB_JUNIT_H
#define SYNCLAB_JUNIT_H

#include "outcome.h"
#include "text.h"

/* XML is written with libxml2's xmlTextWriter, which escapes markup; text
 * is first cleaned of what XML 1.0 cannot carry (control characters other
 * than \t \n \r, invalid UTF-8: utf8.h). sl_xml_escape: that escaping of
 * one string, as element text or (attribute) as an attribute value. */
void sl_xml_escape(sl_text *out, const char *s, int attribute);
/* The document for a submission named name (a student, a folder). */
void sl_junit_render(sl_text *out, const char *name, const sl_outcome *o, int count,
                     double seconds);
int sl_junit_write(const char *path, const char *name, const sl_outcome *o, int count,
                   double seconds);

#endif
