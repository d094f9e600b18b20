/* Grading a class in slices (shards) and joining them again. A shard K/N
 * grades the students whose index in the sorted list of names is K-1
 * modulo N, so N graders on N machines (a Slurm job array) split a class
 * without talking to each other. Each shard writes, next to its grades.csv,
 * a manifest (shard.txt) that `syncgrade merge` reads: the shard's place,
 * the class size, the run (its seed), the CSV header and, per student, its name, output folder,
 * CSV row and number of grader errors. Text fields are length-prefixed
 * ("key LEN\n" then LEN bytes and "\n"), so no name needs escaping. */
#ifndef SYNCLAB_SHARD_H
#define SYNCLAB_SHARD_H

enum { SL_SHARD_MAX = 100000 };

/* "K/N" with 1 <= K <= N <= SL_SHARD_MAX. 0 ok, -1 otherwise. */
int sl_shard_parse(const char *spec, int *k, int *n);

/* Keeps names[i] for i % n == k - 1 (in order) and frees the others.
 * Returns the new count. n <= 0: keeps all. */
int sl_shard_take(char **names, int count, int k, int n);

typedef struct {
    char *name; /* the student folder's name */
    char *dir;  /* their output folder, relative to the shard's out */
    char *row;  /* their grades.csv row, line end included */
    int errors; /* exercises not judged (ERROR) */
} sl_shard_student;

typedef struct {
    int k, n;       /* shard K of N */
    int class_size; /* students in the whole class */
    char *run;      /* what every shard of one run shares: the seed */
    char *header;   /* grades.csv's header row */
    sl_shard_student *students;
    int count;
} sl_shard_manifest;

/* 0 ok, -1 when it cannot be written. */
int sl_shard_write(const char *path, const sl_shard_manifest *m);
/* 0 ok; -1 when unreadable or malformed (why in err, at most n bytes). */
int sl_shard_read(const char *path, sl_shard_manifest *m, char *err, unsigned long n);
void sl_shard_free(sl_shard_manifest *m);

#endif
