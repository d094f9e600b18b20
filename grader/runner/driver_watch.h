/* The runner's watch on the CUDA driver (CUPTI's callback API): every
 * driver entry point, however it was reached (a named call, a pointer
 * found through the program's dynamic-linking data, the static runtime),
 * calls back here first. Outside the runner's own helpers, copies that
 * reach host memory, host-visible or managed allocations and module loads
 * from memory (a hidden cubin) stop the run: a launcher may choose shapes
 * and launch kernels, and move data only from device to device. */
#ifndef SYNCLAB_DRIVER_WATCH_H
#define SYNCLAB_DRIVER_WATCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Subscribes to the driver API domain. A refused call prints
 *   "CUDA error: cudaErrorNotPermitted: <rule> (<driver function>)"
 * and exits with exit_code. 0 when watching; -1 with the reason in why
 * (CUPTI missing, or another subscriber such as a compute-sanitizer tool). */
/* Where a refusal's line goes (the grader's log; -1: stderr). */
void sl_driver_watch_set_log(int fd);

int sl_driver_watch_start(int exit_code, char *why, size_t n);

/* The runner's own work (uploads, downloads, its wrappers of the student's
 * calls after they were checked): on this thread only, nested. */
void sl_driver_watch_trust(int on);

/* Whether the watch was started, and how many driver calls it has seen:
 * the runner checks after each input that a call of its own was seen (a
 * watch that student code unsubscribed through CUPTI's own functions is
 * caught there, not one it turned off and on again). */
int sl_driver_watch_on(void);
unsigned long sl_driver_watch_seen(void);

#ifdef __cplusplus
}
#endif

#endif
