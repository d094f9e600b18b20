/* JUnit XML, as CI dashboards (Jenkins, GitLab, GitHub test reporters)
 * read it: one <testsuite> per lesson, one <testcase> per exercise.
 * PASS is a plain testcase, SKIP <skipped/>, ERROR (the grader's fault)
 * <error>, every other verdict <failure type="VERDICT">. */
#ifndef SYNCLAB_JUNIT_H
#define SYNCLAB_JUNIT_H

#include "outcome.h"
#include "text.h"

/* Escapes & < > " ' as entities, drops control characters other than
 * \t \n \r (XML 1.0 cannot carry them) and replaces invalid UTF-8. In an
 * attribute, \t \n \r become character references so they survive. */
void sl_xml_escape(sl_text *out, const char *s, int attribute);
/* The document for a submission named name (a student, a folder). */
void sl_junit_render(sl_text *out, const char *name, const sl_outcome *o, int count,
                     double seconds);
int sl_junit_write(const char *path, const char *name, const sl_outcome *o, int count,
                   double seconds);

#endif
