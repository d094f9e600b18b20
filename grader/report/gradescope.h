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
/* Atomically (proc.h): a file planted where it goes makes this fail. */
int sl_gradescope_write(const char *path, const sl_report *r, const char *visibility);
/* What Gradescope shows when the autograder has no GPU (some exercise is
 * SKIP: it passed the static checks, and nothing could run it):
 *   static  (default) the static checks' result: a SKIP exercise is a
 *           passed test worth 0 of 0 here, the others as always, and the
 *           top-level output says that nothing ran and why;
 *   error   the autograder's own failure (an image that should have had a
 *           GPU): score 0, the output says so, the tests as they are.
 * 0, or -1 for another name (NULL: static). */
int sl_gradescope_set_no_gpu(const char *mode);

/* A secret of the caller's (run_autograder), echoed in every file written
 * afterwards as extra_data.synclab_nonce: the file was written by this
 * grading, not planted by student code, which never sees the secret. */
void sl_gradescope_set_nonce(const char *nonce);
/* Takes the secret from SYNCLAB_RESULT_NONCE and removes it from the
 * environment, before any child process starts. */
void sl_gradescope_take_nonce(void);

#endif
