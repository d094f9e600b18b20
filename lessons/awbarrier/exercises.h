/* Lesson 7, the asynchronous barrier: the exercises, declared once for suite.c (C11)
 * and harness.cu (CUDA C++17); see grader/run/exercise_list.h. */
#ifndef SYNCLAB_LESSON_EXERCISES_H
#define SYNCLAB_LESSON_EXERCISES_H

#include "exercise_list.h"

#define SL_LESSON_EXERCISES(X)                                                                     \
    X(split_arrive_wait, NO_BENCH)                                                                 \
    X(normalize, NO_BENCH)                                                                         \
    X(tile_pipeline, NO_BENCH)
SL_DECLARE_EXERCISES(SL_LESSON_EXERCISES)

/* The param slots of an input (sl_case.param). Every exercise: SL_P_N
 * elements, SL_P_BLOCK threads per block, SL_P_GRID blocks (split_arrive_wait:
 * 0 = ceil(N / BLOCK); normalize: 0 = the student's launcher picks, > 0 = the
 * harness launches that many blocks itself; tile_pipeline: a grid stride over
 * the tiles). Besides: */
enum {
    SPLIT_ARRIVE_WAIT_P_ITERS = SL_P_A, /* split_arrive_wait: iterations */
};

#endif
