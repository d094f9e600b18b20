/* A private channel from a forked grader process to its parent: an
 * anonymous in-memory file (memfd) opened by the parent before it forks.
 * The child writes its result there; the parent reads it after the child
 * ended. Nothing on disk has its name, the descriptor is close-on-exec and
 * runners are started with every descriptor above 2 closed, and grader
 * processes are non-dumpable (contain.h), so no student process can reach
 * it: unlike a results file in the work folder, which a runner of the same
 * uid could overwrite. See docs/integrity.md. */
#ifndef SYNCLAB_CHANNEL_H
#define SYNCLAB_CHANNEL_H

#include <stddef.h>

/* A new empty channel; -1 on failure. */
int sl_channel_open(const char *name);
/* Replaces the channel's content with text. 0 ok. */
int sl_channel_put(int fd, const char *text);
/* The content (malloc'd, NUL-terminated), at most max bytes; NULL when
 * empty or unreadable. */
char *sl_channel_get(int fd, size_t max);
void sl_channel_close(int *fd);

#endif
