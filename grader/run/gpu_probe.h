/* Whether this machine has a GPU, decided by the grader alone: its own
 * probe program (grader/runner/gpu_probe.cu, built next to the harnesses;
 * SYNCLAB_GPU_PROBE names another), run once per grading before the
 * lessons and students fork, outside any sandbox, with no student code in it. The
 * grader never links CUDA: the probe is a separate process. A runner that
 * exits with the "no GPU" code (SL_EXIT_NO_GPU) is SKIP only when this
 * probe also found none; else it is the student's LAUNCH. */
#ifndef SYNCLAB_GPU_PROBE_H
#define SYNCLAB_GPU_PROBE_H

typedef enum {
    SL_GPU_UNKNOWN = -1, /* the probe could not run or ended oddly */
    SL_GPU_NONE = 0,     /* the probe says there is no CUDA device */
    SL_GPU_PRESENT = 1,
} sl_gpu_state;

/* The probe's answer, asked once per process tree (forks inherit it). */
sl_gpu_state sl_gpu_probe(void);
/* The probe program: SYNCLAB_GPU_PROBE, else the one built here. */
const char *sl_gpu_probe_path(void);
/* One line for a report: what the probe said. */
const char *sl_gpu_probe_detail(void);
/* The first visible GPU's free bytes, asked of the probe now (a CUDA
 * context of its own, a second or so: only after a run failed for want of
 * GPU memory); *total (may be NULL) gets its size. -1 unknown. */
long long sl_gpu_free_memory(long long *total);

#endif
