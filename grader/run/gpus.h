/* Which GPUs a class run spreads over (--gpus all|N|LIST). The grader never
 * links CUDA: it counts GPUs with `nvidia-smi -L`, else
 * /proc/driver/nvidia/gpus/, else says 1. Each student's processes see one
 * of them through CUDA_VISIBLE_DEVICES, and take turns on it (gpu_turn.h)
 * with a lock of that GPU's own. */
#ifndef SYNCLAB_GPUS_H
#define SYNCLAB_GPUS_H

enum { SL_MAX_GPUS = 64, SL_GPU_ID = 96 };

typedef struct {
    char id[SL_MAX_GPUS][SL_GPU_ID]; /* what CUDA_VISIBLE_DEVICES gets */
    int count;
} sl_gpus;

/* spec: "all" (every GPU this process may use: the entries of
 * CUDA_VISIBLE_DEVICES when it is set, else the GPUs counted), a count "N"
 * (the first N of those), or a comma-separated list of ids "0,2" (a single
 * id needs a trailing comma: "3,"). 0 ok; -1 when spec is wrong (said on
 * stderr). */
int sl_gpus_parse(const char *spec, sl_gpus *g);

/* The GPUs of this machine: nvidia-smi -L's lines, else the folders of
 * /proc/driver/nvidia/gpus, else 1. */
int sl_gpus_count(void);

/* In a student's process, before it starts any runner: this GPU only, and
 * its own turn lock (the one every grader on that GPU takes, gpu_turn.h). */
void sl_gpus_enter(const sl_gpus *g, int which);

#endif
