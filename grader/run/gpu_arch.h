/* The GPU architecture a student's file is built for, decided when it is
 * graded (not when the grader was built: a class is often built on a node
 * without a GPU and graded on A100, L40S or H100 nodes), and whether a
 * runner can run on the GPU that grades it.
 *
 * The grader never links CUDA: it asks `nvidia-smi --query-gpu=uuid,
 * compute_cap` once per process, with a time limit (a class's children
 * inherit the answer), and picks the GPU that CUDA_VISIBLE_DEVICES shows
 * first (the one a runner uses). Without an answer (no GPU visible, no
 * nvidia-smi) the configured default is used (sm_90), with a note.
 *
 * A runner's parts are the student's object (built here for one arch:
 * SASS and its PTX, as nvcc -arch=sm_XY does) and the lesson's harness
 * (built by CMake for a list of archs). Whether they can run on the GPU is
 * decided from those facts, which the grader knows itself; a line a runner
 * printed never decides it alone (sl_arch_mismatch). */
#ifndef SYNCLAB_GPU_ARCH_H
#define SYNCLAB_GPU_ARCH_H

#include <stddef.h>

#include "gpus.h"

enum { SL_ARCH_LEN = 16, SL_ARCH_NOTE = 256 };

/* The GPUs nvidia-smi lists, in its order. cc: compute capability as
 * 10 * major + minor (80 for 8.0, 120 for 12.0). */
typedef struct {
    int count;
    struct {
        char uuid[SL_GPU_ID];
        int cc;
    } gpu[SL_MAX_GPUS];
} sl_gpu_caps;

/* Lines of `nvidia-smi --query-gpu=uuid,compute_cap --format=csv,noheader`
 * ("GPU-8a1f..., 8.0"; the uuid may be left out: "8.0"). Lines that are
 * no such pair are skipped. Returns the count. */
int sl_gpu_caps_parse(const char *csv, sl_gpu_caps *caps);

/* The compute capability of the first GPU that CUDA_VISIBLE_DEVICES =
 * visible (NULL: unset) shows. 0 when none is visible or it cannot be told,
 * with the reason in why. All GPUs alike: theirs. A "GPU-<uuid>" entry:
 * that GPU. An index on a machine of mixed GPUs: CUDA counts them fastest
 * first and nvidia-smi by bus, so the oldest of them is taken (its code
 * runs on the others by PTX JIT), with a note. */
int sl_gpu_caps_visible(const sl_gpu_caps *caps, const char *visible, char *why, size_t n);

/* The name of the GPU that CUDA_VISIBLE_DEVICES = visible (NULL: unset)
 * shows first, for its turn lock (gpu_turn.h): its uuid when caps (what
 * nvidia-smi lists) tells which GPU that is (a "GPU-" entry it lists, maybe
 * a prefix; an index on a machine whose GPUs are alike; the only GPU
 * listed), else the entry as written ("0" when unset, "MIG-..."). Only
 * letters, digits and '-' are kept (others become '-'): a file name. So two
 * graders that see one GPU under different names (CUDA_VISIBLE_DEVICES=2
 * and =GPU-<its uuid>, or a Slurm job that sees its one GPU as 0) take
 * turns on it, and graders on different GPUs never wait for each other. */
void sl_gpu_lock_key(const char *visible, const sl_gpu_caps *caps, char *out, size_t n);
/* A GPU's name made a part of a file name, in place: letters and digits
 * kept, anything else '-'. */
void sl_gpu_file_name(char *s);

/* The GPU a build is for. */
typedef struct {
    char arch[SL_ARCH_LEN];  /* nvcc's sm_<arch>: "80" */
    int gpu_cc;              /* the visible GPU's compute capability; 0 unknown */
    int overridden;          /* arch came from the caller (SYNCLAB_ARCH) */
    int fallback;            /* arch is the default: no GPU could be asked */
    char note[SL_ARCH_NOTE]; /* why the default; the override's effect; a GPU newer
                                than the toolkit */
} sl_gpu_target;

/* Picks the arch: override when set (SYNCLAB_ARCH), else the visible GPU's
 * compute capability (the newest arch of supported, nvcc's list "75;80;86",
 * whose code runs on it: a GPU newer than the toolkit gets its newest), else
 * fallback. Asks nvidia-smi (once per process). */
void sl_gpu_target_pick(const char *override, const char *fallback, const char *supported,
                        sl_gpu_target *t);
/* Forgets the cached nvidia-smi answer (tests; a process that changed PATH). */
void sl_gpu_target_forget(void);
/* The GPUs nvidia-smi lists (all of them: it ignores CUDA_VISIBLE_DEVICES),
 * asked once per process with a time limit; count 0 when it could not be
 * asked or answered nothing in time. */
const sl_gpu_caps *sl_gpu_caps_listed(void);
/* The same from already known facts (no nvidia-smi): the unit tests. */
void sl_gpu_target_from(const char *override, const char *fallback, const char *supported,
                        int gpu_cc, const char *why, sl_gpu_target *t);

/* How code built for archs runs on a GPU of compute capability cc. archs:
 * CMake's list ("75-real;80-real;120-virtual"), or a bare "80" (SASS and
 * PTX, as nvcc -arch=sm_80 builds). SASS of sm_XY runs on XY' of the same
 * major with minor >= Y; PTX of XY is JIT-compiled by the driver for any
 * cc >= XY. */
typedef enum { SL_ARCH_SASS, SL_ARCH_JIT, SL_ARCH_NONE } sl_arch_fit;
sl_arch_fit sl_arch_fit_on(const char *archs, int cc);

/* Is a runner's failure the grader's, because of the architecture? The
 * runner's parts: the student's object built for t->arch and the harness
 * built for harness_archs (NULL: not known). cuda_line: the runner's
 * "CUDA error: ..." line (as grade.c quotes it), or NULL before it runs.
 * Returns 1 with one line in why (what to do) when it is the grader's:
 *  - the GPU is known and a part has no code for it: before any run, and
 *    whatever a runner prints;
 *  - the GPU is known, a part runs only through the driver's PTX JIT and
 *    the runner failed to load code (a driver older than the toolkit);
 *  - the GPU is not known (no nvidia-smi), the arch was a guess and the
 *    runner failed to load code.
 * Else 0: a line the runner printed on a GPU its code fits stays the
 * student's (student code can print anything). */
int sl_arch_mismatch(const sl_gpu_target *t, const char *harness_archs, const char *cuda_version,
                     const char *cuda_line, char *why, size_t n);

/* 1 when a CUDA error line is one of loading code for the GPU: no kernel
 * image, PTX of a newer toolkit, a failed PTX JIT, an invalid image. */
int sl_arch_is_load_error(const char *cuda_line);

#endif
