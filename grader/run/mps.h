/* CUDA MPS for a class run (--mps, opt-in): one daemon of ours whose
 * clients share its context instead of creating one each. Only the lesson
 * sweep's runs are its clients (sl_runner_mps_client, runner_call.h): under
 * MPS a client's fatal fault is reported to every client of the GPU
 * (measured: the instructors' guide), and the sweep takes nothing from a run
 * but "clean" (anything else and each exercise runs that check itself,
 * outside MPS), so a neighbour's fault costs time there, never a verdict.
 * The daemon has a private pipe folder, so it neither meets nor disturbs
 * another user's MPS. MPS runs one server at a time, for one uid
 * (nvidia-cuda-mps-control(1)): a root grader starts it as the sandbox's
 * uid (sl_sandbox_uid), which its clients drop to as every run does, so
 * none of them keeps root. */
#ifndef SYNCLAB_MPS_H
#define SYNCLAB_MPS_H

/* Starts nvidia-cuda-mps-control -d (as the sandbox's uid when we are
 * root) with its pipe and log folders in a folder of its own,
 * /tmp/synclab-mps-XXXXXX (removed by sl_mps_stop), and
 * names the pipe folder in SYNCLAB_MPS_PIPES for this process and its
 * children. 0 ok; -1 (said on stderr) when it
 * cannot start: the run then goes on without MPS. */
int sl_mps_start(void);
/* The running daemon's pipe folder (from SYNCLAB_MPS_PIPES), or NULL. */
const char *sl_mps_pipes(void);
/* Asks the daemon to quit, and waits for it. */
void sl_mps_stop(void);

#endif
