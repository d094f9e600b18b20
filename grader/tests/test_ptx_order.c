/* The memory-order analysis (ptx_order.c) on hand-written PTX: for each
 * class, the bug and several correct spellings. Lines: the wait is on
 * line 10 of k.cu, the fence 11, the read 12; the payload store 20, the
 * producer's fence 21, the flag store 22. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "ptx.h"
#include "ptx_budget.h"
#include "ptx_inline.h"
#include "ptx_order.h"
#include "unit.h"

#define HEAD                                                                                       \
    ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/s/k.cu\"\n"                         \
    ".visible .entry k(\n.param .u64 k_param_0,\n.param .u64 k_param_1,\n"                         \
    ".param .u64 k_param_2\n)\n{\n.reg .pred %p<9>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n"      \
    "ld.param.u64 %rd1, [k_param_0];\nld.param.u64 %rd2, [k_param_1];\n"                           \
    "ld.param.u64 %rd3, [k_param_2];\ncvta.to.global.u64 %rd4, %rd1;\n"                            \
    "cvta.to.global.u64 %rd5, %rd2;\ncvta.to.global.u64 %rd6, %rd3;\n"

/* Block 0 produces payload[0] and raises flag[0]; the others wait for it
 * and copy the payload out. */
static char *message_kernel(const char *spin, const char *acquire, const char *release,
                            const char *publish)
{
    char *buf = malloc(8192);
    snprintf(buf, 8192,
             "%s"
             "mov.u32 %%r1, %%ctaid.x;\nsetp.eq.s32 %%p1, %%r1, 0;\n@%%p1 bra $PROD;\n"
             "$SPIN:\n.loc 1 10 0\n%s\nsetp.eq.s32 %%p2, %%r2, 0;\n@%%p2 bra $SPIN;\n"
             ".loc 1 11 0\n%s\n.loc 1 12 0\nld.global.u32 %%r3, [%%rd4];\n"
             "st.global.u32 [%%rd6], %%r3;\nret;\n"
             "$PROD:\n.loc 1 20 0\nst.global.u32 [%%rd4], %%r1;\n.loc 1 21 0\n%s\n"
             ".loc 1 22 0\n%s\nret;\n}\n",
             HEAD, spin, acquire, release, publish);
    return buf;
}

/* s with the first old replaced by new (malloc'd). */
static char *replaced(const char *s, const char *old, const char *new)
{
    const char *at = strstr(s, old);
    ck_assert_ptr_nonnull(at);
    size_t n = strlen(s) - strlen(old) + strlen(new) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - s), s, new, at + strlen(old));
    return out;
}

static const char *const VOLATILE_SPIN = "ld.volatile.global.u32 %r2, [%rd5];";
static const char *const VOLATILE_FLAG = "st.volatile.global.u32 [%rd5], %r1;";

/* 1 when the analysis finds something; why and where are kept for asserts. */
static sl_text why;
static char where[512];

static int judge(const char *ptx_text, const sl_rule *rules)
{
    sl_ptx p;
    sl_ptx_parse(ptx_text, &p);
    sl_text_free(&why);
    int bad = sl_ptx_order_violation(&p, NULL, NULL, rules, &why, where, sizeof where);
    sl_ptx_free(&p);
    return bad;
}

static int judge_message(const char *spin, const char *acquire, const char *release,
                         const char *publish)
{
    char *k = message_kernel(spin, acquire, release, publish);
    int bad = judge(k, NULL);
    free(k);
    return bad;
}

#define SAYS(part)                                                                                 \
    ck_assert_msg(strstr(sl_text_str(&why), part), "'%s' not in: %s", part, sl_text_str(&why))
#define WHERE(part) ck_assert_msg(strstr(where, part), "'%s' not in where: %s", part, where)

START_TEST(consumer_spellings_that_acquire)
{
    const char *fence[] = {"membar.gl;", "membar.sys;", "fence.sc.gpu;", "fence.acq_rel.gpu;",
                           "fence.acq_rel.sys;"};
    for (size_t i = 0; i < sizeof fence / sizeof fence[0]; i++)
        ck_assert_msg(!judge_message(VOLATILE_SPIN, fence[i], "membar.gl;", VOLATILE_FLAG),
                      "%s: %s", fence[i], sl_text_str(&why));
    /* the wait itself acquires */
    ck_assert(
        !judge_message("ld.acquire.gpu.global.u32 %r2, [%rd5];", "", "membar.gl;", VOLATILE_FLAG));
    ck_assert(!judge_message("ld.relaxed.gpu.global.u32 %r2, [%rd5];", "fence.acq_rel.gpu;",
                             "membar.gl;", VOLATILE_FLAG));
    /* spins that re-read through atomics */
    ck_assert(!judge_message("atom.global.cas.b32 %r2, [%rd5], 1, 1;", "membar.gl;", "membar.gl;",
                             "atom.global.exch.b32 %r9, [%rd5], 1;"));
    ck_assert(!judge_message("atom.global.add.u32 %r2, [%rd5], 0;", "membar.gl;", "membar.gl;",
                             VOLATILE_FLAG));
    ck_assert(!judge_message("atom.acquire.gpu.global.or.b32 %r2, [%rd5], 0;", "", "membar.gl;",
                             VOLATILE_FLAG));
    /* an acquire re-read of the flag, through the same register or another
     * one made from the same parameter (cuda::atomic_ref computes its own) */
    ck_assert(!judge_message(VOLATILE_SPIN, "ld.acquire.gpu.global.u32 %r9, [%rd5];", "membar.gl;",
                             VOLATILE_FLAG));
    ck_assert_msg(!judge_message(VOLATILE_SPIN,
                                 "cvta.to.global.u64 %rd9, %rd2;\n"
                                 "ld.acquire.gpu.global.u32 %r9, [%rd9];",
                                 "membar.gl;", VOLATILE_FLAG),
                  "%s", sl_text_str(&why));
}
END_TEST

/* An acquire synchronizes only through the word it reads: an acquire load
 * of another variable, or of the word beside the flag, after a plain spin
 * orders nothing (red team: consumer_acquire_other_location). */
START_TEST(acquire_of_another_word)
{
    ck_assert(judge_message(VOLATILE_SPIN, "ld.acquire.gpu.global.u32 %r9, [other];", "membar.gl;",
                            VOLATILE_FLAG));
    SAYS("another variable");
    ck_assert(judge_message(VOLATILE_SPIN,
                            "mov.u64 %rd9, other;\ncvta.global.u64 %rd10, %rd9;\n"
                            "ld.acquire.gpu.u32 %r9, [%rd10];",
                            "membar.gl;", VOLATILE_FLAG));
    ck_assert(judge_message(VOLATILE_SPIN, "ld.acquire.gpu.global.u32 %r9, [%rd5+4];", "membar.gl;",
                            VOLATILE_FLAG));
    /* an acquire load of the payload's buffer (another parameter) */
    ck_assert(judge_message(VOLATILE_SPIN,
                            "cvta.to.global.u64 %rd9, %rd1;\n"
                            "ld.acquire.gpu.global.u32 %r9, [%rd9+8];",
                            "membar.gl;", VOLATILE_FLAG));
    /* a fence is for every location */
    ck_assert(!judge_message(VOLATILE_SPIN, "ld.acquire.gpu.global.u32 %r9, [other];\nmembar.gl;",
                             "membar.gl;", VOLATILE_FLAG));
}
END_TEST

START_TEST(consumer_without_acquire)
{
    ck_assert(judge_message(VOLATILE_SPIN, "", "membar.gl;", VOLATILE_FLAG));
    SAYS("no acquire");
    WHERE("k.cu:10");
    WHERE("k.cu:12");
    /* too narrow */
    ck_assert(judge_message(VOLATILE_SPIN, "membar.cta;", "membar.gl;", VOLATILE_FLAG));
    ck_assert(judge_message(VOLATILE_SPIN, "fence.acq_rel.cta;", "membar.gl;", VOLATILE_FLAG));
    /* a fence only some paths take */
    ck_assert(judge_message(VOLATILE_SPIN,
                            "setp.ne.s32 %p3, %r2, 7;\n@%p3 bra $SKIP;\nmembar.gl;\n$SKIP:",
                            "membar.gl;", VOLATILE_FLAG));
    /* an atomic spin is relaxed too */
    ck_assert(
        judge_message("atom.global.cas.b32 %r2, [%rd5], 1, 1;", "", "membar.gl;", VOLATILE_FLAG));
    /* a release fence does not acquire */
    ck_assert(judge_message(VOLATILE_SPIN, "fence.release.gpu;", "membar.gl;", VOLATILE_FLAG));
}
END_TEST

START_TEST(publish_spellings)
{
    const char *ok[][2] = {
        {"membar.gl;", VOLATILE_FLAG},
        {"membar.sys;", "atom.global.exch.b32 %r9, [%rd5], 1;"},
        {"fence.sc.gpu;", "st.relaxed.gpu.global.u32 [%rd5], %r1;"},
        {"fence.acq_rel.gpu;", "red.global.add.u32 [%rd5], 1;"},
        {"", "st.release.gpu.global.u32 [%rd5], %r1;"},
        {"", "atom.release.gpu.global.exch.b32 %r9, [%rd5], 1;"},
        {"", "red.release.gpu.global.add.u32 [%rd5], 1;"},
        /* "if (...) { __threadfence(); flag = 1; }" predicated by the compiler */
        {"setp.eq.s32 %p7, %r1, 0;\n@%p7 membar.gl;", "@%p7 st.volatile.global.u32 [%rd5], %r1;"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        ck_assert_msg(!judge_message(VOLATILE_SPIN, "membar.gl;", ok[i][0], ok[i][1]), "%s %s: %s",
                      ok[i][0], ok[i][1], sl_text_str(&why));
}
END_TEST

START_TEST(publish_without_release)
{
    ck_assert(judge_message(VOLATILE_SPIN, "membar.gl;", "", VOLATILE_FLAG));
    SAYS("no gpu-scope fence");
    WHERE("k.cu:20");
    WHERE("k.cu:22");
    ck_assert(judge_message(VOLATILE_SPIN, "membar.gl;", "membar.cta;", VOLATILE_FLAG));
    SAYS("one block only");
    ck_assert(judge_message(VOLATILE_SPIN, "membar.gl;", "fence.sc.cta;",
                            "atom.global.exch.b32 %r9, [%rd5], 1;"));
    /* a release of cta scope is not enough either */
    ck_assert(
        judge_message(VOLATILE_SPIN, "membar.gl;", "", "st.release.cta.global.u32 [%rd5], %r1;"));
    /* an acquire fence does not release */
    ck_assert(judge_message(VOLATILE_SPIN, "membar.gl;", "fence.acquire.gpu;", VOLATILE_FLAG));
    /* a volatile payload store is relaxed: it needs the fence as much */
    char *k = message_kernel(VOLATILE_SPIN, "membar.gl;", "", VOLATILE_FLAG);
    char *vol = replaced(k, "st.global.u32 [%rd4], %r1;", "st.volatile.global.u32 [%rd4], %r1;");
    ck_assert(judge(vol, NULL));
    WHERE("k.cu:20");
    free(vol);
    free(k);
    /* a fence under another predicate than the flag's */
    ck_assert(judge_message(VOLATILE_SPIN, "membar.gl;",
                            "setp.eq.s32 %p7, %r1, 0;\n@!%p7 membar.gl;",
                            "@%p7 st.volatile.global.u32 [%rd5], %r1;"));
    /* a fence in a branch that can be skipped */
    ck_assert(judge_message(
        VOLATILE_SPIN, "membar.gl;",
        "setp.ne.s32 %p3, %r1, 5;\n@%p3 bra $NOFENCE;\nmembar.gl;\n$NOFENCE:", VOLATILE_FLAG));
}
END_TEST

START_TEST(flag_written_with_a_plain_store)
{
    ck_assert(
        judge_message(VOLATILE_SPIN, "membar.gl;", "membar.gl;", "st.global.u32 [%rd5], %r1;"));
    SAYS("plain store");
    WHERE("k.cu:10");
    WHERE("k.cu:22");
}
END_TEST

/* Every thread stores the payload; thread 0 publishes for the block. */
static char *one_thread_kernel(const char *before, const char *release, const char *publish)
{
    char *buf = malloc(8192);
    snprintf(buf, 8192,
             "%s"
             "mov.u32 %%r1, %%ctaid.x;\nmov.u32 %%r5, %%tid.x;\nsetp.eq.s32 %%p1, %%r1, 0;\n"
             "@%%p1 bra $PROD;\nsetp.ne.s32 %%p5, %%r5, 0;\n@%%p5 bra $WAITED;\n"
             "$SPIN:\n.loc 1 10 0\nld.volatile.global.u32 %%r2, [%%rd5];\n"
             "setp.eq.s32 %%p2, %%r2, 0;\n@%%p2 bra $SPIN;\n.loc 1 11 0\nmembar.gl;\n"
             "$WAITED:\nbar.sync 0;\n.loc 1 12 0\nmul.wide.u32 %%rd7, %%r5, 4;\n"
             "add.s64 %%rd8, %%rd4, %%rd7;\nld.global.u32 %%r3, [%%rd8];\n"
             "st.global.u32 [%%rd6], %%r3;\nret;\n"
             "$PROD:\n.loc 1 20 0\nmul.wide.u32 %%rd9, %%r5, 4;\nadd.s64 %%rd10, %%rd4, %%rd9;\n"
             "st.global.u32 [%%rd10], %%r5;\n%s\nsetp.ne.s32 %%p4, %%r5, 0;\n@%%p4 bra $DONE;\n"
             ".loc 1 21 0\n%s\n.loc 1 22 0\n%s\n$DONE:\nret;\n}\n",
             HEAD, before, release, publish);
    return buf;
}

START_TEST(one_thread_publishes_for_its_block)
{
    struct {
        const char *before, *release, *publish;
        int bad;
    } cases[] = {
        {"bar.sync 0;", "", "st.release.gpu.global.u32 [%rd5], %r1;", 0},
        {"bar.sync 0;", "membar.gl;", VOLATILE_FLAG, 0},
        {"membar.gl;\nbar.sync 0;", "", VOLATILE_FLAG,
         0}, /* each thread fences, then the barrier */
        {"bar.sync 0;", "fence.acq_rel.gpu;", "st.relaxed.gpu.global.u32 [%rd5], %r1;", 0},
        {"", "", "st.release.gpu.global.u32 [%rd5], %r1;", 1}, /* no barrier */
        {"", "membar.gl;", VOLATILE_FLAG, 1},
        {"bar.sync 0;", "", VOLATILE_FLAG, 1}, /* barrier, no fence */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *k = one_thread_kernel(cases[i].before, cases[i].release, cases[i].publish);
        ck_assert_msg(judge(k, NULL) == cases[i].bad, "case %zu: %s", i, sl_text_str(&why));
        free(k);
    }
    char *k = one_thread_kernel("", "", "st.release.gpu.global.u32 [%rd5], %r1;");
    ck_assert(judge(k, NULL));
    SAYS("__syncthreads()");
    free(k);
}
END_TEST

/* Thread 0 waits; the block meets at a barrier; thread 0 fences in an if of
 * its own (the same predicate); a barrier; the block reads. The producer:
 * threads [0, warp_end] store, sync, thread 0 fences and publishes. */
static char *decided_kernel(const char *fence, const char *bar2, const char *warp_end,
                            const char *sync)
{
    char *buf = malloc(8192);
    snprintf(buf, 8192,
             "%s"
             "mov.u32 %%r1, %%ctaid.x;\nmov.u32 %%r5, %%tid.x;\nsetp.eq.s32 %%p1, %%r1, 0;\n"
             "@%%p1 bra $PROD;\nsetp.ne.s32 %%p3, %%r5, 0;\n@%%p3 bra $A;\n"
             "$SPIN:\n.loc 1 10 0\nld.volatile.global.u32 %%r2, [%%rd5];\n"
             "setp.eq.s32 %%p2, %%r2, 0;\n@%%p2 bra $SPIN;\n$A:\nbar.sync 0;\n@%%p3 bra $B;\n"
             ".loc 1 11 0\n%s\n$B:\n%s\n.loc 1 12 0\nld.global.u32 %%r3, [%%rd4];\n"
             "st.global.u32 [%%rd6], %%r3;\nret;\n"
             "$PROD:\nsetp.gt.u32 %%p4, %%r5, %s;\n@%%p4 bra $END;\n.loc 1 20 0\n"
             "st.global.u32 [%%rd4], %%r1;\n%s\nsetp.ne.s32 %%p5, %%r5, 0;\n@%%p5 bra $END;\n"
             ".loc 1 21 0\nmembar.gl;\n.loc 1 22 0\nst.volatile.global.u32 [%%rd5], %%r1;\n"
             "$END:\nret;\n}\n",
             HEAD, fence, bar2, warp_end, sync);
    return buf;
}

START_TEST(decided_branches_and_one_warp)
{
    struct {
        const char *fence, *bar2, *warp_end, *sync;
        int bad;
        const char *says;
    } cases[] = {
        {"membar.gl;", "bar.sync 0;", "31", "bar.warp.sync -1;", 0, NULL},
        {"membar.gl;", "bar.sync 0;", "31", "bar.sync 0;", 0, NULL},
        /* other threads read with no barrier after thread 0's fence */
        {"membar.gl;", "", "31", "bar.warp.sync -1;", 1, "only the waiting threads"},
        {"", "bar.sync 0;", "31", "bar.warp.sync -1;", 1, "no acquire"},
        /* two warps store: __syncwarp() does not gather them */
        {"membar.gl;", "bar.sync 0;", "63", "bar.warp.sync -1;", 1, "__syncthreads()"},
        {"membar.gl;", "bar.sync 0;", "31", "", 1, "__syncthreads()"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *k = decided_kernel(cases[i].fence, cases[i].bar2, cases[i].warp_end, cases[i].sync);
        ck_assert_msg(judge(k, NULL) == cases[i].bad, "case %zu: %s", i, sl_text_str(&why));
        if (cases[i].says)
            SAYS(cases[i].says);
        free(k);
    }
}
END_TEST

START_TEST(torn_words_and_fences_on_the_way_out)
{
    /* a 64-bit status word polled in one load, written in two halves */
    const char *wide = "ld.volatile.global.u64 %rd9, [%rd5];\ncvt.u32.u64 %r2, %rd9;";
    ck_assert(judge_message(wide, "membar.gl;", "membar.gl;", VOLATILE_FLAG));
    SAYS("only part");
    ck_assert(!judge_message(wide, "membar.gl;", "membar.gl;",
                             "cvt.u64.u32 %rd10, %r1;\nst.volatile.global.u64 [%rd5], %rd10;"));
    /* the fence after the ticket on the path of the blocks that leave */
    char buf[4096];
    for (int wrong = 0; wrong < 2; wrong++) {
        snprintf(buf, sizeof buf,
                 "%s"
                 "mov.u32 %%r1, %%ctaid.x;\nmov.u32 %%r4, %%nctaid.x;\n.loc 1 20 0\n"
                 "st.global.u32 [%%rd4], %%r1;\n.loc 1 21 0\nmembar.gl;\n.loc 1 22 0\n"
                 "atom.global.inc.u32 %%r2, [%%rd5], %%r4;\nadd.s32 %%r6, %%r4, -1;\n"
                 "setp.ne.s32 %%p1, %%r2, %%r6;\n@%%p1 bra $NOTLAST;\n%s\nbra.uni $GO;\n"
                 "$NOTLAST:\n%s\nret;\n$GO:\n.loc 1 12 0\nld.global.u32 %%r3, [%%rd4+4];\n"
                 "st.global.u32 [%%rd6], %%r3;\nret;\n}\n",
                 HEAD, wrong ? "" : "membar.gl;", wrong ? "membar.gl;" : "");
        ck_assert_msg(judge(buf, NULL) == wrong, "wrong=%d: %s", wrong, sl_text_str(&why));
    }
}
END_TEST

/* Last block: partial, fence, ticket; the last block reads the partials. */
static char *ticket_kernel(const char *release, const char *ticket, const char *acquire)
{
    char *buf = malloc(8192);
    snprintf(buf, 8192,
             "%s"
             "mov.u32 %%r1, %%ctaid.x;\nmov.u32 %%r4, %%nctaid.x;\nmul.wide.u32 %%rd7, %%r1, 4;\n"
             "add.s64 %%rd8, %%rd4, %%rd7;\n.loc 1 20 0\nst.global.u32 [%%rd8], %%r1;\n"
             ".loc 1 21 0\n%s\n.loc 1 22 0\n%s\nadd.s32 %%r6, %%r4, -1;\n"
             "setp.ne.s32 %%p1, %%r2, %%r6;\n@%%p1 bra $NOTLAST;\n.loc 1 11 0\n%s\n"
             "$NOTLAST:\nbar.sync 0;\n@%%p1 bra $END;\n.loc 1 12 0\n"
             "ld.global.u32 %%r3, [%%rd4+4];\nst.global.u32 [%%rd6], %%r3;\n$END:\nret;\n}\n",
             HEAD, release, ticket, acquire);
    return buf;
}

START_TEST(last_block_pattern)
{
    const char *inc = "atom.global.inc.u32 %r2, [%rd5], %r4;";
    struct {
        const char *release, *ticket, *acquire;
        int bad;
    } cases[] = {
        {"membar.gl;", inc, "membar.gl;", 0},
        {"fence.sc.gpu;", inc, "fence.sc.gpu;", 0},
        {"", "atom.acq_rel.gpu.global.add.u32 %r2, [%rd5], 1;", "", 0},
        {"fence.release.gpu;", inc, "fence.acq_rel.gpu;", 0},
        {"membar.gl;", inc, "", 1}, /* the last block reads with no acquire */
        {"", inc, "membar.gl;", 1}, /* the partial is not released */
        {"membar.cta;", inc, "membar.gl;", 1},
        {"", "atom.release.gpu.global.add.u32 %r2, [%rd5], 1;", "", 1},
        {"", "atom.acquire.gpu.global.add.u32 %r2, [%rd5], 1;", "", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *k = ticket_kernel(cases[i].release, cases[i].ticket, cases[i].acquire);
        ck_assert_msg(judge(k, NULL) == cases[i].bad, "case %zu: %s", i, sl_text_str(&why));
        free(k);
    }
    char *k = ticket_kernel("membar.gl;", inc, "");
    ck_assert(judge(k, NULL));
    SAYS("ticket");
    WHERE("k.cu:22");
    WHERE("k.cu:12");
    free(k);
}
END_TEST

START_TEST(read_only_loads_of_written_memory)
{
    /* reads payload (param 0) through the read-only path, which block 0 writes */
    char *k = message_kernel(VOLATILE_SPIN, "membar.gl;", "membar.gl;", VOLATILE_FLAG);
    char *nc = replaced(k, "ld.global.u32 %r3, [%rd4]", "ld.global.nc.u32 %r3, [%rd4]");
    ck_assert(judge(nc, NULL));
    free(nc);
    SAYS("read-only");
    WHERE("k.cu:12");
    free(k);
    /* a read-only input is fine */
    const char *ro =
        HEAD ".loc 1 5 0\nld.global.nc.u32 %r1, [%rd4];\nst.global.u32 [%rd6], %r1;\nret;\n}\n";
    ck_assert(!judge(ro, NULL));
}
END_TEST

/* Waits for flag[blockIdx.x - 1], or for flag[tile - 1] with tile a ticket. */
START_TEST(waiting_on_a_block_index)
{
    char *by_index = malloc(8192), *by_ticket = malloc(8192);
    const char *tail =
        "$SPIN:\n.loc 1 10 0\nld.volatile.global.u32 %r2, [%rd8];\nsetp.eq.s32 %p2, %r2, 0;\n"
        "@%p2 bra $SPIN;\n.loc 1 11 0\nmembar.gl;\nld.global.u32 %r3, [%rd4];\n"
        "st.global.u32 [%rd4+4], %r3;\nmembar.gl;\nst.volatile.global.u32 [%rd8+4], "
        "%r3;\nret;\n}\n";
    snprintf(by_index, 8192,
             "%s"
             "mov.u32 %%r1, %%ctaid.x;\nadd.s32 %%r7, %%r1, -1;\nmul.wide.u32 %%rd7, %%r7, 4;\n"
             "add.s64 %%rd8, %%rd5, %%rd7;\n%s",
             HEAD, tail);
    snprintf(by_ticket, 8192,
             "%s"
             ".shared .align 4 .u32 s_tile;\nmov.u32 %%r5, %%tid.x;\nsetp.ne.s32 %%p1, %%r5, 0;\n"
             "@%%p1 bra $TAKEN;\natom.global.add.u32 %%r6, [%%rd6], 1;\n"
             "st.shared.u32 [s_tile], %%r6;\n$TAKEN:\nbar.sync 0;\n"
             "ld.shared.u32 %%r1, [s_tile];\nadd.s32 %%r7, %%r1, -1;\n"
             "mul.wide.u32 %%rd7, %%r7, 4;\nadd.s64 %%rd8, %%rd5, %%rd7;\n%s",
             HEAD, tail);
    ck_assert(judge(by_index, NULL));
    SAYS("blockIdx");
    WHERE("k.cu:10");
    ck_assert_msg(!judge(by_ticket, NULL), "%s", sl_text_str(&why));
    sl_rule coresident[] = {{SL_RULE_CORESIDENT, NULL, NULL, NULL, NULL},
                            {SL_RULE_ORDER_NOTE, NULL, NULL, "NOTE", NULL},
                            {SL_RULE_END, NULL, NULL, NULL, NULL}};
    ck_assert(!judge(by_index, coresident));
    /* the exercise's note comes with a finding */
    char *k = message_kernel(VOLATILE_SPIN, "", "membar.gl;", VOLATILE_FLAG);
    ck_assert(judge(k, coresident));
    SAYS("NOTE");
    free(k);
    free(by_index);
    free(by_ticket);
}
END_TEST

START_TEST(block_local_and_non_waiting_loops_are_not_judged)
{
    /* a spin on shared memory: block-local */
    const char *shared_spin =
        HEAD ".shared .align 4 .u32 s_flag;\n$SPIN:\nld.volatile.shared.u32 %r2, [s_flag];\n"
             "setp.eq.s32 %p2, %r2, 0;\n@%p2 bra $SPIN;\nld.global.u32 %r3, [%rd4];\n"
             "st.global.u32 [%rd4+4], %r3;\nret;\n}\n";
    ck_assert_msg(!judge(shared_spin, NULL), "%s", sl_text_str(&why));
    /* the same through a generic pointer (cuda::atomic_ref on a __shared__ int) */
    const char *generic_shared_spin =
        HEAD ".shared .align 4 .u32 s_flag;\nmov.u64 %rd9, s_flag;\ncvta.shared.u64 %rd10, %rd9;\n"
             "$SPIN:\nld.relaxed.cta.u32 %r2, [%rd10];\nsetp.eq.s32 %p2, %r2, 0;\n@%p2 bra $SPIN;\n"
             "ld.global.u32 %r3, [%rd4];\nst.global.u32 [%rd4+4], %r3;\nret;\n}\n";
    ck_assert_msg(!judge(generic_shared_spin, NULL), "%s", sl_text_str(&why));
    /* ...but through a generic pointer to global memory it is a wait */
    char *generic_global = replaced(generic_shared_spin, "[%rd10]", "[%rd2]");
    ck_assert(judge(generic_global, NULL));
    free(generic_global);
    /* a CAS retry loop (atomicMax on floats, say) waits for nobody */
    const char *cas_retry = HEAD
        "ld.global.u32 %r1, [%rd5];\n$RETRY:\nmov.u32 %r2, %r1;\nadd.s32 %r3, %r2, 1;\n"
        "atom.global.cas.b32 %r1, [%rd5], %r2, %r3;\nsetp.ne.s32 %p1, %r1, %r2;\n"
        "@%p1 bra $RETRY;\nld.global.u32 %r4, [%rd4];\nst.global.u32 [%rd4+4], %r4;\nret;\n}\n";
    ck_assert_msg(!judge(cas_retry, NULL), "%s", sl_text_str(&why));
    /* a work-claiming loop: atomicAdd(next, 1) until the work runs out */
    const char *claim = HEAD
        "$CLAIM:\natom.global.add.u32 %r1, [%rd5], 1;\nsetp.ge.u32 %p1, %r1, 100;\n"
        "@%p1 bra $OUT;\nmul.wide.u32 %rd7, %r1, 4;\nadd.s64 %rd8, %rd4, %rd7;\n"
        "ld.global.u32 %r2, [%rd8];\nst.global.u32 [%rd8], %r2;\nbra.uni $CLAIM;\n$OUT:\nret;\n}\n";
    ck_assert_msg(!judge(claim, NULL), "%s", sl_text_str(&why));
    /* a histogram: atomics after plain stores, nobody waits */
    const char *hist = HEAD "st.global.u32 [%rd4], %r1;\nred.global.add.u32 [%rd5], 1;\nret;\n}\n";
    ck_assert(!judge(hist, NULL));
}
END_TEST

START_TEST(calls_to_helpers)
{
    const char *helpers = ".func fence_helper()\n{\nmembar.gl;\nret;\n}\n"
                          ".func plain_helper()\n{\nret;\n}\n.visible .entry k(";
    /* a __noinline__ helper that fences orders like the fence itself */
    char *k =
        message_kernel(VOLATILE_SPIN, "membar.gl;", "call.uni fence_helper, ();", VOLATILE_FLAG);
    char *with = replaced(k, ".visible .entry k(", helpers);
    ck_assert_msg(!judge(with, NULL), "%s", sl_text_str(&why));
    free(with);
    free(k);
    /* one that does not, or printf, does not */
    const char *none[] = {"call.uni plain_helper, ();",
                          "call.uni (retval0), vprintf, (param0, param1);"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        k = message_kernel(VOLATILE_SPIN, "membar.gl;", none[i], VOLATILE_FLAG);
        with = replaced(k, ".visible .entry k(", helpers);
        ck_assert_msg(judge(with, NULL), "%s", none[i]);
        free(with);
        free(k);
    }
}
END_TEST

/* Library kernels: a library namespace's name AND lines from a file the
 * build lists as library code (the compiler's dependency list). A name
 * alone (a student's namespace cub or cuda) is the student's code. */
static int judge_listed(const char *ptx_text, const char *list)
{
    sl_ptx p;
    sl_ptx_parse(ptx_text, &p);
    sl_ptx_mark_library(&p, list);
    sl_text_free(&why);
    int bad = sl_ptx_order_violation(&p, NULL, NULL, NULL, &why, where, sizeof where);
    sl_ptx_free(&p);
    return bad;
}

START_TEST(library_kernels_are_not_judged)
{
    char *k = message_kernel(VOLATILE_SPIN, "", "", VOLATILE_FLAG);
    ck_assert(judge(k, NULL));
    char *lib = replaced(k, ".entry k(", ".entry _ZN3cub6kernelE(");
    ck_assert(judge(lib, NULL)); /* nothing listed: the student's */
    ck_assert(judge_listed(lib, "/x/other.cuh\n"));
    ck_assert(!judge_listed(lib, "/s/k.cu\n")); /* its lines are the library's */
    char *ns = replaced(k, ".entry k(", ".entry _ZN4cuda4waitEv(");
    ck_assert(judge(ns, NULL));
    ck_assert(!judge_listed(ns, "/s/k.cu\n"));
    /* one line of the student's in it: the student's function */
    char *mixed = replaced(lib, ".loc 1 22 0", ".file 2 \"/s/own.cu\"\n.loc 2 22 0");
    ck_assert(judge_listed(mixed, "/s/k.cu\n"));
    free(mixed);
    free(ns);
    free(lib);
    free(k);
}
END_TEST

/* Class A: a weak load polled in a loop is a wait (ld.global, .cg, with a
 * fence or __nanosleep in the body); a loop over data is not. */
START_TEST(weak_load_polls)
{
    const char *weak[] = {"ld.global.cg.u32 %r2, [%rd5];", "ld.global.u32 %r2, [%rd5];",
                          "ld.global.cv.u32 %r2, [%rd5];",
                          "ld.global.u32 %r2, [%rd5];\nnanosleep.u32 100;",
                          "membar.gl;\nld.global.u32 %r2, [%rd5];"};
    for (size_t i = 0; i < sizeof weak / sizeof weak[0]; i++) {
        ck_assert_msg(judge_message(weak[i], "", "membar.gl;", VOLATILE_FLAG), "%s", weak[i]);
        /* issue 27.3: a plain load spun on races with the flag's store; a
         * fence after the loop does not make it a wait */
        ck_assert_msg(judge_message(weak[i], "membar.gl;", "membar.gl;", VOLATILE_FLAG), "%s",
                      weak[i]);
        ck_assert_msg(strstr(sl_text_str(&why), "plain load"), "%s: %s", weak[i],
                      sl_text_str(&why));
    }
    /* the same wait polled with a volatile load and fenced is right */
    ck_assert_msg(!judge_message("ld.volatile.global.u32 %r2, [%rd5];", "membar.gl;", "membar.gl;",
                                 VOLATILE_FLAG),
                  "%s", sl_text_str(&why));
    ck_assert(judge_message("ld.global.cg.u32 %r2, [%rd5];", "", "membar.gl;", VOLATILE_FLAG));
    SAYS("no acquire");
    WHERE("k.cu:10");
    /* a fence in the body after the load is on the exit path too: with a
     * volatile load that is a wait; with a plain one still a race */
    ck_assert(!judge_message("ld.volatile.global.u32 %r2, [%rd5];\nmembar.gl;", "", "membar.gl;",
                             VOLATILE_FLAG));
    ck_assert(
        judge_message("ld.global.u32 %r2, [%rd5];\nmembar.gl;", "", "membar.gl;", VOLATILE_FLAG));
    /* the exit also counts a loop-carried index: a loop over data */
    ck_assert(!judge_message("ld.global.u32 %r5, [%rd5];\nadd.s32 %r4, %r4, 1;\n"
                             "add.s32 %r2, %r4, %r5;",
                             "", "membar.gl;", VOLATILE_FLAG));
    /* the address moves each time round: while (in[i]) i++ */
    ck_assert(!judge_message("add.s64 %rd5, %rd5, 4;\nld.global.u32 %r2, [%rd5];", "", "membar.gl;",
                             VOLATILE_FLAG));
    /* read-only loads are the .nc rule's */
    ck_assert(
        judge_message("ld.global.nc.u32 %r2, [%rd5];", "membar.gl;", "membar.gl;", VOLATILE_FLAG));
    SAYS("read-only");
}
END_TEST

/* Class B: read-only read-modify-writes poll too. */
START_TEST(atomic_polls)
{
    const char *poll[] = {"atom.global.max.s32 %r2, [%rd5], 0;",
                          "atom.global.min.u32 %r2, [%rd5], -1;",
                          "atom.global.add.u32 %r2, [%rd5], 0;",
                          "mov.u32 %r7, 0;\natom.global.add.u32 %r2, [%rd5], %r7;",
                          "atom.global.cas.b32 %r2, [%rd5], 0, 0;"};
    for (size_t i = 0; i < sizeof poll / sizeof poll[0]; i++) {
        ck_assert_msg(judge_message(poll[i], "", "membar.gl;", VOLATILE_FLAG), "%s", poll[i]);
        ck_assert_msg(!judge_message(poll[i], "membar.gl;", "membar.gl;", VOLATILE_FLAG), "%s: %s",
                      poll[i], sl_text_str(&why));
    }
}
END_TEST

/* Class E: atomics and cp.async are data accesses. */
START_TEST(atomics_and_async_copies_are_data)
{
    char *k = message_kernel(VOLATILE_SPIN, "", "membar.gl;", VOLATILE_FLAG);
    char *cp =
        replaced(k, "ld.global.u32 %r3, [%rd4];", "cp.async.ca.shared.global [%r9], [%rd4], 4;");
    ck_assert(judge(cp, NULL));
    SAYS("cp.async");
    char *ok = replaced(cp, ".loc 1 11 0\n", ".loc 1 11 0\nmembar.gl;\n");
    ck_assert_msg(!judge(ok, NULL), "%s", sl_text_str(&why));
    char *at = replaced(k, "ld.global.u32 %r3, [%rd4];", "atom.global.add.u32 %r3, [%rd4], 0;");
    ck_assert(judge(at, NULL));
    free(cp);
    free(ok);
    free(at);
    free(k);
    /* a payload written with atomicExch still needs the release fence */
    k = message_kernel(VOLATILE_SPIN, "membar.gl;", "", VOLATILE_FLAG);
    char *ex = replaced(k, "st.global.u32 [%rd4], %r1;", "atom.global.exch.b32 %r8, [%rd4], %r1;");
    ck_assert(judge(ex, NULL));
    SAYS("atom.global.exch");
    free(ex);
    free(k);
    k = message_kernel(VOLATILE_SPIN, "membar.gl;", "membar.gl;", VOLATILE_FLAG);
    ex = replaced(k, "st.global.u32 [%rd4], %r1;", "atom.global.exch.b32 %r8, [%rd4], %r1;");
    ck_assert_msg(!judge(ex, NULL), "%s", sl_text_str(&why));
    free(ex);
    free(k);
}
END_TEST

/* Class F: block scope does not synchronize two blocks. */
START_TEST(block_scope_flags_waits_and_tickets)
{
    ck_assert(judge_message("ld.relaxed.cta.global.u32 %r2, [%rd5];", "membar.gl;", "membar.gl;",
                            VOLATILE_FLAG));
    SAYS("block scope");
    ck_assert(judge_message("ld.acquire.cta.global.u32 %r2, [%rd5];", "membar.gl;", "membar.gl;",
                            VOLATILE_FLAG));
    ck_assert(judge_message(VOLATILE_SPIN, "membar.gl;", "membar.gl;",
                            "st.relaxed.cta.global.u32 [%rd5], %r1;"));
    SAYS("block scope");
    ck_assert(!judge_message("ld.relaxed.gpu.global.u32 %r2, [%rd5];", "membar.gl;", "membar.gl;",
                             "st.relaxed.gpu.global.u32 [%rd5], %r1;"));
}
END_TEST

/* ---------- __noinline__ helpers (ptx_inline.c) ---------- */

/* wait_on(flag) spins on line 10 and returns the flag; the kernel passes
 * %rd8 (flag + 4 * (%r7)), fences on line 11 (acquire) and reads on 12.
 * Block 0 produces as in message_kernel. index: how %r7 is chosen. The
 * module header comes before the helper and again in HEAD (harmless). */
static char *helper_kernel(const char *index, const char *acquire)
{
    char *buf = malloc(8192);
    snprintf(buf, 8192,
             ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/s/k.cu\"\n"
             ".func (.param .b32 func_retval0) wait_on(\n.param .b64 wait_on_param_0\n)\n{\n"
             ".reg .pred %%p<3>;\n.reg .b32 %%r<3>;\n.reg .b64 %%rd<3>;\n"
             "ld.param.u64 %%rd1, [wait_on_param_0];\n$L__BB0_1:\n.loc 1 10 0\n"
             "ld.volatile.global.u32 %%r1, [%%rd1];\nsetp.eq.s32 %%p1, %%r1, 0;\n"
             "@%%p1 bra $L__BB0_1;\nst.param.b32 [func_retval0+0], %%r1;\nret;\n}\n"
             "%s"
             ".shared .align 4 .u32 s_tile;\n%s\nmul.wide.u32 %%rd7, %%r7, 4;\n"
             "add.s64 %%rd8, %%rd5, %%rd7;\nmov.u32 %%r1, %%ctaid.x;\nsetp.eq.s32 %%p1, %%r1, 0;\n"
             "@%%p1 bra $PROD;\n"
             "{\n.reg .b32 temp_param_reg;\n.param .b64 param0;\nst.param.b64 [param0+0], %%rd8;\n"
             ".param .b32 retval0;\ncall.uni (retval0), wait_on, (param0);\n"
             "ld.param.b32 %%r2, [retval0+0];\n}\n"
             ".loc 1 11 0\n%s\n.loc 1 12 0\nld.global.u32 %%r3, [%%rd4];\n"
             "st.global.u32 [%%rd6], %%r3;\nret;\n"
             "$PROD:\n.loc 1 20 0\nst.global.u32 [%%rd4], %%r1;\n.loc 1 21 0\nmembar.gl;\n"
             ".loc 1 22 0\nst.volatile.global.u32 [%%rd5], %%r1;\nret;\n}\n",
             HEAD, index, acquire);
    return buf;
}

static const char *const FIXED_INDEX = "mov.u32 %r7, 0;";
static const char *const CTAID_INDEX = "mov.u32 %r6, %ctaid.x;\nadd.s32 %r7, %r6, -1;";
static const char *const TICKET_INDEX =
    "mov.u32 %r5, %tid.x;\nsetp.ne.s32 %p3, %r5, 0;\n@%p3 bra $TAKEN;\n"
    "atom.global.add.u32 %r6, [%rd6], 1;\nst.shared.u32 [s_tile], %r6;\n$TAKEN:\nbar.sync 0;\n"
    "ld.shared.u32 %r6, [s_tile];\nadd.s32 %r7, %r6, -1;";

static int has_insn(const sl_ptx_func *f, const char *text)
{
    for (int j = 0; j < f->ninsn; j++)
        if (strcmp(f->insn[j].text, text) == 0)
            return j;
    return -1;
}

START_TEST(inlining_copies_helpers)
{
    char *k = helper_kernel(FIXED_INDEX, "membar.gl;");
    sl_ptx p;
    sl_ptx_parse(k, &p);
    int ki = sl_ptx_function_index(&p, "k"), hi = sl_ptx_function_index(&p, "wait_on");
    ck_assert_int_ge(ki, 0);
    sl_ptx_func f;
    char inlined[4] = {0};
    ck_assert_int_eq(sl_ptx_inline(&p, ki, NULL, 0, &f, inlined), 1);
    ck_assert(inlined[hi] && !inlined[ki]);
    /* the argument and the result are moved, the callseq is gone */
    ck_assert_int_ge(has_insn(&f, "mov.u64 %rd1__in1, %rd8"), 0);
    ck_assert_int_ge(has_insn(&f, "mov.b32 %r2, %r1__in1"), 0);
    for (int j = 0; j < f.ninsn; j++)
        ck_assert_msg(!strstr(f.insn[j].text, "st.param") && !strstr(f.insn[j].text, "retval") &&
                          !strstr(f.insn[j].text, "wait_on") && !strstr(f.insn[j].text, "call"),
                      "%s", f.insn[j].text);
    /* registers and labels renamed, ret a branch past the copy */
    int load = has_insn(&f, "ld.volatile.global.u32 %r1__in1, [%rd1__in1]");
    ck_assert_int_ge(load, 0);
    ck_assert_int_eq(f.insn[load].src_line, 10); /* the helper's own line */
    ck_assert_int_ge(has_insn(&f, "@%p1__in1 bra $L__BB0_1__in1"), 0);
    int ret = has_insn(&f, "bra.uni $L__ret__in1");
    ck_assert_int_ge(ret, 0);
    int end = -1, loop = -1;
    for (int l = 0; l < f.nlabel; l++) {
        if (strcmp(f.label[l], "$L__ret__in1") == 0)
            end = f.label_at[l];
        if (strcmp(f.label[l], "$L__BB0_1__in1") == 0)
            loop = f.label_at[l];
    }
    ck_assert_int_eq(loop, load);
    ck_assert_int_gt(end, ret);
    ck_assert_int_ge(has_insn(&f, "mov.u32 %r1, %ctaid.x"), 0); /* the kernel's own */
    sl_ptx_func_free(&f);
    /* the helper is judged inside its kernel, not alone */
    sl_ptx_inlined m;
    sl_ptx_inline_kernels(&p, NULL, NULL, NULL, &m);
    ck_assert_ptr_null(sl_ptx_inlined_view(&m, hi));
    ck_assert_ptr_ne(sl_ptx_inlined_view(&m, ki), &p.func[ki]);
    sl_ptx_inlined_free(&m);
    /* a copy past the cap is given up */
    ck_assert_int_eq(sl_ptx_inline(&p, ki, NULL, 10, &f, NULL), -1);
    /* nothing to inline in the helper itself */
    ck_assert_int_eq(sl_ptx_inline(&p, hi, NULL, 0, &f, NULL), 0);
    sl_ptx_free(&p);
    free(k);
    /* recursion is not followed */
    const char *rec = ".func r()\n{\ncall.uni r, ();\nret;\n}\n"
                      ".visible .entry e()\n{\ncall.uni r, ();\nret;\n}\n";
    sl_ptx_parse(rec, &p);
    ck_assert_int_eq(sl_ptx_inline(&p, 1, NULL, 0, &f, NULL), 1);
    ck_assert_int_ge(has_insn(&f, "call.uni r, ()"), 0);
    sl_ptx_func_free(&f);
    sl_ptx_free(&p);
}
END_TEST

START_TEST(waits_in_helpers)
{
    /* the helper spins, the caller fences after the call: right */
    char *k = helper_kernel(FIXED_INDEX, "membar.gl;");
    ck_assert_msg(!judge(k, NULL), "%s", sl_text_str(&why));
    free(k);
    /* no fence after the call: the read is named on the kernel's line,
     * the wait on the helper's */
    k = helper_kernel(FIXED_INDEX, "");
    ck_assert(judge(k, NULL));
    SAYS("no acquire");
    WHERE("k.cu:10");
    WHERE("k.cu:12");
    free(k);
    /* the index flows into the helper: blockIdx, or a ticket */
    k = helper_kernel(CTAID_INDEX, "membar.gl;");
    ck_assert(judge(k, NULL));
    SAYS("blockIdx");
    WHERE("k.cu:10");
    free(k);
    k = helper_kernel(TICKET_INDEX, "membar.gl;");
    ck_assert_msg(!judge(k, NULL), "%s", sl_text_str(&why));
    free(k);
}
END_TEST

/* A payload stored through a pointer read from memory may be stored
 * anywhere: it needs the release like any other. */
START_TEST(payload_through_a_loaded_pointer)
{
    char *k = message_kernel(VOLATILE_SPIN, "membar.gl;", "", VOLATILE_FLAG);
    char *hidden = replaced(k, "st.global.u32 [%rd4], %r1;",
                            "ld.shared.u64 %rd9, [box];\nst.u32 [%rd9], %r1;");
    ck_assert(judge(hidden, NULL));
    WHERE("k.cu:20");
    free(k);
    k = message_kernel(VOLATILE_SPIN, "membar.gl;", "membar.gl;", VOLATILE_FLAG);
    char *fenced = replaced(k, "st.global.u32 [%rd4], %r1;",
                            "ld.shared.u64 %rd9, [box];\nst.u32 [%rd9], %r1;");
    ck_assert_msg(!judge(fenced, NULL), "%s", sl_text_str(&why));
    free(k);
    free(hidden);
    free(fenced);
}
END_TEST

/* fn (a .func's text) put before the kernel of k (malloc'd). */
static char *with_function(const char *k, const char *fn)
{
    const char *entry = strstr(k, ".visible .entry");
    size_t n = strlen(fn) + strlen(k) + 1;
    char *ptx = malloc(n);
    snprintf(ptx, n, "%.*s%s%s", (int)(entry - k), k, fn, entry);
    return ptx;
}

/* The flag raised by a function called through a pointer: the check
 * cannot see which function runs, and says so. A pointer to a function
 * that touches no global memory is no such call. */
START_TEST(calls_through_a_pointer)
{
    static const char raise[] =
        ".func raise(.param .b64 raise_param_0)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [raise_param_0];\nmov.u32 %r1, 1;\n"
        "st.volatile.global.u32 [%rd1], %r1;\nret;\n}\n";
    static const char twice[] =
        ".func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)\n{\n.reg .b32 %r<3>;\n"
        "ld.param.u32 %r1, [twice_param_0];\nadd.s32 %r2, %r1, %r1;\n"
        "st.param.b32 [func_retval0+0], %r2;\nret;\n}\n";
    char *k = message_kernel(VOLATILE_SPIN, "membar.gl;", "",
                             "mov.u64 %rd9, raise;\n{\n.param .b64 param0;\n"
                             "st.param.b64 [param0+0], %rd5;\n"
                             "prototype_0 : .callprototype ()_ (.param .b64 _);\n"
                             "call %rd9, (param0), prototype_0;\n}");
    char *ptx = with_function(k, raise);
    ck_assert(judge(ptx, NULL));
    SAYS("function pointer");
    WHERE("k.cu:22");
    free(ptx);
    free(k);
    /* a pointer to arithmetic only, beside a fenced flag stored directly */
    k = message_kernel(VOLATILE_SPIN, "membar.gl;", "membar.gl;",
                       "mov.u64 %rd9, twice;\n{\n.param .b32 param0;\n.param .b32 retval0;\n"
                       "st.param.b32 [param0+0], %r1;\n"
                       "prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                       "call (retval0), %rd9, (param0), prototype_1;\n"
                       "ld.param.b32 %r8, [retval0+0];\n}\n"
                       "st.volatile.global.u32 [%rd5], %r8;");
    ptx = with_function(k, twice);
    ck_assert_msg(!judge(ptx, NULL), "%s", sl_text_str(&why));
    free(ptx);
    free(k);
}
END_TEST

/* n groups of wait, fenced read, store, fence and flag behind a branch that
 * is never taken: the analysis pairs every wait with every flag and store,
 * so its work grows with n^3 paths of n instructions (n = 200 ran past 10
 * minutes before the budget). malloc'd. */
static char *dead_groups(int n)
{
    sl_text t = {0};
    sl_text_printf(&t,
                   "%s.reg .b32 %%q<%d>;\n.reg .pred %%w<%d>;\n"
                   "ld.param.u32 %%r1, [k_param_2];\nsetp.gt.s32 %%p1, %%r1, -1;\n"
                   "@%%p1 bra $END;\nmov.u32 %%r2, 1;\n",
                   HEAD, 2 * n + 2, n + 2);
    for (int k = 0; k < n; k++)
        sl_text_printf(&t,
                       "$W%d:\n.loc 1 %d 0\nld.volatile.global.u32 %%q%d, [%%rd5+%d];\n"
                       "setp.eq.s32 %%w%d, %%q%d, 0;\n@%%w%d bra $W%d;\nmembar.gl;\n"
                       "ld.global.u32 %%q%d, [%%rd4+%d];\nst.global.u32 [%%rd6+%d], %%q%d;\n"
                       "st.global.u32 [%%rd4+%d], %%r2;\nmembar.gl;\n"
                       "st.volatile.global.u32 [%%rd5+%d], %%r2;\n",
                       k, 10 + k, 2 * k, 4 * k + 4, k, 2 * k, k, k, 2 * k + 1, 4 * k + 4, 4 * k,
                       2 * k + 1, 4 * k, 4 * k);
    sl_text_printf(&t, "$END:\nret;\n}\n");
    char *out = strdup(sl_text_str(&t));
    sl_text_free(&t);
    return out;
}

/* The budget (ptx_budget.h): a blow-up stops after its steps, in about the
 * same time on every machine, and says so; small kernels never see it. */
START_TEST(a_budget_bounds_the_analysis)
{
    char *k = dead_groups(200);
    sl_ptx_budget_start(SL_PTX_BUDGET_STEPS, SL_PTX_BUDGET_SECONDS);
    double t0 = sl_now();
    judge(k, NULL);
    double took = sl_now() - t0;
    const char *what = NULL;
    ck_assert_msg(sl_ptx_budget_exhausted(&what), "the budget did not run out: %lld steps",
                  sl_ptx_budget_used());
    ck_assert_ptr_nonnull(strstr(what, "steps of analysis"));
    ck_assert_msg(took < 20.0, "the analysis took %.1f s", took);
    /* once out, every later analysis returns at once */
    t0 = sl_now();
    judge(k, NULL);
    ck_assert_msg(sl_now() - t0 < 2.0, "a spent budget still took %.1f s", sl_now() - t0);
    free(k);
    /* a few groups: judged in full, well inside the budget */
    k = dead_groups(4);
    sl_ptx_budget_start(SL_PTX_BUDGET_STEPS, SL_PTX_BUDGET_SECONDS);
    judge(k, NULL);
    ck_assert(!sl_ptx_budget_exhausted(NULL));
    ck_assert_int_lt(sl_ptx_budget_used(), SL_PTX_BUDGET_STEPS / 100);
    free(k);
    /* the PTX reader's own limit: a function too long to read */
    sl_ptx_budget_start(SL_PTX_BUDGET_STEPS, SL_PTX_BUDGET_SECONDS);
    sl_text big = {0};
    sl_text_printf(&big, "%s", HEAD);
    for (int i = 0; i <= SL_PTX_MAX_INSNS; i++)
        sl_text_printf(&big, "add.s32 %%r1, %%r1, 1;\n");
    sl_text_printf(&big, "ret;\n}\n");
    sl_ptx p;
    sl_ptx_parse(sl_text_str(&big), &p);
    ck_assert(sl_ptx_budget_exhausted(&what));
    ck_assert_ptr_nonnull(strstr(what, "instructions"));
    sl_ptx_free(&p);
    sl_text_free(&big);
    sl_ptx_budget_start(0, 0); /* the other tests: no budget */
}
END_TEST

Suite *ptx_order_suite(void)
{
    Suite *s = suite_create("ptx_order");
    TCase *tc = tcase_create("order");
    tcase_add_test(tc, consumer_spellings_that_acquire);
    tcase_add_test(tc, consumer_without_acquire);
    tcase_add_test(tc, acquire_of_another_word);
    tcase_add_test(tc, publish_spellings);
    tcase_add_test(tc, publish_without_release);
    tcase_add_test(tc, flag_written_with_a_plain_store);
    tcase_add_test(tc, one_thread_publishes_for_its_block);
    tcase_add_test(tc, last_block_pattern);
    tcase_add_test(tc, read_only_loads_of_written_memory);
    tcase_add_test(tc, waiting_on_a_block_index);
    tcase_add_test(tc, block_local_and_non_waiting_loops_are_not_judged);
    tcase_add_test(tc, calls_to_helpers);
    tcase_add_test(tc, library_kernels_are_not_judged);
    tcase_add_test(tc, weak_load_polls);
    tcase_add_test(tc, atomic_polls);
    tcase_add_test(tc, atomics_and_async_copies_are_data);
    tcase_add_test(tc, block_scope_flags_waits_and_tickets);
    tcase_add_test(tc, decided_branches_and_one_warp);
    tcase_add_test(tc, torn_words_and_fences_on_the_way_out);
    tcase_add_test(tc, inlining_copies_helpers);
    tcase_add_test(tc, waits_in_helpers);
    tcase_add_test(tc, payload_through_a_loaded_pointer);
    tcase_add_test(tc, calls_through_a_pointer);
    suite_add_tcase(s, tc);
    TCase *budget = tcase_create("budget");
    tcase_set_timeout(budget, 30); /* times CK_TIMEOUT_MULTIPLIER */
    tcase_add_test(budget, a_budget_bounds_the_analysis);
    suite_add_tcase(s, budget);
    return s;
}
