/* Lesson 6, cooperative groups: the exercises, declared once for suite.c (C11)
 * and harness.cu (CUDA C++17); see grader/run/exercise_list.h. */
#ifndef SYNCLAB_LESSON_EXERCISES_H
#define SYNCLAB_LESSON_EXERCISES_H

#include "exercise_list.h"

#define SL_LESSON_EXERCISES(X)                                                                     \
    X(tile_reduce, NO_BENCH)                                                                       \
    X(half_block, NO_BENCH)                                                                        \
    X(agg_filter, NO_BENCH)                                                                        \
    X(grid_two_phase, NO_BENCH)
SL_DECLARE_EXERCISES(SL_LESSON_EXERCISES)

/* The param slots of an input (sl_case.param). Every exercise: SL_P_N
 * elements, SL_P_BLOCK threads per block, SL_P_GRID blocks (0: ceil(N /
 * BLOCK); grid_two_phase: 0 = the student's launcher picks, > 0 = the
 * harness launches that many blocks itself); array 0 = in (I32, N). Besides: */
enum {
    TILE_REDUCE_P_TILE = SL_P_A, /* tile_reduce: threads per tile (4, 8, 16 or 32: coop.h) */
};

#endif
