/* Identical lesson files of a class judged once (the dedup lever,
 * levers.h). A file's key is the sha256 of everything that can change its
 * verdicts within one class run: its bytes, its name, its lesson, the
 * folder its paths are shown relative to, the seed and the arch it is
 * built for (the grader, its options and environment are one for the
 * whole run: the cache lives in <out>/.dedup and goes with the run). The
 * first student to claim a key grades the file and publishes its
 * outcomes; every other student with that key takes them (its own
 * reports, its own paths: paths in verdicts are already relative to the
 * submission). A file gets no key, and is graded on its own, when
 * anything but its bytes could reach the compiler: an #include of a name
 * that exists in the student's folder or one not written plainly, any
 * other directive that reads a file, the file's path or the time
 * (__FILE__, __DATE__, source_location ...). Outcomes a student's own
 * budgets could have changed (TIMEOUT, LAUNCH, MEMORY: reruns with the
 * GPU alone are budgeted per student, budget.h) or that say the grader
 * failed (ERROR, SKIP, a BUILD whose compile the machine stopped) are not
 * shared: whoever waits grades the file
 * itself. No wait is without a deadline.
 * Files whose every verdict the static stages gave (TODO, RULE, BUILD:
 * decided before anything runs, from the bytes alone) are shared whatever
 * the seed, under a second key without it: a class graded without --seed
 * (a seed per student) builds an untouched starter file, or one broken
 * copy, once. */
#ifndef SYNCLAB_DEDUP_H
#define SYNCLAB_DEDUP_H

#include <stdint.h>

#include "exercise.h"
#include "outcome.h"

typedef struct {
    const char *lesson;
    const char *source;       /* the student's file */
    const char *shown_folder; /* lesson_run.h: what the verdicts show as its folder; NULL "" */
    uint64_t seed;
    const char *arch; /* what it is built for ("90"), NULL unknown */
    int any_seed;     /* the key of the static verdicts: without the seed */
} sl_dedup_file;

/* 1 when text (a lesson file, n bytes) can reach the compiler with
 * nothing from the student's folder but itself: every #include is
 * plain ("name" or <name>) and names no file of folder; no other
 * directive or name that reads a file, a path or the time. */
int sl_dedup_shareable(const char *text, size_t n, const char *folder);
/* The key of f (64 hex digits): 0, or -1 when it has none (graded alone). */
int sl_dedup_key(const sl_dedup_file *f, char key[65]);

typedef enum {
    SL_DEDUP_HIT,  /* outcomes filled from the published ones */
    SL_DEDUP_OWN,  /* the caller grades the file, then sl_dedup_publish */
    SL_DEDUP_BUSY, /* another student is grading it: grade something else, then wait */
    SL_DEDUP_ALONE /* not shared (no cache, or published as not shareable): grade it,
                      publish nothing */
} sl_dedup_claim_result;

/* The class's cache folder: made empty (0 ok). */
int sl_dedup_open(const char *dir);
void sl_dedup_close(const char *dir);
/* Claims key for this process. On a hit, outcomes[0..l->count-1] get the
 * published outcomes (the caller frees them). */
sl_dedup_claim_result sl_dedup_claim(const char *dir, const char *key, const sl_lesson *l,
                                     sl_outcome *outcomes);
/* Publishes the outcomes of a key the caller owns: shared when every one
 * may be (see above), else marked for each to grade alone. */
void sl_dedup_publish(const char *dir, const char *key, const sl_lesson *l,
                      const sl_outcome *outcomes);
/* Waits for a busy key until it is published or its owner ended, at most
 * wait_s seconds: SL_DEDUP_HIT, or SL_DEDUP_ALONE (grade it yourself). */
sl_dedup_claim_result sl_dedup_wait(const char *dir, const char *key, const sl_lesson *l,
                                    sl_outcome *outcomes, double wait_s);
/* Whether a verdict may be handed to another student's identical file. */
int sl_dedup_verdict_shareable(int verdict);
/* Whether the static stages alone gave it from the file's bytes (TODO,
 * RULE, BUILD but one the machine caused: a compile past its time limit or
 * never started): it holds for any seed. SYNC may come from synccheck, so
 * it is not one. */
int sl_dedup_outcome_static(const sl_outcome *o);
/* The outcomes published under an any-seed key (no lock, no wait): 0 and
 * outcomes filled, or -1. */
int sl_dedup_take(const char *dir, const char *key, const sl_lesson *l, sl_outcome *outcomes);
/* Publishes outcomes under an any-seed key when every one is static;
 * else nothing. Any grader of the file may: the outcomes are the same. */
void sl_dedup_publish_static(const char *dir, const char *key, const sl_lesson *l,
                             const sl_outcome *outcomes);

#endif
