/* CUDA MPS for a class run (--mps, opt-in): one daemon serves every runner,
 * so a runner's start costs less than a fresh context of its own. The
 * daemon is ours, with a private pipe folder (CUDA_MPS_PIPE_DIRECTORY), so
 * it neither meets nor disturbs another user's MPS; runners find it through
 * that variable, which sl_mps_start exports. Whether one client's fatal
 * fault can change another's verdict must be proven on the GPU before this
 * becomes a default (docs/instructors.md). */
#ifndef SYNCLAB_MPS_H
#define SYNCLAB_MPS_H

/* Starts nvidia-cuda-mps-control -d with its pipe and log folders under
 * /tmp/synclab-mps-<pid> and exports them. 0 ok; -1 (said on stderr) when
 * it cannot start: the run then goes on without MPS. */
int sl_mps_start(void);
/* Asks the daemon to quit, and waits for it. */
void sl_mps_stop(void);

#endif
