/* The class-throughput levers (issue 29), each switchable on its own so
 * that its effect can be measured alone: SYNCLAB_LEVERS is a comma list of
 * the levers that are on ("jobs,dedup,racecheck"); "none" (or "") turns all
 * off; unset means SL_LEVERS_DEFAULT, the levers proven not to change a
 * verdict:
 * - jobs: `syncgrade class` without --jobs grades one student per CPU core
 *   (cmd_class.c), not one per two;
 * - dedup: byte-identical lesson files of a class are judged once
 *   (class/dedup.h): with one seed for the class any file, with a seed per
 *   student those whose verdicts are all static (an untouched starter);
 * - racecheck: racecheck does not run on a file whose PTX cannot touch
 *   shared memory (static/ptx_shared.h). Off by default: racecheck can
 *   find nothing there, but its run also compares outputs and times the
 *   kernels under the tool (grade.c), which the bug zoo has not been
 *   judged without on a GPU yet. */
#ifndef SYNCLAB_LEVERS_H
#define SYNCLAB_LEVERS_H

#define SL_LEVERS_DEFAULT "dedup"

/* 1 when lever name is on (see above). */
int sl_lever_on(const char *name);
/* The same decision from a given SYNCLAB_LEVERS value (NULL: unset). */
int sl_lever_in(const char *levers, const char *name);

#endif
