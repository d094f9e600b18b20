/* The paths baked into syncgrade when it was configured (synclab_config.h),
 * checked before grade, check or class grade anyone (cli.h). A cluster node
 * that lacks one (another checkout path, no CUDA toolkit there, no .deps)
 * would otherwise fail every student's build or run: the machine's fault
 * taken for the students'. Cheap access() checks, one line for the first
 * missing path. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "synclab_config.h"

#include "cli.h"

/* 0 when path is there for mode; else the ERROR line on stderr and -1. */
static int need(const char *what, const char *path, int mode, const char *origin, const char *fix)
{
    if (access(path, mode) == 0)
        return 0;
    fprintf(stderr,
            "syncgrade: ERROR: %s %s is missing on this machine (%s): %s. No student was "
            "graded.\n",
            what, path, origin, fix);
    return -1;
}

int cli_check_paths(const sl_build_config *bc)
{
    static const char BAKED[] = "baked into syncgrade when it was configured";
    static const char SAME_PATH[] =
        "every grading node must see the checkout and its build at the paths they had "
        "when syncgrade was configured (a shared file system), or configure and build "
        "on the node";
    if (need("the source tree", SYNCLAB_SOURCE_DIR, R_OK | X_OK, BAKED, SAME_PATH) ||
        need("the lessons' harness libraries", SYNCLAB_HARNESS_DIR, R_OK | X_OK, BAKED,
             "build them (make grade builds them); every grading node must see them at "
             "this path"))
        return -1;
    const char *nvcc = getenv("SYNCLAB_NVCC");
    int nvcc_env = nvcc && *nvcc;
    if (need("nvcc", bc->nvcc, X_OK, nvcc_env ? "SYNCLAB_NVCC" : BAKED,
             nvcc_env ? "point SYNCLAB_NVCC at nvcc"
                      : "install the CUDA toolkit at this path on every grading node, or "
                        "set SYNCLAB_NVCC"))
        return -1;
    /* compute-sanitizer: a wrong SYNCLAB_SANITIZER, or a baked one gone with
     * none on the PATH (none at all when configured: the dynamic checks say so) */
    const char *san = getenv("SYNCLAB_SANITIZER");
    if (san && *san &&
        need("compute-sanitizer", san, X_OK, "SYNCLAB_SANITIZER",
             "point SYNCLAB_SANITIZER at compute-sanitizer, or unset it"))
        return -1;
    if (SYNCLAB_SANITIZER[0] && !cli_find_sanitizer() &&
        need("compute-sanitizer", SYNCLAB_SANITIZER, X_OK, BAKED,
             "install the CUDA toolkit at this path on every grading node, or set "
             "SYNCLAB_SANITIZER"))
        return -1;
    if (SYNCLAB_DEPS_ROOT[0] &&
        need("the unpacked dependencies (bubblewrap, libraries)", SYNCLAB_DEPS_ROOT, R_OK | X_OK,
             BAKED,
             "every grading node must see this folder at this path (scripts/fetch-deps.sh "
             "makes one)"))
        return -1;
    return 0;
}
