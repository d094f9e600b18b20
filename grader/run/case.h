/* Case files: the only data that crosses between the grader (pure C, never
 * touches CUDA) and the runner (holds the student's kernels). One file holds
 * a few integer parameters and up to SL_MAX_ARRAYS typed arrays. The same
 * format carries inputs (grader -> runner) and outputs (runner -> grader). */
#ifndef SYNCLAB_CASE_H
#define SYNCLAB_CASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum sl_elem { SL_I32 = 1, SL_U32 = 2, SL_F32 = 3, SL_F64 = 4, SL_I64 = 5 };

enum { SL_MAX_PARAMS = 8, SL_MAX_ARRAYS = 8 };

/* Conventional parameter slots; lessons give meaning to the rest. */
enum {
    SL_P_N = 0,
    SL_P_BLOCK = 1,
    SL_P_GRID = 2,
    SL_P_A = 3,
    SL_P_B = 4,
    SL_P_C = 5,
    SL_P_D = 6,
    SL_P_E = 7
};

/* Runner exit codes, read by the grader. 77 is CTest's skip code. */
enum {
    SL_EXIT_OK = 0,
    SL_EXIT_USAGE = 2,
    SL_EXIT_INPUT = 3,
    SL_EXIT_CUDA = 4,
    SL_EXIT_NO_EXERCISE = 5,
    SL_EXIT_NO_GPU = 77
};

/* The runner's first line once it holds a CUDA context, before any
 * student code: the grader's time limits count from here, so that a tool's
 * slow start on a loaded machine is not taken for a hang. */
#define SL_RUNNER_READY "@@ready"

/* "SYNCLAB_PROTO_FDS=<proto> <program>": the grader's two descriptors for
 * a runner (proc.c). The harness reads and wipes it in a constructor,
 * before any student code runs, moves its stdout and stderr to <program>
 * (what the program prints, never read for a verdict) and writes every
 * protocol line (@@ready, @@case, @@launches, @@exercise, "CUDA error:")
 * to <proto> only, the grader's log (beside a tool's own report). A
 * student's printf of "@@case" or "CUDA error: ..." lands in <program>. */
#define SL_PROTO_FDS "SYNCLAB_PROTO_FDS"
enum { SL_PROTO_FD_MIN = 100, SL_PROTO_FD_MAX = 1000 };

typedef struct {
    int32_t type;   /* enum sl_elem */
    uint64_t count; /* elements */
    void *data;
} sl_array;

typedef struct {
    int64_t param[SL_MAX_PARAMS];
    int32_t narrays;
    sl_array array[SL_MAX_ARRAYS];
} sl_case;

size_t sl_elem_size(int type);
/* Appends a zero-filled array; returns its data, or NULL when full/out of memory. */
void *sl_case_add(sl_case *c, int type, uint64_t count);
void sl_case_free(sl_case *c);
/* 0 on success, -1 on failure (errno set). */
int sl_case_write(const char *path, const sl_case *c);
/* The same into a file opened before (the runner opens its outputs before
 * its system-call wall); closes f. */
int sl_case_write_file(FILE *f, const sl_case *c);
/* Reads a file written by sl_case_write, refusing anything malformed or larger
 * than max_bytes: the runner's output is untrusted. 0 ok, -1 with err filled. */
int sl_case_read(const char *path, sl_case *c, uint64_t max_bytes, char *err, size_t errlen);
/* The same from an open descriptor, from where it stands, with read(2)
 * only; *consumed gets the bytes read (the runner compares it with the
 * descriptor's offset: another reader moves the offset too). */
int sl_case_read_fd(int fd, sl_case *c, uint64_t max_bytes, uint64_t *consumed, char *err,
                    size_t errlen);
/* Opens a file the runner's side may have written (case files, logs)
 * without following a link or waiting on a FIFO: a regular file only, else
 * NULL with err filled. Never blocks. */
FILE *sl_case_open(const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
