/* The student's compiled host code (the ELF object nvcc made of the lesson
 * file), inspected before a runner built from it ever runs. Names pasted
 * together by macros are plain here:
 * - every function or variable the object uses from elsewhere must be on
 *   an allow-list (CUDA runtime launch/occupancy/attribute/error/device
 *   memory calls, nvcc's registration, printf, memory, math); anything
 *   else (fopen, _IO_popen, __open, _Fork, environ, dlsym,
 *   cudaMallocManaged, cudaHostAlloc, ...) is refused;
 * - what it defines: no main, no C names or library functions (they would
 *   replace the runner's);
 * - each entry of an init/fini array of any name or type is judged by
 *   everything it reaches inside the object (relocations, and the calls
 *   and address loads the assembler resolved without one, read from
 *   objdump's disassembly), not by its name: only nvcc's registration and
 *   system headers' initialisers (<iostream>'s std::ios_base::Init) may be
 *   reached, with no indirect call or jump on the way; no ifunc;
 * - the runtime's registration (__cudaRegisterFatBinary/Function/...) only
 *   from nvcc's generated functions, one fatbinary; exit only from nvcc's
 *   host stubs of __device__ functions;
 * - no code sections the compiler did not make, no raw system call
 *   instruction in the host code (objdump's reading). */
#ifndef SYNCLAB_HOSTOBJ_H
#define SYNCLAB_HOSTOBJ_H

#include <stddef.h>
#include "text.h"

/* 1 when the object may be linked; 0 with one line per finding appended
 * to why ("<label>: error: submission policy: ..."); -1 when it is not an
 * ELF object we can read (why says so). */
int sl_hostobj_check(const char *object_path, const char *label, sl_text *why);
/* The object against the harness library it will be linked with
 * (libsynclab_harness_<lesson>.a): 1 when it defines no name the harness
 * defines, except the compiler's shared copies of inline functions and
 * templates; 0 with the findings appended to why; -1 when either cannot
 * be read. */
int sl_hostobj_check_harness(const char *object_path, const char *harness_lib, const char *label,
                             sl_text *why);
/* For a runner of several lessons (build.h), where two lessons' files may
 * define the same name: the names the object defines that the lesson's
 * harness library (libsynclab_lesson_runner_<lesson>.a) does not use, one
 * a line: plain global definitions into hide (made local), weak ones and
 * COMDAT copies of inline functions and templates into rename (the linker
 * keeps one COMDAT group per name, whatever its binding: each lesson keeps
 * its own under a new name). 0 ok, -1 when either cannot be read. */
int sl_hostobj_lesson_names(const char *object_path, const char *harness_lib, sl_text *hide,
                            sl_text *rename);
/* Whether the host code may use the external name (the allow-list). */
int sl_hostobj_allowed(const char *name);
/* The checks on an object in memory, without the disassembly (so without
 * the calls resolved by the assembler, exit's callers and system calls). */
int sl_hostobj_check_image(const unsigned char *data, size_t size, const char *label, sl_text *why);
/* Whether the host code can allocate device memory: a name it uses from
 * elsewhere that allocates (cudaMalloc, cudaMallocAsync, a memory pool;
 * any name with "Malloc", "Alloc" or "MemPool" in it, or cuMem*, so that
 * a name added to the allow-list later counts too). 1 yes, 0 no, -1 when
 * the object cannot be read. The initcheck lever (levers.h) asks it. */
int sl_hostobj_allocates(const char *object_path);

/* The assembly gcc made of the host code (gcc -save-temps' .s): 1 when
 * it holds no inline assembly but nvcc's fatbinary and no directive that
 * reads a file or builds directives (.incbin, .include, .macro, .irp,
 * .rept ...); 0 with the findings appended to why. */
int sl_hostobj_check_assembly(const char *text, const char *label, sl_text *why);

#endif
