#include "dedup.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "build.h"
#include "files.h"
#include "proc.h"
#include "sha256.h"

enum { MAX_SOURCE = 8 << 20, MAX_PUBLISHED = 64 << 20 };

/* ---------- may the file be shared? ---------- */

static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

/* Identifiers that make the compile depend on more than the file's bytes:
 * what reads another file, the file's own path, or the clock. "include"
 * itself is allowed only in a plain #include line (plain_include). */
static const char *const POISON[] = {"include",
                                     "include_next",
                                     "embed",
                                     "import",
                                     "dependency",
                                     "__has_include",
                                     "__has_include_next",
                                     "__has_embed",
                                     "__FILE__",
                                     "__BASE_FILE__",
                                     "__FILE_NAME__",
                                     "__builtin_FILE",
                                     "source_location",
                                     "__DATE__",
                                     "__TIME__",
                                     "__TIMESTAMP__",
                                     NULL};

/* "#include "name"" or "#include <name>", alone on its line but for
 * blanks and a // comment; name made of [A-Za-z0-9_./+-], without "..".
 * line[0..len) is one line of the spliced text. */
static int plain_include(const char *line, size_t len, char *name, size_t n)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i >= len || line[i++] != '#')
        return 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (len - i < 7 || strncmp(line + i, "include", 7) != 0)
        return 0;
    i += 7;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i >= len || (line[i] != '"' && line[i] != '<'))
        return 0;
    char close = line[i] == '"' ? '"' : '>';
    size_t start = ++i;
    while (i < len && (isalnum((unsigned char)line[i]) || strchr("_./+-", line[i])))
        i++;
    if (i >= len || line[i] != close || i == start || i - start >= n)
        return 0;
    snprintf(name, n, "%.*s", (int)(i - start), line + start);
    if (strstr(name, "..") || name[0] == '/')
        return 0;
    i++;
    while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
        i++;
    return i == len || (len - i >= 2 && line[i] == '/' && line[i + 1] == '/');
}

/* Does folder hold something called name (a file, a link, anything)? */
static int in_folder(const char *folder, const char *name)
{
    char path[8400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", folder, name);
    return lstat(path, &st) == 0 || errno != ENOENT;
}

int sl_dedup_shareable(const char *text, size_t n, const char *folder)
{
    /* translation phase 2 first: a backslash-newline can split a word */
    char *s = malloc(n + 1);
    if (!s)
        return 0;
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '\0') {
            free(s);
            return 0;
        }
        if (text[i] == '\\' && i + 1 < n && text[i + 1] == '\n') {
            i++;
            continue;
        }
        if (text[i] == '\\' && i + 2 < n && text[i + 1] == '\r' && text[i + 2] == '\n') {
            i += 2;
            continue;
        }
        s[len++] = text[i];
    }
    s[len] = '\0';
    int ok = !strstr(s, "?\?/") && !strstr(s, "\\u") && !strstr(s, "\\U");
    for (size_t i = 0; ok && i < len;) {
        if (!ident_char(s[i]) || (i > 0 && ident_char(s[i - 1]))) {
            i++;
            continue;
        }
        size_t w = i;
        while (w < len && ident_char(s[w]))
            w++;
        for (const char *const *p = POISON; ok && *p; p++) {
            if (strlen(*p) != w - i || strncmp(s + i, *p, w - i) != 0)
                continue;
            ok = 0;
            if (strcmp(*p, "include") == 0) {
                size_t b = i, e = i;
                while (b > 0 && s[b - 1] != '\n')
                    b--;
                while (e < len && s[e] != '\n')
                    e++;
                char name[256];
                ok = plain_include(s + b, e - b, name, sizeof name) && !in_folder(folder, name);
            }
        }
        i = w;
    }
    free(s);
    return ok;
}

int sl_dedup_key(const sl_dedup_file *f, char key[65])
{
    /* a plain file with one name: a link (symbolic or hard, to a project
     * file say) is judged by what it links to, not by its bytes alone */
    struct stat st;
    if (lstat(f->source, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1)
        return -1;
    size_t n = 0;
    char *text = sl_read_file(f->source, MAX_SOURCE, &n);
    if (!text)
        return -1;
    char folder[4200];
    const char *slash = strrchr(f->source, '/');
    snprintf(folder, sizeof folder, "%.*s", slash ? (int)(slash - f->source) : 1,
             slash ? f->source : ".");
    if (!sl_dedup_shareable(text, n, folder)) {
        free(text);
        return -1;
    }
    sl_sha256 h;
    sl_sha256_init(&h);
    char head[1024];
    int m =
        snprintf(head, sizeof head,
                 "synclab dedup 1\nlesson %s\nname %s\nshown %s\nseed %llu%s\n"
                 "arch %s\nbytes %zu\n",
                 f->lesson, slash ? slash + 1 : f->source, f->shown_folder ? f->shown_folder : "",
                 f->any_seed ? 0ull : (unsigned long long)f->seed, f->any_seed ? " any" : "",
                 f->arch ? f->arch : "?", n);
    sl_sha256_add(&h, head, (size_t)m);
    sl_sha256_add(&h, text, n);
    sl_sha256_hex(&h, key);
    free(text);
    return 0;
}

/* ---------- the cache ---------- */

int sl_dedup_verdict_shareable(int verdict)
{
    switch (verdict) {
    case SL_V_TIMEOUT:
    case SL_V_LAUNCH:
    case SL_V_MEMORY:
    case SL_V_ERROR:
    case SL_V_SKIP:
    case SL_V_COUNT: return 0;
    default: return 1;
    }
}

/* A BUILD the machine caused (build.h): the compile stopped at its time
 * limit, or never started. Not the file's verdict: shared under no key. */
static int machine_build(const sl_outcome *o)
{
    const char *detail = sl_text_str(&o->detail);
    return o->verdict == SL_V_BUILD &&
           (strstr(detail, SL_BUILD_TIMED_OUT) || strstr(detail, SL_BUILD_NOT_RUN));
}

int sl_dedup_outcome_static(const sl_outcome *o)
{
    return (o->verdict == SL_V_TODO || o->verdict == SL_V_RULE || o->verdict == SL_V_BUILD) &&
           !machine_build(o);
}

int sl_dedup_open(const char *dir)
{
    sl_remove_tree(dir, 1);
    return sl_mkdirs(dir);
}

void sl_dedup_close(const char *dir) { sl_remove_tree(dir, 1); }

static void path_of(char *buf, size_t n, const char *dir, const char *key, const char *ext)
{
    snprintf(buf, n, "%s/%s.%s", dir, key, ext);
}

/* The published outcomes: "<bytes>\n<text>" per exercise, in order. */
static int read_published(const char *path, const sl_lesson *l, sl_outcome *outcomes)
{
    char *text = sl_read_file(path, MAX_PUBLISHED, NULL);
    if (!text)
        return -1;
    const char *p = text;
    int k = 0;
    for (; k < l->count; k++) {
        char *end;
        unsigned long len = strtoul(p, &end, 10);
        if (end == p || *end != '\n' || strlen(end + 1) < len)
            break;
        char *one = strndup(end + 1, len);
        int bad = !one || sl_outcome_from_text(one, &outcomes[k]) != 0 ||
                  strcmp(outcomes[k].exercise, l->exercises[k].name) != 0;
        free(one);
        if (bad) {
            sl_outcome_free(&outcomes[k]);
            break;
        }
        p = end + 1 + len;
    }
    free(text);
    if (k == l->count)
        return 0;
    while (k-- > 0)
        sl_outcome_free(&outcomes[k]);
    return -1;
}

/* What became of a key: HIT, ALONE, or BUSY while nothing is published. */
static sl_dedup_claim_result published(const char *dir, const char *key, const sl_lesson *l,
                                       sl_outcome *outcomes)
{
    char path[4400];
    path_of(path, sizeof path, dir, key, "alone");
    if (access(path, F_OK) == 0)
        return SL_DEDUP_ALONE;
    path_of(path, sizeof path, dir, key, "outcomes");
    if (access(path, F_OK) != 0)
        return SL_DEDUP_BUSY;
    return read_published(path, l, outcomes) == 0 ? SL_DEDUP_HIT : SL_DEDUP_ALONE;
}

sl_dedup_claim_result sl_dedup_claim(const char *dir, const char *key, const sl_lesson *l,
                                     sl_outcome *outcomes)
{
    if (!dir || !key)
        return SL_DEDUP_ALONE;
    sl_dedup_claim_result r = published(dir, key, l, outcomes);
    if (r != SL_DEDUP_BUSY)
        return r;
    /* the lock appears with its owner's pid in it, never empty: written
     * aside, then linked (link fails when the name exists) */
    char lock[4400], mine[4500], pid[32];
    path_of(lock, sizeof lock, dir, key, "lock");
    snprintf(mine, sizeof mine, "%s.%ld", lock, (long)getpid());
    snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (sl_write_file(mine, pid) != 0) {
        unlink(mine);
        return SL_DEDUP_ALONE;
    }
    int linked = link(mine, lock) == 0, why = errno;
    unlink(mine);
    if (!linked) /* another student holds it; or the cache is gone: alone */
        return why == EEXIST ? SL_DEDUP_BUSY : SL_DEDUP_ALONE;
    /* published between our look and the lock: take that */
    r = published(dir, key, l, outcomes);
    return r == SL_DEDUP_BUSY ? SL_DEDUP_OWN : r;
}

static int all_shareable(const sl_lesson *l, const sl_outcome *outcomes)
{
    for (int k = 0; k < l->count; k++)
        if (!sl_dedup_verdict_shareable(outcomes[k].verdict) || machine_build(&outcomes[k]) ||
            strcmp(outcomes[k].exercise, l->exercises[k].name) != 0)
            return 0;
    return 1;
}

void sl_dedup_publish(const char *dir, const char *key, const sl_lesson *l,
                      const sl_outcome *outcomes)
{
    char path[4400], tmp[4500];
    int ok = all_shareable(l, outcomes);
    char *all = NULL;
    size_t size = 0;
    FILE *f = ok ? open_memstream(&all, &size) : NULL;
    for (int k = 0; f && k < l->count; k++) {
        char *one = sl_outcome_to_text(&outcomes[k]);
        if (!one) {
            ok = 0;
            break;
        }
        fprintf(f, "%zu\n%s", strlen(one), one);
        free(one);
    }
    if (f)
        fclose(f);
    path_of(path, sizeof path, dir, key, ok && all ? "outcomes" : "alone");
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    /* written whole, then renamed: a reader sees all of it or nothing */
    if (sl_write_file(tmp, ok && all ? all : "") != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        path_of(path, sizeof path, dir, key, "alone");
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);
    }
    free(all);
}

/* The owner's pid from the lock; 0 when it cannot be read. */
static long lock_owner(const char *dir, const char *key)
{
    char lock[4400];
    path_of(lock, sizeof lock, dir, key, "lock");
    char *text = sl_read_file(lock, 64, NULL);
    long pid = text ? strtol(text, NULL, 10) : 0;
    free(text);
    return pid;
}

sl_dedup_claim_result sl_dedup_wait(const char *dir, const char *key, const sl_lesson *l,
                                    sl_outcome *outcomes, double wait_s)
{
    double until = sl_now() + wait_s;
    for (;;) {
        sl_dedup_claim_result r = published(dir, key, l, outcomes);
        if (r != SL_DEDUP_BUSY)
            return r;
        long pid = lock_owner(dir, key);
        /* its owner ended without publishing (killed: no pid or no process) */
        if (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH)) {
            r = published(dir, key, l, outcomes); /* it may have published just before */
            return r == SL_DEDUP_HIT ? r : SL_DEDUP_ALONE;
        }
        if (sl_now() >= until)
            return SL_DEDUP_ALONE;
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int sl_dedup_take(const char *dir, const char *key, const sl_lesson *l, sl_outcome *outcomes)
{
    return dir && key && published(dir, key, l, outcomes) == SL_DEDUP_HIT ? 0 : -1;
}

void sl_dedup_publish_static(const char *dir, const char *key, const sl_lesson *l,
                             const sl_outcome *outcomes)
{
    if (!dir || !key)
        return;
    for (int k = 0; k < l->count; k++)
        if (!sl_dedup_outcome_static(&outcomes[k]))
            return;
    /* written aside and renamed: a second grader of the file writes the same */
    sl_dedup_publish(dir, key, l, outcomes);
}
