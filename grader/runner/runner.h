/* The runner: a small CUDA program built from the student's file, one
 * lesson's harness.cu and runner_main.cu. It reads case files, launches the
 * student's code and writes the outputs; it never judges them. */
#ifndef SYNCLAB_RUNNER_H
#define SYNCLAB_RUNNER_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include "case.h"

/* Runs one case: read in->param / in->array, launch, append outputs to out
 * with sl_case_add. CUDA failures go through SL_CHECK, which exits. */
typedef void (*sl_run_fn)(const sl_case *in, sl_case *out);

/* Performance measurement on device-generated data of 2^log2n elements,
 * in the same process as the reference (CUB) so both see the same GPU. */
typedef struct {
    double student_ms, reference_ms; /* best of several timed runs */
    double bytes;                    /* bytes moved per run */
    int correct;                     /* student result == reference */
    char reference[48];              /* "cub::DeviceReduce::Sum" */
} sl_bench;
typedef void (*sl_bench_fn)(int log2n, uint64_t seed, sl_bench *b);

typedef struct {
    const char *name;
    sl_run_fn run;
    sl_bench_fn bench; /* NULL when the exercise has none */
} sl_runner_exercise;

/* Each lesson's harness.cu defines this table, ended by {NULL, NULL, NULL}. */
extern const sl_runner_exercise sl_runner_exercises[];
/* A runner of a whole submission (build.h: sl_build_lessons_runner) links
 * each lesson's harness with its table named sl_runner_exercises_<lesson>
 * and this list of them, made by CMake (runner_lessons.cu; a lesson not
 * linked has a NULL table): its exercises are named "<lesson>/<exercise>".
 * Weak: a runner of one lesson has no list. */
typedef struct {
    const char *lesson;
    const sl_runner_exercise *table;
} sl_runner_lesson;
extern const sl_runner_lesson sl_runner_lessons[] __attribute__((weak));

#define SL_CHECK(call) sl_check_cuda((call), #call, __FILE__, __LINE__)
/* On error prints "CUDA error: <name>: <text> (<what>)" and exits with
 * SL_EXIT_CUDA: the grader turns it into LAUNCH, or MEMORY for bad addresses. */
void sl_check_cuda(cudaError_t e, const char *what, const char *file, int line);
/* After a launch: launch error, then completion error. */
void sl_launched(const char *what);

/* Device copies of case arrays. Outputs start filled with 0xFF bytes so an
 * element the kernel never wrote cannot look right by accident. Every
 * buffer a harness hands student code comes from these two, written
 * first: the grader skips initcheck where the student allocates nothing
 * (the initcheck lever, levers.h). An array
 * uploaded by sl_to_device is zeroed and freed on the host (data = NULL):
 * student code finds no copy of the input in the runner's memory. In a
 * plain run with the alloc lever, what sl_free gives back is handed out
 * again (its slack past the asked size zeroed); under a tool every buffer
 * is an exact cudaMalloc. */
void *sl_to_device(const sl_array *a);
void *sl_device_alloc(size_t bytes, int fill_byte);
/* Appends a host array of count elements copied from dev to out. */
void *sl_download(sl_case *out, int type, uint64_t count, const void *dev);
/* The harness's own read of a device result (a bench's check), which the
 * driver watch lets through; student code has no such door. */
void sl_read_back(void *host, const void *dev, size_t bytes);
void sl_free(void *dev);

/* Fills the shared memory of every SM with 0xFF bytes, so a kernel that
 * reads shared memory it never wrote sees garbage rather than a lucky zero
 * left by an earlier launch (a __shared__ flag set but never cleared).
 * Exposes bugs; hides none. Every harness calls it before each launch of,
 * or call into, the student's code; the contracts say shared memory starts
 * as garbage. Does nothing under
 * a compute-sanitizer tool (SYNCLAB_RUN_MODE=tools, read before any student
 * code runs): the tools judge accesses, and under racecheck this kernel
 * cost more than the student's. */
void sl_dirty_shared(void);

/* Timing with CUDA events around fn(arg): best of reps, in ms. */
double sl_time_best(void (*fn)(void *), void *arg, int reps);
/* Device-to-device copy of bytes: the bandwidth ceiling, in ms. */
double sl_copy_ms(size_t bytes);

#endif
