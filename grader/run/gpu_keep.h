/* One idle CUDA context per GPU for the length of a grading ("keepgpu"
 * lever, levers.h): the grader's own probe (gpu_probe.cu --hold), outside
 * any sandbox, with no student code in it. While any process holds a
 * context on a GPU, the driver's unified-memory module keeps that GPU set
 * up; when the last one ends it tears the GPU down, and the next process
 * sets it up again, under a lock of the whole machine (on four H200s a
 * context alone took 0.23 s, 0.10 s beside a keeper; 16 spread over the
 * four 2.15 s and 1.18 s). The grader never links CUDA: a keeper is a
 * process of its own, killed at the end or when the grader dies. */
#ifndef SYNCLAB_GPU_KEEP_H
#define SYNCLAB_GPU_KEEP_H

#include "gpus.h"

/* Starts a keeper on each GPU of g (NULL: the one the runs would use,
 * this process's CUDA_VISIBLE_DEVICES as it is). Nothing when the lever is
 * off or the probe is missing; a keeper that fails only costs its time. */
void sl_gpu_keep_start(const sl_gpus *g);
/* Kills and reaps the keepers (waiting at most a few seconds). */
void sl_gpu_keep_stop(void);
/* How many keepers are running (tests). */
int sl_gpu_keep_count(void);

#endif
