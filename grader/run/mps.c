#include "mps.h"

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files.h"
#include "sandbox.h"

#define PIPES_ENV "SYNCLAB_MPS_PIPES"

static char g_dir[256], g_pipes[300], g_logs[300]; /* g_dir empty: no daemon */
static long g_uid = -1;                            /* the daemon's uid when not ours */

const char *sl_mps_pipes(void)
{
    const char *p = getenv(PIPES_ENV);
    return p && *p ? p : NULL;
}

/* Runs nvidia-cuda-mps-control [arg] as the daemon's uid with its folders
 * in the environment of that call alone (no other CUDA program of ours
 * finds the daemon), stdin from `input` (NULL: none). Its exit code; 127
 * when it could not be run. */
static int control(const char *arg, const char *input)
{
    int in[2] = {-1, -1};
    if (input && pipe(in) != 0)
        return 127;
    pid_t pid = fork();
    if (pid < 0) {
        if (input) {
            close(in[0]);
            close(in[1]);
        }
        return 127;
    }
    if (pid == 0) {
        if (input) {
            dup2(in[0], STDIN_FILENO);
            close(in[0]);
            close(in[1]);
        }
        setenv("CUDA_MPS_PIPE_DIRECTORY", g_pipes, 1);
        setenv("CUDA_MPS_LOG_DIRECTORY", g_logs, 1);
        /* as the sandbox's uid: MPS runs one server at a time, for one uid, and the
         * runs that use it must not keep root (RLIMIT_NPROC, signals) */
        if (g_uid >= 0 &&
            (setgroups(0, NULL) != 0 || setresgid((gid_t)g_uid, (gid_t)g_uid, (gid_t)g_uid) != 0 ||
             setresuid((uid_t)g_uid, (uid_t)g_uid, (uid_t)g_uid) != 0))
            _exit(126);
        execlp("nvidia-cuda-mps-control", "nvidia-cuda-mps-control", arg, (char *)NULL);
        _exit(127);
    }
    if (input) {
        close(in[0]);
        void (*was)(int) = signal(SIGPIPE, SIG_IGN); /* it may quit unread */
        ssize_t w = write(in[1], input, strlen(input));
        (void)w;
        close(in[1]);
        signal(SIGPIPE, was);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}

static int give(const char *path)
{
    return g_uid < 0 || chown(path, (uid_t)g_uid, (gid_t)g_uid) == 0 ? 0 : -1;
}

int sl_mps_start(void)
{
    /* a folder of its own (mkdtemp): a name from the pid could be made
     * first by another user, or be left from an earlier run */
    snprintf(g_dir, sizeof g_dir, "/tmp/synclab-mps-XXXXXX");
    if (!mkdtemp(g_dir)) {
        fprintf(stderr, "syncgrade: --mps: cannot create a folder in /tmp (%s)\n", strerror(errno));
        g_dir[0] = '\0';
        return -1;
    }
    snprintf(g_pipes, sizeof g_pipes, "%s/pipe", g_dir);
    snprintf(g_logs, sizeof g_logs, "%s/log", g_dir);
    g_uid = geteuid() == 0 ? sl_sandbox_uid() : -1;
    mkdir(g_pipes, 0700);
    mkdir(g_logs, 0700);
    if (access(g_pipes, W_OK) != 0 || access(g_logs, W_OK) != 0 || give(g_dir) || give(g_pipes) ||
        give(g_logs)) {
        fprintf(stderr, "syncgrade: --mps: cannot create %s\n", g_dir);
        sl_remove_tree(g_dir, 1);
        g_dir[0] = '\0';
        return -1;
    }
    /* -d daemonizes: the command returns once the daemon listens */
    int rc = control("-d", NULL);
    if (rc != 0) {
        fprintf(stderr, "syncgrade: --mps: %s (status %d): going on without MPS\n",
                rc == 127 ? "no nvidia-cuda-mps-control" : "the MPS daemon did not start", rc);
        sl_remove_tree(g_dir, 1);
        g_dir[0] = '\0';
        return -1;
    }
    setenv(PIPES_ENV, g_pipes, 1);
    fprintf(stderr, "syncgrade: --mps: MPS daemon started for the lesson sweeps, pipes in %s\n",
            g_pipes);
    return 0;
}

void sl_mps_stop(void)
{
    if (!g_dir[0])
        return;
    control(NULL, "quit\n");
    /* the daemon removes its pipes as it quits; give it a moment */
    for (int i = 0; i < 50; i++) {
        char pid_file[400];
        snprintf(pid_file, sizeof pid_file, "%s/nvidia-cuda-mps-control.pid", g_pipes);
        if (access(pid_file, F_OK) != 0)
            break;
        usleep(100000);
    }
    unsetenv(PIPES_ENV);
    sl_remove_tree(g_dir, 1);
    g_dir[0] = '\0';
}
