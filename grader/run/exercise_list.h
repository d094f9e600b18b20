/* A lesson's exercises, declared once. The grader's side of a lesson
 * (suite.c, C11) and the runner's side (harness.cu, CUDA C++17) meet only
 * through exercise names at run time, so each lesson lists its exercises
 * in lessons/<lesson>/exercises.h, which both include:
 *
 *   #define SL_LESSON_EXERCISES(X) \
 *       X(tree_reduce, NO_BENCH)   \
 *       X(sum_int, BENCH)
 *   SL_DECLARE_EXERCISES(SL_LESSON_EXERCISES)
 *
 * BENCH: the runner has bench_<name> (syncgrade grade --bench).
 *
 * harness.cu ends with SL_RUNNER_TABLE(SL_LESSON_EXERCISES): the runner's
 * table, made from the list, needs run_<name> (and bench_<name>) for every
 * exercise. suite.c names each exercise with SL_NAME(name), which does not
 * compile for a name the list lacks, checks its count with
 * SL_SUITE_COVERS(exercises), and hands the list to the grader through
 * sl_lesson.declared (SL_DECLARED), where `syncgrade lint` compares it
 * with the suite (a name twice, the order, the bench flags).
 * Plain C preprocessor and enums: this header compiles as C11 and C++17. */
#ifndef SYNCLAB_EXERCISE_LIST_H
#define SYNCLAB_EXERCISE_LIST_H

#include <assert.h> /* static_assert: C11 macro, C++ keyword */
#include <stddef.h>

#include "case.h" /* SL_P_*: the param slots an exercises.h names */

/* One entry of a lesson's list, as the grader sees it. */
typedef struct {
    const char *name;
    int bench; /* 1: the runner has a bench for it */
} sl_declared;

#define SL_HAS_BENCH 1
#define SL_HAS_NO_BENCH 0

/* SL_EX_<name>: the exercise's position in the list; SL_EXERCISE_COUNT;
 * SL_BENCH_OF_<name>: 1 when it has a bench. */
#define SL_EX_INDEX_(name, bench) SL_EX_##name,
#define SL_EX_BENCH_(name, bench) SL_BENCH_OF_##name = SL_HAS_##bench,
#define SL_DECLARE_EXERCISES(LIST)                                                                 \
    enum { LIST(SL_EX_INDEX_) SL_EXERCISE_COUNT };                                                 \
    enum { LIST(SL_EX_BENCH_) SL_EX_BENCH_END_ };

/* "name" for an exercise of the list; any other name is an undeclared
 * identifier. (Adding 0 times the index keeps it an address constant, so it
 * fits a static initializer in C.) */
#define SL_NAME(name) (#name + 0 * SL_EX_##name)
/* .bench of an exercise, from the list. */
#define SL_BENCH_OF(name) SL_BENCH_OF_##name

/* suite.c: its table has exactly as many exercises as the list. */
#define SL_SUITE_COVERS(table)                                                                     \
    static_assert(sizeof(table) / sizeof((table)[0]) == SL_EXERCISE_COUNT,                         \
                  "suite.c defines another number of exercises than exercises.h lists")

/* suite.c: the list for sl_lesson.declared, ended by {NULL, 0}. */
#define SL_DECLARED_ENTRY_(name, bench) {#name, SL_HAS_##bench},
#define SL_DECLARED(LIST)                                                                          \
    {                                                                                              \
        LIST(SL_DECLARED_ENTRY_) { NULL, 0 }                                                       \
    }

/* harness.cu: sl_runner_exercises (runner.h) made from the list. */
#define SL_BENCH_FN_BENCH(name) bench_##name
#define SL_BENCH_FN_NO_BENCH(name) NULL
#define SL_RUNNER_ENTRY_(name, bench) {#name, run_##name, SL_BENCH_FN_##bench(name)},
#define SL_RUNNER_TABLE(LIST)                                                                      \
    const sl_runner_exercise sl_runner_exercises[] = {LIST(SL_RUNNER_ENTRY_){NULL, NULL, NULL}};

#endif
