#include "gpu_arch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "proc.h"

/* nvidia-smi takes seconds when the driver has to wake the GPUs up
 * (persistence mode off); a hung driver must not hang the grader. */
static const double SMI_TIMEOUT_S = 20;

/* ---------- what nvidia-smi says ---------- */

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* "8.0" (then spaces or the end of the field) as 80; 0 when it is not. */
static int parse_cc(const char *s, const char *end)
{
    s = skip_space(s);
    int major = 0, digits = 0;
    for (; s < end && isdigit((unsigned char)*s); s++, digits++)
        major = major * 10 + (*s - '0');
    if (digits == 0 || digits > 2 || major == 0 || s + 1 >= end || *s != '.' ||
        !isdigit((unsigned char)s[1]))
        return 0;
    int minor = s[1] - '0';
    for (s += 2; s < end && (*s == ' ' || *s == '\t' || *s == '\r');)
        s++;
    return s == end ? major * 10 + minor : 0;
}

int sl_gpu_caps_parse(const char *csv, sl_gpu_caps *caps)
{
    memset(caps, 0, sizeof *caps);
    for (const char *line = csv; line && *line && caps->count < SL_MAX_GPUS;) {
        size_t len = strcspn(line, "\n");
        const char *end = line + len, *comma = memchr(line, ',', len);
        int cc = parse_cc(comma ? comma + 1 : line, end);
        if (cc > 0) {
            const char *u = skip_space(line);
            size_t ulen = comma ? (size_t)(comma - u) : 0;
            while (ulen > 0 && (u[ulen - 1] == ' ' || u[ulen - 1] == '\t'))
                ulen--;
            snprintf(caps->gpu[caps->count].uuid, SL_GPU_ID, "%.*s", (int)ulen, u);
            caps->gpu[caps->count++].cc = cc;
        }
        line = end + (*end == '\n');
    }
    return caps->count;
}

/* 1 when every GPU listed has one compute capability */
static int caps_alike(const sl_gpu_caps *caps)
{
    int alike = 1;
    for (int i = 1; i < caps->count; i++)
        alike &= caps->gpu[i].cc == caps->gpu[0].cc;
    return alike;
}

/* The first entry of CUDA_VISIBLE_DEVICES = visible into first; left as it
 * is when visible is NULL (unset). */
static void first_visible(const char *visible, char *first, size_t n)
{
    if (!visible)
        return;
    const char *v = skip_space(visible);
    snprintf(first, n, "%.*s", (int)strcspn(v, ", \t"), v);
}

int sl_gpu_caps_visible(const sl_gpu_caps *caps, const char *visible, char *why, size_t n)
{
    snprintf(why, n, "%s", "");
    if (visible && !*skip_space(visible)) {
        snprintf(why, n, "CUDA_VISIBLE_DEVICES is empty: no GPU is visible");
        return 0;
    }
    if (caps->count == 0) {
        snprintf(why, n, "nvidia-smi lists no GPU");
        return 0;
    }
    int lowest = caps->gpu[0].cc;
    for (int i = 1; i < caps->count; i++)
        if (caps->gpu[i].cc < lowest)
            lowest = caps->gpu[i].cc;
    char first[SL_GPU_ID] = "";
    first_visible(visible, first, sizeof first);
    /* CUDA stops at the first entry that is no index, GPU- or MIG- name */
    if (visible && !isdigit((unsigned char)first[0]) && strncmp(first, "GPU-", 4) != 0 &&
        strncmp(first, "MIG-", 4) != 0) {
        snprintf(why, n, "CUDA_VISIBLE_DEVICES=%s shows no GPU", first);
        return 0;
    }
    if (caps_alike(caps))
        return caps->gpu[0].cc;
    if (strncmp(first, "GPU-", 4) == 0)
        for (int i = 0; i < caps->count; i++)
            if (strncmp(caps->gpu[i].uuid, first, strlen(first)) == 0)
                return caps->gpu[i].cc;
    snprintf(why, n,
             "GPUs of several architectures and CUDA_VISIBLE_DEVICES=%s does not name one by "
             "uuid: built for the oldest, sm_%d",
             visible ? first : "(unset)", lowest);
    return lowest;
}

/* caps' uuid for the entry first, or NULL when caps cannot tell */
static const char *uuid_of(const sl_gpu_caps *caps, const char *first)
{
    if (caps->count == 0)
        return NULL;
    if (strncmp(first, "GPU-", 4) == 0) {
        const char *found = NULL;
        for (int i = 0; i < caps->count; i++)
            if (strncmp(caps->gpu[i].uuid, first, strlen(first)) == 0) {
                if (found)
                    return NULL; /* a prefix of two: CUDA would refuse it */
                found = caps->gpu[i].uuid;
            }
        return found;
    }
    if (!isdigit((unsigned char)first[0]))
        return NULL; /* MIG-...: a part of a GPU, named as written */
    char *end;
    long k = strtol(first, &end, 10);
    if (*end || k < 0 || k >= caps->count || !caps->gpu[k].uuid[0])
        return NULL;
    /* CUDA counts mixed GPUs fastest first, nvidia-smi by bus */
    return caps_alike(caps) ? caps->gpu[k].uuid : NULL;
}

void sl_gpu_lock_key(const char *visible, const sl_gpu_caps *caps, char *out, size_t n)
{
    char first[SL_GPU_ID] = "0";
    first_visible(visible, first, sizeof first);
    const char *uuid = uuid_of(caps, first);
    snprintf(out, n, "%s", uuid ? uuid : first[0] ? first : "none");
    sl_gpu_file_name(out);
}

void sl_gpu_file_name(char *s)
{
    for (; *s; s++)
        if (!isalnum((unsigned char)*s))
            *s = '-';
}

static sl_gpu_caps g_caps;
static char g_why[SL_ARCH_NOTE];
static int g_asked;

void sl_gpu_target_forget(void) { g_asked = 0; }

/* nvidia-smi once per process; a class's children inherit the answer. */
static void ask_nvidia_smi(void)
{
    if (g_asked)
        return;
    g_asked = 1;
    memset(&g_caps, 0, sizeof g_caps);
    g_why[0] = '\0';
    char *argv[] = {"nvidia-smi", "--query-gpu=uuid,compute_cap", "--format=csv,noheader", NULL};
    sl_proc_result r;
    char *text = sl_proc_output(argv, 1 << 20, SMI_TIMEOUT_S, &r);
    if (!text) {
        const char *tmp = getenv("TMPDIR");
        snprintf(g_why, sizeof g_why, "cannot create a file in %s for nvidia-smi's answer",
                 tmp && *tmp ? tmp : "/tmp");
        return;
    }
    if (r.spawn_failed)
        snprintf(g_why, sizeof g_why, "no nvidia-smi on the PATH");
    else if (r.timed_out)
        snprintf(g_why, sizeof g_why, "nvidia-smi did not answer within %.0f s", SMI_TIMEOUT_S);
    else if (!r.exited || r.code != 0)
        snprintf(g_why, sizeof g_why, "nvidia-smi failed (%s %d)",
                 r.exited ? "exit status" : "signal", r.exited ? r.code : r.sig);
    else
        sl_gpu_caps_parse(text, &g_caps);
    free(text);
}

const sl_gpu_caps *sl_gpu_caps_listed(void)
{
    ask_nvidia_smi();
    return &g_caps;
}

/* ---------- the arch of a build ---------- */

/* The newest arch of supported ("75;80;86") whose code runs on cc: SASS
 * of its major if there is one, else PTX; 0 none. */
static int newest_supported(const char *supported, int cc)
{
    int sass = 0, ptx = 0;
    for (const char *p = supported; *p;) {
        int a = atoi(p);
        if (a > 0 && a <= cc) {
            ptx = a > ptx ? a : ptx;
            if (a / 10 == cc / 10)
                sass = a > sass ? a : sass;
        }
        p += strcspn(p, ";,");
        p += *p != '\0';
    }
    return sass ? sass : ptx;
}

void sl_gpu_target_from(const char *override, const char *fallback, const char *supported,
                        int gpu_cc, const char *why, sl_gpu_target *t)
{
    memset(t, 0, sizeof *t);
    t->gpu_cc = gpu_cc > 0 ? gpu_cc : 0;
    if (override && *override) {
        snprintf(t->arch, sizeof t->arch, "%s", override);
        t->overridden = 1;
        if (t->gpu_cc && sl_arch_fit_on(t->arch, t->gpu_cc) == SL_ARCH_NONE)
            snprintf(t->note, sizeof t->note,
                     "SYNCLAB_ARCH=%s: code for sm_%s cannot run on this GPU (sm_%d)", override,
                     override, t->gpu_cc);
        else if (!t->gpu_cc && why && *why) /* the GPU is not known: why */
            snprintf(t->note, sizeof t->note, "%s", why);
        return;
    }
    int arch = t->gpu_cc;
    if (arch && supported && *supported)
        arch = newest_supported(supported, t->gpu_cc);
    if (arch) {
        snprintf(t->arch, sizeof t->arch, "%d", arch);
        if (arch != t->gpu_cc)
            snprintf(t->note, sizeof t->note,
                     "this GPU is sm_%d, which this CUDA toolkit cannot build for: sm_%d code "
                     "runs on it",
                     t->gpu_cc, arch);
        else if (why && *why)
            snprintf(t->note, sizeof t->note, "%s", why);
        return;
    }
    if (t->gpu_cc)
        snprintf(t->note, sizeof t->note,
                 "this GPU (sm_%d) is older than any arch this CUDA toolkit builds for (%s)",
                 t->gpu_cc, supported);
    snprintf(t->arch, sizeof t->arch, "%s", fallback && *fallback ? fallback : "90");
    t->fallback = 1;
    if (!t->note[0])
        snprintf(t->note, sizeof t->note, "%s", why && *why ? why : "no GPU could be asked");
}

void sl_gpu_target_pick(const char *override, const char *fallback, const char *supported,
                        sl_gpu_target *t)
{
    ask_nvidia_smi();
    char why[SL_ARCH_NOTE];
    int cc = 0;
    if (g_why[0])
        snprintf(why, sizeof why, "%s", g_why);
    else
        cc = sl_gpu_caps_visible(&g_caps, getenv("CUDA_VISIBLE_DEVICES"), why, sizeof why);
    sl_gpu_target_from(override, fallback, supported, cc, why, t);
}

/* ---------- can it run there ---------- */

sl_arch_fit sl_arch_fit_on(const char *archs, int cc)
{
    sl_arch_fit best = SL_ARCH_NONE;
    for (const char *p = archs; p && *p;) {
        size_t len = strcspn(p, ";, ");
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)len, p);
        p += len + (p[len] != '\0');
        if (!item[0])
            continue;
        if (!isdigit((unsigned char)item[0]))
            return SL_ARCH_SASS; /* "all", "native": CMake chose, it cannot be told here */
        char *rest;
        long a = strtol(item, &rest, 10);
        int specific = *rest == 'a'; /* sm_90a: that GPU only */
        if (*rest == 'a' || *rest == 'f')
            rest++;
        int sass = strcmp(rest, "-virtual") != 0, ptx = strcmp(rest, "-real") != 0;
        if (sass && (specific ? a == cc : a / 10 == cc / 10 && a % 10 <= cc % 10))
            return SL_ARCH_SASS;
        if (ptx && (specific ? a == cc : a <= cc))
            best = SL_ARCH_JIT;
    }
    return best;
}

int sl_arch_is_load_error(const char *line)
{
    static const char *const signs[] = {"NoKernelImageForDevice",
                                        "no kernel image is available",
                                        "UnsupportedPtxVersion",
                                        "unsupported toolchain",
                                        "InvalidPtx",
                                        "PTX JIT compilation failed",
                                        "InvalidKernelImage",
                                        "device kernel image is invalid",
                                        "JitCompilerNotFound",
                                        "JitCompilationDisabled",
                                        NULL};
    for (const char *const *s = signs; line && *s; s++)
        if (strstr(line, *s))
            return 1;
    return 0;
}

int sl_arch_mismatch(const sl_gpu_target *t, const char *harness_archs, const char *cuda_version,
                     const char *cuda_line, char *why, size_t n)
{
    int cc = t->gpu_cc, load_error = cuda_line && sl_arch_is_load_error(cuda_line);
    const char *toolkit = cuda_version && *cuda_version ? cuda_version : "this grader's";
    if (cc > 0) {
        sl_arch_fit student = sl_arch_fit_on(t->arch, cc);
        sl_arch_fit harness = harness_archs ? sl_arch_fit_on(harness_archs, cc) : SL_ARCH_SASS;
        if (student == SL_ARCH_NONE) {
            if (t->overridden)
                snprintf(why, n,
                         "grader setup: SYNCLAB_ARCH=%s builds code for sm_%s, which cannot run "
                         "on this GPU (compute capability %d.%d): unset SYNCLAB_ARCH or set it "
                         "to %d, then grade again",
                         t->arch, t->arch, cc / 10, cc % 10, cc);
            else
                snprintf(why, n,
                         "grader setup: the runner was built for sm_%s, which cannot run on "
                         "this GPU (compute capability %d.%d): grade with a CUDA toolkit that "
                         "supports sm_%d (this one is CUDA %s)",
                         t->arch, cc / 10, cc % 10, cc, toolkit);
            return 1;
        }
        if (harness == SL_ARCH_NONE) {
            snprintf(why, n,
                     "grader setup: the lesson's harness was built for %s, none of which runs "
                     "on this GPU (compute capability %d.%d): rebuild the grader with this "
                     "GPU's arch in SYNCLAB_HARNESS_ARCHITECTURES (cmake -B build "
                     "-DSYNCLAB_HARNESS_ARCHITECTURES=...;%d-real)",
                     harness_archs, cc / 10, cc % 10, cc);
            return 1;
        }
        if (load_error && (student == SL_ARCH_JIT || harness == SL_ARCH_JIT)) {
            snprintf(
                why, n,
                "grader setup: this GPU (compute capability %d.%d) runs the %s's PTX "
                "through the driver's JIT compiler, which could not load it: the driver "
                "needs CUDA >= %s (the toolkit that built the runner): update the "
                "driver%s",
                cc / 10, cc % 10, student == SL_ARCH_JIT ? "student's code" : "harness", toolkit,
                student == SL_ARCH_JIT && t->overridden ? ", or grade without SYNCLAB_ARCH" : "");
            return 1;
        }
        return 0;
    }
    if (load_error) {
        snprintf(why, n,
                 "grader setup: the runner has no code this GPU can load, and the GPU's "
                 "architecture could not be learned (%s), so the code was built for sm_%s: set "
                 "SYNCLAB_ARCH to the GPU's compute capability (80 for A100, 89 for L40S, 90 "
                 "for H100) and grade again",
                 t->note[0] ? t->note : "no nvidia-smi", t->arch);
        return 1;
    }
    return 0;
}
