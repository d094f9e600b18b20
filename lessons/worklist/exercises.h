/* Lesson 5, worklist insertion: the exercises, declared once for suite.c (C11)
 * and harness.cu (CUDA C++17); see grader/run/exercise_list.h. */
#ifndef SYNCLAB_LESSON_EXERCISES_H
#define SYNCLAB_LESSON_EXERCISES_H

#include "exercise_list.h"

#define SL_LESSON_EXERCISES(X)                                                                     \
    X(worklist_insert, NO_BENCH)                                                                   \
    X(compact, BENCH)
SL_DECLARE_EXERCISES(SL_LESSON_EXERCISES)

/* The param slots of an input (sl_case.param). Both exercises: SL_P_N
 * items, SL_P_BLOCK threads per block (the launchers pick the grid).
 * worklist_insert: array 0 = nelem (I32, N). compact: array 0 = in (I32, N).
 * Besides: */
enum {
    COMPACT_P_THRESHOLD = SL_P_A, /* compact: keeps in[i] when compact_keep(in[i], threshold) */
};

#endif
