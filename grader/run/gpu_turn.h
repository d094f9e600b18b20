/* Taking turns on one GPU between grading processes (several lessons,
 * students or tests at once). Most runs share the GPU; a few need it alone:
 *  - a run that hit its time limit is run again alone before it is called
 *    TIMEOUT: another process's hung kernel (a sanitizer's above all)
 *    stalled every context on an H100, and a busy GPU slows every kernel
 *    (H200: six hung neighbours made a lesson 3x slower), and neither must
 *    cost an innocent submission its verdict;
 *  - bandwidth is measured alone, or it measures the neighbours.
 * Three flock(2) files: "want", held shared by every grader that waits to
 * be alone (or is), which a new sharer must hold exclusively for a moment to
 * get in, so all the graders queued to be alone go before any new sharer (a
 * sharer slipping in between two of them made each wait a neighbour's whole
 * sweep again: eight hangs graded at once took up to 110 s a lesson); "turn",
 * which orders those graders one by one; and the room itself (shared or
 * exclusive). Locks die with their process; descriptors are
 * close-on-exec, so no runner inherits them. Without a usable lock file the
 * grader runs unsynchronized and says so under SYNCLAB_TRACE. While this
 * process has runs going (proc.h), a wait for a turn polls and keeps
 * watching their limits. */
#ifndef SYNCLAB_GPU_TURN_H
#define SYNCLAB_GPU_TURN_H

/* Files <prefix>.want, <prefix>.turn and <prefix>.room; prefix from SYNCLAB_GPU_LOCK, else
 * $TMPDIR/synclab-gpu-<the GPU> (TMPDIR defaults to /tmp; the GPU that
 * CUDA_VISIBLE_DEVICES shows first, by uuid where nvidia-smi tells it:
 * sl_gpu_lock_key in gpu_arch.h). */
void sl_gpu_lock_prefix(char *out, unsigned long n);
/* The folder those files are in ("" for a SYNCLAB_GPU_LOCK with no '/'),
 * without asking which GPU: the sandbox hides it. */
void sl_gpu_lock_folder(char *out, unsigned long n);

/* Enter the GPU with others; returns at once if this process already
 * shares it, and releases an "alone" turn first. */
void sl_gpu_share(void);
/* Have the GPU alone: waits until every sharer has left; no new sharer gets
 * in meanwhile. Gives up this process's shared turn first. */
void sl_gpu_alone(void);
/* Leave the GPU (shared or alone). */
void sl_gpu_leave(void);

#endif
