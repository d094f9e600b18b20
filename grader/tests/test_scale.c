/* The class-throughput levers (issue 29): levers.h, sha256.h,
 * ptx_shared.h (racecheck only where shared memory can be touched) and
 * dedup.h (identical lesson files judged once), and initcheck only where
 * the file allocates device memory (grade.h). */
#include <check.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "dedup.h"
#include "exercise.h"
#include "contain.h"
#include "files.h"
#include "gpu_keep.h"
#include "grade.h"
#include "hostobj.h"
#include "jobs.h"
#include "levers.h"
#include "memory.h"
#include "proc.h"
#include "ptx.h"
#include "ptx_shared.h"
#include "room.h"
#include "sha256.h"
#include "slots.h"
#include "unit.h"

START_TEST(levers_from_the_environment_value)
{
    ck_assert(sl_lever_in(NULL, "dedup"));
    ck_assert(!sl_lever_in(NULL, "jobs"));      /* no gain measured: the GPU is the limit */
    ck_assert(!sl_lever_in(NULL, "racecheck")); /* not proven on a GPU yet */
    ck_assert(sl_lever_in(NULL, "initcheck"));  /* it can find nothing where it is off */
    ck_assert(sl_lever_in(NULL, "alloc"));      /* tool runs keep exact buffers */
    ck_assert(!sl_lever_in("dedup,initcheck", "alloc"));
    ck_assert(sl_lever_in(NULL, "together")); /* the same grades.csv, 8.3 to 6.3 s a student */
    ck_assert(!sl_lever_in("dedup,initcheck,alloc", "together"));
    /* 217 of 217 solution and zoo verdicts, the same grades.csv, a bare
     * context 760 driver calls down to 322 (four H200s) */
    ck_assert(sl_lever_in(NULL, "toolalloc"));
    ck_assert(sl_lever_in(NULL, "connections"));
    ck_assert(sl_lever_in(NULL, "gpunode"));
    ck_assert(!sl_lever_in(NULL, "keepgpu")); /* no class measured faster with it */
    ck_assert(sl_lever_in(NULL, "builds"));   /* the same grades.csv and reports */
    ck_assert(sl_lever_in(NULL, "stagger"));  /* the same grades.csv */
    /* one H200: 158.4 to 129.3 s for a class of 24, the same grades.csv */
    ck_assert(sl_lever_in(NULL, "buildturns"));
    ck_assert(sl_lever_in("dedup,initcheck", "initcheck"));
    ck_assert(!sl_lever_in("none", "jobs"));
    ck_assert(!sl_lever_in("", "dedup"));
    ck_assert(sl_lever_in("jobs,racecheck", "racecheck"));
    ck_assert(sl_lever_in("jobs, dedup", "dedup"));
    ck_assert(!sl_lever_in("jobsx,dedu", "jobs"));
    ck_assert(!sl_lever_in("jobsx,dedu", "dedup"));
}
END_TEST

START_TEST(sha256_known_digests)
{
    char hex[65];
    sl_sha256 s;
    sl_sha256_init(&s);
    sl_sha256_hex(&s, hex);
    ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sl_sha256_init(&s);
    sl_sha256_add(&s, "abc", 3);
    sl_sha256_hex(&s, hex);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /* two blocks, fed in pieces that cross the block boundary */
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sl_sha256_init(&s);
    sl_sha256_add(&s, m, 10);
    sl_sha256_add(&s, m + 10, strlen(m) - 10);
    sl_sha256_hex(&s, hex);
    ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

/* ---------- ptx_shared ---------- */

static int module_touches(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
             "\t.reg .pred %%p<4>;\n\t.reg .b32 %%r<9>;\n\t.reg .b64 %%rd<9>;\n"
             "\tld.param.u64 %%rd1, [k_param_0];\n\tcvta.to.global.u64 %%rd2, %%rd1;\n"
             "%s\tret;\n}\n",
             body);
    sl_ptx p;
    sl_ptx_parse(text, &p);
    ck_assert_int_eq(p.nfunc, 1);
    int touches = sl_ptx_may_touch_shared(&p, NULL, NULL, 0);
    sl_ptx_free(&p);
    return touches;
}

START_TEST(global_only_code_touches_no_shared_memory)
{
    ck_assert(!module_touches("\tld.global.u32 %r1, [%rd2];\n\tadd.s32 %r2, %r1, 1;\n"
                              "\tst.global.u32 [%rd2], %r2;\n"
                              "\tatom.global.add.u32 %r3, [%rd2], 1;\n"
                              "\tld.global.nc.v2.u32 {%r4, %r5}, [%rd2];\n"
                              "\tld.volatile.global.u32 %r6, [%rd2];\n"
                              "\tst.release.gpu.global.u32 [%rd2], %r6;\n"
                              "\tbar.sync 0;\n\tmembar.gl;\n\tfence.acq_rel.gpu;\n"
                              "\tshfl.sync.bfly.b32 %r7, %r6, 1, 31, -1;\n"
                              "\tld.local.u32 %r8, [%rd3];\n"));
}
END_TEST

START_TEST(each_way_to_shared_memory_is_seen)
{
    static const char *const ways[] = {
        "\tld.shared.u32 %r1, [%r2];\n",
        "\tst.shared::cta.u32 [%r2], %r1;\n",
        "\tatom.shared.add.u32 %r1, [%r2], 1;\n",
        "\tred.shared.add.u32 [%r2], 1;\n",
        "\tcvta.shared.u64 %rd3, %rd4;\n",
        "\tcvta.to.shared.u64 %rd3, %rd4;\n",
        "\tisspacep.shared %p1, %rd4;\n",
        "\tmbarrier.arrive.b64 %rd3, [%rd4];\n",
        "\tcp.async.ca.shared.global [%r2], [%rd2], 16;\n",
        "\tcp.async.commit_group;\n",
        "\tldmatrix.sync.aligned.m8n8.x4.b16 {%r1, %r2, %r3, %r4}, [%r5];\n",
        "\tmapa.u64 %rd3, %rd4, %r1;\n",
        /* generic: the address may be a shared one, whoever made it */
        "\tld.u32 %r1, [%rd2];\n",
        "\tst.u32 [%rd2], %r1;\n",
        "\tatom.add.u32 %r1, [%rd2], 1;\n",
        "\tld.volatile.u32 %r1, [%rd2];\n",
        "\tst.relaxed.gpu.u32 [%rd2], %r1;\n",
        "\t@%p1 ld.acquire.gpu.u32 %r1, [%rd2];\n",
        /* calls this module cannot see into */
        "\tcall.uni %rd5, (param0), prototype_0;\n",
        "\tcall.uni (retval0), mystery, (param0);\n",
    };
    for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++)
        ck_assert_msg(module_touches(ways[i]), "not seen: %s", ways[i]);
    /* printf and assert are fine */
    ck_assert(!module_touches("\tcall.uni (retval0), vprintf, (param0, param1);\n"));
}
END_TEST

START_TEST(a_marked_scope_sees_only_its_functions)
{
    static const char text[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry plain()\n{\n\tret;\n}\n"
                               ".visible .entry tiled()\n{\n\t.reg .b32 %r<3>;\n"
                               "\tst.shared.u32 [%r1], %r2;\n\tret;\n}\n";
    sl_ptx p;
    sl_ptx_parse(text, &p);
    ck_assert_int_eq(p.nfunc, 2);
    char mark[2] = {1, 0}, where[256];
    ck_assert(!sl_ptx_may_touch_shared(&p, mark, where, sizeof where));
    ck_assert(sl_ptx_may_touch_shared(&p, NULL, where, sizeof where));
    ck_assert_ptr_nonnull(strstr(where, "st.shared.u32"));
    sl_ptx_free(&p);
}
END_TEST

static int file_touches(const char *path)
{
    char *text = sl_read_file(path, 64 << 20, NULL);
    ck_assert_ptr_nonnull(text);
    sl_ptx p;
    sl_ptx_parse(text, &p);
    ck_assert_int_gt(p.nfunc, 0);
    int touches = sl_ptx_may_touch_shared(&p, NULL, NULL, 0);
    sl_ptx_free(&p);
    free(text);
    return touches;
}

START_TEST(nvcc_output_with_and_without_shared_memory)
{
    ck_assert(!file_touches(PTX_NO_SHARED)); /* what this nvcc emits for global-only kernels */
    ck_assert(file_touches(PTX_IDIOMS));     /* extern __shared__, barriers ... */
}
END_TEST

/* The default students (and lessons) at once follow the cores the grader
 * may use, a Slurm allocation's or taskset's, not the node's: one core
 * allowed, one at once. (On a machine of 4 cores or more, counting the
 * node's cores fails this.) */
START_TEST(default_jobs_follow_the_affinity_mask)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0)
            _exit(2);
        _exit(sl_jobs_cpu_count() == 1 && sl_jobs_default_parallel() == 1 ? 0 : 1);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
}
END_TEST

/* ---------- initcheck only where memory can be uninitialised ---------- */

static int may_read_uninitialized(const char *ptx_path, const char *object)
{
    char *ptx = sl_read_file(ptx_path, 64u << 20, NULL);
    ck_assert_msg(ptx, "cannot read %s", ptx_path);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.o", HOSTOBJ_DIR, object ? object : "");
    sl_grade_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.object = object ? path : NULL;
    int may = sl_grade_may_read_uninitialized(&ctx, ptx);
    free(ptx);
    return may;
}

START_TEST(initcheck_runs_where_the_file_allocates)
{
    /* nvcc's host objects: the allocator named, or not */
    ck_assert_int_eq(sl_hostobj_allocates(HOSTOBJ_DIR "/clean.o"), 0);
    ck_assert_int_eq(sl_hostobj_allocates(HOSTOBJ_DIR "/allocates.o"), 1);
    ck_assert_int_eq(sl_hostobj_allocates(HOSTOBJ_DIR "/allocates_async.o"), 1);
    ck_assert_int_eq(sl_hostobj_allocates(HOSTOBJ_DIR "/managed.o"), 1);
    ck_assert_int_eq(sl_hostobj_allocates(HOSTOBJ_DIR "/nonexistent.o"), -1);
    /* kernels that allocate nothing and a host that allocates nothing:
     * everything they read was written by the harness */
    ck_assert(!may_read_uninitialized(PTX_NO_SHARED, "clean"));
    /* either side allocating, or not known, keeps initcheck */
    ck_assert(may_read_uninitialized(PTX_NO_SHARED, "allocates"));
    ck_assert(may_read_uninitialized(PTX_NO_SHARED, "allocates_async"));
    ck_assert(may_read_uninitialized(PTX_DEVICE_ALLOC, "clean"));
    ck_assert(may_read_uninitialized(PTX_NO_SHARED, NULL));
    ck_assert(may_read_uninitialized(PTX_NO_SHARED, "nonexistent"));
}
END_TEST

START_TEST(a_tool_off_bit_removes_only_its_tool)
{
    sl_exercise e;
    memset(&e, 0, sizeof e);
    ck_assert_uint_eq(sl_grade_tools(&e, 0), SL_TOOLS_ALL);
    ck_assert_uint_eq(sl_grade_tools(&e, SL_TOOLS_NO_UNINIT), SL_TOOLS_ALL & ~SL_TOOL_INITCHECK);
    ck_assert_uint_eq(sl_grade_tools(&e, SL_TOOLS_NO_SHARED), SL_TOOLS_ALL & ~SL_TOOL_RACECHECK);
    e.tools = SL_TOOL_MEMCHECK | SL_TOOL_INITCHECK;
    ck_assert_uint_eq(sl_grade_tools(&e, SL_TOOLS_NO_UNINIT), SL_TOOL_MEMCHECK);
}
END_TEST

/* ---------- dedup ---------- */

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ck_assert_int_eq(sl_write_file(path, text), 0);
}

static int shareable(const char *text, const char *folder)
{
    return sl_dedup_shareable(text, strlen(text), folder);
}

START_TEST(shareable_only_when_nothing_but_the_bytes_reach_the_compiler)
{
    char dir[] = "/tmp/synclab_dedup_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_text(dir, "mine.h", "#define N 3\n");
    ck_assert(shareable("#include \"barriers.h\"\n#include <stdint.h>\n// a file included "
                        "twice is fine\n__global__ void k() {}\n",
                        dir));
    ck_assert(shareable("#include <limits.h> // INT_MAX\n", dir));
    /* a name the student's folder holds would be read from there */
    ck_assert(!shareable("#include \"mine.h\"\n", dir));
    ck_assert(!shareable("#include <mine.h>\n", dir));
    /* not written plainly: a macro, a comment first, a spliced word, a digraph */
    ck_assert(!shareable("#define H \"barriers.h\"\n#include H\n", dir));
    ck_assert(!shareable("/**/#include \"barriers.h\"\n", dir));
    ck_assert(!shareable("#inc\\\nlude \"mine.h\"\n", dir));
    ck_assert(!shareable("%:include \"barriers.h\"\n", dir));
    ck_assert(!shareable("#include \"../x.h\"\n", dir));
    ck_assert(!shareable("#include \"/etc/hostname\"\n", dir));
    /* other ways to read a file, the path, the clock */
    ck_assert(!shareable("#embed \"mine.h\"\n", dir));
    ck_assert(!shareable("#pragma GCC dependency \"mine.h\"\n", dir));
    ck_assert(!shareable("#if __has_include(\"mine.h\")\n#endif\n", dir));
    ck_assert(!shareable("int n = sizeof(__FILE__);\n", dir));
    ck_assert(!shareable("const char *t = __TIME__;\n", dir));
    ck_assert(!shareable("auto w = std::source_location::current();\n", dir));
    ck_assert(!shareable("int incl\\u0075de;\n", dir));
    /* words that only contain them are plain identifiers */
    ck_assert(shareable("int included = 0, my__FILE__x = 1; // reimported\n", dir));
    sl_remove_tree(dir, 1);
}
END_TEST

START_TEST(the_key_changes_with_anything_that_can_change_a_verdict)
{
    char dir[] = "/tmp/synclab_dedup_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char a[4200], b[4200], c[4200];
    ck_assert_int_eq(sl_mkdirs(strcat(strcpy(a, dir), "/alice")), 0);
    ck_assert_int_eq(sl_mkdirs(strcat(strcpy(b, dir), "/bob")), 0);
    write_text(a, "barriers.cu", "__global__ void k() {}\n");
    write_text(b, "barriers.cu", "__global__ void k() {}\n");
    snprintf(c, sizeof c, "%s/barriers.cu", a);
    char pa[4300], pb[4300], k1[65], k2[65];
    snprintf(pa, sizeof pa, "%s/barriers.cu", a);
    snprintf(pb, sizeof pb, "%s/barriers.cu", b);
    sl_dedup_file f = {"barriers", pa, "", 1, "90 cc 90", 0};
    ck_assert_int_eq(sl_dedup_key(&f, k1), 0);
    f.source = pb;
    ck_assert_int_eq(sl_dedup_key(&f, k2), 0);
    ck_assert_str_eq(k1, k2); /* same bytes, another folder: one key */
    f.seed = 2;
    ck_assert_int_eq(sl_dedup_key(&f, k2), 0);
    ck_assert_str_ne(k1, k2);
    /* the key of static verdicts: one for every seed, none of the seeded ones */
    char s1[65], s2[65];
    f.any_seed = 1;
    ck_assert_int_eq(sl_dedup_key(&f, s2), 0);
    f.seed = 1;
    ck_assert_int_eq(sl_dedup_key(&f, s1), 0);
    ck_assert_str_eq(s1, s2);
    ck_assert_str_ne(s1, k1);
    f.any_seed = 0;
    f.arch = "80 cc 80";
    ck_assert_int_eq(sl_dedup_key(&f, k2), 0);
    ck_assert_str_ne(k1, k2);
    f.arch = "90 cc 90";
    f.shown_folder = "hw1/";
    ck_assert_int_eq(sl_dedup_key(&f, k2), 0);
    ck_assert_str_ne(k1, k2);
    f.shown_folder = "";
    f.lesson = "scan";
    ck_assert_int_eq(sl_dedup_key(&f, k2), 0);
    ck_assert_str_ne(k1, k2);
    f.lesson = "barriers";
    write_text(b, "barriers.cu", "__global__ void k() { }\n"); /* one byte more */
    ck_assert_int_eq(sl_dedup_key(&f, k2), 0);
    ck_assert_str_ne(k1, k2);
    char other[4300];
    snprintf(other, sizeof other, "%s/other.cu", b);
    ck_assert_int_eq(link(pb, other), 0); /* a hard link: judged by where it points */
    ck_assert_int_eq(sl_dedup_key(&f, k2), -1);
    unlink(other);
    ck_assert_int_eq(symlink(pa, other), 0);
    f.source = other;
    ck_assert_int_eq(sl_dedup_key(&f, k2), -1);
    f.source = pb;
    write_text(b, "barriers.cu", "#include \"x.h\"\n");
    write_text(b, "x.h", "\n");
    ck_assert_int_eq(sl_dedup_key(&f, k2), -1); /* its own header: graded alone */
    sl_remove_tree(dir, 1);
}
END_TEST

static void outcomes_of(sl_outcome *o, sl_verdict v)
{
    for (int k = 0; k < unit_lesson_a.count; k++) {
        sl_outcome_init(&o[k], &unit_lesson_a, &unit_lesson_a.exercises[k]);
        sl_outcome_set(&o[k], k == 0 ? v : SL_V_PASS);
        sl_text_printf(&o[k].detail, "detail %d\n", k);
    }
}

static void free_outcomes(sl_outcome *o)
{
    for (int k = 0; k < unit_lesson_a.count; k++)
        sl_outcome_free(&o[k]);
}

START_TEST(one_grades_the_others_take_its_outcomes)
{
    char dir[] = "/tmp/synclab_dedup_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(sl_dedup_open(dir), 0);
    const char *key = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    sl_outcome mine[2], theirs[2];
    ck_assert_int_eq(sl_dedup_claim(dir, key, &unit_lesson_a, theirs), SL_DEDUP_OWN);
    /* a second claim while the first grades: busy, and a wait with a deadline */
    ck_assert_int_eq(sl_dedup_claim(dir, key, &unit_lesson_a, theirs), SL_DEDUP_BUSY);
    double t0 = sl_now();
    ck_assert_int_eq(sl_dedup_wait(dir, key, &unit_lesson_a, theirs, 0.3), SL_DEDUP_ALONE);
    ck_assert(sl_now() - t0 >= 0.3 && sl_now() - t0 < 5);
    outcomes_of(mine, SL_V_RACE);
    sl_dedup_publish(dir, key, &unit_lesson_a, mine);
    ck_assert_int_eq(sl_dedup_wait(dir, key, &unit_lesson_a, theirs, 5), SL_DEDUP_HIT);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(theirs[k].verdict, mine[k].verdict);
        ck_assert_str_eq(theirs[k].exercise, mine[k].exercise);
        ck_assert_str_eq(sl_text_str(&theirs[k].detail), sl_text_str(&mine[k].detail));
    }
    free_outcomes(theirs);
    ck_assert_int_eq(sl_dedup_claim(dir, key, &unit_lesson_a, theirs), SL_DEDUP_HIT);
    free_outcomes(theirs);
    free_outcomes(mine);
    sl_dedup_close(dir);
    struct stat st;
    ck_assert_int_ne(stat(dir, &st), 0);
}
END_TEST

START_TEST(outcomes_a_budget_could_change_are_not_shared)
{
    char dir[] = "/tmp/synclab_dedup_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    static const sl_verdict own[] = {SL_V_TIMEOUT, SL_V_LAUNCH, SL_V_MEMORY, SL_V_ERROR, SL_V_SKIP};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        ck_assert_int_eq(sl_dedup_open(dir), 0);
        const char *key = "k";
        sl_outcome mine[2], theirs[2];
        ck_assert_int_eq(sl_dedup_claim(dir, key, &unit_lesson_a, theirs), SL_DEDUP_OWN);
        outcomes_of(mine, own[i]);
        sl_dedup_publish(dir, key, &unit_lesson_a, mine);
        free_outcomes(mine);
        ck_assert_int_eq(sl_dedup_claim(dir, key, &unit_lesson_a, theirs), SL_DEDUP_ALONE);
        ck_assert_int_eq(sl_dedup_wait(dir, key, &unit_lesson_a, theirs, 1), SL_DEDUP_ALONE);
    }
    /* nor a BUILD the machine caused (its compile stopped at the time limit) */
    ck_assert_int_eq(sl_dedup_open(dir), 0);
    sl_outcome mine[2], theirs[2];
    ck_assert_int_eq(sl_dedup_claim(dir, "b", &unit_lesson_a, theirs), SL_DEDUP_OWN);
    outcomes_of(mine, SL_V_BUILD);
    sl_text_printf(&mine[0].detail, SL_BUILD_TIMED_OUT " 60 s\n");
    sl_dedup_publish(dir, "b", &unit_lesson_a, mine);
    free_outcomes(mine);
    ck_assert_int_eq(sl_dedup_claim(dir, "b", &unit_lesson_a, theirs), SL_DEDUP_ALONE);
    sl_dedup_close(dir);
}
END_TEST

/* Static verdicts (TODO, RULE, BUILD) are published under the any-seed
 * key and taken by anyone; a file with any other verdict is not. */
START_TEST(static_outcomes_are_shared_whatever_the_seed)
{
    char dir[] = "/tmp/synclab_dedup_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(sl_dedup_open(dir), 0);
    sl_outcome mine[2], theirs[2];
    ck_assert_int_eq(sl_dedup_take(dir, "any", &unit_lesson_a, theirs), -1); /* nothing yet */
    outcomes_of(mine, SL_V_TODO); /* TODO, PASS: the PASS ran kernels */
    sl_dedup_publish_static(dir, "any", &unit_lesson_a, mine);
    ck_assert_int_eq(sl_dedup_take(dir, "any", &unit_lesson_a, theirs), -1);
    free_outcomes(mine);
    static const sl_verdict statics[] = {SL_V_TODO, SL_V_RULE, SL_V_BUILD};
    for (size_t i = 0; i < sizeof statics / sizeof statics[0]; i++) {
        char key[16];
        snprintf(key, sizeof key, "any%zu", i);
        for (int k = 0; k < 2; k++) {
            sl_outcome_init(&mine[k], &unit_lesson_a, &unit_lesson_a.exercises[k]);
            sl_outcome_set(&mine[k], statics[(i + (size_t)k) % 3]);
        }
        sl_dedup_publish_static(dir, key, &unit_lesson_a, mine);
        ck_assert_int_eq(sl_dedup_take(dir, key, &unit_lesson_a, theirs), 0);
        for (int k = 0; k < 2; k++)
            ck_assert_int_eq(theirs[k].verdict, mine[k].verdict);
        free_outcomes(theirs);
        free_outcomes(mine);
    }
    /* SYNC may be synccheck's, found on some inputs only: not static; nor a
     * BUILD the machine caused (a loaded node's compile past its limit) */
    sl_outcome o;
    sl_outcome_init(&o, &unit_lesson_a, &unit_lesson_a.exercises[0]);
    sl_outcome_set(&o, SL_V_SYNC);
    ck_assert(!sl_dedup_outcome_static(&o));
    sl_outcome_set(&o, SL_V_BUILD);
    sl_text_printf(&o.detail, "x.cu(3): error: expected a \";\"\n");
    ck_assert(sl_dedup_outcome_static(&o));
    sl_text_printf(&o.detail, SL_BUILD_TIMED_OUT " 60 s\n");
    ck_assert(!sl_dedup_outcome_static(&o));
    sl_outcome_free(&o);
    sl_dedup_close(dir);
}
END_TEST

START_TEST(an_owner_that_died_is_not_waited_for)
{
    char dir[] = "/tmp/synclab_dedup_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(sl_dedup_open(dir), 0);
    sl_outcome theirs[2];
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) /* claims, then dies without publishing */
        _exit(sl_dedup_claim(dir, "k", &unit_lesson_a, theirs) == SL_DEDUP_OWN ? 0 : 1);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ck_assert_int_eq(sl_dedup_claim(dir, "k", &unit_lesson_a, theirs), SL_DEDUP_BUSY);
    double t0 = sl_now();
    ck_assert_int_eq(sl_dedup_wait(dir, "k", &unit_lesson_a, theirs, 60), SL_DEDUP_ALONE);
    ck_assert(sl_now() - t0 < 5);
    sl_dedup_close(dir);
}
END_TEST

/* keepgpu: one keeper per GPU, each seeing its own GPU and told to hold;
 * a job's leftovers are killed around it (jobs.c), it is not; stop ends
 * them all; with the lever off none starts. The probe here is a script
 * that notes how it was started and waits. */
/* The stagger lever's places (slots.h): n at once, the next waits and
 * gives up at its limit, a place frees when its holder leaves or dies,
 * and a child that inherited a place's descriptor does not keep it. */
START_TEST(places_are_taken_n_at_once_and_freed_by_death)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/places", unit_tmp_dir());
    sl_remove_tree(dir, 1);
    sl_slots s;
    ck_assert_int_eq(sl_slots_open(&s, dir, "gpu0", 2), 0);
    double waited = -1;
    int a = sl_slots_take(&s, 1.0, &waited), b = sl_slots_take(&s, 1.0, NULL);
    ck_assert(a >= 0 && b >= 0);
    ck_assert(waited >= 0 && waited < 0.5);
    ck_assert_int_eq(sl_slots_take(&s, 0.2, &waited), -1); /* both held: waits, then gives up */
    ck_assert(waited >= 0.2 && waited < 2.0);
    pid_t heir = fork(); /* inherits a and b, and outlives their release */
    if (heir == 0) {
        pause();
        _exit(0);
    }
    sl_slots_give(a);
    int c = sl_slots_take(&s, 1.0, NULL);
    ck_assert(c >= 0); /* the child's copy of a did not keep it */
    sl_slots_give(b);
    sl_slots_give(c);
    kill(heir, SIGKILL);
    waitpid(heir, NULL, 0);
    /* a holder that dies without a word frees its place */
    int ready[2];
    ck_assert_int_eq(pipe(ready), 0);
    pid_t holder = fork();
    if (holder == 0) {
        int x = sl_slots_take(&s, 1.0, NULL), y = sl_slots_take(&s, 1.0, NULL);
        char ok = x >= 0 && y >= 0 ? 'y' : 'n';
        ssize_t w = write(ready[1], &ok, 1);
        (void)w;
        pause();
        _exit(0);
    }
    char ok = 0;
    ck_assert_int_eq(read(ready[0], &ok, 1), 1);
    ck_assert_int_eq(ok, 'y');
    ck_assert_int_eq(sl_slots_take(&s, 0.1, NULL), -1);
    kill(holder, SIGKILL);
    waitpid(holder, NULL, 0);
    int d = sl_slots_take(&s, 1.0, NULL);
    ck_assert(d >= 0);
    sl_slots_give(d);
    close(ready[0]);
    close(ready[1]);
    /* no places: nothing to wait for */
    sl_slots none = {.n = 0};
    ck_assert_int_eq(sl_slots_take(&none, 5.0, NULL), -1);
    sl_slots_give(-1);
    sl_remove_tree(dir, 1);
}
END_TEST

START_TEST(a_keeper_per_gpu_outlives_jobs_until_stopped)
{
    char probe[4096], seen[4096], text[8192];
    snprintf(probe, sizeof probe, "%s/keeper-probe.sh", unit_tmp_dir());
    snprintf(seen, sizeof seen, "%s/keeper-seen.txt", unit_tmp_dir());
    unlink(seen);
    snprintf(text, sizeof text,
             "#!/bin/sh\necho \"${CUDA_VISIBLE_DEVICES:-unset} $1\" >> %s\nexec sleep 60\n", seen);
    ck_assert_int_eq(sl_write_file(probe, text), 0);
    ck_assert_int_eq(chmod(probe, 0755), 0);
    setenv("SYNCLAB_GPU_PROBE", probe, 1);
    setenv("SYNCLAB_LEVERS", "keepgpu", 1);
    sl_gpus g = {.id = {"2", "GPU-8adc1d21"}, .count = 2};
    sl_gpu_keep_start(&g);
    ck_assert_int_eq(sl_gpu_keep_count(), 2);
    sl_gpu_keep_start(&g); /* once a grading */
    ck_assert_int_eq(sl_gpu_keep_count(), 2);
    pid_t job = fork();
    if (job == 0) {
        pause();
        _exit(0);
    }
    ck_assert_int_eq(sl_contain_kill_children(NULL, 0, 5.0), 1); /* the job's, not the keepers */
    ck_assert_int_eq(sl_gpu_keep_count(), 2);
    for (int i = 0; i < 100; i++) { /* the scripts write their line */
        char *t = sl_read_file(seen, 1 << 12, NULL);
        int lines = 0;
        for (char *c = t; c && *c; c++)
            lines += *c == '\n';
        free(t);
        if (lines == 2)
            break;
        usleep(20000);
    }
    char *t = sl_read_file(seen, 1 << 12, NULL);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "2 --hold\n"));
    ck_assert_ptr_nonnull(strstr(t, "GPU-8adc1d21 --hold\n"));
    free(t);
    sl_gpu_keep_stop();
    ck_assert_int_eq(sl_gpu_keep_count(), 0);
    ck_assert_int_eq(sl_contain_kill_children(NULL, 0, 5.0), 0); /* nothing left over */
    setenv("SYNCLAB_LEVERS", "dedup,alloc", 1);
    sl_gpu_keep_start(NULL);
    ck_assert_int_eq(sl_gpu_keep_count(), 0);
    unsetenv("SYNCLAB_LEVERS");
    unsetenv("SYNCLAB_GPU_PROBE");
}
END_TEST

/* How many students' work files fit under --out (room.h): the class
 * of 12 that lost 17 grades on a 12 GiB file system gets 2 at once. */
START_TEST(students_at_once_fit_the_disk)
{
    const long long GiB = 1LL << 30, inputs = 17 * GiB / 10; /* the seven lessons: 1.7 GiB */
    /* an H200's 64 GiB: 8 sweeping hold inputs and outputs, 13 more inputs */
    ck_assert_int_eq(sl_disk_fit(64 * GiB, inputs, 24, 8), 21);
    ck_assert_int_eq(sl_disk_fit(40 * GiB, inputs, 24, 8), 10);
    ck_assert_int_eq(sl_disk_fit(12 * GiB, inputs, 24, 8), 2);
    ck_assert_int_eq(sl_disk_fit(3 * GiB, inputs, 24, 8), 1); /* less than one: one at a time */
    ck_assert_int_eq(sl_disk_fit(0, inputs, 24, 8), 1);
    /* without places every student may sweep at once */
    ck_assert_int_eq(sl_disk_fit(20 * GiB, inputs, 8, 8), 4);
    ck_assert_int_eq(sl_disk_fit(20 * GiB, inputs, 8, 0), 4);
    /* room for all: as asked; nothing known: as asked */
    ck_assert_int_eq(sl_disk_fit(1000 * GiB, inputs, 24, 8), 24);
    ck_assert_int_eq(sl_disk_fit(-1, inputs, 24, 8), 24);
    ck_assert_int_eq(sl_disk_fit(12 * GiB, 0, 24, 8), 24);
    ck_assert_int_eq(sl_disk_fit(12 * GiB, inputs, 0, 0), 1);
    /* what fits never shrinks as the disk grows, and always fits */
    const long long outputs = inputs / 10 * SL_DISK_FIT_OUTPUTS_TENTHS;
    int last = 0;
    for (long long free = 0; free <= 100 * GiB; free += GiB / 4) {
        int fit = sl_disk_fit(free, inputs, 24, 8);
        ck_assert_int_ge(fit, last);
        long long sweeping = fit < 8 ? fit : 8;
        if (fit > 1)
            ck_assert_int_le(fit * (inputs + SL_DISK_FIT_BUILD_BYTES) + sweeping * outputs,
                             free / 10 * 9);
        last = fit;
    }
    ck_assert_int_eq(last, 24);
    /* the folder's file system answers; a missing folder does not */
    ck_assert_int_gt(sl_free_bytes(unit_tmp_dir()), 0);
    ck_assert_int_eq(sl_free_bytes("/nonexistent/synclab/disk_fit"), -1);
    ck_assert_int_eq(sl_free_bytes(NULL), -1);
    /* a file system of no size is not a full one */
    ck_assert_int_eq(sl_free_bytes("/proc"), -1);
    setenv("SYNCLAB_DISK_LOW_MB", "999999999", 1);
    ck_assert(!sl_disk_low("/proc", NULL));
    unsetenv("SYNCLAB_DISK_LOW_MB");
    /* a line above all the free space there is: low; none: never */
    long long free;
    setenv("SYNCLAB_DISK_LOW_MB", "999999999", 1);
    ck_assert(sl_disk_low(unit_tmp_dir(), &free));
    ck_assert_int_gt(free, 0);
    setenv("SYNCLAB_DISK_LOW_MB", "0", 1);
    ck_assert(!sl_disk_low(unit_tmp_dir(), NULL));
    setenv("SYNCLAB_DISK_LOW_MB", "12abc", 1); /* not a number: the default line */
    ck_assert_int_eq(sl_disk_low(unit_tmp_dir(), NULL), free < SL_DISK_LOW_BYTES);
    unsetenv("SYNCLAB_DISK_LOW_MB");
    ck_assert(!sl_disk_low(NULL, NULL));
}
END_TEST

/* ...and how many fit in the memory (room.h): a Slurm job's --mem
 * binds, a roomy node changes nothing. */
START_TEST(students_at_once_fit_the_memory)
{
    const long long GiB = 1LL << 30;
    /* the H200 node (125 GiB available): the class of 24 as asked */
    ck_assert_int_eq(sl_memory_fit(125 * GiB, 24, 8), 24);
    /* --mem=16G: 14.4 GiB usable, 3 GiB a sweeping student */
    ck_assert_int_eq(sl_memory_fit(16 * GiB, 24, 8), 4);
    /* --mem=32G: the 8 sweeping, then 12 more at 1 GiB */
    ck_assert_int_eq(sl_memory_fit(32 * GiB, 24, 8), 12);
    ck_assert_int_eq(sl_memory_fit(1 * GiB, 24, 8), 1); /* less than one: one at a time */
    ck_assert_int_eq(sl_memory_fit(0, 24, 8), 1);
    ck_assert_int_eq(sl_memory_fit(-1, 24, 8), 24);     /* nothing known: as asked */
    ck_assert_int_eq(sl_memory_fit(16 * GiB, 8, 0), 4); /* no places: all may sweep */
    ck_assert_int_eq(sl_memory_fit(16 * GiB, 0, 0), 1);
    int last = 0;
    for (long long avail = 0; avail <= 256 * GiB; avail += GiB / 4) {
        int fit = sl_memory_fit(avail, 48, 16);
        ck_assert_int_ge(fit, last);
        long long sweeping = fit < 16 ? fit : 16;
        if (fit > 1)
            ck_assert_int_le(fit * SL_MEMORY_FIT_STUDENT_BYTES +
                                 sweeping * SL_MEMORY_FIT_SWEEP_BYTES,
                             avail / 10 * 9);
        last = fit;
    }
    ck_assert_int_eq(last, 48);
    /* this machine's answer: something, and no more than it has */
    long long avail = sl_memory_available();
    ck_assert_int_gt(avail, 0);
}
END_TEST

Suite *scale_suite(void)
{
    Suite *s = suite_create("scale");
    TCase *tc = tcase_create("levers");
    tcase_add_test(tc, levers_from_the_environment_value);
    tcase_add_test(tc, default_jobs_follow_the_affinity_mask);
    tcase_add_test(tc, sha256_known_digests);
    tcase_add_test(tc, students_at_once_fit_the_disk);
    tcase_add_test(tc, students_at_once_fit_the_memory);
    suite_add_tcase(s, tc);
    tc = tcase_create("ptx_shared");
    tcase_add_test(tc, global_only_code_touches_no_shared_memory);
    tcase_add_test(tc, each_way_to_shared_memory_is_seen);
    tcase_add_test(tc, a_marked_scope_sees_only_its_functions);
    tcase_add_test(tc, nvcc_output_with_and_without_shared_memory);
    tcase_add_test(tc, initcheck_runs_where_the_file_allocates);
    tcase_add_test(tc, a_tool_off_bit_removes_only_its_tool);
    suite_add_tcase(s, tc);
    tc = tcase_create("dedup");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, shareable_only_when_nothing_but_the_bytes_reach_the_compiler);
    tcase_add_test(tc, the_key_changes_with_anything_that_can_change_a_verdict);
    tcase_add_test(tc, one_grades_the_others_take_its_outcomes);
    tcase_add_test(tc, outcomes_a_budget_could_change_are_not_shared);
    tcase_add_test(tc, an_owner_that_died_is_not_waited_for);
    tcase_add_test(tc, a_keeper_per_gpu_outlives_jobs_until_stopped);
    tcase_add_test(tc, places_are_taken_n_at_once_and_freed_by_death);
    tcase_add_test(tc, static_outcomes_are_shared_whatever_the_seed);
    suite_add_tcase(s, tc);
    return s;
}
