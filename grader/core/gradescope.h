/* Gradescope's autograder results (results.json): the total, and one test
 * per exercise with its score, status, output and visibility. Written with
 * cJSON from text cleaned to valid UTF-8: compiler errors and students'
 * output carry quotes, control characters and stray bytes. */
#ifndef SYNCLAB_GRADESCOPE_H
#define SYNCLAB_GRADESCOPE_H

#include "report.h"

/* Gradescope's visibility values: hidden, after_due_date, after_published,
 * visible. */
int sl_gradescope_visibility_ok(const char *v);
/* cJSON object (caller owns it); visibility NULL means "visible". */
void *sl_gradescope_json(const sl_report *r, const char *visibility);
char *sl_gradescope_text(const sl_report *r, const char *visibility);
int sl_gradescope_write(const char *path, const sl_report *r, const char *visibility);

#endif
