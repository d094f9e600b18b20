#include "locate.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------- the scan ---------- */

static int ignored(const char *name) { return name[0] == '.' || strcmp(name, "__MACOSX") == 0; }

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

static void add_entry(sl_submission_scan *scan, int *cap, const char *rel, int depth, int is_link)
{
    if (scan->count >= SL_LOCATE_MAX_FILES) {
        scan->truncated = 1;
        return;
    }
    if (scan->count == *cap) {
        int more = *cap ? 2 * *cap : 32;
        sl_located_entry *f = realloc(scan->files, (size_t)more * sizeof *f);
        if (!f)
            return;
        scan->files = f;
        *cap = more;
    }
    char *copy = strdup(rel);
    if (!copy)
        return;
    scan->files[scan->count++] = (sl_located_entry){copy, depth, is_link};
    scan->cu_files += ends_with(rel, ".cu");
}

/* The entries of folder `rel` (relative to the root, "" the top), and
 * below it while depth allows. Links are listed, never followed. */
static void scan_folder(sl_submission_scan *scan, int *cap, int dirfd, const char *rel, int depth)
{
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL && !scan->truncated;) {
        if (ignored(e->d_name))
            continue;
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        /* what counts as something handed in: a file, or a folder too deep to look into */
        scan->entries += !S_ISDIR(st.st_mode) || depth >= SL_LOCATE_DEPTH;
        char path[4096];
        int len = snprintf(path, sizeof path, "%s%s", rel, e->d_name);
        if (len < 0 || (size_t)len + 2 >= sizeof path)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth >= SL_LOCATE_DEPTH)
                continue;
            int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0)
                continue;
            strcat(path, "/");
            scan_folder(scan, cap, sub, path, depth + 1);
        } else if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
            add_entry(scan, cap, path, depth, S_ISLNK(st.st_mode));
        }
    }
    closedir(d);
}

static int by_place(const void *a, const void *b)
{
    const sl_located_entry *x = a, *y = b;
    return x->depth != y->depth ? x->depth - y->depth : strcmp(x->rel, y->rel);
}

int sl_locate_scan(const char *root, sl_submission_scan *scan)
{
    memset(scan, 0, sizeof *scan);
    scan->root = strdup(root);
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || !scan->root) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    scan->readable = 1;
    int cap = 0;
    scan_folder(scan, &cap, fd, "", 0);
    if (scan->count > 1)
        qsort(scan->files, (size_t)scan->count, sizeof *scan->files, by_place);
    return 0;
}

void sl_locate_scan_free(sl_submission_scan *scan)
{
    for (int i = 0; i < scan->count; i++)
        free(scan->files[i].rel);
    free(scan->files);
    free(scan->root);
    memset(scan, 0, sizeof *scan);
}

/* ---------- one lesson ---------- */

static const char *base_of(const char *rel)
{
    const char *slash = strrchr(rel, '/');
    return slash ? slash + 1 : rel;
}

/* "hw1/" of "hw1/barriers.cu" */
static void folder_of(const char *rel, char *buf, size_t n)
{
    size_t len = (size_t)(base_of(rel) - rel);
    snprintf(buf, n, "%.*s", (int)len, rel);
}

/* Another spelling of want: the same name in another case, or a name that
 * starts with the lesson's (case aside) and still says .cu somewhere. */
static int near_match(const char *name, const char *want, const char *lesson)
{
    if (strcmp(name, want) == 0)
        return 0;
    if (strcasecmp(name, want) == 0)
        return 1;
    size_t n = strlen(lesson);
    return strncasecmp(name, lesson, n) == 0 && strcasestr(name + n, ".cu") != NULL;
}

/* A note goes on one line of grades.csv and into UTF-8 files: a control
 * byte or one that is not UTF-8 (a folder of the upload may hold them)
 * is shown as \xNN. */
static void printable_note(char *note, size_t size)
{
    char out[sizeof((sl_located *)0)->note];
    size_t k = 0;
    const unsigned char *s = (const unsigned char *)note;
    while (*s && k + 5 < sizeof out) {
        int len = s[0] < 0x80             ? 1
                  : (s[0] & 0xe0) == 0xc0 ? 2
                  : (s[0] & 0xf0) == 0xe0 ? 3
                  : (s[0] & 0xf8) == 0xf0 ? 4
                                          : 0;
        for (int i = 1; i < len; i++)
            if ((s[i] & 0xc0) != 0x80)
                len = 0;
        if (len == 1 && *s >= 0x20 && *s != 0x7f) {
            out[k++] = (char)*s++;
        } else if (len > 1 && k + (size_t)len < sizeof out) {
            memcpy(out + k, s, (size_t)len);
            k += (size_t)len;
            s += len;
        } else {
            k += (size_t)snprintf(out + k, sizeof out - k, "\\x%02x", *s++);
        }
    }
    out[k] = '\0';
    snprintf(note, size, "%s", out);
}

static void find_lesson(const sl_submission_scan *scan, const char *lesson, sl_located *out);

void sl_locate_lesson(const sl_submission_scan *scan, const char *lesson, sl_located *out)
{
    find_lesson(scan, lesson, out);
    printable_note(out->note, sizeof out->note);
}

static void find_lesson(const sl_submission_scan *scan, const char *lesson, sl_located *out)
{
    memset(out, 0, sizeof *out);
    char want[256];
    snprintf(want, sizeof want, "%s.cu", lesson);
    const sl_located_entry *first = NULL;
    int same_depth = 0;
    char others[256] = "";
    for (int i = 0; i < scan->count; i++) {
        const sl_located_entry *e = &scan->files[i];
        if (strcmp(base_of(e->rel), want) != 0)
            continue;
        if (e->is_link) {
            if (!first && !out->note[0])
                snprintf(out->note, sizeof out->note, "%s is a link, not a file", e->rel);
            continue;
        }
        if (!first) {
            first = e;
        } else if (e->depth == first->depth) {
            char where[128];
            folder_of(e->rel, where, sizeof where);
            if (same_depth++ == 0) {
                char mine[128];
                folder_of(first->rel, mine, sizeof mine);
                snprintf(others, sizeof others, "%s", mine);
            }
            size_t k = strlen(others);
            snprintf(others + k, sizeof others - k, ", %s", where);
        }
    }
    if (first && same_depth) {
        snprintf(out->note, sizeof out->note, "%s in %d folders (%s): keep one", want,
                 same_depth + 1, others);
        return;
    }
    if (first) {
        out->found = 1;
        folder_of(first->rel, out->folder, sizeof out->folder);
        snprintf(out->path, sizeof out->path, "%s/%s", scan->root, first->rel);
        out->note[0] = '\0';
        if (first->depth > 0)
            snprintf(out->note, sizeof out->note, "%s found in %s", want, out->folder);
        return;
    }
    if (out->note[0]) /* a link */
        return;
    for (int i = 0; i < scan->count; i++)
        if (!scan->files[i].is_link && near_match(base_of(scan->files[i].rel), want, lesson)) {
            snprintf(out->note, sizeof out->note, "%s: did you mean %s?", scan->files[i].rel, want);
            return;
        }
    if (!scan->readable)
        snprintf(out->note, sizeof out->note, "folder not readable");
    else if (scan->entries == 0)
        snprintf(out->note, sizeof out->note, "empty folder");
    else if (scan->cu_files == 0)
        snprintf(out->note, sizeof out->note, "no .cu file");
    else
        snprintf(out->note, sizeof out->note, "no %s", want);
}

/* ---------- a whole submission ---------- */

static void append(char *buf, size_t size, const char *sep, const char *text)
{
    size_t k = strlen(buf);
    if (k + 1 < size)
        snprintf(buf + k, size - k, "%s%s", k ? sep : "", text);
}

void sl_locate_summary(const sl_submission_scan *scan, const char *const *lessons, int n, char *buf,
                       size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    if (!scan->readable || scan->entries == 0) {
        snprintf(buf, size, "%s", scan->readable ? "empty folder" : "folder not readable");
        return;
    }
    char missing[1024] = "";
    for (int i = 0; i < n; i++) {
        sl_located l;
        sl_locate_lesson(scan, lessons[i], &l);
        if (!l.note[0])
            continue;
        if (!l.found && strncmp(l.note, "no ", 3) == 0) {
            char file[256];
            snprintf(file, sizeof file, "%s.cu", lessons[i]);
            append(missing, sizeof missing, ", ", file);
        } else {
            append(buf, size, "; ", l.note);
        }
    }
    if (missing[0] && scan->cu_files == 0) {
        append(buf, size, "; ", "no .cu file");
    } else if (missing[0]) {
        char all[1100];
        snprintf(all, sizeof all, "missing: %s", missing);
        append(buf, size, "; ", all);
    }
    if (scan->truncated)
        append(buf, size, "; ", "too many files: not all looked at");
}

/* ---------- a copy for Gradescope ---------- */

static int lesson_file(const char *name)
{
    return name[0] != '.' &&
           (ends_with(name, ".cu") || ends_with(name, ".cuh") || ends_with(name, ".h"));
}

/* One regular file, never through a link, at most SL_LOCATE_MAX_COPY
 * bytes, into a new file. 0 ok. */
static int copy_plain(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (in < 0)
        return -1;
    struct stat st;
    int out = -1, rc = -1;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SL_LOCATE_MAX_COPY)
        goto done;
    out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out < 0)
        goto done;
    char buf[1 << 16];
    ssize_t got;
    long long total = 0;
    while ((got = read(in, buf, sizeof buf)) > 0 && (total += got) <= SL_LOCATE_MAX_COPY)
        if (write(out, buf, (size_t)got) != got)
            goto done;
    rc = got == 0 ? 0 : -1;
done:
    if (out >= 0 && close(out) != 0)
        rc = -1;
    if (rc != 0 && out >= 0)
        unlink(to);
    close(in);
    return rc;
}

int sl_locate_copy(const sl_submission_scan *scan, const sl_located *found, int n, const char *to,
                   char *said, size_t size)
{
    said[0] = '\0';
    struct stat st;
    if (stat(to, &st) != 0 || !S_ISDIR(st.st_mode) || access(to, W_OK) != 0)
        return -1;
    int copied = 0;
    for (int l = 0; l < n; l++) {
        if (!found[l].found)
            continue;
        int seen = 0; /* each folder once */
        for (int k = 0; k < l && !seen; k++)
            seen = found[k].found && strcmp(found[k].folder, found[l].folder) == 0;
        for (int i = 0; !seen && i < scan->count; i++) {
            const sl_located_entry *e = &scan->files[i];
            char folder[1024];
            folder_of(e->rel, folder, sizeof folder);
            if (e->is_link || strcmp(folder, found[l].folder) != 0 || !lesson_file(base_of(e->rel)))
                continue;
            char from[8300], dest[8300], line[1200];
            snprintf(from, sizeof from, "%s/%s", scan->root, e->rel);
            snprintf(dest, sizeof dest, "%s/%s", to, base_of(e->rel));
            if (access(dest, F_OK) == 0)
                snprintf(line, sizeof line, "%s: left out (a file of that name is in already)\n",
                         e->rel);
            else if (copy_plain(from, dest) != 0)
                snprintf(line, sizeof line, "%s: left out (not a plain file of at most %d MB)\n",
                         e->rel, SL_LOCATE_MAX_COPY >> 20);
            else {
                snprintf(line, sizeof line, "%s: copied\n", e->rel);
                copied++;
            }
            append(said, size, "", line);
        }
    }
    return copied;
}
