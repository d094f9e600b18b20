/* Files and folders as the grader handles them: whole small files read
 * and written (atomically, refusing files planted by someone else),
 * folders made, measured and removed. */
#ifndef SYNCLAB_FILES_H
#define SYNCLAB_FILES_H

#include <stddef.h>

/* Reads at most max bytes of a regular file (head); never waits on a FIFO
 * or device put in its place. NULL when unreadable. The result
 * is NUL-terminated; *len (may be NULL) gets the byte count. */
char *sl_read_file(const char *path, size_t max, size_t *len);
/* Both ends of a long file: its first head bytes, then (when it is longer)
 * a newline and its last tail bytes from the start of a line. What a log's
 * reader needs: the protocol's first lines and a tool's closing summary. */
char *sl_read_ends(const char *path, size_t head, size_t tail);
/* The part of path after its last '/'. */
const char *sl_base_name(const char *path);
/* Writes text as the whole content of path, atomically: a temporary file
 * beside path (O_EXCL), synced,
 * then renamed over path. Refuses (-1, nothing left behind) when path
 * exists and is not a regular file of ours with write permission: a
 * results file planted by someone else makes the grader fail loudly. */
int sl_write_file(const char *path, const char *text);
int sl_write_file_atomic(const char *path, const char *text); /* the same */
/* mkdir -p. 0 ok. */
int sl_mkdirs(const char *path);
/* Removes everything inside dir (not following links); with also_dir,
 * dir itself too. */
void sl_remove_tree(const char *dir, int also_dir);
/* Files and folders under dir (not following links) and their bytes. */
void sl_tree_usage(const char *dir, long long *entries, long long *bytes);
/* Bytes free to this process on dir's file system (statvfs), -1 unknown
 * (also a file system that reports no size: /proc, some FUSE mounts). */
long long sl_free_bytes(const char *dir);
/* Less free than this under a work folder: a compile or a run that failed
 * there may have failed for want of room (nvcc cannot write its object, a
 * runner its outputs), which is the grader's failure, not the student's. */
#define SL_DISK_LOW_BYTES (256LL << 20)
/* 1 when dir's file system has less than SL_DISK_LOW_BYTES free (or
 * SYNCLAB_DISK_LOW_MB MiB when set); *free (may be NULL) gets the bytes
 * free. */
int sl_disk_low(const char *dir, long long *free);

#endif
