/* The run's input files, opened before the system-call wall and handed to
 * the harness one at a time. Student host code can reach any libc function
 * without naming it, so it must find no input but the one the GPU already
 * holds: every input is opened here, before any student code runs, onto
 * one block of descriptors that the wall knows (syscall_wall.h); the wall
 * then refuses every open in a plain run and every read of that block but
 * read(2) at the descriptor's offset. A read ahead moves the offset, which
 * sl_input_files_take checks when the input's turn comes. */
#ifndef SYNCLAB_INPUT_FILES_H
#define SYNCLAB_INPUT_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "case.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The block starts at a power of two above the grader's protocol
 * descriptors (SL_PROTO_FD_MAX) and the runner's outputs, so that
 * "fd & ~(base - 1) == base" (one masked compare in the filter) says
 * "an input's descriptor". */
enum { SL_INPUT_FD_MIN_BASE = 1024 };

typedef struct {
    int fd; /* -1 once taken */
    dev_t dev;
    ino_t ino;
    off_t size;
} sl_input_file;

typedef struct {
    int base, count;
    sl_input_file *file;
} sl_input_files;

enum { SL_INPUT_OK = 0, SL_INPUT_BAD = -1, SL_INPUT_TAMPERED = -2 };

/* Raises the soft RLIMIT_NOFILE so that `others` descriptors and the block
 * of `count` inputs above them fit: called before the others are opened (a
 * lesson sweep opens a thousand outputs, past the 1024 a user's shell
 * starts with). 0, or -1 with why (the hard limit is too low). */
int sl_input_files_room(int count, int others, char *why, size_t n);

/* Opens paths[0 .. count) read-only (regular files only, no link, no FIFO)
 * onto descriptors base .. base + count - 1, raising the soft
 * RLIMIT_NOFILE as far as needed. `others` is how many descriptors the
 * process will open besides (its outputs): base lies above them. 0, or -1
 * with why (a path that is not a regular file, a hard limit too low). */
int sl_input_files_open(sl_input_files *in, const char *const *paths, int count, int others,
                        char *why, size_t n);

/* Reads input i into c and closes its descriptor. SL_INPUT_TAMPERED, with
 * why, when anything but this call read it: the descriptor is gone,
 * replaced, not at offset 0, or moved by another reader while this one
 * read; SL_INPUT_BAD when the file itself is malformed. */
int sl_input_files_take(sl_input_files *in, int i, sl_case *c, uint64_t max_bytes, char *why,
                        size_t n);

/* Closes what was not taken. */
void sl_input_files_close(sl_input_files *in);

#ifdef __cplusplus
}
#endif
#endif
