#include "sanitizer.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

const int SL_TOOL_ORDER[SL_NTOOLS] = {SL_TOOL_MEMCHECK, SL_TOOL_SYNCCHECK, SL_TOOL_RACECHECK,
                                      SL_TOOL_INITCHECK};

sl_verdict sl_tool_verdict(int tool)
{
    switch (tool) {
    case SL_TOOL_RACECHECK: return SL_V_RACE;
    case SL_TOOL_SYNCCHECK: return SL_V_SYNC;
    default: return SL_V_MEMORY; /* memcheck, initcheck */
    }
}

const char *sl_tool_name(int tool)
{
    switch (tool) {
    case SL_TOOL_MEMCHECK: return "memcheck";
    case SL_TOOL_SYNCCHECK: return "synccheck";
    case SL_TOOL_RACECHECK: return "racecheck";
    case SL_TOOL_INITCHECK: return "initcheck";
    default: return "?";
    }
}

int sl_sanitizer_args(int tool, const char *sanitizer, const char **argv)
{
    static char exitcode[16];
    snprintf(exitcode, sizeof exitcode, "%d", SL_SANITIZER_FOUND);
    int n = 0;
    argv[n++] = sanitizer;
    argv[n++] = "--tool";
    argv[n++] = sl_tool_name(tool);
    argv[n++] = "--error-exitcode";
    argv[n++] = exitcode;
    argv[n++] = "--print-limit";
    argv[n++] = "20";
    /* Device frames find the student's line under library code (cuda::barrier);
     * host frames are noise. */
    argv[n++] = "--show-backtrace";
    argv[n++] = "device";
    if (tool == SL_TOOL_RACECHECK) {
        /* warnings (warp-level hazards) count as races */
        argv[n++] = "--racecheck-detect-level";
        argv[n++] = "warn";
        argv[n++] = "--racecheck-report";
        argv[n++] = "analysis";
    }
    argv[n] = NULL;
    return n;
}

/* ---------- report reading ---------- */

typedef struct {
    char loc[16][256]; /* "file.cu:12" in order of appearance */
    int nloc;
} locations;

/* "... in /path/file.cu:12" at the end of a line -> "file.cu:12" */
static int location_of(const char *line, char *out, size_t n)
{
    const char *in = NULL;
    for (const char *s = strstr(line, " in "); s; s = strstr(s + 1, " in "))
        in = s;
    if (!in)
        return 0;
    const char *path = in + 4;
    const char *colon = strrchr(path, ':');
    if (!colon || colon[1] < '0' || colon[1] > '9')
        return 0;
    size_t len = strcspn(path, " \t[\r\n");
    char tmp[512];
    if (len >= sizeof tmp)
        len = sizeof tmp - 1;
    memcpy(tmp, path, len);
    tmp[len] = '\0';
    snprintf(out, n, "%s", sl_base_name(tmp));
    return 1;
}

static void add_location(locations *l, const char *line)
{
    char loc[256];
    if (l->nloc < 16 && location_of(line, loc, sizeof loc)) {
        for (int i = 0; i < l->nloc; i++)
            if (strcmp(l->loc[i], loc) == 0)
                return;
        snprintf(l->loc[l->nloc++], sizeof l->loc[0], "%s", loc);
    }
}

/* Student lines first, then the rest, into where. */
static void write_where(const locations *l, const char *prefer, char *where, size_t n)
{
    size_t len = 0;
    where[0] = '\0';
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < l->nloc; i++) {
            size_t flen = strcspn(l->loc[i], ":");
            int preferred =
                prefer && strlen(prefer) == flen && strncmp(l->loc[i], prefer, flen) == 0;
            if (preferred != (pass == 0))
                continue;
            if (len + strlen(l->loc[i]) + 3 >= n)
                return;
            len += (size_t)snprintf(where + len, n - len, "%s%s", len ? ", " : "", l->loc[i]);
        }
}

static int has_preferred(const locations *l, const char *prefer)
{
    for (int i = 0; prefer && i < l->nloc; i++)
        if (strncmp(l->loc[i], prefer, strlen(prefer)) == 0 && l->loc[i][strlen(prefer)] == ':')
            return 1;
    return 0;
}

/* The text after the "========= " prefix, or NULL for program output. */
static const char *tool_text(const char *line)
{
    static const char prefix[] = "=========";
    if (strncmp(line, prefix, sizeof prefix - 1) != 0)
        return NULL;
    line += sizeof prefix - 1;
    while (*line == ' ')
        line++;
    return line;
}

static int starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* Is this line the head of one finding (as opposed to its details)? */
static int is_finding_head(int tool, const char *t)
{
    switch (tool) {
    case SL_TOOL_RACECHECK: return starts(t, "Error:") || starts(t, "Warning:");
    case SL_TOOL_SYNCCHECK:
        return starts(t, "Barrier error") || strstr(t, "error detected") != NULL ||
               starts(t, "Invalid");
    case SL_TOOL_MEMCHECK:
        return starts(t, "Invalid ") || starts(t, "Misaligned") || starts(t, "Out-of-range") ||
               starts(t, "Malloc") || starts(t, "Free") || starts(t, "Hardware exception") ||
               starts(t, "Cuda ") || starts(t, "Stack overflow") || starts(t, "Unknown Error");
    case SL_TOOL_INITCHECK: return starts(t, "Uninitialized");
    default: return 0;
    }
}

/* sum at "RACECHECK SUMMARY: N hazard(s) displayed (E error(s), W
 * warning(s))": 1 when E and W were read (the singular "1 error" too);
 * *shown, when asked, gets N or -1. */
static int racecheck_summary(const char *sum, int *shown, int *errors, int *warnings)
{
    const char *par = strchr(sum, '('), *comma = par ? strchr(par, ',') : NULL;
    if (shown && sscanf(sum + strlen("RACECHECK SUMMARY:"), "%d hazard", shown) != 1)
        *shown = -1;
    return comma && sscanf(par, "(%d error", errors) == 1 &&
           sscanf(comma, ", %d warning", warnings) == 1;
}

sl_verdict sl_sanitizer_parse(int tool, const char *report, const char *prefer_file,
                              sl_text *detail, char *where, size_t wherelen)
{
    locations locs = {0}, first_locs = {0};
    int findings = 0, summary_errors = -1, summary_warnings = 0, in_first = 0;
    int detail_lines = 0;
    char first_head[512] = "";
    const char *s = report ? report : "";
    while (*s) {
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        char line[1024];
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, s, len);
        line[len] = '\0';
        const char *t = tool_text(line);
        if (t) {
            const char *sum;
            if ((sum = strstr(t, "ERROR SUMMARY:")) != NULL) {
                /* a second line may count the errors that were not printed */
                if (summary_errors < 0 && !strstr(t, "not printed"))
                    summary_errors = atoi(sum + 14);
            } else if ((sum = strstr(t, "RACECHECK SUMMARY:")) != NULL) {
                int e, w;
                if (racecheck_summary(sum, NULL, &e, &w)) {
                    summary_errors = e;
                    summary_warnings = w;
                }
            } else if (is_finding_head(tool, t)) {
                findings++;
                in_first = findings == 1;
                if (in_first)
                    snprintf(first_head, sizeof first_head, "%s", t);
                add_location(&locs, t); /* racecheck puts the write's line here */
                if (in_first)
                    add_location(&first_locs, t);
            } else if (findings >= 1 && *t) {
                add_location(&locs, t);
                if (in_first) {
                    add_location(&first_locs, t);
                    /* keep the useful detail lines of the first finding */
                    if (detail_lines < 4 &&
                        (starts(t, "and ") || starts(t, "Address") || starts(t, "by thread") ||
                         starts(t, "Write") || starts(t, "Read") || starts(t, "at "))) {
                        if (!(starts(t, "by thread") && strstr(sl_text_str(detail), "by thread"))) {
                            sl_text_printf(detail, "  %s\n", t);
                            detail_lines++;
                        }
                    }
                }
            }
        }
        if (!eol)
            break;
        s = eol + 1;
    }
    int total = summary_errors > 0 ? summary_errors + summary_warnings : summary_warnings;
    if (findings == 0 && total <= 0) {
        sl_text_clear(detail);
        if (wherelen)
            where[0] = '\0';
        return SL_V_PASS;
    }
    /* memcheck also reports failed API calls ("Program hit ..."); they are
     * launch failures, judged by the plain run, not memory errors. */
    if (findings == 0 && tool == SL_TOOL_MEMCHECK) {
        sl_text_clear(detail);
        if (wherelen)
            where[0] = '\0';
        return SL_V_PASS;
    }
    sl_text body = {0};
    sl_text_printf(&body, "%s: %s\n%s", sl_tool_name(tool),
                   first_head[0] ? first_head : "errors reported", sl_text_str(detail));
    if (total > 1)
        sl_text_printf(&body, "  (%d %s in all)\n", total,
                       tool == SL_TOOL_RACECHECK ? "hazard reports" : "errors");
    sl_text_clear(detail);
    sl_text_append(detail, sl_text_str(&body), body.len);
    sl_text_free(&body);
    /* The first finding's lines if they are the student's, else any of theirs. */
    write_where(has_preferred(&first_locs, prefer_file) ? &first_locs : &locs, prefer_file, where,
                wherelen);
    return sl_tool_verdict(tool);
}

/* "file.cu:12" into its file and line. */
static int split_location(const char *loc, char *file, size_t n, int *line)
{
    const char *colon = strrchr(loc, ':');
    if (!colon || (size_t)(colon - loc) >= n || colon == loc)
        return 0;
    memcpy(file, loc, (size_t)(colon - loc));
    file[colon - loc] = '\0';
    char *end;
    long l = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end != '\0' || l <= 0 || l > 1000000000L)
        return 0;
    *line = (int)l;
    return 1;
}

/* Every finding a dismissed pair, and the summary counts them all. */
static int all_hazards_dismissed(const char *report, sl_hazard_dismiss dismiss, void *arg)
{
    int findings = 0, summary = -1, pending = 0; /* pending: a head waits for its "and" line */
    char file_a[256] = "", file_b[256], loc[256];
    int line_a = 0, line_b;
    const char *s = report;
    while (*s) {
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        char line[1024];
        if (len >= sizeof line)
            return 0;
        memcpy(line, s, len);
        line[len] = '\0';
        const char *t = tool_text(line);
        if (t) {
            const char *sum;
            if (strstr(t, "ERROR SUMMARY:")) {
                return 0; /* not the analysis report this reads */
            } else if ((sum = strstr(t, "RACECHECK SUMMARY:")) != NULL) {
                int shown, e, w;
                if (summary >= 0 || !racecheck_summary(sum, &shown, &e, &w) || shown < 0 ||
                    e + w != shown)
                    return 0;
                summary = shown;
            } else if (is_finding_head(SL_TOOL_RACECHECK, t)) {
                if (pending || !(starts(t, "Error: Race reported between ") ||
                                 starts(t, "Warning: Race reported between ")))
                    return 0;
                /* the head names the first access ("... in F:L") */
                if (!location_of(t, loc, sizeof loc) ||
                    !split_location(loc, file_a, sizeof file_a, &line_a))
                    return 0;
                pending = 1;
                findings++;
            } else if (pending) {
                if (!starts(t, "and ") || !location_of(t, loc, sizeof loc) ||
                    !split_location(loc, file_b, sizeof file_b, &line_b) ||
                    !dismiss(file_a, line_a, file_b, line_b, arg))
                    return 0;
                pending = 0;
            }
        }
        if (!eol)
            break;
        s = eol + 1;
    }
    return !pending && findings > 0 && summary == findings;
}

sl_verdict sl_sanitizer_parse_dismissing(int tool, const char *report, const char *prefer_file,
                                         sl_hazard_dismiss dismiss, void *arg, int *dismissed,
                                         sl_text *detail, char *where, size_t wherelen)
{
    *dismissed = 0;
    sl_verdict v = sl_sanitizer_parse(tool, report, prefer_file, detail, where, wherelen);
    if (v == SL_V_PASS || tool != SL_TOOL_RACECHECK || !dismiss || !report ||
        !all_hazards_dismissed(report, dismiss, arg))
        return v;
    sl_text_clear(detail);
    if (wherelen)
        where[0] = '\0';
    *dismissed = 1;
    return SL_V_PASS;
}

/* Does line name path as a location, " in <path>:<line>"? The whole
 * path: a file of the same name elsewhere is another file; and the whole
 * line number, which ends the location (the line's end, or " [N
 * hazards]"): a student's file named "x in barriers.cu:5.cu" is not
 * barriers.cu. */
static int names_path(const char *line, const char *path)
{
    size_t n = strlen(path);
    for (const char *in = strstr(line, " in "); n && in; in = strstr(in + 1, " in ")) {
        if (strncmp(in + 4, path, n) != 0 || in[4 + n] != ':')
            continue;
        const char *digits = in + 5 + n, *end = digits;
        while (isdigit((unsigned char)*end))
            end++;
        if (end > digits && (*end == '\0' || *end == ' ' || *end == '\t' || *end == '\r'))
            return 1;
    }
    return 0;
}

/* The files a finding's line names, as a bit per lesson: by whole path
 * (files) or by base name (names). */
typedef unsigned (*lessons_named_fn)(const char *line, const char *const *which, int n);

static unsigned named_by_path(const char *line, const char *const *files, int n)
{
    unsigned named = 0;
    for (int i = 0; i < n; i++)
        if (names_path(line, files[i]))
            named |= 1u << i;
    return named;
}

/* Each name of each lesson's list asked as a location, as a whole path is:
 * a file name may hold " in " and ":" too. */
static unsigned named_by_base(const char *line, const char *const *names, int n)
{
    unsigned named = 0;
    char name[PATH_MAX];
    for (int i = 0; i < n; i++)
        for (const char *l = names[i]; l && *l && !(named & (1u << i));) {
            size_t len = strcspn(l, "\n");
            if (len < sizeof name) {
                memcpy(name, l, len);
                name[len] = '\0';
                if (names_path(line, name))
                    named |= 1u << i;
            }
            l += len + (l[len] == '\n');
        }
    return named;
}

/* A finding that named no file ended: the first one is kept for the
 * trace, by its location line (else its head). */
static void note_unnamed(sl_sanitizer_split *out, const char *loc, const char *head)
{
    if (!out->unnamed[0])
        snprintf(out->unnamed, sizeof out->unnamed, "%s", loc[0] ? loc : head);
}

static unsigned split(const char *report, const char *const *which, int n, lessons_named_fn by,
                      sl_sanitizer_split *out)
{
    unsigned named = 0;
    int blocks = 0, attributed = 0, in_block = 0, block_named = 0, total = -1, unprinted = 0;
    char *line = NULL, head[1024] = "", loc[1024] = "";
    out->unnamed[0] = '\0';
    for (const char *s = report ? report : ""; *s;) {
        size_t len = strcspn(s, "\n");
        free(line);
        line = strndup(s, len); /* whole: a path may be long */
        s += len + (s[len] == '\n');
        if (!line) {
            unprinted = 1; /* nothing can be said */
            break;
        }
        if (strncmp(line, "=========", 9) != 0)
            continue; /* the protocol, the program's own lines */
        const char *t = line + 9;
        int spaces = (int)strspn(t, " ");
        t += spaces;
        const char *sum;
        if (!*t) {
            if (in_block && !block_named)
                note_unnamed(out, loc, head);
            in_block = 0;
        } else if (starts(t, "COMPUTE-SANITIZER")) {
            continue;
        } else if ((sum = strstr(t, "ERROR SUMMARY:")) != NULL) {
            if (strstr(t, "not printed"))
                unprinted = 1;
            else if (total < 0)
                total = atoi(sum + 14);
        } else if ((sum = strstr(t, "RACECHECK SUMMARY:")) != NULL) {
            int shown, e, w;
            if (racecheck_summary(sum, &shown, &e, &w) && shown >= 0) {
                total = shown;
                unprinted |= shown != e + w; /* hazards it did not show */
            }
        } else {
            if (spaces == 1) { /* a finding's head; its details are indented */
                if (in_block && !block_named)
                    note_unnamed(out, loc, head);
                blocks++;
                in_block = 1;
                block_named = 0;
                snprintf(head, sizeof head, "%s", t);
                loc[0] = '\0';
            }
            char file[512];
            if (in_block && !loc[0] && location_of(t, file, sizeof file))
                snprintf(loc, sizeof loc, "%s", t);
            unsigned these = in_block ? by(t, which, n) : 0;
            if (these) {
                named |= these;
                attributed += !block_named;
                block_named = 1;
            }
        }
    }
    free(line);
    if (in_block && !block_named)
        note_unnamed(out, loc, head);
    out->complete = total >= 0 && !unprinted && blocks == total && attributed == blocks;
    out->printed = blocks;
    out->total = total;
    out->attributed = attributed;
    out->unprinted = unprinted;
    return named;
}

unsigned sl_sanitizer_files_split(const char *report, const char *const *files, int n,
                                  sl_sanitizer_split *out)
{
    return split(report, files, n, named_by_path, out);
}

unsigned sl_sanitizer_names_split(const char *report, const char *const *names, int n,
                                  sl_sanitizer_split *out)
{
    return split(report, names, n, named_by_base, out);
}
