/* Where a submission's lesson files are. Students hand in folders laid out
 * like starter/ (<lesson>.cu at the top), but uploads and LMS downloads
 * add a folder or two (hw1/barriers.cu, Eve_123/hw1/barriers.cu), change
 * the case (Barriers.cu) or the name (barriers (1).cu), or hold nothing.
 * Class mode, `syncgrade grade` and Gradescope (`syncgrade locate`) all
 * find files with this module, so they agree, and each says in words what
 * it found.
 *
 * The rule, per lesson:
 *   - <lesson>.cu at the top: used, nothing to say;
 *   - else one <lesson>.cu in a folder up to SL_LOCATE_DEPTH levels down,
 *     the shallowest: used, "barriers.cu found in hw1/"; two at the same
 *     depth: neither is used, "barriers.cu in 2 folders (a/, b/): keep one";
 *   - else a near match (another case, or the name with something added:
 *     "Barriers.cu", "barriers (1).cu"): not used, "Barriers.cu: did you
 *     mean barriers.cu?". The name is part of the contract (starter/, and
 *     `make check` only knows that name): a guess could grade the wrong
 *     file, so the student renames it and the instructor regrades.
 * Only regular files count, never links (a link is named as such);
 * hidden files and folders and __MACOSX/ are ignored. Nothing is read
 * but folder entries. */
#ifndef SYNCLAB_LOCATE_H
#define SYNCLAB_LOCATE_H

#include <stddef.h>

enum {
    SL_LOCATE_DEPTH = 3,       /* folders below the submission's top */
    SL_LOCATE_MAX_FILES = 4096 /* entries looked at; more are not seen */
};

typedef struct {
    char *rel;   /* path relative to the submission, '/'-separated */
    int depth;   /* folders above it, below the top: 0 at the top */
    int is_link; /* a symbolic link (never used) */
} sl_located_entry;

/* What a submission folder holds (up to SL_LOCATE_DEPTH folders down). */
typedef struct {
    char *root;
    sl_located_entry *files;
    int count;
    int entries;   /* files (and folders too deep to look into) seen, not ignored
                      ones: 0 is an empty folder, empty subfolders or not */
    int cu_files;  /* names ending in .cu */
    int truncated; /* more than SL_LOCATE_MAX_FILES entries */
    int readable;  /* the top folder could be opened */
} sl_submission_scan;

int sl_locate_scan(const char *root, sl_submission_scan *scan);
void sl_locate_scan_free(sl_submission_scan *scan);

/* One lesson's file. */
typedef struct {
    int found;         /* path is the file to grade */
    char path[4096];   /* root/<folder><lesson>.cu when found */
    char folder[1024]; /* where, relative to root: "" (top) or "hw1/" */
    char note[512];    /* "" at the top; else what was found, in words */
} sl_located;

void sl_locate_lesson(const sl_submission_scan *scan, const char *lesson, sl_located *out);

/* The notes of a whole submission for lessons[0..n-1], "; "-separated:
 * "empty folder", "no .cu file", or each lesson's note, the lessons with
 * nothing at all as one "missing: a.cu, b.cu". "" when every file is at
 * the top. */
void sl_locate_summary(const sl_submission_scan *scan, const char *const *lessons, int n, char *buf,
                       size_t size);

/* Copies the files a grading may read into `to` (an empty folder): from
 * the folder of each lesson found, its plain .cu, .cuh and .h files (not
 * links, not hidden, at most SL_LOCATE_MAX_COPY bytes each), flat, the
 * first of two with one name kept. What was copied or left out is said in
 * `said`, one line each. Returns the number of files copied, -1 when `to`
 * cannot be written. (Gradescope: `syncgrade locate`.) */
enum { SL_LOCATE_MAX_COPY = 16 << 20 };
int sl_locate_copy(const sl_submission_scan *scan, const sl_located *found, int n, const char *to,
                   char *said, size_t size);

#endif
