/* compute-sanitizer: command lines and reading its reports into verdicts.
 * Formats read off compute-sanitizer 2025.3.1 (CUDA 13.0) on an H100;
 * samples are kept in grader/tests/fixtures. */
#ifndef SYNCLAB_SANITIZER_H
#define SYNCLAB_SANITIZER_H

#include <stddef.h>
#include "text.h"
#include "verdict.h"

enum sl_tool {
    SL_TOOL_MEMCHECK = 1,
    SL_TOOL_SYNCCHECK = 2,
    SL_TOOL_RACECHECK = 4,
    SL_TOOL_INITCHECK = 8,
    SL_TOOLS_ALL = 15
};

/* The tools in the order their reports are judged (memcheck, synccheck,
 * racecheck, initcheck): a verdict never depends on which finished first. */
enum { SL_NTOOLS = 4 };
extern const int SL_TOOL_ORDER[SL_NTOOLS];
const char *sl_tool_name(int tool);
/* The verdict a tool's finding is: RACE, SYNC or MEMORY. */
sl_verdict sl_tool_verdict(int tool);
/* Fills argv (at most 16 entries, NULL-terminated) with the sanitizer's
 * own arguments for tool; the runner's argv is appended by the caller.
 * Returns the number of entries written. */
int sl_sanitizer_args(int tool, const char *sanitizer, const char **argv);
/* Exit code we ask the sanitizer to return when it found something. */
enum { SL_SANITIZER_FOUND = 86 };

/* Reads a report. Returns SL_V_PASS when clean, else RACE / SYNC / MEMORY
 * with a short account in detail and source lines in where. Locations in a
 * file whose basename is prefer_file are chosen over library headers. */
sl_verdict sl_sanitizer_parse(int tool, const char *report, const char *prefer_file,
                              sl_text *detail, char *where, size_t wherelen);

/* Decides whether racecheck's hazard between the accesses at file_a:line_a
 * and file_b:line_b is one the code orders after all (a later stage, with
 * the PTX, passes it in: this stage cannot call it). 1: dismissed. */
typedef int (*sl_hazard_dismiss)(const char *file_a, int line_a, const char *file_b, int line_b,
                                 void *arg);
/* sl_sanitizer_parse, but a racecheck report is split into its findings
 * first: when every finding is a "Race reported between <access> at ...
 * in F:L and <access> at ... in F:L" pair that dismiss dismisses, and the
 * summary counts exactly the findings read (nothing left unprinted or
 * unread), it is SL_V_PASS with *dismissed = 1 (else 0). Anything else,
 * and every other tool: sl_sanitizer_parse's verdict. */
sl_verdict sl_sanitizer_parse_dismissing(int tool, const char *report, const char *prefer_file,
                                         sl_hazard_dismiss dismiss, void *arg, int *dismissed,
                                         sl_text *detail, char *where, size_t wherelen);

/* How a report splits between files: complete = 1 when the summary says
 * every finding was printed and each one printed names one of the files:
 * then a file not named has no finding (a finding without a location,
 * past the print limit or cut from the log makes it 0: nothing can be said
 * of any file). The rest says why not, for the trace: findings printed,
 * the summary's count (-1: no summary), how many name a file, and whether
 * the summary says some were not printed. */
typedef struct {
    int complete;
    int printed, total, attributed, unprinted;
    char unnamed[1024]; /* the first finding's location that names none of the files */
} sl_sanitizer_split;
/* A report of a runner of several lessons' files (build.h:
 * sl_build_lessons_runner): a bit per file of files[0..n-1] that one of
 * its findings names in a location. Each is the whole path the compiler
 * was given (a lesson's own build folder, "<build>/src/scan.cu"), never a
 * base name: a student's folder may hold a "helper/scan.cu" that another
 * lesson's file includes, whose findings must not count as scan's. */
unsigned sl_sanitizer_files_split(const char *report, const char *const *files, int n,
                                  sl_sanitizer_split *out);
/* The same for a report that names files by base name only (racecheck's
 * analysis: "in barriers.cu:128", measured on an H200): names[i] holds the
 * base name of every file lesson i's compile read, one a line (build.h:
 * sl_build_dependency_names). A finding names every lesson that read a file
 * of that name: a race in helper/scan.cu, which reduction.cu includes,
 * names reduction (and scan), never scan alone. */
unsigned sl_sanitizer_names_split(const char *report, const char *const *names, int n,
                                  sl_sanitizer_split *out);

#endif
