#include "roster.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---------- names ---------- */

static int plain_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-' || c == '@' || c == '+';
}

int sl_roster_plain(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 128 || name[0] == '.' || name[0] == '-')
        return 0;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        if (!plain_char(*c))
            return 0;
    return 1;
}

/* The length of the UTF-8 sequence at s (its code point in *cp), 0 when
 * it is not one (overlong forms and surrogates included). */
static int utf8_sequence(const unsigned char *s, uint32_t *cp)
{
    int len = s[0] < 0x80             ? 1
              : (s[0] & 0xe0) == 0xc0 ? 2
              : (s[0] & 0xf0) == 0xe0 ? 3
              : (s[0] & 0xf8) == 0xf0 ? 4
                                      : 0;
    if (!len)
        return 0;
    uint32_t v = len == 1 ? s[0] : s[0] & (0x7f >> len);
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < least[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

const char *sl_roster_refusal(const char *name, char *buf, size_t n)
{
    if (!name[0])
        return "an empty name";
    if (name[0] == '-')
        return "leading '-'";
    for (const unsigned char *s = (const unsigned char *)name; *s;) {
        uint32_t cp = 0;
        int len = utf8_sequence(s, &cp);
        if (!len) {
            snprintf(buf, n, "byte 0x%02x is not UTF-8", *s);
            return buf;
        }
        if (cp == '\n')
            return "a newline in the name";
        if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
            snprintf(buf, n, "control character U+%04" PRIX32 " in the name", cp);
            return buf;
        }
        s += len;
    }
    return NULL;
}

/* FNV-1a, 64 bits: the same name gives the same folder on every shard. */
static uint64_t name_hash(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ *c) * 0x100000001b3ull;
    return h;
}

void sl_roster_dir_name(const char *name, char *out, size_t n)
{
    if (n == 0)
        return;
    if (sl_roster_plain(name)) {
        snprintf(out, n, "%s", name);
        return;
    }
    char slug[64];
    size_t k = 0;
    for (const unsigned char *c = (const unsigned char *)name; *c && k + 1 < sizeof slug; c++) {
        if (plain_char(*c) && !(k == 0 && (*c == '.' || *c == '-')))
            slug[k++] = (char)*c;
        else if (k > 0 && slug[k - 1] != '_')
            slug[k++] = '_';
        else if (k == 0)
            slug[k++] = '_';
    }
    slug[k] = '\0';
    snprintf(out, n, "%s~%016" PRIx64, slug, name_hash(name));
}

/* The name with odd bytes (controls, backslash, non-UTF-8) as \xNN. */
static char *escaped(const char *name)
{
    size_t n = strlen(name) * 4 + 1;
    char *out = malloc(n), *o = out;
    if (!out)
        return NULL;
    for (const unsigned char *s = (const unsigned char *)name; *s;) {
        uint32_t cp = 0;
        int len = utf8_sequence(s, &cp);
        if (len > 1 && cp >= 0xa0) {
            memcpy(o, s, (size_t)len);
            o += len;
            s += len;
        } else if (*s >= 0x20 && *s < 0x7f && *s != '\\') {
            *o++ = (char)*s++;
        } else {
            o += sprintf(o, "\\x%02x", *s++);
        }
    }
    *o = '\0';
    return out;
}

/* ---------- the folder ---------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(((const sl_student *)a)->name, ((const sl_student *)b)->name);
}

void sl_roster_free_one(sl_student *s)
{
    free(s->name);
    free(s->shown);
    free(s->dir);
    free(s->refused);
    memset(s, 0, sizeof *s);
}

void sl_roster_free(sl_student *students, int count)
{
    for (int i = 0; students && i < count; i++)
        sl_roster_free_one(&students[i]);
    free(students);
}

int sl_roster_read(const char *dir, sl_student **students)
{
    *students = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue; /* ".", "..", .git: no students */
        struct stat st, target;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        int link_to_folder = S_ISLNK(st.st_mode) && fstatat(dirfd(d), e->d_name, &target, 0) == 0 &&
                             S_ISDIR(target.st_mode);
        if (!S_ISDIR(st.st_mode) && !link_to_folder)
            continue; /* a file beside the folders (grades.csv, a zip): no student */
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            sl_student *more = realloc(*students, (size_t)cap * sizeof *more);
            if (!more)
                break;
            *students = more;
        }
        sl_student *s = &(*students)[n];
        memset(s, 0, sizeof *s);
        char why[96], folder[256];
        const char *refused =
            link_to_folder ? "a link, not a folder" : sl_roster_refusal(e->d_name, why, sizeof why);
        sl_roster_dir_name(e->d_name, folder, sizeof folder);
        s->name = strdup(e->d_name);
        s->shown = refused ? escaped(e->d_name) : strdup(e->d_name);
        s->dir = strdup(folder);
        s->refused = refused ? strdup(refused) : NULL;
        if (!s->name || !s->shown || !s->dir || (refused && !s->refused)) {
            sl_roster_free(*students, n + 1);
            *students = NULL;
            closedir(d);
            return -1;
        }
        n++;
    }
    closedir(d);
    if (n > 1)
        qsort(*students, (size_t)n, sizeof **students, by_name);
    return n;
}
