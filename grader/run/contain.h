/* Keeping student processes inside the grader's reach. A runner runs the
 * student's code with the grader's own uid: it could leave a daemon behind
 * (double fork + setsid escapes the process-group kill) that rewrites files
 * later, or open the grader's private descriptors through /proc/<pid>/fd.
 * The grader processes therefore
 *   - are non-dumpable: /proc/<pid>/fd, /proc/<pid>/mem and ptrace of a
 *     grader process are refused to other processes of the same uid (an
 *     exec'd runner is dumpable again, the grader is not);
 *   - adopt orphans (child subreaper): a daemon started by a runner becomes
 *     the grader's child instead of init's, so it can be found and killed.
 * See docs/integrity.md. */
#ifndef SYNCLAB_CONTAIN_H
#define SYNCLAB_CONTAIN_H

#include <sys/types.h>

/* Makes this process (and the processes it forks without exec) non-dumpable. 0 ok. */
int sl_contain_protect_self(void);
/* Makes this process a child subreaper. 0 ok. */
int sl_contain_adopt_orphans(void);
/* Whether this process is a child subreaper. */
int sl_contain_is_subreaper(void);
/* Kills (SIGKILL) and reaps every child of this process whose pid is not in
 * keep[0..nkeep-1], repeating until none is left or max_s seconds passed
 * (a child that forks as fast as it is killed). Returns how many it killed. */
int sl_contain_kill_children(const pid_t *keep, int nkeep, double max_s);
/* spare 1: pid (a child of the grader's own, such as a GPU keeper) is
 * never killed as a leftover of a job; 0: it is again. */
void sl_contain_spare(pid_t pid, int spare);
/* The children of this process, read from /proc (at most max). */
int sl_contain_list_children(pid_t *out, int max);

#endif
