/* The machine's memory as the grader measures it, never as a runner says:
 * how many processes the kernel's OOM killer has stopped (a runner or a
 * compiler it stops while using little memory of its own failed for the
 * class's want of memory, the grader's failure), and how much a class may
 * still take. */
#ifndef SYNCLAB_MEMORY_H
#define SYNCLAB_MEMORY_H

/* The OOM killer's count of kills: this process's cgroup (v2,
 * memory.events, which counts its whole subtree, so every runner of ours)
 * when it has one, else the machine's (/proc/vmstat). -1 unknown. Only its
 * rise matters. SYNCLAB_OOM_KILLS_FILE names another file with an
 * "oom_kill N" line: the grader's tests, which cannot make the kernel
 * kill. */
long long sl_oom_kills(void);

/* Bytes this process and its children may still take before the kernel
 * reclaims by killing: MemAvailable, and below it every limit of this
 * cgroup and its parents (memory.max less what is used and cannot be
 * reclaimed; a Slurm job's --mem). -1 unknown. */
long long sl_memory_available(void);

/* The "name N" value in text whose line starts with name (memory.events,
 * /proc/vmstat, memory.stat; /proc/meminfo's "MemAvailable:" with its
 * colon), or -1. */
long long sl_memory_field(const char *text, const char *name);

#endif
