#include "policy.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"

enum { MAX_FILE = 4 << 20, MAX_DEPTH = 8, MAX_REPORTED = 20 };

/* ---------- the rules ---------- */

typedef enum {
    CALL, /* the name followed by '(' : a call or a definition */
    WORD  /* the name anywhere */
} rule_kind;

typedef struct {
    const char *name;
    rule_kind kind;
    const char *reason;
} rule;

#define RUNS_ALONE "runs code the harness did not call: your file holds kernels and launchers only"
#define ENDS                                                                                       \
    "ends the runner: a runner that stops early has no outputs, so it can only lose points; "      \
    "return instead"
#define SPAWNS "starts other programs or processes: only the runner may run"
#define FILES "opens files: your code gets its data from the harness, never from files"
#define PROCESS "acts on processes or makes raw system calls"

/* abort() and assert() are allowed on purpose: a crash is reported as a
 * crash (LAUNCH/MEMORY) and earns nothing, and students use them to debug. */
static const rule RULES[] = {
    {"main", CALL, "defines or calls main(): the runner has its own main; " RUNS_ALONE},
    {"constructor", WORD, "a constructor attribute " RUNS_ALONE},
    {"destructor", WORD, "a destructor attribute " RUNS_ALONE},
    {"init_priority", WORD, "init_priority " RUNS_ALONE},
    {"exit", CALL, ENDS},
    {"_exit", CALL, ENDS},
    {"_Exit", CALL, ENDS},
    {"quick_exit", CALL, ENDS},
    {"atexit", CALL, RUNS_ALONE},
    {"at_quick_exit", CALL, RUNS_ALONE},
    {"system", CALL, SPAWNS},
    {"popen", CALL, SPAWNS},
    {"fork", CALL, SPAWNS},
    {"vfork", CALL, SPAWNS},
    {"clone", CALL, SPAWNS},
    {"daemon", CALL, SPAWNS},
    {"execl", CALL, SPAWNS},
    {"execle", CALL, SPAWNS},
    {"execlp", CALL, SPAWNS},
    {"execv", CALL, SPAWNS},
    {"execve", CALL, SPAWNS},
    {"execvp", CALL, SPAWNS},
    {"execvpe", CALL, SPAWNS},
    {"fexecve", CALL, SPAWNS},
    {"posix_spawn", CALL, SPAWNS},
    {"posix_spawnp", CALL, SPAWNS},
    {"pthread_create", CALL, SPAWNS},
    {"fopen", CALL, FILES},
    {"fopen64", CALL, FILES},
    {"freopen", CALL, FILES},
    {"open", CALL, FILES},
    {"open64", CALL, FILES},
    {"openat", CALL, FILES},
    {"creat", CALL, FILES},
    {"opendir", CALL, FILES},
    {"remove", CALL, FILES},
    {"unlink", CALL, FILES},
    {"rename", CALL, FILES},
    {"truncate", CALL, FILES},
    {"dlopen", CALL, FILES},
    {"dlsym", CALL, PROCESS},
    {"ifstream", WORD, FILES},
    {"ofstream", WORD, FILES},
    {"fstream", WORD, FILES},
    {"filebuf", WORD, FILES},
    {"syscall", CALL, PROCESS},
    {"ptrace", CALL, PROCESS},
    {"prctl", CALL, PROCESS},
    {"kill", CALL, PROCESS},
    {"setsid", CALL, PROCESS},
    {"socket", CALL, PROCESS},
};

/* ---------- reporting ---------- */

typedef struct {
    const sl_policy *p;
    sl_text *why;
    int violations;
    int depth;
} scan;

static void violation(scan *s, const char *label, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void violation(scan *s, const char *label, int line, const char *fmt, ...)
{
    if (++s->violations > MAX_REPORTED)
        return;
    va_list ap;
    va_start(ap, fmt);
    sl_text_printf(s->why, "%s(%d): error: submission policy: ", label, line);
    sl_text_vprintf(s->why, fmt, ap);
    sl_text_printf(s->why, "\n");
    va_end(ap);
}

/* ---------- lexing ---------- */

/* Removes backslash-newline (the preprocessor joins such lines before it
 * sees names: "ex\<newline>it" is exit). line[i] is the source line of
 * out[i]. */
static char *splice(const char *text, int **line_of)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    int *line = malloc((n + 1) * sizeof *line);
    if (!out || !line) {
        free(out);
        free(line);
        return NULL;
    }
    size_t k = 0;
    int ln = 1;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '\\' &&
            (text[i + 1] == '\n' || (text[i + 1] == '\r' && text[i + 2] == '\n'))) {
            i += text[i + 1] == '\r' ? 2 : 1;
            ln++;
            continue;
        }
        out[k] = text[i];
        line[k++] = ln;
        if (text[i] == '\n')
            ln++;
    }
    out[k] = '\0';
    line[k] = ln;
    *line_of = line;
    return out;
}

/* Length of a raw string literal starting at s (which points at R"),
 * or 0 when it is not one. */
static size_t raw_string_length(const char *s)
{
    const char *open = strchr(s + 2, '(');
    if (!open || open - (s + 2) > 16)
        return 0;
    char close[24];
    snprintf(close, sizeof close, ")%.*s\"", (int)(open - (s + 2)), s + 2);
    const char *end = strstr(open, close);
    return end ? (size_t)(end + strlen(close) - s) : strlen(s);
}

/* Whether the quote at t[i] follows the digits of a number (C++14 digit
 * separator) rather than opening a character literal. */
static int in_number(const char *t, size_t i)
{
    size_t k = i;
    while (k > 0 && (isalnum((unsigned char)t[k - 1]) || t[k - 1] == '\''))
        k--;
    return k < i && isdigit((unsigned char)t[k]);
}

/* Blanks comments (always) and literals (when blank_literals), keeping
 * newlines. A quote that starts a literal is kept so #include "x" can still
 * be read when literals stay. */
static void strip_in_place(char *t, int blank_literals)
{
    for (size_t i = 0; t[i];) {
        if (t[i] == '/' && t[i + 1] == '/') {
            while (t[i] && t[i] != '\n')
                t[i++] = ' ';
        } else if (t[i] == '/' && t[i + 1] == '*') {
            t[i] = t[i + 1] = ' ';
            i += 2;
            while (t[i] && !(t[i] == '*' && t[i + 1] == '/')) {
                if (t[i] != '\n')
                    t[i] = ' ';
                i++;
            }
            if (t[i])
                t[i] = t[i + 1] = ' ', i += 2;
        } else if (t[i] == 'R' && t[i + 1] == '"' &&
                   (i == 0 || !(isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))) {
            size_t len = raw_string_length(t + i);
            if (!len) {
                i++;
                continue;
            }
            for (size_t k = 0; k < len; k++)
                if (blank_literals && t[i + k] != '\n')
                    t[i + k] = ' ';
            i += len;
        } else if (t[i] == '"' || t[i] == '\'') {
            /* a digit separator (1'000'000) is not a character literal */
            if (t[i] == '\'' && in_number(t, i)) {
                i++;
                continue;
            }
            char quote = t[i++];
            while (t[i] && t[i] != quote && t[i] != '\n') {
                if (t[i] == '\\' && t[i + 1] && t[i + 1] != '\n') {
                    if (blank_literals)
                        t[i] = ' ';
                    i++;
                }
                if (blank_literals)
                    t[i] = ' ';
                i++;
            }
            if (t[i] == quote)
                i++;
        } else {
            i++;
        }
    }
}

char *sl_policy_strip(const char *text)
{
    char *t = strdup(text);
    if (t)
        strip_in_place(t, 1);
    return t;
}

/* ---------- #include ----------
 * Which files may be included is decided from the compiler's own
 * dependency list (build.h), never from this text. Here the student's own
 * headers are only found, to be scanned with the same rules: a quoted
 * name that is a plain file next to the lesson file. */

static int check_text(scan *s, const char *label, const char *text, const char *dir);

static void check_include(scan *s, const char *name, char open, const char *dir)
{
    char path[4096];
    struct stat st;
    if (open != '"' || !dir || s->depth >= MAX_DEPTH)
        return;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    char *text = sl_read_file(path, MAX_FILE, NULL);
    if (!text)
        return;
    s->depth++;
    check_text(s, name, text, dir);
    s->depth--;
    free(text);
}

/* #line and GNU line markers ("# 33 \"file\"", what the preprocessor
 * writes for #line) rename the lines that follow: the compiler's line
 * information then names another file, and what is library code is told
 * from that information (a CUDA header's instructions are exempt from some
 * rules). No lesson needs them. A directive that a macro expands to is no
 * directive (C11 6.10.3.4), so only real directives are looked at. */
#define LINE_DIRECTIVE                                                                             \
    "#line would make your code count as library code: the grader tells your code from the "       \
    "CUDA headers' by the compiler's line information, which #line renames; remove it"

/* Finds the #include directives of a comment-free text (literals kept),
 * and refuses #line and line markers. */
static void check_directives(scan *s, const char *label, const char *t, const int *line,
                             const char *dir)
{
    for (size_t i = 0; t[i];) {
        while (t[i] == ' ' || t[i] == '\t' || t[i] == '\r')
            i++;
        int directive = t[i] == '#' || (t[i] == '%' && t[i + 1] == ':'); /* %: is a digraph of # */
        if (directive) {
            size_t at = i;
            i += t[i] == '#' ? 1 : 2;
            while (t[i] == ' ' || t[i] == '\t')
                i++;
            size_t w = i;
            while (isalnum((unsigned char)t[i]) || t[i] == '_')
                i++;
            size_t wl = i - w;
            if ((wl == 4 && !strncmp(t + w, "line", 4)) || (wl && isdigit((unsigned char)t[w])))
                violation(s, label, line[at], "%s", LINE_DIRECTIVE);
            int include = (wl == 7 && !strncmp(t + w, "include", 7)) ||
                          (wl == 12 && !strncmp(t + w, "include_next", 12)) ||
                          (wl == 6 && !strncmp(t + w, "import", 6)) ||
                          (wl == 5 && !strncmp(t + w, "embed", 5));
            if (include) {
                while (t[i] == ' ' || t[i] == '\t')
                    i++;
                char open = t[i], close = open == '<' ? '>' : '"';
                const char *end = (open == '<' || open == '"') ? strchr(t + i + 1, close) : NULL;
                const char *nl = strchr(t + i, '\n');
                if (end && (!nl || end < nl)) {
                    char name[1024];
                    snprintf(name, sizeof name, "%.*s", (int)(end - (t + i + 1)), t + i + 1);
                    check_include(s, name, open, dir);
                }
            }
        }
        while (t[i] && t[i] != '\n')
            i++;
        if (t[i])
            i++;
    }
}

/* Matches the rules on a text without comments and literals. */
static void check_names(scan *s, const char *label, const char *t, const int *line)
{
    for (size_t i = 0; t[i];) {
        if (!(isalpha((unsigned char)t[i]) || t[i] == '_')) {
            /* a number's suffix or exponent is not a name */
            if (isdigit((unsigned char)t[i]))
                while (isalnum((unsigned char)t[i]) || t[i] == '_' || t[i] == '.')
                    i++;
            else
                i++;
            continue;
        }
        size_t start = i;
        while (isalnum((unsigned char)t[i]) || t[i] == '_')
            i++;
        size_t len = i - start, k = i;
        while (isspace((unsigned char)t[k]))
            k++;
        int call = t[k] == '(';
        /* an attribute may be spelled __name__ (__attribute__((__constructor__))) */
        int dunder =
            len > 4 && strncmp(t + start, "__", 2) == 0 && strncmp(t + i - 2, "__", 2) == 0;
        for (size_t r = 0; r < sizeof RULES / sizeof RULES[0]; r++) {
            const rule *ru = &RULES[r];
            size_t n = strlen(ru->name);
            int same = n == len && strncmp(ru->name, t + start, len) == 0;
            if (!same && dunder && ru->kind == WORD)
                same = n == len - 4 && strncmp(ru->name, t + start + 2, n) == 0;
            if (!same)
                continue;
            if (ru->kind == CALL && !call)
                continue;
            violation(s, label, line[start], "%s%s: %s", ru->name, ru->kind == CALL ? "()" : "",
                      ru->reason);
        }
    }
}

static int check_text(scan *s, const char *label, const char *text, const char *dir)
{
    int before = s->violations;
    int *line = NULL;
    char *t = splice(text, &line);
    if (!t) {
        violation(s, label, 1, "out of memory while reading the file");
        return 0;
    }
    strip_in_place(t, 0);
    check_directives(s, label, t, line, dir);
    strip_in_place(t, 1);
    check_names(s, label, t, line);
    free(t);
    free(line);
    return s->violations == before;
}

int sl_policy_check_text(const sl_policy *p, const char *label, const char *text, const char *dir,
                         sl_text *why)
{
    scan s = {p, why, 0, 0};
    check_text(&s, label, text, dir);
    if (s.violations > MAX_REPORTED)
        sl_text_printf(why, "%s(1): error: submission policy: %d more violations not shown\n",
                       label, s.violations - MAX_REPORTED);
    return s.violations == 0;
}

int sl_policy_check_file(const sl_policy *p, const char *path, sl_text *why)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    struct stat st;
    if (lstat(path, &st) != 0) {
        sl_text_printf(why, "error: %s: no such file\n", path);
        return 0;
    }
    if (!S_ISREG(st.st_mode)) {
        sl_text_printf(why,
                       "%s(1): error: submission policy: not a plain file (a link?): hand in "
                       "the file itself\n",
                       base);
        return 0;
    }
    if (st.st_size > MAX_FILE) {
        sl_text_printf(why, "%s(1): error: submission policy: the file is larger than %d MiB\n",
                       base, MAX_FILE >> 20);
        return 0;
    }
    char *text = sl_read_file(path, MAX_FILE, NULL);
    if (!text) {
        sl_text_printf(why, "error: %s: cannot be read\n", path);
        return 0;
    }
    char dir[4096];
    if (base == path)
        snprintf(dir, sizeof dir, ".");
    else if (base - 1 == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(base - 1 - path), path);
    int ok = sl_policy_check_text(p, base, text, dir, why);
    free(text);
    return ok;
}
