/* gpu_arch: the arch a student's file is built for, from the GPU that
 * grades, and when a runner that cannot load its code is the grader's
 * ERROR rather than the student's LAUNCH (issue 26). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "gpu_arch.h"
#include "gpu_node.h"
#include "gpus.h"
#include "unit.h"

static const char *const HARNESS = "75-real;80-real;90-real;100-real;110-real;120-real;121-virtual";
static const char *const NVCC = "75,80,86,87,88,89,90,100,103,110,120,121";
static const char *const NO_IMAGE =
    "CUDA error: cudaErrorNoKernelImageForDevice: no kernel image is available for execution "
    "on the device";
static const char *const OLD_DRIVER = "CUDA error: cudaErrorUnsupportedPtxVersion: the provided "
                                      "PTX was compiled with an unsupported toolchain.";

START_TEST(parses_nvidia_smi)
{
    sl_gpu_caps c;
    ck_assert_int_eq(sl_gpu_caps_parse("GPU-aaaa-1, 8.0\nGPU-bbbb-2, 8.9\r\n", &c), 2);
    ck_assert_str_eq(c.gpu[0].uuid, "GPU-aaaa-1");
    ck_assert_int_eq(c.gpu[0].cc, 80);
    ck_assert_int_eq(c.gpu[1].cc, 89);
    ck_assert_int_eq(sl_gpu_caps_parse("12.0\n", &c), 1); /* without the uuid */
    ck_assert_int_eq(c.gpu[0].cc, 120);
    /* what is no compute capability is skipped */
    ck_assert_int_eq(sl_gpu_caps_parse("No devices were found\nGPU-x, [N/A]\nGPU-y, 9\n", &c), 0);
}
END_TEST

START_TEST(picks_the_visible_gpu)
{
    sl_gpu_caps c;
    char why[256];
    sl_gpu_caps_parse("GPU-aaaa, 8.0\nGPU-bbbb, 9.0\n", &c);
    ck_assert_int_eq(sl_gpu_caps_visible(&c, "GPU-bbbb", why, sizeof why), 90);
    ck_assert_int_eq(sl_gpu_caps_visible(&c, "GPU-aa,GPU-bbbb", why, sizeof why), 80);
    /* an index: CUDA's order is not nvidia-smi's on mixed GPUs: the oldest */
    ck_assert_int_eq(sl_gpu_caps_visible(&c, "1", why, sizeof why), 80);
    ck_assert_ptr_nonnull(strstr(why, "oldest"));
    ck_assert_int_eq(sl_gpu_caps_visible(&c, "", why, sizeof why), 0);
    ck_assert_ptr_nonnull(strstr(why, "CUDA_VISIBLE_DEVICES is empty"));
    ck_assert_int_eq(sl_gpu_caps_visible(&c, "-1", why, sizeof why), 0);
    sl_gpu_caps_parse("GPU-aaaa, 8.6\nGPU-bbbb, 8.6\n", &c);
    ck_assert_int_eq(sl_gpu_caps_visible(&c, "1", why, sizeof why), 86);
    ck_assert_int_eq(sl_gpu_caps_visible(&c, NULL, why, sizeof why), 86);
    ck_assert_int_eq(sl_gpu_caps_visible(&c, "MIG-1234", why, sizeof why), 86);
    sl_gpu_caps_parse("", &c);
    ck_assert_int_eq(sl_gpu_caps_visible(&c, NULL, why, sizeof why), 0);
}
END_TEST

START_TEST(names_each_gpus_lock)
{
    sl_gpu_caps alike, mixed, none, one;
    sl_gpu_caps_parse("GPU-aaaa-0, 9.0\nGPU-bbbb-1, 9.0\nGPU-cccc-2, 9.0\n", &alike);
    sl_gpu_caps_parse("GPU-aaaa-0, 8.0\nGPU-bbbb-1, 9.0\n", &mixed);
    sl_gpu_caps_parse("", &none);
    sl_gpu_caps_parse("GPU-only-7, 9.0\n", &one);
    char k[SL_GPU_ID];
    /* alike GPUs: an index and the uuid (or a prefix of it) name one GPU */
    sl_gpu_lock_key("1", &alike, k, sizeof k);
    ck_assert_str_eq(k, "GPU-bbbb-1");
    sl_gpu_lock_key("GPU-bbbb", &alike, k, sizeof k);
    ck_assert_str_eq(k, "GPU-bbbb-1");
    sl_gpu_lock_key(" 2,0", &alike, k, sizeof k); /* the first entry */
    ck_assert_str_eq(k, "GPU-cccc-2");
    sl_gpu_lock_key(NULL, &alike, k, sizeof k); /* unset: CUDA's device 0 */
    ck_assert_str_eq(k, "GPU-aaaa-0");
    /* a job that sees its one GPU as 0 (Slurm's device cgroup): its uuid */
    sl_gpu_lock_key("0", &one, k, sizeof k);
    ck_assert_str_eq(k, "GPU-only-7");
    /* mixed GPUs: CUDA counts them fastest first, nvidia-smi by bus, so an
     * index is no uuid; a uuid still is */
    sl_gpu_lock_key("1", &mixed, k, sizeof k);
    ck_assert_str_eq(k, "1");
    sl_gpu_lock_key("GPU-aaaa-0", &mixed, k, sizeof k);
    ck_assert_str_eq(k, "GPU-aaaa-0");
    /* nothing known: the entry as written, a file name */
    sl_gpu_lock_key("3", &none, k, sizeof k);
    ck_assert_str_eq(k, "3");
    sl_gpu_lock_key(NULL, &none, k, sizeof k);
    ck_assert_str_eq(k, "0");
    sl_gpu_lock_key("MIG-1/2/../x", &alike, k, sizeof k);
    ck_assert_str_eq(k, "MIG-1-2----x");
    sl_gpu_lock_key("GPU-", &alike, k, sizeof k); /* a prefix of all: not one */
    ck_assert_str_eq(k, "GPU-");
    sl_gpu_lock_key("7", &alike, k, sizeof k); /* past the list */
    ck_assert_str_eq(k, "7");
    sl_gpu_lock_key("", &alike, k, sizeof k);
    ck_assert_str_eq(k, "none");
}
END_TEST

START_TEST(target_from_facts)
{
    sl_gpu_target t;
    sl_gpu_target_from(NULL, "90", NVCC, 80, "", &t);
    ck_assert_str_eq(t.arch, "80");
    ck_assert(!t.fallback && !t.overridden);
    sl_gpu_target_from(NULL, "90", NVCC, 0, "no nvidia-smi on the PATH", &t);
    ck_assert_str_eq(t.arch, "90");
    ck_assert(t.fallback);
    ck_assert_str_eq(t.note, "no nvidia-smi on the PATH");
    sl_gpu_target_from("75", "90", NVCC, 80, "", &t); /* SYNCLAB_ARCH wins */
    ck_assert_str_eq(t.arch, "75");
    ck_assert(t.overridden);
    /* a GPU newer than the toolkit: its newest arch of the same major,
     * else the newest PTX */
    sl_gpu_target_from(NULL, "90", "75,80,86,89,90", 89, "", &t);
    ck_assert_str_eq(t.arch, "89");
    sl_gpu_target_from(NULL, "90", "75,80,86,90", 89, "", &t);
    ck_assert_str_eq(t.arch, "86");
    sl_gpu_target_from(NULL, "90", NVCC, 130, "", &t);
    ck_assert_str_eq(t.arch, "121");
    /* older than the toolkit supports: the default, which cannot run */
    sl_gpu_target_from(NULL, "90", NVCC, 61, "", &t);
    ck_assert_str_eq(t.arch, "90");
    ck_assert_int_eq(t.gpu_cc, 61);
}
END_TEST

START_TEST(fits)
{
    ck_assert_int_eq(sl_arch_fit_on("80", 80), SL_ARCH_SASS);
    ck_assert_int_eq(sl_arch_fit_on("80", 89), SL_ARCH_SASS); /* same major, newer minor */
    ck_assert_int_eq(sl_arch_fit_on("80", 90), SL_ARCH_JIT);  /* SASS never crosses a major */
    ck_assert_int_eq(sl_arch_fit_on("86", 80), SL_ARCH_NONE);
    ck_assert_int_eq(sl_arch_fit_on("100", 90), SL_ARCH_NONE);
    ck_assert_int_eq(sl_arch_fit_on("90-real", 100), SL_ARCH_NONE);
    ck_assert_int_eq(sl_arch_fit_on("90a", 90), SL_ARCH_SASS);
    ck_assert_int_eq(sl_arch_fit_on("90a", 100), SL_ARCH_NONE);
    static const int every[] = {75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121};
    for (size_t i = 0; i < sizeof every / sizeof every[0]; i++)
        ck_assert_int_eq(sl_arch_fit_on(HARNESS, every[i]), SL_ARCH_SASS);
    ck_assert_int_eq(sl_arch_fit_on(HARNESS, 130), SL_ARCH_JIT);
    ck_assert_int_eq(sl_arch_fit_on(HARNESS, 70), SL_ARCH_NONE);
    ck_assert_int_eq(sl_arch_fit_on("80-real;121-virtual", 75), SL_ARCH_NONE);
}
END_TEST

START_TEST(mismatch_is_decided_from_the_graders_facts)
{
    sl_gpu_target t;
    char why[1024];
    /* student code for sm_100 on an H100: before any run, and whatever
     * the runner printed */
    sl_gpu_target_from("100", "90", NVCC, 90, "", &t);
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", NULL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "SYNCLAB_ARCH=100"));
    ck_assert_ptr_nonnull(strstr(why, "set it to 90"));
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", "", why, sizeof why), 1);
    /* a harness without code for the GPU (configured for sm_90 only, graded on an A100) */
    sl_gpu_target_from(NULL, "90", NVCC, 80, "", &t);
    ck_assert_int_eq(sl_arch_mismatch(&t, "90-real", "13.0", NULL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "harness"));
    ck_assert_ptr_nonnull(strstr(why, "SYNCLAB_HARNESS_ARCHITECTURES"));
    /* everything has SASS for the GPU: "no kernel image" is the runner's
     * word only, which student code can print; it stays the student's */
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", NULL, why, sizeof why), 0);
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", NO_IMAGE, why, sizeof why), 0);
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", OLD_DRIVER, why, sizeof why), 0);
    /* the student's code runs through the JIT (SYNCLAB_ARCH=80 on an
     * H100) and failed to load: the driver is older than the toolkit */
    sl_gpu_target_from("80", "90", NVCC, 90, "", &t);
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", NULL, why, sizeof why), 0);
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", OLD_DRIVER, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "CUDA >= 13.0"));
    /* any other error there stays the student's */
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0",
                                      "CUDA error: cudaErrorIllegalAddress: an illegal memory "
                                      "access was encountered",
                                      why, sizeof why),
                     0);
    /* the GPU could not be asked: a load failure is the grader's guess */
    sl_gpu_target_from(NULL, "90", NVCC, 0, "no nvidia-smi on the PATH", &t);
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", NULL, why, sizeof why), 0);
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", NO_IMAGE, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "set SYNCLAB_ARCH"));
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", "CUDA error: cudaErrorLaunchFailure",
                                      why, sizeof why),
                     0);
    sl_gpu_target_from("100", "90", NVCC, 0, "nvidia-smi failed (exit status 9)", &t);
    ck_assert_int_eq(sl_arch_mismatch(&t, HARNESS, "13.0", NO_IMAGE, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "(nvidia-smi failed (exit status 9))"));
    ck_assert_ptr_nonnull(strstr(why, "built for sm_100"));
}
END_TEST

void unit_fake_smi(const char *dir, const char *body)
{
    char path[512];
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/nvidia-smi", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    chmod(path, 0755);
}

START_TEST(asks_nvidia_smi)
{
    char dir[] = "/tmp/synclab-fake-smi-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *old = getenv("PATH");
    char *saved = strdup(old ? old : "/usr/bin:/bin"), path[4096];
    snprintf(path, sizeof path, "%s:%s", dir, saved);
    setenv("PATH", path, 1);
    unsetenv("CUDA_VISIBLE_DEVICES");
    sl_gpu_target t;

    unit_fake_smi(dir, "echo 8.0");
    sl_gpu_target_forget();
    sl_gpu_target_pick(NULL, "90", NVCC, &t);
    ck_assert_str_eq(t.arch, "80");
    ck_assert_int_eq(t.gpu_cc, 80);

    setenv("CUDA_VISIBLE_DEVICES", "", 1); /* no GPU for this process */
    sl_gpu_target_pick(NULL, "90", NVCC, &t);
    ck_assert_str_eq(t.arch, "90");
    ck_assert(t.fallback);
    ck_assert_ptr_nonnull(strstr(t.note, "CUDA_VISIBLE_DEVICES is empty"));
    unsetenv("CUDA_VISIBLE_DEVICES");

    /* the count of a node's GPUs comes from the same bounded question */
    unit_fake_smi(dir, "echo 'GPU-a1, 8.0'; echo 'GPU-b2, 9.0'");
    sl_gpu_target_forget();
    ck_assert_int_eq(sl_gpus_count(), 2);

    unit_fake_smi(dir, "echo 'NVIDIA-SMI has failed' >&2; exit 9");
    sl_gpu_target_forget();
    sl_gpu_target_pick(NULL, "90", NVCC, &t);
    ck_assert_str_eq(t.arch, "90");
    ck_assert_ptr_nonnull(strstr(t.note, "nvidia-smi failed"));

    char missing[4200];
    snprintf(missing, sizeof missing, "%s/none", dir);
    setenv("PATH", missing, 1);
    sl_gpu_target_forget();
    sl_gpu_target_pick(NULL, "90", NVCC, &t);
    ck_assert_str_eq(t.arch, "90");
    ck_assert_ptr_nonnull(strstr(t.note, "no nvidia-smi"));

    setenv("PATH", saved, 1);
    free(saved);
    sl_gpu_target_forget();
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A /proc/driver/nvidia/gpus of its own: one folder per GPU, named by its
 * bus, its information file as the driver writes it. */
static const char *gpu_root(const char *name)
{
    static char root[4096];
    snprintf(root, sizeof root, "%s/gpus-%s", unit_tmp_dir(), name);
    sl_remove_tree(root, 1);
    ck_assert_int_eq(mkdir(root, 0755), 0);
    return root;
}

static void add_gpu(const char *root, const char *bus, const char *model, const char *uuid,
                    int minor, const char *excluded)
{
    char path[4096], text[1024];
    snprintf(path, sizeof path, "%s/%s", root, bus);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/%s/information", root, bus);
    snprintf(text, sizeof text,
             "Model: \t\t %s\nIRQ:   \t\t 0\nGPU UUID: \t %s\nVideo BIOS: \t 96.00.74.00.01\n"
             "Bus Type: \t PCIe\nDMA Size: \t 52 bits\nDMA Mask: \t 0xfffffffffffff\n"
             "Bus Location: \t %s\nDevice Minor: \t %d\nGPU Excluded:\t %s\n",
             model, uuid, bus, minor, excluded);
    ck_assert_int_eq(sl_write_file(path, text), 0);
}

/* A /dev of its own with the nodes of these minors (files: what counts
 * is whether they open). */
static const char *dev_with(const char *name, const int *minors, int n)
{
    static char dev[4][4096];
    static int next;
    char *d = dev[next++ % 4];
    snprintf(d, 4096, "%s/dev-%s", unit_tmp_dir(), name);
    sl_remove_tree(d, 1);
    ck_assert_int_eq(mkdir(d, 0755), 0);
    for (int i = 0; i < n; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/nvidia%d", d, minors[i]);
        ck_assert_int_eq(sl_write_file(path, ""), 0);
    }
    return d;
}

static const int ALL4[] = {0, 1, 2, 3};

#define U0 "GPU-f47e2e74-768e-2280-2278-ef85ac19364a"
#define U1 "GPU-8adc1d21-ad89-525e-c0d0-b6846cc7cde4"
#define U2 "GPU-4abe34f7-f3c7-9b47-ae5a-a22e8cb3a339"

/* Four H200s whose minors are not their bus order: an index counts by bus
 * (as nvidia-smi), a uuid or a unique prefix names its GPU, and the node
 * kept is that GPU's. */
START_TEST(gpu_node_of_the_visible_gpu)
{
    const char *root = gpu_root("four");
    add_gpu(root, "0000:9a:00.0", "NVIDIA H200", U2, 1, "No");
    add_gpu(root, "0000:18:00.0", "NVIDIA H200", U0, 3, "No");
    add_gpu(root, "0000:2a:00.0", "NVIDIA H200", U1, 0, "No");
    add_gpu(root, "0000:ab:00.0", "NVIDIA H200", "GPU-99999999-0000-0000-0000-000000000000", 2,
            "No");
    const char *dev = dev_with("four", ALL4, 4);
    sl_gpu_node n;
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, NULL, 0, &n), 1);
    ck_assert_int_eq(n.minor, 3);
    ck_assert_str_eq(n.uuid, U0);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "2", 0, &n), 1);
    ck_assert_int_eq(n.minor, 1);
    ck_assert_str_eq(n.uuid, U2);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "1,3", 0, &n), 1);
    ck_assert_int_eq(n.minor, 0);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, U1 ",0", 0, &n), 1);
    ck_assert_int_eq(n.minor, 0);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "GPU-4abe", 0, &n), 1);
    ck_assert_str_eq(n.uuid, U2);
    /* learnt once for the process tree: a node gone since is not asked */
    sl_gpu_node_learn(root, dev);
    char gone[4200];
    snprintf(gone, sizeof gone, "%s/nvidia1", dev);
    ck_assert_int_eq(unlink(gone), 0);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "2", 0, &n), 1);
    ck_assert_int_eq(n.minor, 1);
    /* a Slurm job given the GPUs of minors 0 and 1 (its device cgroup
     * denies the others; CUDA renumbers from 0): an index cannot be told,
     * a uuid can when its node opens */
    const int mine[] = {0, 1};
    const char *job = dev_with("job", mine, 2);
    ck_assert_int_eq(sl_gpu_node_pick(root, job, "0", 0, &n), 0);
    ck_assert_int_eq(sl_gpu_node_pick(root, job, NULL, 0, &n), 0);
    ck_assert_int_eq(sl_gpu_node_pick(root, job, U0, 0, &n), 0); /* minor 3: not its own */
    ck_assert_int_eq(sl_gpu_node_pick(root, job, U2 ",GPU-8adc", 0, &n), 1);
    ck_assert_int_eq(n.minor, 1);
    ck_assert_int_eq(sl_gpu_node_keep("/dev/nvidia1", &n), 1);
    ck_assert_int_eq(sl_gpu_node_keep("/dev/nvidia0", &n), 0);
    ck_assert_int_eq(sl_gpu_node_keep("/dev/nvidia10", &n), 0);
    ck_assert_int_eq(sl_gpu_node_keep("/dev/nvidiactl", &n), 1);
    ck_assert_int_eq(sl_gpu_node_keep("/dev/nvidia-uvm", &n), 1);
    ck_assert_int_eq(sl_gpu_node_keep("/dev/nvidia-uvm-tools", &n), 1);
    ck_assert_int_eq(sl_gpu_node_keep("/dev/nvidia-caps", &n), 1);
    ck_assert_int_eq(sl_gpu_node_keep("/dev/nvidia-nvswitch0", &n), 1);
}
END_TEST

/* Whenever the GPU cannot be told for sure, no node is hidden: a prefix
 * of two uuids, a MIG instance, an index past the GPUs, an empty list, a
 * machine of mixed models without PCI order, one GPU, no folder, a file
 * the driver has not filled. */
START_TEST(gpu_node_unsure_keeps_every_node)
{
    sl_gpu_node n;
    const char *dev = dev_with("all", ALL4, 4);
    const char *root = gpu_root("mixed");
    add_gpu(root, "0000:18:00.0", "NVIDIA H100 PCIe", U0, 0, "No");
    add_gpu(root, "0000:2a:00.0", "NVIDIA H200", U1, 1, "No");
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "GPU-", 0, &n), 0);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "MIG-0a1b2c3d-0000-0000-0000-000000000000", 0, &n),
                     0);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "7", 1, &n), 0);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "", 1, &n), 0);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "1", 0, &n), 0); /* fastest first */
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, "1", 1, &n), 1); /* CUDA_DEVICE_ORDER=PCI_BUS_ID */
    ck_assert_int_eq(n.minor, 1);
    ck_assert_int_eq(sl_gpu_node_pick(root, dev, U0, 0, &n), 1); /* a uuid is never ambiguous */
    ck_assert_int_eq(n.minor, 0);
    const char *one = gpu_root("one");
    add_gpu(one, "0000:18:00.0", "NVIDIA H200", U0, 0, "No");
    ck_assert_int_eq(sl_gpu_node_pick(one, dev, "0", 0, &n), 0);
    ck_assert_int_eq(sl_gpu_node_pick("/nonexistent/gpus", dev, "0", 0, &n), 0);
    const char *early = gpu_root("early");
    add_gpu(early, "0000:18:00.0", "NVIDIA H200", U0, 0, "No");
    add_gpu(early, "0000:2a:00.0", "NVIDIA H200", "N/A", 1, "No");
    ck_assert_int_eq(sl_gpu_node_pick(early, dev, "0", 0, &n), 0);
    /* an excluded GPU is no CUDA device: the index after it moves up */
    const char *ex = gpu_root("excluded");
    add_gpu(ex, "0000:18:00.0", "NVIDIA H200", U0, 0, "Yes");
    add_gpu(ex, "0000:2a:00.0", "NVIDIA H200", U1, 1, "No");
    add_gpu(ex, "0000:3a:00.0", "NVIDIA H200", U2, 2, "No");
    ck_assert_int_eq(sl_gpu_node_pick(ex, dev, "0", 0, &n), 1);
    ck_assert_int_eq(n.minor, 1);
    ck_assert_int_eq(sl_gpu_node_pick(ex, dev, U0, 0, &n), 0);
}
END_TEST

Suite *gpu_arch_suite(void)
{
    Suite *s = suite_create("gpu_arch");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, parses_nvidia_smi);
    tcase_add_test(tc, picks_the_visible_gpu);
    tcase_add_test(tc, names_each_gpus_lock);
    tcase_add_test(tc, target_from_facts);
    tcase_add_test(tc, fits);
    tcase_add_test(tc, mismatch_is_decided_from_the_graders_facts);
    tcase_add_test(tc, asks_nvidia_smi);
    tcase_add_test(tc, gpu_node_of_the_visible_gpu);
    tcase_add_test(tc, gpu_node_unsure_keeps_every_node);
    suite_add_tcase(s, tc);
    return s;
}
