/* The grader's own unit tests: one Check suite per module. */
#ifndef SYNCLAB_UNIT_H
#define SYNCLAB_UNIT_H
#include <check.h>
Suite *caseio_suite(void);
Suite *exercise_suite(void);
Suite *outcome_suite(void);
Suite *proc_suite(void);
Suite *ptx_suite(void);
Suite *sanitizer_suite(void);
#endif
