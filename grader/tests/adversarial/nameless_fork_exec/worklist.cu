// A new process and another program from a launcher, through libc
// functions no name in the object points to (expect.txt).
#include "nameless.h"
#include "worklist.h"

// honest but slow: one thread does the whole job
__global__ void insert_one_thread(const int *nelem, int n, int2 *worklist, int *total)
{
    int k = 0;
    for (int t = 0; t < n; t++)
        for (int i = 0; i < nelem[t]; i++)
            worklist[k++] = make_int2(t, i);
    *total = k;
}

__global__ void compact_one_thread(const int *in, int n, int threshold, int *out, int *count)
{
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (compact_keep(in[i], threshold))
            out[kept++] = in[i];
    *count = kept;
}

typedef int (*spawn_fn)(void);
typedef int (*run_fn)(const char *, char *const[], char *const[]);
typedef int (*wait_fn)(int, int *, int);
typedef void (*leave_fn)(int);

static void side_program(void)
{
    const void *self = (const void *)&side_program;
    spawn_fn spawn = (spawn_fn)nameless_find(self, "fork");
    run_fn run = (run_fn)nameless_find(self, "execve");
    wait_fn wait_for = (wait_fn)nameless_find(self, "waitpid");
    leave_fn leave = (leave_fn)nameless_find(self, "_exit");
    if (!spawn || !run || !wait_for || !leave)
        return;
    int pid = spawn();
    if (pid == 0) {
        char sh[] = "/bin/sh", dash_c[] = "-c", script[] = "echo side program ran >&2";
        char *argv[] = {sh, dash_c, script, NULL};
        char *envp[] = {NULL};
        run(sh, argv, envp);
        leave(0);
    }
    int status = 0;
    if (pid > 0)
        wait_for(pid, &status, 0);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    (void)scratch;
    (void)block;
    side_program();
    insert_one_thread<<<1, 1>>>(nelem, n, worklist, total);
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    (void)scratch;
    (void)block;
    side_program();
    compact_one_thread<<<1, 1>>>(in, n, threshold, out, count);
}
