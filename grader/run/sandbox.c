#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cJSON.h>

#include "files.h"
#include "gpu_node.h"
#include "gpu_turn.h"
#include "levers.h"
#include "mps.h"
#include "proc.h"
#include "synclab_config.h"
#include "trace.h"

enum {
    MAX_HIDDEN = 256,
    PROBE_TIMEOUT_S = 20,
    DEFAULT_NPROC = 4096,    /* processes and threads of the sandbox's uid */
    DEFAULT_DATA_MB = 32768, /* RLIMIT_DATA: CUDA reserves address space, not data */
    TMP_BYTES = 128 << 20,   /* the sandbox's own /tmp */
    SHM_BYTES = 256 << 20,   /* and /dev/shm */
    DEFAULT_UIDS = 64,       /* concurrent jobs with a uid of their own (root) */
    MAX_STAGED = 16,         /* runs of one process with staged binds at once */
    STAGED_BINDS = 8,        /* staged binds of one run (runner, inputs, tool, output) */
    /* the base, 6 per hidden folder, 3 per bind, and the command */
    MAX_SYSTEM = 96, /* system binds: sandbox_view */
    MAX_ARGS = 64 + 3 * MAX_SYSTEM + 6 * (MAX_HIDDEN + 1) + 3 * (2 * SL_SANDBOX_MAX_BINDS + 3) +
               9 * STAGED_BINDS + 512,
};

/* Set once by the probe, before the grader forks its lesson and judge
 * processes, which inherit them. */
static int g_probed, g_available;
static char g_bwrap[PATH_MAX];
/* libraries of a staged bwrap (stage_bwrap): its exec's LD_LIBRARY_PATH */
static char g_bwrap_libs[PATH_MAX];
static void unreachable_top(const char *path, char *top, size_t n);
static char g_status[600];
static uid_t g_uid = (uid_t)-1; /* the sandbox's uid when we are root, else -1 */
static gid_t g_gid = (gid_t)-1;
static int g_drop_now;               /* this run drops to g_uid (sl_sandbox_prepare) */
static uid_t g_base_uid = (uid_t)-1; /* SYNCLAB_SANDBOX_UID: slot 0's, and MPS's */
static int g_refuse;                 /* root, and the sandbox uid cannot run bwrap */
/* The uid of this job (claim_uid): a process and its forks that did not
 * claim their own. */
static pid_t g_claimed_by;
static uid_t g_job_uid = (uid_t)-1;
static char g_stage_root[PATH_MAX]; /* grader-owned 0711 folder for staged binds */
static pid_t g_stage_owner;
/* This run's binds the uid cannot reach, staged (prepare) and shown at
 * their own paths over a tmpfs on their topmost unreachable folder. */
typedef struct {
    const sl_sandbox *box;
    pid_t owner;        /* a fork inherits the table, not the runs */
    char dir[PATH_MAX]; /* <stage root>/run-XXXXXX */
    int nbinds;
    char path[STAGED_BINDS][PATH_MAX]; /* the real path the run sees */
    char staged[STAGED_BINDS][PATH_MAX];
    int rw[STAGED_BINDS];
    char top[STAGED_BINDS][PATH_MAX]; /* its topmost folder the uid cannot pass */
} staging;
static staging g_staged[MAX_STAGED];
static staging *g_staging_now; /* the run being started (prepare to exec) */
static char *g_hidden[MAX_HIDDEN];
static int g_nhidden;

void sl_sandbox_ro(sl_sandbox *s, const char *path)
{
    if (path && s->nro < SL_SANDBOX_MAX_BINDS)
        s->ro[s->nro++] = path;
}

void sl_sandbox_rw(sl_sandbox *s, const char *path)
{
    if (path && s->nrw < SL_SANDBOX_MAX_BINDS)
        s->rw[s->nrw++] = path;
}

/* An absolute spelling of path (the sandbox's cwd is not the grader's). */
static void absolute(const char *path, char *out, size_t n)
{
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(out, n, "%s", path);
    else
        snprintf(out, n, "%s/%s", cwd, path);
}

void sl_sandbox_hide(const char *path)
{
    if (!path || !*path || g_nhidden >= MAX_HIDDEN)
        return;
    char abs[PATH_MAX], real[PATH_MAX];
    absolute(path, abs, sizeof abs);
    const char *p = realpath(abs, real) ? real : abs;
    if (strcmp(p, "/") == 0)
        return; /* hiding everything hides CUDA too */
    for (int i = 0; i < g_nhidden; i++)
        if (strcmp(g_hidden[i], p) == 0)
            return;
    g_hidden[g_nhidden++] = strdup(p);
}

static long env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    return v && *v ? atol(v) : fallback;
}

static int executable(const char *path) { return path && access(path, X_OK) == 0; }

static int find_bwrap(char *out, size_t n)
{
    const char *path = getenv("PATH");
    for (const char *s = path; s && *s;) {
        size_t len = strcspn(s, ":");
        snprintf(out, n, "%.*s/bwrap", (int)len, s);
        if (len && executable(out))
            return 1;
        s += len + (s[len] == ':');
    }
    /* unpacked from the Debian package next to the other dependencies */
    snprintf(out, n, "%s/usr/bin/bwrap", SYNCLAB_DEPS_ROOT);
    return SYNCLAB_DEPS_ROOT[0] && executable(out);
}

/* ---------- what a runner (and a compile) sees of the system ----------
 * Not `/`: the programs and libraries (/usr and the top-level folders that
 * hold or link to them), the loader's cache, the GPU's device nodes, /proc
 * and /sys (CUDA reads the PCI topology there), the CUDA toolkit (CUPTI and
 * compute-sanitizer live there) and the folders of LD_LIBRARY_PATH wherever
 * they are. No /home, /root, /etc/passwd, /var or /opt beyond these. */
static struct {
    const char *how;
    char src[PATH_MAX], dst[PATH_MAX];
} g_view[MAX_SYSTEM];
static int g_nview, g_view_made;

static int view_covers(const char *path)
{
    for (int i = 0; i < g_nview; i++) {
        size_t n = strlen(g_view[i].dst);
        if (strcmp(g_view[i].how, "--symlink") != 0 && strncmp(path, g_view[i].dst, n) == 0 &&
            (path[n] == '/' || path[n] == '\0'))
            return 1;
    }
    return 0;
}

static void view_add(const char *how, const char *src, const char *dst)
{
    if (g_nview >= MAX_SYSTEM || view_covers(dst))
        return;
    g_view[g_nview].how = how;
    snprintf(g_view[g_nview].src, PATH_MAX, "%s", src);
    snprintf(g_view[g_nview].dst, PATH_MAX, "%s", dst);
    g_nview++;
}

/* A folder or file as it is: a symbolic link stays one (merged /usr makes
 * /lib a link to usr/lib), anything else is bound read-only. */
static void view_path(const char *path)
{
    struct stat st;
    char target[PATH_MAX];
    if (lstat(path, &st) != 0)
        return;
    if (S_ISLNK(st.st_mode)) {
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            view_add("--symlink", target, path);
        }
        return;
    }
    view_add("--ro-bind", path, path);
}

/* The folder of realpath(dirname^up(file)), bound when outside the rest. */
static void view_tree_of(const char *file, int up)
{
    char real[PATH_MAX];
    if (!file || !*file || !realpath(file, real))
        return;
    for (int i = 0; i < up; i++) {
        char *slash = strrchr(real, '/');
        if (!slash || slash == real)
            return;
        *slash = '\0';
    }
    if (strcmp(real, "/") != 0)
        view_add("--ro-bind", real, real);
}

static void sandbox_view(void)
{
    if (g_view_made)
        return;
    g_view_made = 1;
    view_add("--ro-bind", "/usr", "/usr");
    static const char *const top[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", NULL};
    for (int i = 0; top[i]; i++)
        view_path(top[i]);
    /* the loader's cache and configuration, and Debian's alternatives (cc,
     * c++ for the compile steps) */
    static const char *const etc[] = {"/etc/ld.so.cache",  "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                      "/etc/alternatives", "/etc/nvidia",     NULL};
    for (int i = 0; etc[i]; i++)
        view_path(etc[i]);
    view_path("/sys");
    /* the persistence daemon's socket, where the driver has one, under
     * either name */
    view_path("/run/nvidia-persistenced");
    view_path("/var/run");
    /* the toolkit (nvcc's folder's parent: nvcc, CUPTI, compute-sanitizer),
     * wherever it is installed */
    view_tree_of(getenv("SYNCLAB_NVCC"), 2);
    view_tree_of(SYNCLAB_NVCC, 2);
    view_tree_of(SYNCLAB_CUPTI_DIR, 0);
    view_tree_of(SYNCLAB_SANITIZER, 2);
    const char *ld = getenv("LD_LIBRARY_PATH");
    for (const char *p = ld; p && *p;) {
        size_t len = strcspn(p, ":");
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)len, p);
        /* a folder the uid runs drop to cannot reach (a private tree's
         * .deps, for the grader's own tools) is the grader's, not a
         * runner's: bubblewrap could not bind it, and nothing would start */
        char top[PATH_MAX] = "";
        if (g_uid != (uid_t)-1)
            unreachable_top(dir, top, sizeof top);
        if (dir[0] == '/' && !top[0])
            view_tree_of(dir, 0);
        p += len + (p[len] == ':');
    }
}

/* The one GPU node the runs of this process see ("gpunode" lever), picked
 * before the fork (sl_sandbox_prepare) once for each CUDA_VISIBLE_DEVICES
 * it has (a class's student has one): picking opens every GPU's node. */
static struct {
    int asked, one;
    char visible[256], order[32];
    sl_gpu_node node;
} g_own;

/* Whether g_own was picked for this environment. */
static int own_is_for(char *key, size_t nk, char *okey, size_t no)
{
    const char *v = getenv("CUDA_VISIBLE_DEVICES"), *order = getenv("CUDA_DEVICE_ORDER");
    snprintf(key, nk, "%s%s", v ? "=" : "", v ? v : "");
    snprintf(okey, no, "%s", order ? order : "");
    return g_own.asked && strcmp(key, g_own.visible) == 0 && strcmp(okey, g_own.order) == 0;
}

/* In the child: the parent's pick, when it was made for this environment. */
static const sl_gpu_node *own_picked(void)
{
    char key[256], okey[32];
    return sl_lever_on("gpunode") && own_is_for(key, sizeof key, okey, sizeof okey) && g_own.one
               ? &g_own.node
               : NULL;
}

static const sl_gpu_node *own_gpu_node(void)
{
    if (!sl_lever_on("gpunode"))
        return NULL;
    const char *v = getenv("CUDA_VISIBLE_DEVICES"), *order = getenv("CUDA_DEVICE_ORDER");
    char key[256], okey[32];
    if (!own_is_for(key, sizeof key, okey, sizeof okey)) {
        g_own.asked = 1;
        snprintf(g_own.visible, sizeof g_own.visible, "%s", key);
        snprintf(g_own.order, sizeof g_own.order, "%s", okey);
        g_own.one = sl_gpu_node_pick("/proc/driver/nvidia/gpus", "/dev", v,
                                     order && strcmp(order, "PCI_BUS_ID") == 0, &g_own.node);
        if (sl_tracing()) {
            if (g_own.one)
                fprintf(stderr, "[trace] sandbox: runs see /dev/nvidia%d only (%s)\n",
                        g_own.node.minor, g_own.node.uuid);
            else
                fprintf(stderr, "[trace] sandbox: runs see every GPU's node\n");
        }
    }
    return g_own.one ? &g_own.node : NULL;
}

/* The options every sandbox starts with. A client of our MPS daemon
 * (mps_pipes) keeps the host's /dev/shm and IPC namespace: the daemon
 * talks to its clients through them. */
static int base_args(const char **argv, int k, const char *mps_pipes, const sl_gpu_node *own)
{
    static char tmp_size[32], shm_size[32];
    const char *mb = getenv("SYNCLAB_SANDBOX_TMP_MB"); /* /tmp and /dev/shm */
    long long tmp = mb && atoll(mb) > 0 ? atoll(mb) << 20 : TMP_BYTES;
    snprintf(tmp_size, sizeof tmp_size, "%lld", tmp);
    snprintf(shm_size, sizeof shm_size, "%lld", mb && atoll(mb) > 0 ? tmp : (long long)SHM_BYTES);
    sandbox_view();
    argv[k++] = g_bwrap;
    for (int i = 0; i < g_nview; i++) {
        argv[k++] = g_view[i].how;
        argv[k++] = g_view[i].src;
        argv[k++] = g_view[i].dst;
    }
    /* a /dev of its own (null, zero, urandom ...) and the GPU's nodes */
    static glob_t nodes;
    static int globbed;
    if (!globbed) {
        globbed = 1;
        if (glob("/dev/nvidia*", 0, NULL, &nodes) != 0)
            nodes.gl_pathc = 0;
    }
    argv[k++] = "--dev";
    argv[k++] = "/dev";
    /* only its own GPU's node, where that GPU is known for sure (an MPS
     * client keeps them all: the server, not the client, picks the GPU) */
    if (mps_pipes)
        own = NULL;
    for (size_t i = 0; i < nodes.gl_pathc && i < MAX_SYSTEM; i++) {
        if (own && !sl_gpu_node_keep(nodes.gl_pathv[i], own))
            continue;
        argv[k++] = "--dev-bind";
        argv[k++] = nodes.gl_pathv[i];
        argv[k++] = nodes.gl_pathv[i];
    }
    if (own) { /* the index it had counted every GPU; inside there is one */
        argv[k++] = "--setenv";
        argv[k++] = "CUDA_VISIBLE_DEVICES";
        argv[k++] = own->uuid;
    }
    const char *base[] = {"--proc",
                          "/proc",
                          "--size",
                          tmp_size,
                          "--tmpfs",
                          "/tmp",
                          "--unshare-user",
                          "--unshare-pid",
                          "--unshare-net",
                          "--unshare-uts",
                          "--die-with-parent",
                          "--new-session",
                          "--setenv",
                          "TMPDIR",
                          "/tmp",
                          "--setenv",
                          "HOME",
                          "/tmp",
                          NULL};
    for (int i = 0; base[i]; i++)
        argv[k++] = base[i];
    if (mps_pipes) {
        argv[k++] = "--dev-bind";
        argv[k++] = "/dev/shm";
        argv[k++] = "/dev/shm";
    } else {
        argv[k++] = "--size";
        argv[k++] = shm_size;
        argv[k++] = "--tmpfs";
        argv[k++] = "/dev/shm";
        argv[k++] = "--unshare-ipc";
    }
    return k;
}

static void drop_to(uid_t uid, gid_t gid)
{
    if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0)
        _exit(126);
}

static int stage_bwrap(void);

/* In a child, just before bubblewrap is executed: a staged bwrap finds
 * its libraries first (stage_bwrap). */
static void bwrap_env(void)
{
    if (!g_bwrap_libs[0])
        return;
    const char *old = getenv("LD_LIBRARY_PATH");
    char v[2 * PATH_MAX];
    snprintf(v, sizeof v, "%s%s%s", g_bwrap_libs, old && *old ? ":" : "", old ? old : "");
    setenv("LD_LIBRARY_PATH", v, 1);
}

/* Runs `bwrap <base> true` as uid (-1: ourselves); 1 when it works, else 0
 * with bubblewrap's first line of complaint in why. */
static int try_bwrap(uid_t uid, gid_t gid, char *why, size_t n)
{
    int err[2];
    if (pipe2(err, O_CLOEXEC) != 0) {
        snprintf(why, n, "pipe: %s", strerror(errno));
        return 0;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(err[0]);
        close(err[1]);
        snprintf(why, n, "fork: %s", strerror(errno));
        return 0;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        if (uid != (uid_t)-1)
            drop_to(uid, gid);
        static const char *argv[MAX_ARGS];
        int k = base_args(argv, 0, NULL, NULL);
        argv[k++] = "true";
        argv[k] = NULL;
        bwrap_env();
        execv(g_bwrap, (char *const *)argv);
        _exit(127);
    }
    close(err[1]);
    double t0 = sl_now();
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, WNOHANG)) == 0 && sl_now() - t0 < PROBE_TIMEOUT_S)
        usleep(2000);
    if (w == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    char buf[400] = "";
    ssize_t got = read(err[0], buf, sizeof buf - 1);
    close(err[0]);
    buf[got > 0 ? got : 0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    if (w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 1;
    snprintf(why, n, "%s", buf[0] ? buf : w == 0 ? "timed out" : "exit status not 0");
    return 0;
}

static void probe(void)
{
    if (g_probed)
        return;
    g_probed = 1;
    /* the grader's trees (the GPU-turn locks: sl_sandbox_exec) */
    sl_sandbox_hide(SYNCLAB_SOURCE_DIR);
    sl_sandbox_hide(SYNCLAB_BINARY_DIR);
    const char *off = getenv("SYNCLAB_SANDBOX");
    char why[400] = "";
    if (off && strcmp(off, "0") == 0)
        snprintf(why, sizeof why, "turned off by SYNCLAB_SANDBOX=0");
    else if (!find_bwrap(g_bwrap, sizeof g_bwrap))
        snprintf(why, sizeof why,
                 "bubblewrap (bwrap) not found: install the Debian package "
                 "bubblewrap");
    else {
        char uid_why[400] = "";
        uid_t uid = (uid_t)-1;
        if (geteuid() == 0) {
            /* root ignores RLIMIT_NPROC, and could signal the grader */
            const char *u = getenv("SYNCLAB_SANDBOX_UID");
            uid = (uid_t)(u && *u ? atol(u) : 65534);
            if (uid == 0)
                snprintf(uid_why, sizeof uid_why, "SYNCLAB_SANDBOX_UID is 0 (root)");
            else if (try_bwrap(uid, (gid_t)uid, uid_why, sizeof uid_why) ||
                     (stage_bwrap() == 0 && try_bwrap(uid, (gid_t)uid, uid_why, sizeof uid_why))) {
                g_uid = g_base_uid = uid;
                g_gid = (gid_t)uid;
            }
        }
        g_available = g_uid != (uid_t)-1 || try_bwrap((uid_t)-1, (gid_t)-1, why, sizeof why);
        if (g_available && geteuid() == 0 && g_uid == (uid_t)-1) {
            /* bubblewrap works for root but not for the uid runs drop to:
             * never run student code as root instead */
            g_available = 0;
            g_refuse = 1;
            snprintf(g_status, sizeof g_status,
                     "sandbox: refused: as root, runs drop to uid %ld, which cannot start "
                     "bubblewrap %s (%.200s): make it reachable by that uid (o+x on every "
                     "folder above it) or set SYNCLAB_SANDBOX_UID; no runner starts",
                     (long)uid, g_bwrap, uid_why);
            return;
        }
    }
    if (g_available) {
        char as[64] = "";
        long n = env_long("SYNCLAB_SANDBOX_UIDS", DEFAULT_UIDS);
        if (g_uid != (uid_t)-1 && n > 1)
            snprintf(as, sizeof as, ", as uids %ld-%ld, one per concurrent job", (long)g_uid,
                     (long)g_uid + n - 1);
        else if (g_uid != (uid_t)-1)
            snprintf(as, sizeof as, ", as uid %ld", (long)g_uid);
        snprintf(g_status, sizeof g_status,
                 "sandbox: bubblewrap (%s)%s: runs see a read-only "
                 "system, their own output folder and nothing of the grader's",
                 g_bwrap, as);
    } else {
        snprintf(g_status, sizeof g_status,
                 "sandbox: unavailable (%.300s), runs are contained "
                 "only by process groups, rlimits, the subreaper and non-dumpable grader "
                 "processes (docs/integrity.md)",
                 why);
    }
}

int sl_sandbox_available(void)
{
    probe();
    return g_available;
}

long sl_sandbox_uid(void)
{
    return sl_sandbox_available() && g_base_uid != (uid_t)-1 ? (long)g_base_uid : -1;
}

/* One uid per concurrent job (root only): RLIMIT_NPROC counts a uid's
 * processes, so a fork bomb of one job exhausts its own limit, not every
 * sandbox's. A process (a lesson, a judge, a student of a class) claims
 * the first free uid of SYNCLAB_SANDBOX_UID + 0..SYNCLAB_SANDBOX_UIDS-1 by
 * a lock file (flock, held until it exits; runners cannot reach /tmp's
 * locks: theirs is a tmpfs); its forks that start runs claim their own.
 * Under MPS every run keeps the base uid: one server serves one uid. */
static void claim_uid(void)
{
    if (g_base_uid == (uid_t)-1 || g_claimed_by == getpid())
        return;
    g_claimed_by = getpid();
    g_job_uid = g_base_uid;
    long n = env_long("SYNCLAB_SANDBOX_UIDS", DEFAULT_UIDS);
    if (sl_mps_pipes() || n <= 1)
        return;
    for (long i = 0; i < n; i++) {
        char lock[PATH_MAX];
        snprintf(lock, sizeof lock, "/tmp/synclab-uid-%lu.lock", (unsigned long)g_base_uid + i);
        int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            g_job_uid = (uid_t)(g_base_uid + i); /* the descriptor stays open: the claim */
            return;
        }
        close(fd);
    }
    /* every slot taken: share one */
    g_job_uid = (uid_t)(g_base_uid + (unsigned long)getpid() % (unsigned long)n);
}

long sl_sandbox_job_uid(void)
{
    if (!sl_sandbox_available() || g_base_uid == (uid_t)-1)
        return -1;
    claim_uid();
    return (long)g_job_uid;
}

const char *sl_sandbox_status(void)
{
    probe();
    return g_status;
}

/* Every folder on the way to path can be passed by others (o+x), and a
 * file read (o+r): what a dropped uid needs to reach a bind's source. */
static int others_reach(const char *path, int need_read)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    struct stat st;
    if (stat(p, &st) != 0)
        return 0;
    if (need_read && !(st.st_mode & S_IROTH) && st.st_uid != g_uid)
        return 0;
    for (char *slash = strrchr(p, '/'); slash; slash = strrchr(p, '/')) {
        *slash = '\0';
        if (stat(p[0] ? p : "/", &st) != 0)
            return 0;
        if (!(st.st_mode & S_IXOTH) && st.st_uid != g_uid)
            return 0;
    }
    return 1;
}

static int give_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
    (void)f;
    if (type != FTW_D && type != FTW_F && type != FTW_SL)
        return 0;
    if (st->st_uid == g_uid)
        return 0;
    return lchown(path, g_uid, g_gid) == 0 ? 0 : -1;
}

/* The folder and what is in it (sub-folders the grader made for it). */
static int give_tree(const char *dir) { return nftw(dir, give_entry, 16, FTW_PHYS) == 0 ? 0 : -1; }

/* ---------- private trees: staging what the uid cannot reach ---------- */

static void remove_stage_root(void)
{
    if (g_stage_root[0] && g_stage_owner == getpid())
        sl_remove_tree(g_stage_root, 1);
}

/* The grader-owned 0711 folder staged binds go in (SYNCLAB_STAGE_DIR, else
 * /tmp): the uid may pass through it, not list it. 0 ok. */
static int stage_root(void)
{
    if (g_stage_root[0])
        return 0;
    const char *base = getenv("SYNCLAB_STAGE_DIR");
    snprintf(g_stage_root, sizeof g_stage_root, "%s/synclab-stage-XXXXXX",
             base && *base ? base : "/tmp");
    if (!mkdtemp(g_stage_root) || chmod(g_stage_root, 0711) != 0) {
        g_stage_root[0] = '\0';
        return -1;
    }
    g_stage_owner = getpid();
    atexit(remove_stage_root);
    return 0;
}

/* The topmost folder on the way to path that the uid cannot pass, in top
 * ("" when every folder can be passed: only path itself is unreadable). */
static void unreachable_top(const char *path, char *top, size_t n)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    top[0] = '\0';
    for (char *slash = strchr(p + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode) && !(st.st_mode & S_IXOTH) &&
            st.st_uid != g_uid) {
            snprintf(top, n, "%s", p);
            return;
        }
        *slash = '/';
    }
    struct stat st;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode) && !(st.st_mode & S_IXOTH) && st.st_uid != g_uid)
        snprintf(top, n, "%s", p); /* path itself: a folder nobody may enter */
}

/* What staging did since the last trace line: files linked, files copied
 * and their bytes (a copy, not a link, when the file is not readable by
 * others or the stage folder is on another file system). */
static struct {
    long linked, copied;
    long long bytes;
} g_stage_count;

/* The trace line of one staging step (SYNCLAB_TRACE): bench-class.sh sums
 * them, so the cost of grading from a private tree is measured. */
static void trace_staging(const char *what, double since)
{
    if (sl_tracing())
        fprintf(stderr, "[trace] sandbox: %s: %ld linked, %ld copied (%.1f MB), %.3f s\n", what,
                g_stage_count.linked, g_stage_count.copied, g_stage_count.bytes / 1e6,
                sl_now() - since);
    memset(&g_stage_count, 0, sizeof g_stage_count);
}

/* A copy the uid can read of one regular file: a hard link when the file
 * is readable by others already (no bytes copied), else a copy 0644/0755. */
static int stage_file(const char *from, const char *to, const struct stat *st)
{
    if ((st->st_mode & S_IROTH) && link(from, to) == 0) {
        g_stage_count.linked++;
        return 0;
    }
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (in < 0)
        return -1;
    mode_t mode = (st->st_mode & 0111) ? 0755 : 0644;
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    int ok = out >= 0;
    char buf[1 << 16];
    for (ssize_t got; ok && (got = read(in, buf, sizeof buf)) > 0;) {
        ok = write(out, buf, (size_t)got) == got;
        g_stage_count.bytes += got;
    }
    g_stage_count.copied++;
    close(in);
    if (out >= 0 && (close(out) != 0 || fchmodat(AT_FDCWD, to, mode, 0) != 0))
        ok = 0;
    return ok ? 0 : -1;
}

static const char *g_copy_from, *g_copy_to;
static int g_copy_rw;

static int copy_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
    (void)f;
    char to[PATH_MAX];
    snprintf(to, sizeof to, "%s%s", g_copy_to, path + strlen(g_copy_from));
    int rc = 0, made = 0;
    if (type == FTW_D)
        rc = mkdir(to, g_copy_rw ? 0700 : 0755) == 0 || errno == EEXIST ? 0 : -1, made = 1;
    else if (type == FTW_F && S_ISREG(st->st_mode))
        rc = stage_file(path, to, st), made = 1;
    else if (type == FTW_SL) {
        /* a link the grader made (a compile's build folder links to the
         * submission, build.c): the same link; where it points, the
         * sandbox decides */
        char target[PATH_MAX];
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            rc = symlink(target, to);
        }
    }
    /* FIFOs, devices ...: not staged; a link is given to nobody */
    if (rc == 0 && made && g_copy_rw && lchown(to, g_uid, g_gid) != 0)
        rc = -1;
    return rc;
}

/* Copies the tree (or file) from into to. */
static int copy_tree(const char *from, const char *to, int rw)
{
    g_copy_from = from;
    g_copy_to = to;
    g_copy_rw = rw;
    return nftw(from, copy_entry, 16, FTW_PHYS) == 0 ? 0 : -1;
}

/* bubblewrap where the uid runs drop to can start it. As root in a private
 * tree (a 0700 checkout whose .deps holds bwrap), that uid cannot reach
 * .deps/usr/bin/bwrap: a copy goes into the 0711 stage folder, with the
 * libraries .deps gives it (Debian's bwrap links libcap, libselinux,
 * libpcre2), found through the exec's LD_LIBRARY_PATH (bwrap_env).
 * 0 when staged. */
static int stage_bwrap(void)
{
    static const char *const libs[] = {"libcap.so.2", "libselinux.so.1", "libpcre2-8.so.0"};
    char dir[PATH_MAX], to[PATH_MAX + 16], real[PATH_MAX];
    struct stat st;
    if (stage_root() != 0)
        return -1;
    snprintf(dir, sizeof dir, "%s/bwrap", g_stage_root);
    snprintf(to, sizeof to, "%s/bwrap", dir);
    if ((mkdir(dir, 0755) != 0 && errno != EEXIST) || chmod(dir, 0755) != 0 ||
        !realpath(g_bwrap, real) || stat(real, &st) != 0 || stage_file(real, to, &st) != 0)
        return -1;
    int staged_libs = 0;
    for (size_t i = 0; SYNCLAB_DEPS_ROOT[0] && i < sizeof libs / sizeof libs[0]; i++) {
        char from[PATH_MAX + 64], lib[PATH_MAX + 64];
        snprintf(from, sizeof from, "%s/usr/lib/x86_64-linux-gnu/%s", SYNCLAB_DEPS_ROOT, libs[i]);
        snprintf(lib, sizeof lib, "%s/%s", dir, libs[i]);
        if (realpath(from, real) && stat(real, &st) == 0 && stage_file(real, lib, &st) == 0)
            staged_libs = 1;
    }
    if (staged_libs)
        snprintf(g_bwrap_libs, sizeof g_bwrap_libs, "%s", dir);
    snprintf(g_bwrap, sizeof g_bwrap, "%s", to);
    return 0;
}

static staging *staging_of(const sl_sandbox *s)
{
    for (int i = 0; i < MAX_STAGED; i++)
        if (g_staged[i].box == s && g_staged[i].dir[0] && g_staged[i].owner == getpid())
            return &g_staged[i];
    return NULL;
}

/* Stages path for this run: a copy of it (hard links where possible), the
 * uid's own when rw, shown at path in the sandbox. 0 ok. */
static int stage(const sl_sandbox *s, staging **st, const char *path, int rw)
{
    if (!*st) {
        for (int i = 0; i < MAX_STAGED && !*st; i++)
            if (!g_staged[i].dir[0] || g_staged[i].owner != getpid())
                *st = &g_staged[i];
        if (!*st || stage_root() != 0)
            return -1;
        memset(*st, 0, sizeof **st);
        snprintf((*st)->dir, sizeof(*st)->dir, "%s/run-XXXXXX", g_stage_root);
        if (!mkdtemp((*st)->dir) || chmod((*st)->dir, 0711) != 0) {
            (*st)->dir[0] = '\0';
            return -1;
        }
        (*st)->box = s;
        (*st)->owner = getpid();
    }
    staging *g = *st;
    if (g->nbinds >= STAGED_BINDS)
        return -1;
    int k = g->nbinds++;
    char abs[PATH_MAX];
    absolute(path, abs, sizeof abs);
    if (!realpath(abs, g->path[k]))
        snprintf(g->path[k], sizeof g->path[k], "%s", abs);
    g->rw[k] = rw;
    unreachable_top(g->path[k], g->top[k], sizeof g->top[k]);
    snprintf(g->staged[k], sizeof g->staged[k], "%s/%d", g->dir, k);
    struct stat sb;
    /* a writable folder the run is the first to fill (a compile's build
     * folder) is made here, as the run would have found it */
    if (stat(g->path[k], &sb) != 0 &&
        !(rw && errno == ENOENT && sl_mkdirs(g->path[k]) == 0 && stat(g->path[k], &sb) == 0))
        return -1;
    if (S_ISDIR(sb.st_mode))
        return copy_tree(g->path[k], g->staged[k], rw);
    if (rw)
        return -1; /* a writable file: none is ever asked for */
    return stage_file(g->path[k], g->staged[k], &sb);
}

/* After the run: what the program left in a staged writable folder goes
 * back to the folder the grader reads, regular files only (a FIFO or link
 * stays behind: "no output file"); then the staged copies go. */
static const char *g_back_to, *g_back_from;

static int back_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
    if (f->level == 0)
        return 0;
    char to[PATH_MAX];
    snprintf(to, sizeof to, "%s%s", g_back_to, path + strlen(g_back_from));
    if (type == FTW_D)
        mkdir(to, 0755);
    else if (type == FTW_F && S_ISREG(st->st_mode) && rename(path, to) != 0) {
        struct stat mine = *st;
        mine.st_mode &= ~(mode_t)S_IROTH; /* copied, not linked */
        unlink(to);
        stage_file(path, to, &mine);
    }
    return 0;
}

void sl_sandbox_release(const sl_sandbox *s)
{
    staging *g = s ? staging_of(s) : NULL;
    if (!g)
        return;
    double t0 = sl_now();
    for (int k = 0; k < g->nbinds; k++) {
        if (g->rw[k]) {
            g_back_from = g->staged[k];
            g_back_to = g->path[k];
            nftw(g->staged[k], back_entry, 16, FTW_PHYS);
        }
    }
    sl_remove_tree(g->dir, 1);
    memset(g, 0, sizeof *g);
    trace_staging("outputs back", t0);
}

const char *sl_sandbox_seen_at(const sl_sandbox *s, const char *path)
{
    staging *g = s && path ? staging_of(s) : NULL;
    char abs[PATH_MAX], real[PATH_MAX];
    if (!g)
        return path;
    absolute(path, abs, sizeof abs);
    const char *p = realpath(abs, real) ? real : abs;
    for (int k = 0; k < g->nbinds; k++)
        if (g->rw[k] && strcmp(g->path[k], p) == 0)
            return g->staged[k];
    return path;
}

int sl_sandbox_prepare(const sl_sandbox *s)
{
    g_drop_now = 0;
    g_staging_now = NULL;
    if (g_refuse || (s && staging_of(s)))
        return -1; /* said in the status line; or the box is in use */
    if (sl_sandbox_available() && !(s && s->mps_pipes))
        own_gpu_node(); /* here, before the fork: the child inherits it */
    if (!sl_sandbox_available() || g_base_uid == (uid_t)-1)
        return 0; /* (our MPS daemon runs as the base uid too: mps.c) */
    claim_uid();
    /* a client of our MPS daemon runs as the daemon's uid, the base one */
    g_uid = s->mps_pipes ? g_base_uid : g_job_uid;
    g_gid = (gid_t)g_uid;
    /* a bind the uid cannot reach is staged where it can (private trees:
     * a checkout under a 0700 folder, /root): never run it as root */
    staging *st = NULL;
    int failed = 0;
    double t0 = sl_now();
    for (int i = 0; i < s->nro && !failed; i++)
        if (!others_reach(s->ro[i], 1))
            failed = stage(s, &st, s->ro[i], 0) != 0;
    for (int i = 0; i < s->nrw && !failed; i++)
        if (!others_reach(s->rw[i], 0))
            failed = stage(s, &st, s->rw[i], 1) != 0;
    for (int i = 0; i < s->nrw && !failed; i++)
        if (sl_sandbox_seen_at(s, s->rw[i]) == s->rw[i] && give_tree(s->rw[i]) != 0)
            failed = 1;
    if (failed) {
        fprintf(stderr,
                "syncgrade: the sandbox's uid %ld cannot reach what a run needs, and staging "
                "it under %s failed: grade from a folder that uid can pass (o+x), or set "
                "SYNCLAB_STAGE_DIR to one\n",
                (long)g_uid, g_stage_root[0] ? g_stage_root : "/tmp");
        if (s)
            sl_sandbox_release(s);
        return -1;
    }
    if (st)
        trace_staging("staged", t0);
    g_staging_now = st;
    g_drop_now = 1;
    return 0;
}

int sl_sandbox_started(const char *status)
{
    return status && strstr(status, "\"child-pid\"") != NULL;
}

long sl_sandbox_child_pid(const char *status)
{
    if (!status)
        return -1;
    /* one object a line; the first says the child */
    cJSON *j = cJSON_ParseWithOpts(status, NULL, 0);
    const cJSON *pid = cJSON_GetObjectItemCaseSensitive(j, "child-pid");
    long v = cJSON_IsNumber(pid) && pid->valuedouble >= 1 && pid->valuedouble < 1e9
                 ? (long)pid->valuedouble
                 : -1;
    cJSON_Delete(j);
    return v;
}

static void set_limit(int resource, rlim_t value)
{
    struct rlimit rl = {value, value};
    setrlimit(resource, &rl);
}

static void limits(const sl_sandbox *s)
{
    set_limit(RLIMIT_CORE, 0);
    if (s->cpu_s > 0)
        set_limit(RLIMIT_CPU, (rlim_t)(s->cpu_s + 1));
    long data_mb = env_long("SYNCLAB_SANDBOX_DATA_MB", DEFAULT_DATA_MB);
    if (data_mb > 0)
        set_limit(RLIMIT_DATA, (rlim_t)data_mb << 20);
    long nproc = s->nproc > 0 ? s->nproc : env_long("SYNCLAB_SANDBOX_NPROC", DEFAULT_NPROC);
    if (nproc > 0)
        set_limit(RLIMIT_NPROC, (rlim_t)nproc);
}

/* Whether path lies under dir (or is dir). */
static int under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static int bind(const char **argv, int k, const char *how, const char *path, char *store, size_t n)
{
    char abs[PATH_MAX];
    absolute(path, abs, sizeof abs);
    if (!realpath(abs, store))
        snprintf(store, n, "%s", abs);
    argv[k++] = how;
    argv[k++] = store;
    argv[k++] = store;
    return k;
}

/* Whether path is one of this run's staged binds. */
static int is_staged(const staging *st, const char *path)
{
    char abs[PATH_MAX], real[PATH_MAX];
    if (!st)
        return 0;
    absolute(path, abs, sizeof abs);
    const char *p = realpath(abs, real) ? real : abs;
    for (int i = 0; i < st->nbinds; i++)
        if (strcmp(st->path[i], p) == 0)
            return 1;
    return 0;
}

void sl_sandbox_exec(const sl_sandbox *s, char *const argv[], int status_fd)
{
    if (g_refuse) {
        errno = EACCES; /* the status line says why: never run as root */
        return;
    }
    limits(s);
    if (!sl_sandbox_available()) {
        execvp(argv[0], argv);
        return;
    }
    static const char *args[MAX_ARGS];
    static char paths[2 * SL_SANDBOX_MAX_BINDS + 3][PATH_MAX];
    static char status[16], lock_dir[PATH_MAX];
    static const char *hidden_dirs[MAX_HIDDEN + 1];
    int nhd = 0;
    int k = base_args(args, 0, s->mps_pipes, own_picked()), np = 0;
    /* what to hide: the folder of the GPU-turn locks (a runner holding
     * them would stall every other grader on its GPU), the grader's trees
     * (probe), its outputs and the submissions (sl_sandbox_hide). Each
     * only once: not under /tmp (the sandbox's own) nor under another
     * hidden folder. */
    const char *hide[MAX_HIDDEN + 1];
    int nh = 0;
    sl_gpu_lock_folder(lock_dir, sizeof lock_dir);
    if (lock_dir[0] && strcmp(lock_dir, "/") != 0)
        hide[nh++] = lock_dir;
    for (int i = 0; i < g_nhidden; i++)
        hide[nh++] = g_hidden[i];
    for (int i = 0; i < nh; i++) {
        struct stat st;
        int covered = under(hide[i], "/tmp") || stat(hide[i], &st) != 0 ||
                      (g_drop_now && !others_reach(hide[i], 0)); /* out of its reach anyway */
        for (int j = 0; j < nh && !covered; j++)
            covered = j != i && under(hide[i], hide[j]) && (strcmp(hide[i], hide[j]) != 0 || j < i);
        if (covered)
            continue;
        if (S_ISDIR(st.st_mode)) {
            /* empty, small, and read-only once the binds are made */
            args[k++] = "--size";
            args[k++] = "65536";
            args[k++] = "--tmpfs";
            args[k++] = hide[i];
            hidden_dirs[nhd++] = hide[i];
        } else {
            args[k++] = "--ro-bind";
            args[k++] = "/dev/null";
            args[k++] = hide[i];
        }
    }
    /* what must stay usable under a hidden folder: the unpacked
     * dependencies (bubblewrap, maybe the CUDA tools), where the uid can
     * reach them */
    if (SYNCLAB_DEPS_ROOT[0] && access(SYNCLAB_DEPS_ROOT, F_OK) == 0 &&
        (!g_drop_now || others_reach(SYNCLAB_DEPS_ROOT, 1)))
        k = bind(args, k, "--ro-bind", SYNCLAB_DEPS_ROOT, paths[np++], PATH_MAX);
    /* staged binds (sl_sandbox_prepare): an empty tmpfs over each topmost
     * folder the uid cannot pass, then each copy at its own path */
    const staging *st = g_drop_now ? g_staging_now : NULL;
    static const char *tops[STAGED_BINDS];
    int ntops = 0;
    for (int i = 0; st && i < st->nbinds; i++) {
        int seen = !st->top[i][0];
        for (int j = 0; j < ntops && !seen; j++)
            seen = under(st->top[i], tops[j]);
        if (seen)
            continue;
        args[k++] = "--size";
        args[k++] = "65536";
        args[k++] = "--tmpfs";
        args[k++] = st->top[i];
        tops[ntops++] = st->top[i];
    }
    for (int i = 0; st && i < st->nbinds; i++) {
        args[k++] = st->rw[i] ? "--bind" : "--ro-bind";
        args[k++] = st->staged[i];
        args[k++] = st->path[i];
    }
    if (s->mps_pipes && access(s->mps_pipes, F_OK) == 0)
        k = bind(args, k, "--ro-bind", s->mps_pipes, paths[np++], PATH_MAX);
    for (int i = 0; i < s->nro; i++)
        if (!is_staged(st, s->ro[i]))
            k = bind(args, k, "--ro-bind", s->ro[i], paths[np++], PATH_MAX);
    const char *first_rw = NULL;
    for (int i = 0; i < s->nrw; i++) {
        if (is_staged(st, s->rw[i])) {
            absolute(s->rw[i], paths[np], PATH_MAX);
            if (!first_rw)
                first_rw = paths[np];
            np++;
            continue;
        }
        k = bind(args, k, "--bind", s->rw[i], paths[np++], PATH_MAX);
        if (!first_rw)
            first_rw = args[k - 1];
    }
    for (int i = 0; i < nhd; i++) {
        args[k++] = "--remount-ro";
        args[k++] = hidden_dirs[i];
    }
    for (int i = 0; i < ntops; i++) {
        args[k++] = "--remount-ro";
        args[k++] = tops[i];
    }
    /* the sandbox's root (bubblewrap's tmpfs, where /etc's few files sit):
     * nothing may be added to it */
    args[k++] = "--remount-ro";
    args[k++] = "/";
    args[k++] = "--chdir";
    args[k++] = first_rw ? first_rw : "/";
    if (status_fd >= 0) {
        snprintf(status, sizeof status, "%d", status_fd);
        args[k++] = "--json-status-fd";
        args[k++] = status;
    }
    args[k++] = "--";
    for (int i = 0; argv[i] && k < MAX_ARGS - 1; i++)
        args[k++] = argv[i];
    args[k] = NULL;
    if (g_drop_now)
        drop_to(g_uid, g_gid);
    bwrap_env();
    execv(g_bwrap, (char *const *)args);
}
