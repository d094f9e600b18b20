/* Lesson 4, scan (prefix sum): the exercises, declared once for suite.c (C11)
 * and harness.cu (CUDA C++17); see grader/run/exercise_list.h. */
#ifndef SYNCLAB_LESSON_EXERCISES_H
#define SYNCLAB_LESSON_EXERCISES_H

#include "exercise_list.h"

#define SL_LESSON_EXERCISES(X)                                                                     \
    X(block_inclusive_scan, NO_BENCH)                                                              \
    X(block_exclusive_scan, NO_BENCH)                                                              \
    X(scan_any_n, BENCH)
SL_DECLARE_EXERCISES(SL_LESSON_EXERCISES)

/* The param slots of an input (sl_case.param). Every exercise: SL_P_N
 * elements, array 0 = in (I32, N). The block scans: SL_P_BLOCK threads per
 * block, SL_P_GRID blocks (0: ceil(N / BLOCK)). Besides: */
enum {
    SCAN_ANY_N_P_CALLS = SL_P_A, /* scan_any_n: scan_exclusive_int calls on one scratch */
};

#endif
