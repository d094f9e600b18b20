#include "hostobj.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

/* ---------- what a student's object may use ---------- */

/* The functions and data a lesson file's host code may reference, by exact
 * name: what nvcc's generated code and the C++ headers need, the CUDA
 * runtime calls a launcher needs (launch, occupancy, attributes, errors,
 * device memory), printing, memory and math. Built from what the
 * solutions, starters and bug zoo reference (nm -u). Not here on purpose:
 * files and processes (fopen, _IO_popen, __open, _Fork, syscall, dlopen,
 * environ, ...), memory the host can read (cudaMallocManaged,
 * cudaHostAlloc, cudaMallocHost, cudaHostRegister,
 * cudaHostGetDevicePointer, cudaMemcpyFromSymbol, cudaMemcpyToSymbol),
 * cudaDeviceReset and cudaSetDevice. cudaMemcpy/cudaMemcpyAsync are
 * allowed: the runner routes the student's calls through wrappers that
 * refuse any copy from or to host memory (build.c, runner_main.cu). */
static const char *const ALLOWED[] = {
    /* nvcc's registration and launch code, C++ runtime support */
    "__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
    "__cudaRegisterFunction", "__cudaRegisterVar", "__cudaPushCallConfiguration",
    "__cudaPopCallConfiguration", "__cudaLaunchKernel", "__cudaLaunchKernel_ptsz",
    "__cudaGetKernel", "atexit", "__cxa_atexit", "__dso_handle", "_GLOBAL_OFFSET_TABLE_",
    "__gxx_personality_v0", "_Unwind_Resume", "__cxa_guard_acquire", "__cxa_guard_release",
    "__cxa_guard_abort", "__stack_chk_fail", "__cxa_pure_virtual",
    /* <iostream>'s own initialiser: GCC 12 constructs an ios_base::Init in
     * each file; GCC 13's header only names the library's, to link it in */
    "_ZNSt8ios_base4InitC1Ev", "_ZNSt8ios_base4InitD1Ev", "_ZSt21ios_base_library_initv",
    /* ending: a runner that stops early only loses (and nvcc's host stubs of
     * __device__ functions call exit) */
    "exit", "abort", "__assert_fail",
    /* the CUDA runtime a launcher needs */
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel",
    "cudaGetDevice", "cudaGetDeviceCount", "cudaDeviceGetAttribute", "cudaGetDeviceProperties",
    "cudaGetDeviceProperties_v2", "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "cudaOccupancyAvailableDynamicSMemPerBlock", "cudaOccupancyMaxPotentialClusterSize",
    "cudaOccupancyMaxActiveClusters", "cudaFuncGetAttributes", "cudaFuncSetAttribute",
    "cudaFuncSetCacheConfig", "cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString",
    "cudaGetErrorName", "cudaMalloc", "cudaFree", "cudaMallocAsync", "cudaFreeAsync",
    "cudaMemset", "cudaMemsetAsync", "cudaMemcpy", "cudaMemcpyAsync", "cudaGetSymbolAddress",
    "cudaGetSymbolSize",
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaStreamCreate",
    "cudaStreamCreateWithFlags", "cudaStreamDestroy", "cudaEventCreate",
    "cudaEventCreateWithFlags", "cudaEventRecord", "cudaEventSynchronize",
    "cudaEventElapsedTime", "cudaEventDestroy", "cudaStreamWaitEvent",
    /* printing to the runner's log */
    "printf", "puts", "putchar", "fprintf", "fputs", "fputc", "fflush", "vprintf", "vfprintf",
    "snprintf", "sprintf", "vsnprintf", "__printf_chk", "__fprintf_chk", "__sprintf_chk",
    "__snprintf_chk", "__vsnprintf_chk", "stdout", "stderr",
    /* memory and strings */
    "malloc", "calloc", "realloc", "free", "memset", "memcpy", "memmove", "memcmp", "strlen",
    "strcmp", "strncmp", "__memcpy_chk", "__memset_chk", "_Znwm", "_Znam", "_ZdlPv", "_ZdaPv",
    "_ZdlPvm", "_ZdaPvm", "_ZnwmSt11align_val_t", "_ZdlPvSt11align_val_t",
    "_ZdlPvmSt11align_val_t", NULL};
/* libm, each also with an f and an l suffix */
static const char *const MATH[] = {
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign",
    "cos", "cosh", "erf", "erfc", "exp", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax",
    "fmin", "fmod", "frexp", "hypot", "ilogb", "ldexp", "lgamma", "llrint", "llround", "log",
    "log10", "log1p", "log2", "logb", "lrint", "lround", "modf", "nearbyint", "nextafter", "pow",
    "remainder", "rint", "round", "scalbn", "sin", "sinh", "sqrt", "tan", "tanh", "tgamma",
    "trunc", NULL};
/* What code that runs before or after main may reach: nvcc's registration
 * (which takes the addresses of the kernels' launch stubs) and the
 * initialisers of system headers. */
static const char *const INIT_ALLOWED[] = {
    "__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
    "__cudaRegisterFunction", "__cudaRegisterVar", "__cudaPushCallConfiguration",
    "__cudaPopCallConfiguration", "__cudaLaunchKernel", "__cudaLaunchKernel_ptsz",
    "__cudaGetKernel", "atexit", "__cxa_atexit", "__dso_handle", "_GLOBAL_OFFSET_TABLE_",
    "__gxx_personality_v0", "_Unwind_Resume", "__stack_chk_fail", "__cxa_guard_acquire",
    "__cxa_guard_release", "__cxa_guard_abort", "_ZNSt8ios_base4InitC1Ev",
    "_ZNSt8ios_base4InitD1Ev", "_ZSt21ios_base_library_initv", NULL};
/* Names a student's object may define globally besides C++ functions. */
static const char *const DEFINABLE[] = {"DW.ref.__gxx_personality_v0", NULL};
/* C++ names a file may not define: the library's own (a replacement would
 * run for the harness too). */
static const char *const NOT_DEFINABLE_PREFIX[] = {"_ZSt", "_ZNSt", "_ZNKSt", "_ZN9__gnu_cxx",
                                                   "_ZN10__cxxabiv1", "_Znw", "_Zna", "_Zdl",
                                                   "_Zda", NULL};

static int in_list(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (strcmp(*list, name) == 0)
            return 1;
    return 0;
}

static int has_prefix(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (strncmp(name, *list, strlen(*list)) == 0)
            return 1;
    return 0;
}

static int is_math(const char *name)
{
    size_t n = strlen(name);
    for (const char *const *m = MATH; *m; m++) {
        size_t k = strlen(*m);
        if (strncmp(name, *m, k) == 0 &&
            (n == k || (n == k + 1 && (name[k] == 'f' || name[k] == 'l'))))
            return 1;
    }
    return 0;
}

int sl_hostobj_allowed(const char *name)
{
    return in_list(ALLOWED, name) || is_math(name);
}

/* ---------- the ELF object ---------- */

typedef struct {
    int from;        /* node */
    int to;          /* node, or -1 when external */
    const char *ext; /* the undefined symbol's name */
} edge;

typedef struct {
    const unsigned char *data;
    size_t size;
    const Elf64_Ehdr *eh;
    const Elf64_Shdr *sh;
    int nsh;
    const Elf64_Sym *sym;
    int nsym;
    const char *strtab;
    size_t strsize;
    const char *shstr;
    size_t shstrsize;
    const char *label;
    sl_text *why;
    int findings;
    edge *edges;
    size_t nedges, capedges;
} elf;

static int in_bounds(const elf *e, Elf64_Off off, Elf64_Xword len)
{
    return off <= e->size && len <= e->size - off;
}

static const char *str_at(const char *tab, size_t size, Elf64_Word off)
{
    if (!tab || off >= size || !memchr(tab + off, '\0', size - off))
        return "";
    return tab + off;
}

static const char *section_name(const elf *e, int i)
{
    return i >= 0 && i < e->nsh ? str_at(e->shstr, e->shstrsize, e->sh[i].sh_name) : "";
}

static void finding(elf *e, const char *what, const char *name)
{
    e->findings++;
    sl_text_printf(e->why, "%s: error: submission policy: %s (%s)\n", e->label, what, name);
}

static int load(elf *e)
{
    if (e->size < sizeof(Elf64_Ehdr))
        return -1;
    e->eh = (const Elf64_Ehdr *)e->data;
    const unsigned char *id = e->eh->e_ident;
    if (memcmp(id, ELFMAG, SELFMAG) != 0 || id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB)
        return -1;
    if (e->eh->e_shentsize != sizeof(Elf64_Shdr) ||
        !in_bounds(e, e->eh->e_shoff, (Elf64_Xword)e->eh->e_shnum * sizeof(Elf64_Shdr)))
        return -1;
    e->sh = (const Elf64_Shdr *)(e->data + e->eh->e_shoff);
    e->nsh = e->eh->e_shnum;
    if (e->eh->e_shstrndx < e->nsh) {
        const Elf64_Shdr *s = &e->sh[e->eh->e_shstrndx];
        if (in_bounds(e, s->sh_offset, s->sh_size)) {
            e->shstr = (const char *)e->data + s->sh_offset;
            e->shstrsize = s->sh_size;
        }
    }
    for (int i = 0; i < e->nsh; i++) {
        const Elf64_Shdr *s = &e->sh[i];
        if (s->sh_type != SHT_SYMTAB || s->sh_link >= (Elf64_Word)e->nsh)
            continue;
        const Elf64_Shdr *st = &e->sh[s->sh_link];
        if (!in_bounds(e, s->sh_offset, s->sh_size) || !in_bounds(e, st->sh_offset, st->sh_size))
            return -1;
        e->sym = (const Elf64_Sym *)(e->data + s->sh_offset);
        e->nsym = (int)(s->sh_size / sizeof(Elf64_Sym));
        e->strtab = (const char *)e->data + st->sh_offset;
        e->strsize = st->sh_size;
    }
    return e->sym ? 0 : -1;
}

static const char *sym_name(const elf *e, int i)
{
    return i >= 0 && i < e->nsym ? str_at(e->strtab, e->strsize, e->sym[i].st_name) : "";
}

/* ---------- who references what ---------- */

/* Nodes: the defined function and data symbols (0..nsym-1), and per
 * section the bytes no sized symbol covers (nsym + section). */
static int node_at(const elf *e, int sec, Elf64_Sxword off)
{
    for (int i = 1; i < e->nsym; i++) {
        const Elf64_Sym *s = &e->sym[i];
        int type = ELF64_ST_TYPE(s->st_info);
        if (s->st_shndx != sec || (type != STT_FUNC && type != STT_OBJECT))
            continue;
        Elf64_Sxword v = (Elf64_Sxword)s->st_value;
        if (off == v || (off > v && off < v + (Elf64_Sxword)s->st_size))
            return i;
    }
    return e->nsym + sec;
}

static void add_edge(elf *e, int from, int to, const char *ext)
{
    if (e->nedges == e->capedges) {
        size_t cap = e->capedges ? 2 * e->capedges : 256;
        edge *n = realloc(e->edges, cap * sizeof *n);
        if (!n)
            return;
        e->edges = n;
        e->capedges = cap;
    }
    e->edges[e->nedges++] = (edge){from, to, ext};
}

/* The node(s) a relocation refers to: a named symbol, or a section
 * symbol plus an addend (PC-relative ones point 4 bytes short). */
static void reloc_targets(const elf *e, int symi, Elf64_Sxword addend, int out[2])
{
    out[0] = out[1] = -2;
    if (symi <= 0 || symi >= e->nsym)
        return;
    const Elf64_Sym *s = &e->sym[symi];
    if (s->st_shndx == SHN_UNDEF) {
        out[0] = -1;
    } else if (ELF64_ST_TYPE(s->st_info) == STT_SECTION) {
        out[0] = node_at(e, s->st_shndx, addend);
        out[1] = node_at(e, s->st_shndx, addend + 4);
    } else if (s->st_shndx < SHN_LORESERVE) {
        out[0] = node_at(e, s->st_shndx, (Elf64_Sxword)s->st_value);
    }
}

typedef void (*reloc_fn)(elf *e, int target_sec, Elf64_Addr offset, int symi,
                         Elf64_Sxword addend, void *arg);

static void for_each_reloc(elf *e, reloc_fn fn, void *arg)
{
    for (int r = 0; r < e->nsh; r++) {
        const Elf64_Shdr *rs = &e->sh[r];
        if ((rs->sh_type != SHT_RELA && rs->sh_type != SHT_REL) ||
            !in_bounds(e, rs->sh_offset, rs->sh_size) || rs->sh_info >= (Elf64_Word)e->nsh)
            continue;
        int rela = rs->sh_type == SHT_RELA;
        size_t entsize = rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
        for (size_t off = 0; off + entsize <= rs->sh_size; off += entsize) {
            const unsigned char *p = e->data + rs->sh_offset + off;
            const Elf64_Rela *a = (const Elf64_Rela *)p;
            const Elf64_Rel *b = (const Elf64_Rel *)p;
            Elf64_Xword info = rela ? a->r_info : b->r_info;
            Elf64_Addr where = rela ? a->r_offset : b->r_offset;
            Elf64_Sxword addend = rela ? a->r_addend : 0;
            fn(e, (int)rs->sh_info, where, (int)ELF64_R_SYM(info), addend, arg);
        }
    }
}

static void collect_edge(elf *e, int sec, Elf64_Addr offset, int symi, Elf64_Sxword addend,
                         void *arg)
{
    (void)arg;
    int from = node_at(e, sec, (Elf64_Sxword)offset), to[2];
    reloc_targets(e, symi, addend, to);
    for (int k = 0; k < 2; k++)
        if (to[k] == -1)
            add_edge(e, from, -1, sym_name(e, symi));
        else if (to[k] >= 0)
            add_edge(e, from, to[k], NULL);
}

/* ---------- the checks ---------- */

static void check_symbols(elf *e)
{
    for (int i = 1; i < e->nsym; i++) {
        const Elf64_Sym *s = &e->sym[i];
        const char *name = sym_name(e, i);
        int bind = ELF64_ST_BIND(s->st_info), type = ELF64_ST_TYPE(s->st_info);
        if (!*name || type == STT_SECTION || type == STT_FILE)
            continue;
        if (s->st_shndx == SHN_UNDEF) {
            if (!sl_hostobj_allowed(name))
                finding(e, "the host code uses a function or variable a lesson file may not "
                           "use: launchers may call the CUDA runtime, printf and math only",
                        name);
        } else if (strcmp(name, "main") == 0 && bind != STB_LOCAL) {
            finding(e, "the file defines main(): the runner has its own", name);
        } else if (bind != STB_LOCAL && !in_list(DEFINABLE, name) &&
                   (strncmp(name, "_Z", 2) != 0 || has_prefix(NOT_DEFINABLE_PREFIX, name))) {
            finding(e, "the file defines a library function or a C name: it would replace "
                       "the one the runner uses",
                    name);
        }
    }
}

static int is_init_section(const char *name)
{
    static const char *const prefixes[] = {".init_array", ".preinit_array", ".fini_array",
                                           ".ctors", ".dtors", NULL};
    for (const char *const *p = prefixes; *p; p++)
        if (strncmp(name, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

typedef struct {
    int section;
    char *seen; /* per node */
    int nnodes;
} init_walk;

/* Everything an init entry reaches inside the object; every external
 * name on the way must be in INIT_ALLOWED. */
static void check_init_entry(elf *e, int sec, Elf64_Addr offset, int symi, Elf64_Sxword addend,
                             void *arg)
{
    init_walk *w = arg;
    (void)offset;
    if (sec != w->section)
        return;
    int start[2];
    reloc_targets(e, symi, addend, start);
    if (start[0] == -1) {
        finding(e, "code that runs outside the harness's calls (before or after main) calls a "
                   "library function directly", sym_name(e, symi));
        return;
    }
    memset(w->seen, 0, (size_t)w->nnodes);
    int *stack = malloc((size_t)w->nnodes * sizeof *stack), top = 0;
    if (!stack)
        return;
    for (int k = 0; k < 2; k++)
        if (start[k] >= 0 && !w->seen[start[k]]) {
            w->seen[start[k]] = 1;
            stack[top++] = start[k];
        }
    int reported = 0;
    while (top > 0) {
        int n = stack[--top];
        for (size_t i = 0; i < e->nedges; i++) {
            const edge *g = &e->edges[i];
            if (g->from != n)
                continue;
            if (g->to < 0) {
                if (!in_list(INIT_ALLOWED, g->ext) && reported < 8) {
                    char what[512];
                    snprintf(what, sizeof what, "code that runs %s main() (a global object "
                             "with a constructor, a constructor or destructor attribute...) "
                             "in %s reaches %s", strstr(section_name(e, sec), "fini") ||
                             strstr(section_name(e, sec), "dtors") ? "after" : "before",
                             section_name(e, sec), g->ext);
                    finding(e, what, "only nvcc's registration and system headers' "
                                     "initialisers may run there");
                    reported++;
                }
            } else if (g->to < w->nnodes && !w->seen[g->to]) {
                w->seen[g->to] = 1;
                stack[top++] = g->to;
            }
        }
    }
    free(stack);
}

static void check_init_sections(elf *e)
{
    init_walk w = {0, NULL, e->nsym + e->nsh};
    w.seen = malloc((size_t)w.nnodes);
    if (!w.seen)
        return;
    for (int t = 0; t < e->nsh; t++) {
        if (!is_init_section(section_name(e, t)) || e->sh[t].sh_size == 0)
            continue;
        int relocated = 0;
        for (int r = 0; r < e->nsh; r++)
            relocated |= (e->sh[r].sh_type == SHT_RELA || e->sh[r].sh_type == SHT_REL) &&
                         e->sh[r].sh_info == (Elf64_Word)t;
        if (!relocated) {
            finding(e, "an initialisation section without relocations", section_name(e, t));
            continue;
        }
        w.section = t;
        for_each_reloc(e, check_init_entry, &w);
    }
    free(w.seen);
}

/* The code sections gcc makes: .text, .text.startup/.unlikely/.hot/.exit,
 * and .text.<function> for inline and template functions (COMDAT). */
static int compiler_code_section(const elf *e, int t, const char *name)
{
    static const char *const fixed[] = {".text", ".text.startup", ".text.unlikely", ".text.hot",
                                        ".text.exit", NULL};
    if (in_list(fixed, name))
        return 1;
    if (strncmp(name, ".text.", 6) != 0)
        return 0;
    for (int i = 1; i < e->nsym; i++)
        if (e->sym[i].st_shndx == t && ELF64_ST_TYPE(e->sym[i].st_info) == STT_FUNC &&
            strcmp(sym_name(e, i), name + 6) == 0)
            return 1;
    return 0;
}

/* Code the compiler did not make: a section named like code that is not
 * one of gcc's (asm(".section ...") or a section attribute), data among
 * code (objdump does not disassemble it), writable code, code in .init or
 * .fini (it runs before or after main). */
static void check_code_sections(elf *e)
{
    for (int t = 0; t < e->nsh; t++) {
        const char *name = section_name(e, t);
        Elf64_Xword f = e->sh[t].sh_flags;
        int code_name = strncmp(name, ".text", 5) == 0 || strncmp(name, ".init", 5) == 0 ||
                        strncmp(name, ".fini", 5) == 0 || strncmp(name, ".plt", 4) == 0;
        if (!(f & SHF_ALLOC) || !strncmp(name, ".init_array", 11) ||
            !strncmp(name, ".fini_array", 11))
            continue;
        if (((f & SHF_EXECINSTR) || code_name) &&
            (!compiler_code_section(e, t, name) || !(f & SHF_EXECINSTR) || (f & SHF_WRITE))) {
            finding(e, "a section of code the compiler did not make", name);
            continue;
        }
        for (int i = 1; (f & SHF_EXECINSTR) && i < e->nsym; i++)
            if (e->sym[i].st_shndx == t && ELF64_ST_TYPE(e->sym[i].st_info) == STT_OBJECT)
                finding(e, "data placed among the code", sym_name(e, i));
    }
}

/* Raw system-call instructions in the host code: the bytes first (fast),
 * then objdump's reading of the code where they occur (the bytes also
 * appear inside other instructions). */
static int has_syscall_bytes(const elf *e)
{
    for (int t = 0; t < e->nsh; t++) {
        const Elf64_Shdr *s = &e->sh[t];
        if (!(s->sh_flags & SHF_EXECINSTR) || s->sh_type != SHT_PROGBITS ||
            !in_bounds(e, s->sh_offset, s->sh_size))
            continue;
        const unsigned char *p = e->data + s->sh_offset;
        for (Elf64_Xword i = 0; i + 1 < s->sh_size; i++)
            if ((p[i] == 0x0f && (p[i + 1] == 0x05 || p[i + 1] == 0x34)) ||
                (p[i] == 0xcd && p[i + 1] == 0x80))
                return 1;
    }
    return 0;
}

int sl_hostobj_check_image(const unsigned char *data, size_t size, const char *label,
                           sl_text *why)
{
    elf e = {0};
    e.data = data;
    e.size = size;
    e.label = label;
    e.why = why;
    if (load(&e) != 0) {
        sl_text_printf(why, "%s: error: submission policy: the compiled object cannot be "
                            "inspected\n", label);
        return -1;
    }
    for_each_reloc(&e, collect_edge, NULL);
    check_symbols(&e);
    check_init_sections(&e);
    check_code_sections(&e);
    free(e.edges);
    return e.findings == 0;
}

/* objdump's disassembly of the object's code: a system call instruction
 * in it is refused. 1 clean, 0 found (why says so). */
static int check_instructions(const char *object_path, const char *label, sl_text *why)
{
    char listing[4200];
    snprintf(listing, sizeof listing, "%s.asm", object_path);
    char *argv[] = {"objdump", "-d", "--no-show-raw-insn", (char *)object_path, NULL};
    sl_proc_result r;
    sl_proc_run(argv, listing, 64 << 20, 60, &r);
    char *text = sl_read_file(listing, 64 << 20, NULL);
    unlink(listing);
    int ok = 1;
    if (!text || !r.exited || r.code != 0) {
        sl_text_printf(why, "%s: error: submission policy: the host code could not be "
                            "disassembled (objdump)\n", label);
        ok = 0;
    }
    for (const char *s = text; ok && s && *s;) {
        size_t len = strcspn(s, "\n");
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(len < 500 ? len : 500), s);
        const char *tab = strchr(line, '\t');
        if (tab && (strstr(tab, "syscall") || strstr(tab, "sysenter") ||
                    strstr(tab, "int    $0x80"))) {
            sl_text_printf(why, "%s: error: submission policy: the host code makes a raw system "
                                "call (%s)\n", label, tab + 1);
            ok = 0;
        }
        s += len + (s[len] == '\n');
    }
    free(text);
    return ok;
}

int sl_hostobj_check(const char *object_path, const char *label, sl_text *why)
{
    size_t len = 0;
    char *data = sl_read_file(object_path, 256u << 20, &len);
    if (!data) {
        sl_text_printf(why, "%s: error: cannot read %s\n", label, object_path);
        return -1;
    }
    int rc = sl_hostobj_check_image((const unsigned char *)data, len, label, why);
    elf e = {0};
    e.data = (const unsigned char *)data;
    e.size = len;
    if (rc >= 0 && load(&e) == 0 && has_syscall_bytes(&e) &&
        !check_instructions(object_path, label, why))
        rc = 0;
    free(data);
    return rc;
}
