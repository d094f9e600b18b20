/* Budgets of one student's grading, shared by every process of it (its
 * lessons, their judges, their runs): counters in an anonymous shared
 * mapping made before those processes fork.
 *  - exclusive reruns: a launch failure, an out-of-memory or a time limit
 *    is judged only after a rerun with the GPU to itself (gpu_turn.h), and
 *    every other grader waits meanwhile. At most SYNCLAB_ALONE_RERUNS (4)
 *    per student; past that the failure stands without a rerun.
 *  - GPU time: the wall time of every run of student code, at most
 *    SYNCLAB_STUDENT_GPU_S (1800 s) per student; past it an exercise not
 *    yet run is TIMEOUT without running.
 * The time of one exercise is budgeted by the judge (grade.c). */
#ifndef SYNCLAB_BUDGET_H
#define SYNCLAB_BUDGET_H

/* Fresh counters for a student, in this process and the ones it forks
 * from now on. Without it, the first use makes them for this process. */
void sl_budget_begin(void);
/* Takes one exclusive rerun: 1 when the student had one left, else 0. */
int sl_budget_take_alone(void);
/* The exclusive reruns a student may have. */
int sl_budget_alone_max(void);
/* Counts seconds of a run of student code. */
void sl_budget_spend(double seconds);
/* Seconds of GPU time the student has left (<= 0: none), and the budget. */
double sl_budget_gpu_left(void);
double sl_budget_gpu_max(void);

#endif
