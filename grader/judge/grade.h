/* Judging one exercise of one submission: the pipeline of
 * docs/adding-a-lesson.md ("How an exercise is judged"). Runs in a process
 * that never calls CUDA and never runs student code itself. */
#ifndef SYNCLAB_GRADE_H
#define SYNCLAB_GRADE_H

#include <stdint.h>
#include "exercise.h"
#include "gpu_arch.h"
#include "outcome.h"
#include "runner_call.h"
#include "slots.h"

/* An exercise's static verdict (build, TODO, PTX rules), decided before
 * any student code ran: a runner cannot change what it was decided from. */
typedef struct {
    int decided; /* 1: this is the verdict; 0: it goes on to run */
    int verdict; /* sl_verdict */
    char *detail;
    char where[512];
    unsigned tools_off; /* SL_TOOL_* that cannot judge this code (see below) */
} sl_static_verdict;

/* What the lesson sweep (sweep.h) ran clean for one exercise: SL_TOOL_*
 * bits and these two, and how many full inputs it compared. */
enum { SL_SWEPT_SMALL = 16, SL_SWEPT_FULL = 32 };
/* tools_off bits of their own, which need no note in the verdict (unlike
 * SL_TOOL_RACECHECK in tools_off): with the racecheck lever (levers.h), no
 * code of the file can touch shared memory (ptx_shared.h), so racecheck,
 * which looks at nothing else, is not run; with the initcheck lever, the
 * file allocates no device memory (hostobj.h, and no device-side malloc in
 * its PTX), so the global memory its kernels see is all initialised and
 * initcheck, which watches global memory only, is not run. */
enum { SL_TOOLS_NO_SHARED = 64, SL_TOOLS_NO_UNINIT = 128 };
/* The tools an exercise runs, from its own list and its tools_off bits. */
unsigned sl_grade_tools(const sl_exercise *e, unsigned tools_off);
typedef struct {
    unsigned checks;
    int full_cases;
    /* The sweep's plain run made no progress in this exercise's small
     * inputs (sweep.c): the exercise runs them again with the GPU to
     * itself at once, the run that decides a TIMEOUT, instead of a second
     * shared run that would wait out the full idle limit again. */
    int hung;
    int hung_full; /* the same, in its full inputs: its first full run is alone */
    /* hung: synccheck on its small inputs, started as the stall was seen
     * (sl_grade_diagnose_start). early = 1: it ran, so the exercise's hang
     * needs no diagnosis of its own; early_detail (else NULL): the barrier
     * error it named, with early_where: SYNC without a run alone. */
    int early;
    char *early_detail;
    char early_where[512];
} sl_swept;

typedef struct {
    const char *runner;    /* the built runner, NULL when the build failed */
    const char *ptx;       /* the student's PTX */
    const char *object;    /* its host code's object (hostobj.h); NULL: unknown */
    const char *source;    /* the student's .cu (locations, report) */
    const char *build_log; /* compiler output (BUILD detail) */
    int build_no_disk;     /* the build failed on a full disk (sl_build.no_disk): ERROR */
    int build_no_memory;   /* ...or out of the machine's memory (sl_build.no_memory) */
    const char *workdir;   /* scratch for case files and logs */
    const char *sanitizer; /* compute-sanitizer path; NULL: skip those checks */
    uint64_t seed;
    int bench;            /* also run the exercise's bench */
    int bench_log2n;      /* default 28 */
    double timeout_scale; /* multiplies every time limit; 0 means 1 */
    /* Per exercise of the lesson (indexed like lesson->exercises): the
     * checks the lesson sweep found clean, which the exercise then skips
     * (sweep.h). NULL: no sweep, every exercise runs every check. */
    const sl_swept *swept;
    double sweep_seconds; /* the sweep's wall time: part of each swept exercise's */
    /* The stagger lever (class.c): a sweep holds one of these places from
     * its first runner to its last, not while it writes inputs or checks
     * outputs. NULL: no places (the judges' own runs never take one). */
    const sl_slots *gpu_places;
    /* Per exercise: sl_grade_statics, before the first run. NULL: each
     * exercise decides its static stages itself. */
    const sl_static_verdict *statics;
    /* Stop after the static stages: an exercise they let through is SKIP
     * ("static stages only"), and no runner starts (syncgrade expect
     * --static, for the held-out static cases). */
    int static_only;
    /* The runner's archs (the student's object, built for target->arch,
     * and the harness's) and the GPU's: a runner that fails to load its
     * code is the grader's ERROR when these facts say so (gpu_arch.h).
     * NULL: not known. */
    const sl_gpu_target *target;
    const char *harness_archs;
    const char *cuda_version; /* the toolkit that built the runner, "13.0" */
    /* Set before any run when the runner cannot run on this GPU at all:
     * every exercise that would run is ERROR with this line. */
    const char *arch_error;
} sl_grade_ctx;

/* Whether the file's kernels can read global memory nothing initialised
 * (what initcheck looks for): only memory the student allocates can be,
 * on the host (hostobj.h, ctx->object) or on the device (the PTX's text);
 * unknown counts as yes. The initcheck lever asks it. */
int sl_grade_may_read_uninitialized(const sl_grade_ctx *ctx, const char *ptx);

/* A hang's diagnosis, started while the lesson sweep goes on: the
 * synccheck run that diagnose() would make after the run alone, made
 * beside the sweep's other runs in its GPU turn instead. Eight hangs graded
 * at once on an H100 waited for every turn alone before their diagnoses
 * (7.3 s more on each lesson, 63 s). NULL when it could not start. */
typedef struct sl_early_diag sl_early_diag;
sl_early_diag *sl_grade_diagnose_start(const sl_lesson *l, const sl_exercise *e,
                                       const sl_grade_ctx *ctx);
/* Waits for it, records what it named in its exercise's entry of swept
 * (the lesson's array), frees d. */
void sl_grade_diagnose_finish(const sl_grade_ctx *ctx, sl_early_diag *d, sl_swept *swept);
/* Frees what the sweep kept (early_detail) of count exercises. */
void sl_grade_swept_free(sl_swept *sw, int count);

/* Limits shared by an exercise's own runs and the lesson sweep's (sweep.h);
 * the log's are runner_call.h's. */
enum {
    SL_SANITIZER_TIMEOUT = 180, /* seconds, one sanitizer process: the most it gets */
    /* A tool's limit from the plain run of the same inputs: this many times
     * its wall time, never less than SL_TOOL_MIN_TIMEOUT (a tool's own start
     * takes seconds) nor more than SL_SANITIZER_TIMEOUT. */
    SL_TOOL_SLOWDOWN = 40,
    SL_TOOL_MIN_TIMEOUT = 60,
    SL_PLAIN_CAP_FACTOR = 20, /* a plain run's overall cap, in idle limits */
};
/* seconds, times the context's timeout scale */
double sl_grade_limit(const sl_grade_ctx *ctx, double seconds);

/* Judges e into o (sl_outcome_init'ed here; sl_outcome_free it after). */
void sl_grade_exercise(const sl_lesson *l, const sl_exercise *e, const sl_grade_ctx *ctx,
                       sl_outcome *o);

/* The inputs an exercise gets from a grading seed: the same ones the grader
 * runs, so a failure can be replayed by hand (syncgrade inputs). full may be
 * NULL: the small ones are the same either way. */
void sl_grade_inputs(const sl_lesson *l, const sl_exercise *e, uint64_t seed, sl_inputs *small,
                     sl_inputs *full);
/* 1 when the static stages (build, TODO, PTX rules, divergent barriers)
 * decide the verdict, which they then put in o; 0 when the exercise goes on
 * to run on the GPU (o untouched). *tools_off gets the SL_TOOL_* bits that
 * cannot judge this code either way. */
int sl_grade_static(const sl_lesson *l, const sl_exercise *e, const sl_grade_ctx *ctx,
                    sl_outcome *o, unsigned *tools_off);
/* The static stages of every exercise of l, into out[0..l->count-1]. */
void sl_grade_statics(const sl_lesson *l, const sl_grade_ctx *ctx, sl_static_verdict *out);
void sl_grade_statics_free(sl_static_verdict *s, int count);
/* The static stage of e: from ctx->statics when there, else sl_grade_static. */
int sl_grade_static_of(const sl_lesson *l, const sl_exercise *e, const sl_grade_ctx *ctx,
                       sl_outcome *o, unsigned *tools_off);
/* 1 when outdir holds right outputs for every input of in. */
int sl_grade_outputs_match(const sl_exercise *e, const sl_inputs *in, const char *outdir);
/* How long a plain run may go without starting a new input. */
double sl_grade_plain_idle_limit(const sl_grade_ctx *ctx, const sl_exercise *e);
/* Writes case0.in ... into dir (created). 0 ok. */
int sl_grade_write_inputs(const sl_inputs *in, const char *dir);
/* Does a memcheck diagnosis (its detail text and source line) pin a plain
 * run's launch failure (plain_detail holds the runner's CUDA error line) on
 * a bad access? Then that LAUNCH is MEMORY. An illegal instruction counts
 * only when the plain run died of one: "unspecified launch failure" is also
 * a trap's (grid.sync() without a cooperative launch), a launch error. */
int sl_grade_memcheck_names_access(const char *memcheck_detail, const char *where,
                                   const char *plain_detail);
/* Removes caseI.in and caseI.out, I < count, from dir. */
void sl_grade_remove_cases(const char *dir, int count);

#endif
