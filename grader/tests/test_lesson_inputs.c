/* The shapes every lesson's inputs promise (issue 10, dynamic coverage), for
 * several seeds: the sanitizer inputs (SL_INPUTS_SMALL) hold the extreme
 * shapes each exercise's contract allows (one-warp blocks, a block that is
 * not a multiple of 32 where allowed, 1024, n = 1, 2, 3, every residue of
 * n mod 4 and every misaligned start where kernels vectorise, a partial last
 * block whose last warp is partial) and stay small; the full inputs go past
 * 2^24 elements and past the level boundaries of multi-level designs; grids
 * the launcher did not choose where the contract says any grid works. Linked
 * with the real lessons (CMake adds their objects). No GPU. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"
#include "grade.h"
#include "lesson_run.h"
#include "room.h"
#include "shapes.h"

enum {
    P_BLOCK32 = 1 << 0,     /* small: blockDim.x = 32 */
    P_BLOCK1024 = 1 << 1,   /* small: blockDim.x = 1024 */
    P_ODD_BLOCK = 1 << 2,   /* small: a block that is not a multiple of 32 */
    P_MID_BLOCK = 1 << 3,   /* small: a block of several warps below 1024 */
    P_TINY = 1 << 4,        /* small: n = 1, 2 and 3 */
    P_PARTIAL = 1 << 5,     /* small: a last block with a partial last warp */
    P_RESIDUES = 1 << 6,    /* small: n mod 4 = 0..3 from an aligned start (offset 0) */
    P_OFFSETS = 1 << 7,     /* small: offsets 1, 2, 3; n <= 2 from a misaligned start */
    P_BIG = 1 << 8,         /* full: n > 2^24 */
    P_SCAN_LEVELS = 1 << 9, /* full: past 2^23, 2^24 and 2^25 */
    P_WL_LEVELS = 1 << 10,  /* full: n > B^2 for every block, n > B^3 for B <= 256 */
    P_GRIDS = 1 << 11,      /* full: grids 1, 2 and an odd count launched by the grader;
                               small: one such grid */
    P_TILES = 1 << 12,      /* small: every tile size 4, 8, 16, 32 */
    P_TWICE = 1 << 13,      /* small: one input scanned twice on one scratch */
    P_SUM_MAX = 1 << 14,    /* full: n = 2^25, the largest n of reduction.h's contract */
};
#define SHAPES (P_BLOCK32 | P_BLOCK1024 | P_TINY | P_PARTIAL)

/* Where an input keeps its element count and block size. */
typedef enum { LAYOUT_NB, LAYOUT_WORDS, LAYOUT_SUM, LAYOUT_ANY_N } layout;

typedef struct {
    const char *lesson, *exercise;
    layout how;
    unsigned promises;
} promise;

static const promise PROMISES[] = {
    {"barriers", "tile_reverse", LAYOUT_NB, SHAPES | P_ODD_BLOCK},
    {"barriers", "halo_diff", LAYOUT_NB, SHAPES | P_ODD_BLOCK},
    {"barriers", "block_vote", LAYOUT_NB, SHAPES | P_ODD_BLOCK},
    {"barriers", "warp_step", LAYOUT_NB, SHAPES | P_MID_BLOCK},
    {"fences", "message_pass", LAYOUT_WORDS, SHAPES | P_ODD_BLOCK},
    {"fences", "single_pass_sum", LAYOUT_NB, SHAPES | P_MID_BLOCK | P_BIG},
    {"reduction", "tree_reduce", LAYOUT_NB, SHAPES | P_MID_BLOCK},
    {"reduction", "mirrored_reduce", LAYOUT_NB, SHAPES | P_MID_BLOCK},
    {"reduction", "sum_int", LAYOUT_SUM, P_TINY | P_RESIDUES | P_OFFSETS | P_BIG | P_SUM_MAX},
    {"reduction", "sum_float", LAYOUT_SUM, P_TINY | P_RESIDUES | P_OFFSETS | P_BIG | P_SUM_MAX},
    {"scan", "block_inclusive_scan", LAYOUT_NB, SHAPES | P_MID_BLOCK},
    {"scan", "block_exclusive_scan", LAYOUT_NB, SHAPES | P_MID_BLOCK},
    {"scan", "scan_any_n", LAYOUT_ANY_N, P_TINY | P_RESIDUES | P_BIG | P_SCAN_LEVELS | P_TWICE},
    {"worklist", "worklist_insert", LAYOUT_NB, SHAPES | P_MID_BLOCK | P_BIG | P_WL_LEVELS},
    {"worklist", "compact", LAYOUT_NB, SHAPES | P_MID_BLOCK | P_BIG | P_WL_LEVELS},
    {"coop", "tile_reduce", LAYOUT_NB, SHAPES | P_MID_BLOCK | P_TILES},
    {"coop", "half_block", LAYOUT_NB, SHAPES | P_MID_BLOCK},
    {"coop", "agg_filter", LAYOUT_NB, SHAPES | P_ODD_BLOCK | P_BIG},
    {"coop", "grid_two_phase", LAYOUT_NB, SHAPES | P_MID_BLOCK | P_BIG | P_GRIDS},
    {"awbarrier", "split_arrive_wait", LAYOUT_NB, SHAPES | P_MID_BLOCK},
    {"awbarrier", "normalize", LAYOUT_NB, SHAPES | P_MID_BLOCK | P_BIG | P_GRIDS},
    {"awbarrier", "tile_pipeline", LAYOUT_NB, SHAPES | P_MID_BLOCK},
};
#define NPROMISES ((int)(sizeof PROMISES / sizeof PROMISES[0]))

static const uint64_t SEEDS[] = {1, 2, 3, 12345, 0xdeadbeefcafef00dull};
#define NSEEDS ((int)(sizeof SEEDS / sizeof SEEDS[0]))

/* Sanitizer cost grows with the work: every small set stays this small. */
enum { SMALL_ELEMENTS_MAX = 80000 };

static const sl_exercise *find(const char *lesson, const char *exercise, const sl_lesson **l)
{
    for (const sl_lesson *const *p = sl_lessons; *p; p++) {
        if (strcmp((*p)->name, lesson) != 0)
            continue;
        for (int i = 0; i < (*p)->count; i++)
            if (strcmp((*p)->exercises[i].name, exercise) == 0) {
                *l = *p;
                return &(*p)->exercises[i];
            }
    }
    return NULL;
}

static int64_t n_of(const sl_case *c, layout how)
{
    return how == LAYOUT_WORDS ? c->param[SL_P_B] : c->param[SL_P_N];
}

static int64_t block_of(const sl_case *c, layout how)
{
    return how == LAYOUT_SUM || how == LAYOUT_ANY_N ? 0 : c->param[SL_P_BLOCK];
}

/* What the small set holds, as promise bits. */
static unsigned small_found(const sl_inputs *s, layout how, int64_t *elements)
{
    unsigned found = 0;
    int tiny[4] = {0}, residue[4] = {0}, offset[4] = {0}, tiny_misaligned = 0, tiles = 0;
    *elements = 0;
    for (int i = 0; i < s->count; i++) {
        const sl_case *c = &s->v[i].in;
        int64_t n = n_of(c, how), b = block_of(c, how), off = c->param[SL_P_A];
        *elements += n;
        if (n >= 1 && n <= 3)
            tiny[n] = 1;
        if (b == 32)
            found |= P_BLOCK32;
        if (b == 1024)
            found |= P_BLOCK1024;
        if (b > 32 && b % 32 != 0)
            found |= P_ODD_BLOCK;
        if (b > 32 && b < 1024 && b % 32 == 0)
            found |= P_MID_BLOCK;
        if (b > 0 && n > b && n % b != 0 && (n % b) % 32 != 0)
            found |= P_PARTIAL;
        if (how == LAYOUT_SUM && off == 0 && n > 3)
            residue[n % 4] = 1;
        if (how == LAYOUT_ANY_N && n > 3)
            residue[n % 4] = 1;
        if (how == LAYOUT_SUM && off >= 1 && off <= 3) {
            offset[off] = 1;
            tiny_misaligned |= n <= 2;
        }
        if (how == LAYOUT_ANY_N && c->param[SL_P_A] == 2)
            found |= P_TWICE;
        if (how == LAYOUT_NB && c->param[SL_P_GRID] > 0 && strstr(s->v[i].label, "grader"))
            found |= P_GRIDS;
        if (how == LAYOUT_NB && c->param[SL_P_A] >= 4 && c->param[SL_P_A] <= 32)
            tiles |= (int)c->param[SL_P_A];
    }
    if (tiny[1] && tiny[2] && tiny[3])
        found |= P_TINY;
    if (residue[0] && residue[1] && residue[2] && residue[3])
        found |= P_RESIDUES;
    if (offset[1] && offset[2] && offset[3] && tiny_misaligned)
        found |= P_OFFSETS;
    if (tiles == (4 | 8 | 16 | 32))
        found |= P_TILES;
    return found;
}

static int has(const sl_inputs *s, layout how, int64_t block, int64_t above)
{
    for (int i = 0; i < s->count; i++)
        if ((block == 0 || block_of(&s->v[i].in, how) == block) && n_of(&s->v[i].in, how) > above)
            return 1;
    return 0;
}

/* What the full set holds, as promise bits. */
static unsigned full_found(const sl_inputs *s, layout how)
{
    unsigned found = 0;
    if (has(s, how, 0, 1 << 24))
        found |= P_BIG;
    if (how == LAYOUT_SUM && has(s, how, 0, (1 << 25) - 1) && !has(s, how, 0, 1 << 25))
        found |= P_SUM_MAX; /* reaches the contract's end and stays inside it */
    if (has(s, how, 0, 1 << 23) && has(s, how, 0, 1 << 24) && has(s, how, 0, 1 << 25))
        found |= P_SCAN_LEVELS;
    int levels = 1; /* n > B^2 for every block B, n > B^3 where that fits a test run */
    for (int64_t b = 32; b <= 1024; b *= 2)
        levels &= has(s, how, b, b * b) && (b > 256 || has(s, how, b, b * b * b));
    if (levels)
        found |= P_WL_LEVELS;
    int grid1 = 0, grid2 = 0, odd = 0;
    for (int i = 0; i < s->count; i++) {
        const sl_input *in = &s->v[i];
        if (!strstr(in->label, "grader"))
            continue;
        int64_t g = in->in.param[SL_P_GRID];
        int64_t need = (n_of(&in->in, how) + block_of(&in->in, how) - 1) / block_of(&in->in, how);
        grid1 |= g == 1;
        grid2 |= g == 2 && need >= 2;
        odd |= g >= 3 && g % 2 == 1 && need >= g;
    }
    if (grid1 && grid2 && odd)
        found |= P_GRIDS;
    return found;
}

START_TEST(every_exercise_keeps_its_promises)
{
    const promise *p = &PROMISES[_i];
    const sl_lesson *l = NULL;
    const sl_exercise *e = find(p->lesson, p->exercise, &l);
    ck_assert_msg(e != NULL, "%s/%s is not in the lessons", p->lesson, p->exercise);
    unsigned small_promises = p->promises & ~(P_BIG | P_SCAN_LEVELS | P_WL_LEVELS | P_SUM_MAX);
    unsigned full_promises =
        p->promises & (P_BIG | P_SCAN_LEVELS | P_WL_LEVELS | P_GRIDS | P_SUM_MAX);
    for (int k = 0; k < NSEEDS; k++) {
        sl_inputs small = {0}, full = {0};
        sl_grade_inputs(l, e, SEEDS[k], &small, &full);
        int64_t elements;
        unsigned got = small_found(&small, p->how, &elements);
        ck_assert_msg((got & small_promises) == small_promises,
                      "%s/%s seed %llu: the small inputs miss promises 0x%x", p->lesson,
                      p->exercise, (unsigned long long)SEEDS[k], small_promises & ~got);
        ck_assert_msg(elements <= SMALL_ELEMENTS_MAX, "%s/%s seed %llu: %lld small elements",
                      p->lesson, p->exercise, (unsigned long long)SEEDS[k], (long long)elements);
        got = full_found(&full, p->how);
        ck_assert_msg((got & full_promises) == full_promises,
                      "%s/%s seed %llu: the full inputs miss promises 0x%x", p->lesson, p->exercise,
                      (unsigned long long)SEEDS[k], full_promises & ~got);
        sl_inputs_free(&small);
        sl_inputs_free(&full);
    }
}
END_TEST

/* Sizes come from the seed: two seeds give other small shapes. */
START_TEST(small_shapes_change_with_the_seed)
{
    const promise *p = &PROMISES[_i];
    const sl_lesson *l = NULL;
    const sl_exercise *e = find(p->lesson, p->exercise, &l);
    ck_assert(e != NULL);
    sl_inputs a = {0}, b = {0};
    sl_grade_inputs(l, e, 1, &a, NULL);
    sl_grade_inputs(l, e, 2, &b, NULL);
    int same = a.count == b.count;
    for (int i = 0; same && i < a.count; i++)
        same = n_of(&a.v[i].in, p->how) == n_of(&b.v[i].in, p->how) &&
               block_of(&a.v[i].in, p->how) == block_of(&b.v[i].in, p->how);
    ck_assert_msg(!same, "%s/%s: seeds 1 and 2 give the same small shapes", p->lesson, p->exercise);
    sl_inputs_free(&a);
    sl_inputs_free(&b);
}
END_TEST

/* shapes.h: residues, partial blocks and the class list hold for any seed. */
START_TEST(shape_helpers_keep_their_word)
{
    sl_rng r;
    sl_rng_seed(&r, 42);
    for (int k = 0; k < 2000; k++) {
        int64_t lo = sl_rng_range(&r, 0, 5000), m = sl_rng_range(&r, 1, 8);
        int64_t hi = lo + m - 1 + sl_rng_range(&r, 0, 100), res = sl_rng_range(&r, 0, m - 1);
        int64_t x = sl_rng_congruent(&r, lo, hi, m, res);
        ck_assert(x >= lo && x <= hi && x % m == res);
        int block = (int)sl_rng_range(&r, 32, 1024), count = (int)sl_rng_range(&r, 1, 5);
        int64_t n = sl_rng_partial_blocks(&r, block, count);
        int64_t rest = n - (int64_t)block * (count - 1);
        ck_assert(rest > 0 && rest < block && rest % 32 != 0);
    }
    static const sl_block_rule rules[] = {SL_BLOCKS_ANY, SL_BLOCKS_WARPS, SL_BLOCKS_POW2};
    for (int k = 0; k < 3; k++) {
        sl_shape s[SL_SMALL_SHAPES];
        ck_assert_int_eq(sl_small_shapes(&r, rules[k], s), SL_SMALL_SHAPES);
        for (int i = 0; i < SL_SMALL_SHAPES; i++) {
            int b = s[i].block;
            ck_assert(b >= 32 && b <= 1024);
            ck_assert(rules[k] == SL_BLOCKS_ANY || b % 32 == 0);
            ck_assert(rules[k] != SL_BLOCKS_POW2 || (b & (b - 1)) == 0);
        }
        ck_assert(rules[k] != SL_BLOCKS_ANY || s[1].block % 32 != 0);
    }
}
END_TEST

/* A new exercise states its promises here too. */
/* Every FORBID, FORBID_SOURCE and REQUIRE of every lesson says in words
 * what it asks: its verdict is built around that sentence, and the
 * pattern language must never reach a student (issue 28). */
START_TEST(every_rule_says_itself_in_words)
{
    for (const sl_lesson *const *l = sl_lessons; *l; l++)
        for (int i = 0; i < (*l)->count; i++)
            for (const sl_rule *r = (*l)->exercises[i].rules; r && r->kind != SL_RULE_END; r++)
                ck_assert_msg(sl_rule_says_ok(r),
                              "%s/%s: a rule on '%s' has no .says in words (or one with "
                              "pattern syntax: %s)",
                              (*l)->name, (*l)->exercises[i].name, r->pattern ? r->pattern : "",
                              r->says ? r->says : "none");
}
END_TEST

START_TEST(every_exercise_has_promises)
{
    for (const sl_lesson *const *l = sl_lessons; *l; l++)
        for (int i = 0; i < (*l)->count; i++) {
            int listed = 0;
            for (int k = 0; k < NPROMISES && !listed; k++)
                listed = strcmp(PROMISES[k].lesson, (*l)->name) == 0 &&
                         strcmp(PROMISES[k].exercise, (*l)->exercises[i].name) == 0;
            ck_assert_msg(listed, "%s/%s has no promises in test_lesson_inputs.c", (*l)->name,
                          (*l)->exercises[i].name);
        }
}
END_TEST

/* Every input the suite makes, small and full, is a shape the exercise's
 * contract (sl_shape_rule) allows: `make run` refuses the others. */
START_TEST(every_input_is_within_the_contract)
{
    const promise *p = &PROMISES[_i];
    const sl_lesson *l;
    const sl_exercise *e = find(p->lesson, p->exercise, &l);
    ck_assert_ptr_nonnull(e);
    for (int set = 0; set < 2; set++) {
        sl_rng rng;
        sl_rng_seed(&rng, SEEDS[0]);
        sl_inputs in = {0};
        e->make_inputs(&rng, set ? SL_INPUTS_SMALL : SL_INPUTS_FULL, &in);
        for (int i = 0; i < in.count; i++) {
            const sl_case *c = &in.v[i].in;
            int64_t n = n_of(c, p->how) > 0 ? n_of(c, p->how) : 1;
            int block = e->shape.launcher_picks ? 32 : (int)c->param[SL_P_BLOCK];
            sl_text why = {0};
            int allowed = sl_shape_allows(e, n, block, &why);
            ck_assert_msg(allowed, "%s/%s input '%s': %s", p->lesson, p->exercise, in.v[i].label,
                          sl_text_str(&why));
            sl_text_free(&why);
        }
        sl_inputs_free(&in);
    }
}
END_TEST

/* Issue 27, class 8: every contract states its range (sl_shape_rule: n from
 * 1 to n_max, blocks from 32 to 1024 where the harness picks them) and, for
 * every seed, the inputs reach each end: a contract that promises more than
 * the inputs try (32-bit indices past what any input reaches) fails here.
 * every_input_is_within_the_contract checks the other side. */
START_TEST(every_contract_end_is_reached)
{
    const promise *p = &PROMISES[_i];
    const sl_lesson *l;
    const sl_exercise *e = find(p->lesson, p->exercise, &l);
    ck_assert_ptr_nonnull(e);
    ck_assert_msg(e->shape.n_max > 0, "%s/%s: the contract states no largest n (.shape.n_max)",
                  p->lesson, p->exercise);
    for (int k = 0; k < NSEEDS; k++) {
        sl_inputs small = {0}, full = {0};
        sl_grade_inputs(l, e, SEEDS[k], &small, &full);
        int64_t nmin = INT64_MAX, nmax = 0, bmin = INT64_MAX, bmax = 0;
        for (int set = 0; set < 2; set++) {
            const sl_inputs *s = set ? &full : &small;
            for (int i = 0; i < s->count; i++) {
                int64_t n = n_of(&s->v[i].in, p->how), b = block_of(&s->v[i].in, p->how);
                nmin = n < nmin ? n : nmin;
                nmax = n > nmax ? n : nmax;
                if (b > 0) {
                    bmin = b < bmin ? b : bmin;
                    bmax = b > bmax ? b : bmax;
                }
            }
        }
        ck_assert_msg(nmin == 1 && nmax == e->shape.n_max,
                      "%s/%s seed %llu: the contract says n from 1 to %lld, the inputs reach "
                      "%lld to %lld",
                      p->lesson, p->exercise, (unsigned long long)SEEDS[k],
                      (long long)e->shape.n_max, (long long)nmin, (long long)nmax);
        if (!e->shape.launcher_picks)
            ck_assert_msg(bmin == 32 && bmax == 1024,
                          "%s/%s seed %llu: the contract says blocks of 32 to 1024 threads, the "
                          "inputs reach %lld to %lld",
                          p->lesson, p->exercise, (unsigned long long)SEEDS[k], (long long)bmin,
                          (long long)bmax);
        sl_inputs_free(&small);
        sl_inputs_free(&full);
    }
}
END_TEST

/* The playground of every exercise: a contract in words, refused shapes,
 * and an expected column whose arrays the check accepts as the answer. */
START_TEST(every_exercise_has_a_playground)
{
    const promise *p = &PROMISES[_i];
    const sl_lesson *l;
    const sl_exercise *e = find(p->lesson, p->exercise, &l);
    ck_assert_ptr_nonnull(e);
    ck_assert_msg(e->shape.says && e->shape.says[0], "%s/%s: no .shape.says", p->lesson,
                  p->exercise);
    ck_assert_msg(e->expected, "%s/%s: no .expected for make run", p->lesson, p->exercise);
    sl_text why = {0};
    ck_assert(!sl_shape_allows(e, 0, 32, &why));
    if (!e->shape.launcher_picks) {
        ck_assert(!sl_shape_allows(e, 10, 4, &why));
        ck_assert(!sl_shape_allows(e, 10, 2048, &why));
        ck_assert(strstr(sl_text_str(&why), e->shape.says));
    }
    sl_text_free(&why);
    /* The input `make run` makes (as cmd_run.c does: the exercise's own, or
     * its first small input), then expected: the check must accept it. */
    static const int64_t sizes[] = {1, 10, 100, 1000};
    for (int k = 0; k < 4; k++) {
        sl_rng rng;
        sl_rng_seed(&rng, 7);
        sl_inputs in = {0};
        if (e->make_input)
            e->make_input(sizes[k], 64, &rng, &in);
        else
            e->make_inputs(&rng, SL_INPUTS_SMALL, &in);
        ck_assert_int_ge(in.count, 1);
        sl_case want;
        ck_assert_int_eq(e->expected(&in.v[0].in, &want), 0);
        sl_text w = {0};
        ck_assert_msg(e->check(&in.v[0].in, &want, &w),
                      "%s/%s: the expected column is not "
                      "right by its own check: %s",
                      p->lesson, p->exercise, sl_text_str(&w));
        sl_text_free(&w);
        sl_case_free(&want);
        sl_inputs_free(&in);
    }
}
END_TEST

static long long written_bytes(const sl_inputs *in, const char *dir)
{
    ck_assert_int_eq(sl_grade_write_inputs(in, dir), 0);
    long long bytes = 0;
    for (int i = 0; i < in->count; i++) {
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/case%d.in", dir, i);
        ck_assert_int_eq(stat(path, &st), 0);
        bytes += st.st_size;
    }
    return bytes;
}

static long long array_bytes(const sl_inputs *in)
{
    long long bytes = 0;
    for (int i = 0; i < in->count; i++)
        for (int a = 0; a < in->v[i].in.narrays; a++)
            bytes += (long long)in->v[i].in.array[a].count *
                     (long long)sl_elem_size(in->v[i].in.array[a].type);
    return bytes;
}

/* A class's disk (room.h): a submission's inputs counted without
 * writing them, every exercise of every lesson, small and full, within a
 * header's bytes a file of what the sweep writes (shown on the smallest
 * exercise, so that the test writes little). */
START_TEST(inputs_are_counted_as_the_sweep_writes_them)
{
    int n = 0;
    long long sum = 0, least = -1;
    const sl_lesson *least_l = NULL;
    int least_e = 0;
    for (const sl_lesson *const *l = sl_lessons; *l; l++, n++) {
        long long lesson = 0;
        for (int e = 0; e < (*l)->count; e++) {
            sl_lesson one = **l;
            one.exercises = &(*l)->exercises[e];
            one.count = 1;
            const sl_lesson *p = &one;
            long long bytes = sl_disk_fit_inputs(&p, 1);
            sl_inputs small = {0};
            sl_grade_inputs(*l, &(*l)->exercises[e], 1, &small, NULL);
            long long small_bytes = array_bytes(&small);
            sl_inputs_free(&small);
            /* the full inputs count too */
            ck_assert_msg(bytes > small_bytes, "%s/%s: %lld bytes, its small inputs alone %lld",
                          (*l)->name, (*l)->exercises[e].name, bytes, small_bytes);
            lesson += bytes;
            if (least < 0 || bytes < least) {
                least = bytes;
                least_l = *l;
                least_e = e;
            }
        }
        ck_assert_int_eq(sl_disk_fit_inputs(l, 1), lesson);
        sum += lesson;
    }
    ck_assert_int_eq(sl_disk_fit_inputs(sl_lessons, n), sum);

    sl_inputs small = {0}, full = {0};
    sl_grade_inputs(least_l, &least_l->exercises[least_e], 1, &small, &full);
    char dir[4200], tmp[4096];
    const char *t = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/synclab-disk-fit-XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    snprintf(dir, sizeof dir, "%s/small", tmp);
    long long files = written_bytes(&small, dir);
    snprintf(dir, sizeof dir, "%s/full", tmp);
    files += written_bytes(&full, dir);
    long long count = small.count + full.count;
    sl_inputs_free(&small);
    sl_inputs_free(&full);
    sl_remove_tree(tmp, 1);
    ck_assert_int_le(files, least);
    ck_assert_int_ge(files, least - count * (long long)sizeof(sl_case));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lesson_inputs");
    TCase *tc = tcase_create("promises");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, every_exercise_keeps_its_promises, 0, NPROMISES);
    tcase_add_loop_test(tc, small_shapes_change_with_the_seed, 0, NPROMISES);
    tcase_add_test(tc, every_exercise_has_promises);
    tcase_add_loop_test(tc, every_input_is_within_the_contract, 0, NPROMISES);
    tcase_add_loop_test(tc, every_contract_end_is_reached, 0, NPROMISES);
    tcase_add_loop_test(tc, every_exercise_has_a_playground, 0, NPROMISES);
    tcase_add_test(tc, every_rule_says_itself_in_words);
    tcase_add_test(tc, shape_helpers_keep_their_word);
    tcase_add_test(tc, inputs_are_counted_as_the_sweep_writes_them);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
