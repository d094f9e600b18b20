/* Lesson 2, fences: the exercises, declared once for suite.c (C11)
 * and harness.cu (CUDA C++17); see grader/run/exercise_list.h. */
#ifndef SYNCLAB_LESSON_EXERCISES_H
#define SYNCLAB_LESSON_EXERCISES_H

#include "exercise_list.h"

#define SL_LESSON_EXERCISES(X)                                                                     \
    X(message_pass, NO_BENCH)                                                                      \
    X(single_pass_sum, NO_BENCH)
SL_DECLARE_EXERCISES(SL_LESSON_EXERCISES)

/* The param slots of an input (sl_case.param).
 * message_pass: SL_P_N = pairs * words, SL_P_BLOCK threads per block;
 *   array 0 = in (pairs * words ints). The runner launches 2 * pairs
 *   blocks, fewer when they do not all fit on the GPU at once, and says how
 *   many pairs ran.
 * single_pass_sum: SL_P_N elements, SL_P_BLOCK, SL_P_GRID (0: the runner
 *   picks min(ceil(N / BLOCK), 4096)); arrays 0 and 1 = the inputs of the
 *   first and the second launch. */
enum {
    MESSAGE_PASS_P_PAIRS = SL_P_A, /* message_pass: producer/consumer pairs asked for */
    MESSAGE_PASS_P_WORDS = SL_P_B, /* message_pass: payload words per pair */
};

#endif
