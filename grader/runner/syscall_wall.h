/* The runner's system-call wall: a seccomp filter (libseccomp) installed
 * once CUDA is initialised and the runner's own files are open, before any
 * student code runs. Host code linked into the runner can reach any libc
 * function without naming it (through the program's dynamic-linking data),
 * so what it may do is decided here, by the kernel, not by names. */
#ifndef SYNCLAB_SYSCALL_WALL_H
#define SYNCLAB_SYSCALL_WALL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    SL_WALL_STRICT = 0, /* plain runs: no file opened, no input read out of turn, no new code */
    SL_WALL_TOOL = 1,   /* under a compute-sanitizer tool, whose injected library
                           may write its own files and map code after our init */
};

/* Installs the filter on every thread of the process (TSYNC). A forbidden
 * call raises SIGSYS; the wall's handler prints
 *   "CUDA error: cudaErrorNotPermitted: the runner made a forbidden system
 *    call: <name> (<why>)"
 * and exits with exit_code (the runner's SL_EXIT_CUDA: the grader's LAUNCH).
 * 0 when installed; -1 with the reason in why (the caller fails closed). */
int sl_syscall_wall_install(int mode, int exit_code, char *why, size_t n);

/* Where the handler's line goes (the grader's log; -1: stderr), set before
 * the install: that descriptor, like stdout and stderr, may not be
 * rewound, truncated or duplicated once the wall is up. */
void sl_syscall_wall_set_log(int fd);

/* The run's inputs lie on descriptors [base, 2 base), base a power of two
 * (input_files.h; 0: none), set before the install. In plain runs every
 * open for reading then fails with EACCES (opening for writing traps, as
 * before), and those descriptors may be read only with read(2)/readv(2)
 * at their offset: pread, preadv, mmap, sendfile, splice, copy_file_range,
 * dup and lseek but lseek(fd, 0, SEEK_CUR) trap ("an input read out of
 * turn"). */
void sl_syscall_wall_set_inputs(int base);

#ifdef __cplusplus
}
#endif

#endif
