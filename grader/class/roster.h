/* The students of a class: every folder of the submissions folder, as an
 * LMS bulk download names them ("Smith, Eve_12345_assignsubmission_file_",
 * "José Núñez", "O'Brien (late)"), each with where its reports go and, when
 * it cannot be graded, why. A refused folder is still a student: it gets
 * its row in grades.csv (0 points, the reason in notes) and its report.
 *
 * Names are never passed through a shell, and never reach the compiler
 * (build.h builds through a link of its own name), so only what cannot be
 * shown on one line or in UTF-8 files is refused: control characters
 * (a newline), bytes that are not UTF-8, a leading '-' (an option to every
 * tool an instructor runs on the folder), and a link in place of a folder.
 * Hidden folders (.git) are no students. */
#ifndef SYNCLAB_ROSTER_H
#define SYNCLAB_ROSTER_H

#include <stddef.h>

typedef struct {
    char *name;    /* the folder's name, as on disk */
    char *shown;   /* in grades.csv and the reports: the name, or for a refused
                      one with each odd byte as \xNN */
    char *dir;     /* its folder under <out>/students: the name itself when
                      plain (sl_roster_plain), else a safe form of it */
    char *refused; /* NULL: graded; else why not, in words */
} sl_student;

/* The students of dir, sorted by name (byte order). Returns the count, -1
 * when dir cannot be read; *students is malloc'd (sl_roster_free). */
int sl_roster_read(const char *dir, sl_student **students);
void sl_roster_free(sl_student *students, int count);
void sl_roster_free_one(sl_student *student); /* its strings, not itself */

/* Why a folder name cannot be graded, NULL when it can. */
const char *sl_roster_refusal(const char *name, char *buf, size_t n);
/* Letters, digits and . _ - @ +, not starting with . or -, 1 to 128 bytes:
 * safe as a path for every tool (nvcc splits its arguments at commas). */
int sl_roster_plain(const char *name);
/* The folder under <out>/students for name: the name when plain, else its
 * plain letters with every other run of bytes as '_', then '~' and a hash
 * of the whole name ("Smith_Eve_12~9f0c2ab41d3e5f67"): no plain name holds
 * a '~', so it is never another student's. */
void sl_roster_dir_name(const char *name, char *out, size_t n);

#endif
