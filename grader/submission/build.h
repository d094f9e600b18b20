/* Building a submission's file for one lesson into a runner and its PTX,
 * with nvcc, outside any CMake project: students' folders are built the
 * same way whoever hands them in.
 *
 * For a submission, before anything is compiled, nvcc -M lists every file
 * the compile will read (host and device passes); a file outside the submission's folder
 * (symbolic links followed), other than the lesson's header, synclab.h and
 * the compiler's own system folders, makes it BUILD with a line naming the
 * file. The compile's own -MD list is checked again afterwards; a hard
 * link to one of the project's files is refused; the host assembly gcc
 * made (-save-temps) must pass sl_hostobj_check_assembly. A submission's
 * compiler steps run in the runners' sandbox (sandbox.h), which shows them
 * only the submission's folder, the lesson's header, grader/runner and
 * grader/run (the case format), and lets them write only the build folder. Every
 * compiler step runs under SL_BUILD_MEMORY_LIMIT_MIB of address space and
 * the time limit. nvcc runs its steps through sh and splits some arguments
 * at commas, so it never sees the submission's folder by its name (a
 * student's or an LMS's: "Smith, Eve", "x$(cmd)"): it compiles
 * <out_dir>/src/<file>, src a link of ours to that folder, and writes only
 * into folders that sl_build_folder_ok accepts. */
#ifndef SYNCLAB_BUILD_H
#define SYNCLAB_BUILD_H

#include "gpu_arch.h"
#include "text.h"
/* Next to the PTX (its path + this): the library files among what the
 * compiler read, one realpath a line (build.c: which files are library
 * code), for sl_ptx_mark_library. */
#define SL_BUILD_LIBRARY_SUFFIX ".library"

/* The compiler's address space limit (RLIMIT_AS) */
#define SL_BUILD_MEMORY_LIMIT_MIB 4096
/* How a BUILD says that the machine, not the file, stopped the compile
 * (its time limit, no compiler): such a verdict is not the file's alone. */
#define SL_BUILD_TIMED_OUT "error: the compiler did not finish in"
#define SL_BUILD_NOT_RUN "error: cannot run "

typedef struct {
    const char *nvcc;         /* compiler */
    const char *arch;         /* "80": this arch (SYNCLAB_ARCH); NULL: the GPU's (gpu_arch.h) */
    const char *default_arch; /* when no GPU can be asked: "90" */
    const char *nvcc_archs;   /* the archs nvcc builds for, "75,80,86"; NULL: any */
    const char *cuda_version; /* nvcc's, "13.0" (said when a driver is older) */
    const char *source_dir;   /* the project (lessons/, grader/) */
    const char *harness_lib;  /* libsynclab_harness_<lesson>.a */
    double timeout_s;         /* per compiler call */
    int submission;           /* a student's file: only its own folder's files, the
                                  lesson's header, synclab.h and system headers may
                                  be included (the bug zoo includes the solution) */
} sl_build_config;

typedef struct {
    int ok;
    int cached; /* up to date: nothing was rebuilt */
    char runner[4096];
    char ptx[4096];
    char object[4096]; /* the host code's object (hostobj.h) */
    /* the file as nvcc was given it, <out_dir>/src/<file>: the path its line
     * information (and so a sanitizer's report) names; "" before the link */
    char compiled[4200];
    char *log;            /* compiler output (malloc'd, may be ""), after a note on the arch */
    sl_gpu_target target; /* the arch it was built for, and the GPU's */
    /* it failed while the disk under out_dir was all but full (files.h):
     * the grader's failure, not the file's (the log says how much was free) */
    int no_disk;
    /* it failed when the OOM killer stopped one of its compiler steps (the
     * machine's memory ran out; each step has a limit of its own) */
    int no_memory;
} sl_build;

/* Builds source (a student's lesson file) in out_dir, for the arch of
 * sl_gpu_target_pick (a build for another arch is not reused). */
void sl_build_lesson(const sl_build_config *cfg, const char *lesson, const char *source,
                     const char *out_dir, sl_build *b);
void sl_build_free(sl_build *b);
/* The base names of every file the last compile in build_dir read (its
 * nvcc -MD list), one a line: the files a report that names them by base
 * name only (racecheck's "in barriers.cu:128") may mean. NULL when there
 * is no list. malloc'd. */
char *sl_build_dependency_names(const char *build_dir);
/* The harness library a lesson's runner links, in harness_dir (the build's
 * harness folder): <harness_dir>/libsynclab_harness_<lesson>.a. */
void sl_build_harness_lib(const char *harness_dir, const char *lesson, char *out, size_t n);
/* One runner for lessons[0..n-1] of one submission, each already built by
 * sl_build_lesson into build_dirs[i] for the GPU arch arch_sm ("90"):
 * their student objects, libsynclab_lesson_runner_<lesson>.a (the
 * harness, its table renamed) and libsynclab_runner_lessons.a (the
 * runner's main and the list of tables), all from harness_dir. It runs
 * any of their exercises as "<lesson>/<exercise>" (runner.h), so a
 * submission's sweep makes one CUDA context per check, not one per lesson
 * and check. Two files may define the same name: in each object the names
 * its harness does not call are made local or renamed
 * (sl_hostobj_lesson_names); a name two harnesses call fails the link.
 * 1 with the runner's path in runner (out_dir/runner); 0 with the
 * compiler's words in log. */
int sl_build_lessons_runner(const sl_build_config *cfg, const char *harness_dir,
                            const char *const *lessons, const char *const *build_dirs, int n,
                            const char *arch_sm, const char *out_dir, char *runner,
                            size_t runner_len, sl_text *log);
/* 1 when nvcc can write into path: nvcc runs its steps through sh and
 * splits some arguments at commas, so no , " $ ` \ or control character. */
int sl_build_folder_ok(const char *path);

#endif
