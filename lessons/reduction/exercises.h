/* Lesson 3, reduction: the exercises, declared once for suite.c (C11)
 * and harness.cu (CUDA C++17); see grader/run/exercise_list.h. */
#ifndef SYNCLAB_LESSON_EXERCISES_H
#define SYNCLAB_LESSON_EXERCISES_H

#include "exercise_list.h"

#define SL_LESSON_EXERCISES(X)                                                                     \
    X(tree_reduce, NO_BENCH)                                                                       \
    X(mirrored_reduce, NO_BENCH)                                                                   \
    X(sum_int, BENCH)                                                                              \
    X(sum_float, NO_BENCH)
SL_DECLARE_EXERCISES(SL_LESSON_EXERCISES)

/* The param slots of an input (sl_case.param).
 * tree_reduce, mirrored_reduce: SL_P_N elements, SL_P_BLOCK threads (a
 *   power of two); array 0 = in (I32, N).
 * sum_int, sum_float: SL_P_N elements summed; array 0 = in (I32 or F32,
 *   offset + N elements: the sum starts at in + offset). */
enum {
    SUM_P_OFFSET = SL_P_A, /* sum_int, sum_float: elements skipped before the summed range */
};

#endif
