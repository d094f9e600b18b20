/* Lesson 1, barriers: the exercises, declared once for suite.c (C11)
 * and harness.cu (CUDA C++17); see grader/run/exercise_list.h. */
#ifndef SYNCLAB_LESSON_EXERCISES_H
#define SYNCLAB_LESSON_EXERCISES_H

#include "exercise_list.h"

#define SL_LESSON_EXERCISES(X)                                                                     \
    X(tile_reverse, NO_BENCH)                                                                      \
    X(halo_diff, NO_BENCH)                                                                         \
    X(block_vote, NO_BENCH)                                                                        \
    X(warp_step, NO_BENCH)
SL_DECLARE_EXERCISES(SL_LESSON_EXERCISES)

/* The param slots of an input (sl_case.param). Every exercise: SL_P_N
 * elements, SL_P_BLOCK threads per block, SL_P_GRID blocks (0: the
 * harness uses ceil(N / BLOCK)); array 0 = in (I32, N). Besides: */
enum {
    BLOCK_VOTE_P_THRESHOLD = SL_P_A, /* block_vote: p = in[i] > threshold */
};

#endif
