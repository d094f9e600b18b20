/* A submission's lessons graded together (the `together` lever, levers.h):
 * each is built and judged statically first, then one runner of all of
 * them (build.h: sl_build_lessons_runner) sweeps them in one set of
 * processes (sweep.h: sl_sweep_submission), and then each lesson's
 * exercises are judged as sl_lesson_run judges them. A lesson the
 * submission's sweep leaves undecided sweeps alone what is left (the
 * checks that sweep ran clean for it stand); one that cannot join the
 * runner (its file failed to build, its runner cannot run here, two
 * lessons' files share a name a harness calls) sweeps alone as before. */
#ifndef SYNCLAB_TOGETHER_H
#define SYNCLAB_TOGETHER_H

#include "lesson_run.h"
#include "slots.h"

typedef struct {
    /* >= 2: the lessons' files are first built up to that many at once,
     * each in a child process (sl_lesson_prebuild); else one by one as
     * they are prepared */
    int build_parallel;
    /* non-NULL: the GPU's places (the stagger lever: class.c), one held
     * by each sweep while its runners run (grade.h: gpu_places) */
    const sl_slots *gpu;
    /* non-NULL: the class's turns to build (the buildturns lever:
     * class.c), one held while this student's files build */
    const sl_slots *build_turns;
} sl_together_opts;

/* ls[0..n-1] with jobs[i] (channels open, sl_lesson_open_channels); the
 * runner of them all is built under dir (a folder of the grader's, which
 * runners do not see). Returns the number of lessons the submission's
 * sweep decided. */
int sl_lessons_run_together(const sl_lesson *const *ls, const sl_lesson_job *jobs, int n,
                            const char *dir, const sl_together_opts *o);

#endif
