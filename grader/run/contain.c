#include "contain.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "proc.h"

int sl_contain_protect_self(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

int sl_contain_adopt_orphans(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

int sl_contain_is_subreaper(void)
{
    int on = 0;
    return prctl(PR_GET_CHILD_SUBREAPER, &on, 0, 0, 0) == 0 && on;
}

/* The parent pid in /proc/<pid>/stat: the field after the command, which
 * is in parentheses and may itself hold spaces and parentheses. */
static pid_t parent_of(const char *pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    char *stat = sl_read_file(path, 4096, NULL);
    if (!stat)
        return -1;
    const char *close = strrchr(stat, ')');
    int ppid = -1;
    char state;
    if (!close || sscanf(close + 1, " %c %d", &state, &ppid) != 2)
        ppid = -1;
    free(stat);
    return (pid_t)ppid;
}

int sl_contain_list_children(pid_t *out, int max)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t self = getpid();
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < max;) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        if (parent_of(e->d_name) == self)
            out[n++] = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return n;
}

/* children of the grader's own that outlive jobs (sl_contain_spare) */
static pid_t g_spared[64];
static int g_nspared;

void sl_contain_spare(pid_t pid, int spare)
{
    for (int i = 0; i < g_nspared; i++)
        if (g_spared[i] == pid) {
            if (!spare)
                g_spared[i] = g_spared[--g_nspared];
            return;
        }
    if (spare && g_nspared < (int)(sizeof g_spared / sizeof *g_spared))
        g_spared[g_nspared++] = pid;
}

static int kept(pid_t pid, const pid_t *keep, int nkeep)
{
    for (int i = 0; i < nkeep; i++)
        if (keep[i] == pid)
            return 1;
    for (int i = 0; i < g_nspared; i++)
        if (g_spared[i] == pid)
            return 1;
    return 0;
}

/* Reaps every child that already ended, except the kept ones (their
 * owners wait for them). */
static void reap_strays(const pid_t *keep, int nkeep)
{
    pid_t kids[1024];
    int n = sl_contain_list_children(kids, 1024);
    for (int i = 0; i < n; i++)
        if (!kept(kids[i], keep, nkeep))
            waitpid(kids[i], NULL, WNOHANG);
}

int sl_contain_kill_children(const pid_t *keep, int nkeep, double max_s)
{
    double t0 = sl_now();
    int killed = 0;
    for (;;) {
        pid_t kids[1024];
        int n = sl_contain_list_children(kids, 1024), strays = 0;
        for (int i = 0; i < n; i++) {
            if (kept(kids[i], keep, nkeep))
                continue;
            /* its own group too: what it started and did not detach */
            kill(-kids[i], SIGKILL);
            kill(kids[i], SIGKILL);
            while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
                ;
            strays++;
        }
        killed += strays;
        if (strays == 0 || sl_now() - t0 > max_s)
            break;
        /* killed parents hand their own children to us: go round again */
    }
    reap_strays(keep, nkeep);
    return killed;
}
