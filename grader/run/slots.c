#include "slots.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "proc.h"

int sl_slots_open(sl_slots *s, const char *dir, const char *name, int n)
{
    s->n = 0;
    snprintf(s->prefix, sizeof s->prefix, "%s/%s", dir, name);
    if (n < 1 || sl_mkdirs(dir) != 0)
        return -1;
    for (int k = 0; k < n; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s.%d", s->prefix, k);
        int fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0)
            return -1;
        close(fd);
    }
    s->n = n;
    return 0;
}

/* Place k free: held now through the returned descriptor. */
static int try_place(const sl_slots *s, int k)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.%d", s->prefix, k);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd;
    close(fd);
    return -1;
}

int sl_slots_take(const sl_slots *s, double max_wait_s, double *waited_s)
{
    double t0 = sl_now();
    int fd = -1;
    /* polled, not a blocking flock on one file: any place that frees up
     * will do, and the wait has an end; a poll costs a few system calls */
    while (s && s->n > 0) {
        /* each process starts at another place: fewer tries in a busy class */
        for (int k = 0; k < s->n && fd < 0; k++)
            fd = try_place(s, (k + (int)getpid()) % s->n);
        if (fd >= 0 || sl_now() - t0 >= max_wait_s)
            break;
        /* runs of ours still going (a hang's diagnosis beside the sweep)
         * keep their limits meanwhile */
        sl_proc_watch_children();
        struct timespec nap = {0, 25 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (waited_s)
        *waited_s = s && s->n > 0 ? sl_now() - t0 : 0;
    return fd;
}

void sl_slots_give(int fd)
{
    if (fd < 0)
        return;
    /* unlocked here, not by close alone: a child that inherited the
     * descriptor would keep the place taken */
    flock(fd, LOCK_UN);
    close(fd);
}
