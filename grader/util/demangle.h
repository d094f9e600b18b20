/* C++ names as a student wrote them: "_Z10block_votePKiPiii" becomes
 * "block_vote(int const*, int*, int, int)". PTX and nvcc's messages name
 * kernels by their mangled symbol; a student never should have to read one.
 * libstdc++'s demangler does the work (__cxa_demangle has C linkage). */
#ifndef SYNCLAB_DEMANGLE_H
#define SYNCLAB_DEMANGLE_H

#include <stddef.h>

#include "text.h"

/* The demangled form of name into buf (n bytes); a name that is not a
 * mangled C++ name (or does not demangle) is copied as it is. Returns buf. */
const char *sl_demangle(const char *name, char *buf, size_t n);
/* Appends text to out with every mangled name ("_Z..." as a whole word)
 * demangled, except inside `backquotes`, where PTX is quoted as it is. */
void sl_demangle_text(const char *text, sl_text *out);
/* The same in place. */
void sl_demangle_in(sl_text *t);

#endif
