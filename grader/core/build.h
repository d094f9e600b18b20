/* Building a submission's file for one lesson into a runner and its PTX,
 * with nvcc, outside any CMake project: students' folders are built the
 * same way whoever hands them in. */
#ifndef SYNCLAB_BUILD_H
#define SYNCLAB_BUILD_H

typedef struct {
    const char *nvcc;          /* compiler */
    const char *arch;          /* "90" */
    const char *source_dir;    /* the project (lessons/, grader/) */
    const char *harness_lib;   /* libsynclab_harness_<lesson>.a */
    double timeout_s;          /* per compiler call */
} sl_build_config;

typedef struct {
    int ok;
    int cached;                /* up to date: nothing was rebuilt */
    char runner[4096];
    char ptx[4096];
    char *log;                 /* compiler output (malloc'd, may be "") */
} sl_build;

/* Builds source (a student's lesson file) in out_dir. */
void sl_build_lesson(const sl_build_config *cfg, const char *lesson, const char *source,
                     const char *out_dir, sl_build *b);
void sl_build_free(sl_build *b);

#endif
