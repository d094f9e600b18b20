/* The submission policy: what a student's lesson file may not contain.
 * Student code runs in the runner, where the harness calls its kernels and
 * launchers; code that runs by itself (main, constructors), ends the
 * program, starts programs or opens files has no place there and could try
 * to fake a result. The file is scanned before it is built, with comments
 * and string literals removed (a comment mentioning exit( is fine); what a
 * text scan cannot see (macros pasting names together, global objects with
 * constructors) is caught after the build in the object file (hostobj.h).
 * Which files may be included is decided from the compiler's dependency
 * list (build.h); this scan only follows the student's own headers.
 * The rules live in one table in policy.c, each with the reason shown to
 * the student. */
#ifndef SYNCLAB_POLICY_H
#define SYNCLAB_POLICY_H

#include "text.h"

typedef struct {
    const char *lesson; /* the lesson the file is for */
} sl_policy;

/* Checks a student's file (a plain file, no link) and the headers of the
 * student's folder it includes. Returns 1 when it may be built; 0 with one
 * line per violation appended to why, in the compiler's format
 *   "barriers.cu(12): error: submission policy: ...". */
int sl_policy_check_file(const sl_policy *p, const char *path, sl_text *why);
/* The same on text (label names it in messages); quoted includes are
 * looked up in dir (may be NULL: none of the student's). */
int sl_policy_check_text(const sl_policy *p, const char *label, const char *text, const char *dir,
                         sl_text *why);
/* The text with comments and the contents of string/character literals
 * replaced by spaces (quotes and newlines kept, so lines still count): what
 * the rules are matched on.
 * Exposed for the unit tests. malloc'd. */
char *sl_policy_strip(const char *text);

#endif
