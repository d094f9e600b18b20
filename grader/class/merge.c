#include "merge.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "shard.h"
#include "text.h"

typedef struct {
    const sl_shard_student *student;
    const char *shard_dir;
    int shard_k;
} merged_student;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const merged_student *)a)->student->name,
                  ((const merged_student *)b)->student->name);
}

/* A student's output folder must stay inside the shard's and the merged
 * folders: relative, without "..". */
static int dir_is_inside(const char *dir)
{
    if (!dir[0] || dir[0] == '/')
        return 0;
    for (const char *p = dir; *p;) {
        size_t len = strcspn(p, "/");
        if ((len == 2 && p[0] == '.' && p[1] == '.') || (len == 1 && p[0] == '.') || len == 0)
            return 0;
        p += len + (p[len] == '/');
    }
    return 1;
}

static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0)
        return -1;
    struct stat st;
    int out = -1, rc = -1;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode))
        goto done;
    out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out < 0)
        goto done;
    char buf[1 << 16];
    ssize_t got;
    while ((got = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)got) != got)
            goto done;
    rc = got == 0 ? 0 : -1;
done:
    if (out >= 0 && close(out) != 0)
        rc = -1;
    close(in);
    return rc;
}

/* The files a shard wrote for a student (report.txt, results.json,
 * junit.xml): the regular files at the top of their folder. */
static int copy_student(const char *shard_dir, const char *out, const char *dir)
{
    static const char *const files[] = {"report.txt", "results.json", "junit.xml"};
    char from[PATH_MAX], to[PATH_MAX];
    snprintf(to, sizeof to, "%s/%s", out, dir);
    if (sl_mkdirs(to) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(from, sizeof from, "%s/%s/%s", shard_dir, dir, files[i]);
        snprintf(to, sizeof to, "%s/%s/%s", out, dir, files[i]);
        if (copy_file(from, to) != 0) {
            fprintf(stderr, "syncgrade: cannot copy %s to %s\n", from, to);
            rc = -1;
        }
    }
    return rc;
}

/* The shards make one class: the same N, size and header, each K once,
 * every student once and in the shard its place in the sorted class says. */
static int check_whole(const char *const *dirs, const sl_shard_manifest *m, int count,
                       merged_student *all, int total)
{
    for (int i = 0; i < count; i++) {
        if (m[i].n != m[0].n || m[i].class_size != m[0].class_size ||
            strcmp(m[i].run, m[0].run) != 0 || strcmp(m[i].header, m[0].header) != 0) {
            fprintf(stderr, "syncgrade: %s and %s are shards of different class runs\n", dirs[0],
                    dirs[i]);
            return -1;
        }
        for (int j = 0; j < i; j++)
            if (m[j].k == m[i].k) {
                fprintf(stderr, "syncgrade: %s and %s are both shard %d/%d\n", dirs[j], dirs[i],
                        m[i].k, m[i].n);
                return -1;
            }
    }
    if (count != m[0].n) {
        fprintf(stderr, "syncgrade: %d shard%s given, the class was cut in %d\n", count,
                count == 1 ? "" : "s", m[0].n);
        return -1;
    }
    if (total != m[0].class_size) {
        fprintf(stderr, "syncgrade: the shards hold %d students, the class has %d\n", total,
                m[0].class_size);
        return -1;
    }
    for (int i = 0; i < total; i++) {
        const char *name = all[i].student->name;
        if (i > 0 && strcmp(all[i - 1].student->name, name) == 0) {
            fprintf(stderr, "syncgrade: student %s is in two shards\n", name);
            return -1;
        }
        if (i % m[0].n != all[i].shard_k - 1 || !dir_is_inside(all[i].student->dir)) {
            fprintf(stderr, "syncgrade: %s: student %s does not belong in shard %d\n",
                    all[i].shard_dir, name, all[i].shard_k);
            return -1;
        }
    }
    return 0;
}

static int same_folder(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

int sl_class_merge(const char *out, const char *const *shard_dirs, int count, int quiet)
{
    if (count <= 0)
        return 2;
    sl_shard_manifest *m = calloc((size_t)count, sizeof *m);
    merged_student *all = NULL;
    int rc = 2, total = 0, loaded = 0;
    if (!m)
        return 2;
    for (; loaded < count; loaded++) {
        char path[PATH_MAX], err[PATH_MAX + 128];
        if (same_folder(out, shard_dirs[loaded])) {
            fprintf(stderr, "syncgrade: --out %s is one of the shards\n", out);
            goto done;
        }
        snprintf(path, sizeof path, "%s/shard.txt", shard_dirs[loaded]);
        if (sl_shard_read(path, &m[loaded], err, sizeof err) != 0) {
            fprintf(stderr, "syncgrade: %s\n", err);
            goto done;
        }
        total += m[loaded].count;
    }
    all = calloc((size_t)(total ? total : 1), sizeof *all);
    if (!all)
        goto done;
    for (int i = 0, n = 0; i < count; i++)
        for (int j = 0; j < m[i].count; j++)
            all[n++] = (merged_student){&m[i].students[j], shard_dirs[i], m[i].k};
    qsort(all, (size_t)total, sizeof *all, by_name);
    if (check_whole(shard_dirs, m, count, all, total) != 0)
        goto done;
    if (sl_mkdirs(out) != 0) {
        fprintf(stderr, "syncgrade: cannot create %s\n", out);
        goto done;
    }
    sl_text csv = {0};
    sl_text_append(&csv, m[0].header, strlen(m[0].header));
    int copied = 0, with_errors = 0;
    for (int i = 0; i < total; i++) {
        const sl_shard_student *s = all[i].student;
        sl_text_append(&csv, s->row, strlen(s->row));
        copied += copy_student(all[i].shard_dir, out, s->dir) == 0;
        if (s->errors) {
            fprintf(stderr, "syncgrade: %s: %d exercise%s not judged (ERROR): regrade\n", s->name,
                    s->errors, s->errors > 1 ? "s" : "");
            with_errors++;
        }
    }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/grades.csv", out);
    int written = sl_write_file(path, sl_text_str(&csv)) == 0;
    sl_text_free(&csv);
    if (!written)
        fprintf(stderr, "syncgrade: cannot write %s\n", path);
    else if (!quiet)
        printf("merged %d shards, %d students\ngrades: %s\n", count, total, path);
    rc = !written || copied < total ? 2 : with_errors ? 1 : 0;
done:
    for (int i = 0; i < loaded; i++)
        sl_shard_free(&m[i]);
    free(m);
    free(all);
    return rc;
}
