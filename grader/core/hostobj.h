/* The student's compiled host code (the ELF object nvcc made of the lesson
 * file), inspected before it is linked into a runner. What the text scan
 * of policy.h cannot see is plain here: a global object with a
 * constructor, a constructor attribute spelled through macros, a main, a
 * call to system() whose name was pasted together. nvcc's own code in the
 * object (the fatbinary registration in .init_array, exit() in host stubs
 * of __device__ functions, atexit) is allowed. */
#ifndef SYNCLAB_HOSTOBJ_H
#define SYNCLAB_HOSTOBJ_H

#include <stddef.h>
#include "text.h"

/* 1 when the object may be linked; 0 with one line per finding appended
 * to why ("<label>: error: submission policy: ..."); -1 when it is not an
 * ELF object we can read (why says so). */
int sl_hostobj_check(const char *object_path, const char *label, sl_text *why);
int sl_hostobj_check_image(const unsigned char *data, size_t size, const char *label,
                           sl_text *why);

#endif
