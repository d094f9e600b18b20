#include "mps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PIPES_ENV "SYNCLAB_MPS_PIPES"

static char g_dir[256];

const char *sl_mps_pipes(void)
{
    const char *p = getenv(PIPES_ENV);
    return p && *p ? p : NULL;
}

/* The control program's environment: set only around its own call, so that
 * no other CUDA program of ours (a runner outside the sweep) finds the
 * daemon. */
static void control_env(const char *pipes, const char *logs)
{
    if (pipes) {
        setenv("CUDA_MPS_PIPE_DIRECTORY", pipes, 1);
        setenv("CUDA_MPS_LOG_DIRECTORY", logs, 1);
    } else {
        unsetenv("CUDA_MPS_PIPE_DIRECTORY");
        unsetenv("CUDA_MPS_LOG_DIRECTORY");
    }
}

int sl_mps_start(void)
{
    char pipes[300], logs[300];
    snprintf(g_dir, sizeof g_dir, "/tmp/synclab-mps-%ld", (long)getpid());
    snprintf(pipes, sizeof pipes, "%s/pipe", g_dir);
    snprintf(logs, sizeof logs, "%s/log", g_dir);
    mkdir(g_dir, 0700);
    mkdir(pipes, 0700);
    mkdir(logs, 0700);
    if (access(pipes, W_OK) != 0 || access(logs, W_OK) != 0) {
        fprintf(stderr, "syncgrade: --mps: cannot create %s\n", g_dir);
        g_dir[0] = '\0';
        return -1;
    }
    control_env(pipes, logs);
    /* -d daemonizes: the command returns once the daemon listens */
    int rc = system("command -v nvidia-cuda-mps-control >/dev/null && "
                    "nvidia-cuda-mps-control -d");
    control_env(NULL, NULL);
    if (rc != 0) {
        fprintf(stderr,
                "syncgrade: --mps: no nvidia-cuda-mps-control, or it did not start "
                "(status %d): going on without MPS\n",
                rc);
        g_dir[0] = '\0';
        return -1;
    }
    setenv(PIPES_ENV, pipes, 1);
    fprintf(stderr, "syncgrade: --mps: MPS daemon started for the lesson sweeps, pipes in %s\n",
            pipes);
    return 0;
}

void sl_mps_stop(void)
{
    if (!g_dir[0])
        return;
    char pipes[300], logs[300];
    snprintf(pipes, sizeof pipes, "%s/pipe", g_dir);
    snprintf(logs, sizeof logs, "%s/log", g_dir);
    control_env(pipes, logs);
    FILE *p = popen("nvidia-cuda-mps-control", "w");
    if (p) {
        fputs("quit\n", p);
        pclose(p);
    }
    control_env(NULL, NULL);
    /* the daemon removes its pipes as it quits; give it a moment */
    for (int i = 0; i < 50; i++) {
        char pid_file[400];
        snprintf(pid_file, sizeof pid_file, "%s/nvidia-cuda-mps-control.pid", pipes);
        if (access(pid_file, F_OK) != 0)
            break;
        usleep(100000);
    }
    unsetenv(PIPES_ENV);
    g_dir[0] = '\0';
}
