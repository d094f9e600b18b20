/* A fixed number of places that processes take turns in: a class's
 * students running on one GPU (the stagger lever, levers.h), while more
 * of them build meanwhile. Place k is the file <dir>/<name>.<k>, held with
 * flock(2) by the process in it, so a place is free again when its
 * process dies, however it dies; descriptors are close-on-exec, so no
 * runner inherits one. */
#ifndef SYNCLAB_SLOTS_H
#define SYNCLAB_SLOTS_H

typedef struct {
    char prefix[4096]; /* <dir>/<name> */
    int n;             /* places; 0: none (take returns -1 at once) */
} sl_slots;

/* Makes the n place files under dir (created if missing). 0 ok; -1 (and
 * s->n = 0) when they cannot be made: callers then go on without places. */
int sl_slots_open(sl_slots *s, const char *dir, const char *name, int n);
/* Waits for a free place and holds it: its descriptor, or -1 when there
 * are no places or none came within max_wait_s (the caller then goes on
 * without one: nobody waits for good). *waited_s: how long it waited.
 * Runs of this process still going keep their limits meanwhile (proc.h). */
int sl_slots_take(const sl_slots *s, double max_wait_s, double *waited_s);
/* Leaves the place (fd from sl_slots_take; -1 is ignored). */
void sl_slots_give(int fd);

#endif
