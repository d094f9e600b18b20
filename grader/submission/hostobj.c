#include "hostobj.h"

#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
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
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel", "cudaGetDevice",
    "cudaGetDeviceCount", "cudaDeviceGetAttribute", "cudaGetDeviceProperties",
    "cudaGetDeviceProperties_v2", "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "cudaOccupancyAvailableDynamicSMemPerBlock", "cudaOccupancyMaxPotentialClusterSize",
    "cudaOccupancyMaxActiveClusters", "cudaFuncGetAttributes", "cudaFuncSetAttribute",
    "cudaFuncSetCacheConfig", "cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString",
    "cudaGetErrorName", "cudaMalloc", "cudaFree", "cudaMallocAsync", "cudaFreeAsync", "cudaMemset",
    "cudaMemsetAsync", "cudaMemcpy", "cudaMemcpyAsync", "cudaGetSymbolAddress", "cudaGetSymbolSize",
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaStreamCreate",
    "cudaStreamCreateWithFlags", "cudaStreamDestroy", "cudaEventCreate", "cudaEventCreateWithFlags",
    "cudaEventRecord", "cudaEventSynchronize", "cudaEventElapsedTime", "cudaEventDestroy",
    "cudaStreamWaitEvent",
    /* printing to the runner's log */
    "printf", "puts", "putchar", "fprintf", "fputs", "fputc", "fflush", "vprintf", "vfprintf",
    "snprintf", "sprintf", "vsnprintf", "__printf_chk", "__fprintf_chk", "__sprintf_chk",
    "__snprintf_chk", "__vsnprintf_chk", "stdout", "stderr",
    /* memory and strings */
    "malloc", "calloc", "realloc", "free", "memset", "memcpy", "memmove", "memcmp", "strlen",
    "strcmp", "strncmp", "__memcpy_chk", "__memset_chk", "_Znwm", "_Znam", "_ZdlPv", "_ZdaPv",
    "_ZdlPvm", "_ZdaPvm", "_ZnwmSt11align_val_t", "_ZdlPvSt11align_val_t", "_ZdlPvmSt11align_val_t",
    NULL};
/* libm, each also with an f and an l suffix */
static const char *const MATH[] = {
    "acos",      "acosh",    "asin",      "asinh",  "atan",   "atan2",  "atanh",   "cbrt",
    "ceil",      "copysign", "cos",       "cosh",   "erf",    "erfc",   "exp",     "exp2",
    "expm1",     "fabs",     "fdim",      "floor",  "fma",    "fmax",   "fmin",    "fmod",
    "frexp",     "hypot",    "ilogb",     "ldexp",  "lgamma", "llrint", "llround", "log",
    "log10",     "log1p",    "log2",      "logb",   "lrint",  "lround", "modf",    "nearbyint",
    "nextafter", "pow",      "remainder", "rint",   "round",  "scalbn", "sin",     "sinh",
    "sqrt",      "tan",      "tanh",      "tgamma", "trunc",  NULL};
/* What code that runs before or after main may reach: nvcc's registration
 * (which takes the addresses of the kernels' launch stubs) and the
 * initialisers of system headers. */
static const char *const INIT_ALLOWED[] = {"__cudaRegisterFatBinary",
                                           "__cudaRegisterFatBinaryEnd",
                                           "__cudaUnregisterFatBinary",
                                           "__cudaRegisterFunction",
                                           "__cudaRegisterVar",
                                           "__cudaPushCallConfiguration",
                                           "__cudaPopCallConfiguration",
                                           "__cudaLaunchKernel",
                                           "__cudaLaunchKernel_ptsz",
                                           "__cudaGetKernel",
                                           "atexit",
                                           "__cxa_atexit",
                                           "__dso_handle",
                                           "_GLOBAL_OFFSET_TABLE_",
                                           "__gxx_personality_v0",
                                           "_Unwind_Resume",
                                           "__stack_chk_fail",
                                           "__cxa_guard_acquire",
                                           "__cxa_guard_release",
                                           "__cxa_guard_abort",
                                           "_ZNSt8ios_base4InitC1Ev",
                                           "_ZNSt8ios_base4InitD1Ev",
                                           "_ZSt21ios_base_library_initv",
                                           NULL};
/* Names a student's object may define globally besides C++ functions. */
static const char *const DEFINABLE[] = {"DW.ref.__gxx_personality_v0", NULL};
/* C++ names a file may not define: the library's own (a replacement would
 * run for the harness too). */
static const char *const NOT_DEFINABLE_PREFIX[] = {
    "_ZSt", "_ZNSt", "_ZNKSt", "_ZN9__gnu_cxx", "_ZN10__cxxabiv1", "_Znw", "_Zna", "_Zdl", "_Zda",
    /* std's abbreviations: allocator, basic_string, string, istream,
     * ostream, iostream (_ZNSo5flushEv is std::ostream::flush) */
    "_ZNSa", "_ZNKSa", "_ZNSb", "_ZNKSb", "_ZNSs", "_ZNKSs", "_ZNSi", "_ZNKSi", "_ZNSo", "_ZNKSo",
    "_ZNSd", "_ZNKSd",
    /* the library's vtables, type_info objects and their names */
    "_ZTVSt", "_ZTISt", "_ZTSSt", "_ZTVNSt", "_ZTINSt", "_ZTSNSt", "_ZTVN10__cxxabiv1",
    "_ZTIN10__cxxabiv1", "_ZTSN10__cxxabiv1", "_ZTVN9__gnu_cxx", "_ZTIN9__gnu_cxx",
    "_ZTSN9__gnu_cxx", NULL};

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

int sl_hostobj_allowed(const char *name) { return in_list(ALLOWED, name) || is_math(name); }

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
    char *indirect; /* per node: makes an indirect call or jump (objdump's reading) */
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
    if (memcmp(id, ELFMAG, SELFMAG) != 0 || id[EI_CLASS] != ELFCLASS64 ||
        id[EI_DATA] != ELFDATA2LSB)
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

typedef void (*reloc_fn)(elf *e, int target_sec, Elf64_Addr offset, int symi, Elf64_Sxword addend,
                         void *arg);

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
        if (type == STT_GNU_IFUNC) {
            finding(e,
                    "an ifunc (its resolver runs while the runner is loaded, before main "
                    "and before any check)",
                    name);
            continue;
        }
        if (s->st_shndx == SHN_UNDEF) {
            if (!sl_hostobj_allowed(name))
                finding(e,
                        "the host code uses a function or variable a lesson file may not "
                        "use: launchers may call the CUDA runtime, printf and math only",
                        name);
        } else if (strcmp(name, "main") == 0 && bind != STB_LOCAL) {
            finding(e, "the file defines main(): the runner has its own", name);
        } else if (bind != STB_LOCAL && !in_list(DEFINABLE, name) &&
                   (strncmp(name, "_Z", 2) != 0 || has_prefix(NOT_DEFINABLE_PREFIX, name))) {
            finding(e,
                    "the file defines a library function or a C name: it would replace "
                    "the one the runner uses",
                    name);
        }
    }
}

static int is_init_section(const char *name)
{
    static const char *const prefixes[] = {".init_array", ".preinit_array", ".fini_array",
                                           ".ctors",      ".dtors",         NULL};
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
        finding(e,
                "code that runs outside the harness's calls (before or after main) calls a "
                "library function directly",
                sym_name(e, symi));
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
        if (e->indirect && e->indirect[n] && reported < 8) {
            char what[512];
            snprintf(what, sizeof what,
                     "code that runs before or after main() (in %s) makes "
                     "an indirect call or jump",
                     section_name(e, sec));
            finding(e, what, n < e->nsym ? sym_name(e, n) : section_name(e, n - e->nsym));
            reported++;
        }
        for (size_t i = 0; i < e->nedges; i++) {
            const edge *g = &e->edges[i];
            if (g->from != n)
                continue;
            if (g->to < 0) {
                if (!in_list(INIT_ALLOWED, g->ext) && reported < 8) {
                    char what[512];
                    snprintf(what, sizeof what,
                             "code that runs %s main() (a global object "
                             "with a constructor, a constructor or destructor attribute...) "
                             "in %s reaches %s",
                             strstr(section_name(e, sec), "fini") ||
                                     strstr(section_name(e, sec), "dtors")
                                 ? "after"
                                 : "before",
                             section_name(e, sec), g->ext);
                    finding(e, what,
                            "only nvcc's registration and system headers' "
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

/* Run by the loader whatever its name: the linker collects init and fini
 * arrays by name and by type. */
static int runs_at_load(const elf *e, int t)
{
    Elf64_Word type = e->sh[t].sh_type;
    return is_init_section(section_name(e, t)) || type == SHT_INIT_ARRAY ||
           type == SHT_FINI_ARRAY || type == SHT_PREINIT_ARRAY;
}

static void check_init_sections(elf *e)
{
    init_walk w = {0, NULL, e->nsym + e->nsh};
    w.seen = malloc((size_t)w.nnodes);
    if (!w.seen)
        return;
    for (int t = 0; t < e->nsh; t++) {
        if (!runs_at_load(e, t) || e->sh[t].sh_size == 0)
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
    static const char *const fixed[] = {".text",     ".text.startup", ".text.unlikely",
                                        ".text.hot", ".text.exit",    NULL};
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

/* ---------- nvcc's registration ----------
 * The calls that register a fatbinary and its kernels with the CUDA
 * runtime belong to the code nvcc generates for the file (the static
 * functions of its .stub.c, run from .init_array): a student's function
 * calling them could register a hidden cubin of its own. They are judged
 * by where the reference is, and nvcc's functions may be reached only from
 * each other and from the init array. */
static const char *const REGISTRATION[] = {
    "__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
    "__cudaRegisterFunction",  "__cudaRegisterVar",          "__cudaRegisterManagedVar",
    "__cudaRegisterTexture",   "__cudaRegisterSurface",      "__cudaRegisterHostVar",
    "__cudaInitModule",        "__cudaRegisterLinkedBinary", NULL};
/* nvcc's generated static functions (C++ names: the stub is compiled as
 * C++; a function of the student's with the same name would not compile) */
static const char *const NVCC_REGISTRATION_CODE[] = {
    "_ZL24__sti____cudaRegisterAllv", "_ZL31__nv_cudaEntityRegisterCallbackPPv",
    "_ZL26__cudaUnregisterBinaryUtilv", "_ZL37__nv_save_fatbinhandle_for_managed_rtPPv", NULL};

static int nvcc_registration_node(const elf *e, int node)
{
    if (node < 1 || node >= e->nsym)
        return 0;
    const Elf64_Sym *s = &e->sym[node];
    if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || ELF64_ST_BIND(s->st_info) != STB_LOCAL ||
        !in_list(NVCC_REGISTRATION_CODE, sym_name(e, node)))
        return 0;
    int defined = 0; /* exactly one definition of the name */
    for (int i = 1; i < e->nsym; i++)
        defined +=
            e->sym[i].st_shndx != SHN_UNDEF && strcmp(sym_name(e, i), sym_name(e, node)) == 0;
    return defined == 1;
}

static int init_section_node(const elf *e, int node)
{
    return node >= e->nsym && node < e->nsym + e->nsh && runs_at_load(e, node - e->nsym);
}

/* The section a node lies in. */
static int node_section(const elf *e, int node)
{
    return node >= e->nsym ? node - e->nsym : e->sym[node].st_shndx;
}

/* Unwind tables and debug information name every function: not a use. */
static int bookkeeping_node(const elf *e, int node)
{
    int t = node_section(e, node);
    if (t <= 0 || t >= e->nsh)
        return 1;
    return !(e->sh[t].sh_flags & SHF_ALLOC) || e->sh[t].sh_type == SHT_X86_64_UNWIND ||
           strcmp(section_name(e, t), ".eh_frame") == 0;
}

static void check_registration(elf *e)
{
    int fatbinaries = 0, reported = 0;
    for (size_t i = 0; i < e->nedges && reported < 8; i++) {
        const edge *g = &e->edges[i];
        if (g->to < 0 && in_list(REGISTRATION, g->ext)) {
            fatbinaries += strcmp(g->ext, "__cudaRegisterFatBinary") == 0;
            if (!nvcc_registration_node(e, g->from)) {
                finding(e,
                        "the file calls the CUDA runtime's registration itself (only the "
                        "code nvcc generates may register the file's kernels)",
                        g->ext);
                reported++;
            }
        } else if (g->to >= 0 && nvcc_registration_node(e, g->to) &&
                   !nvcc_registration_node(e, g->from) && !init_section_node(e, g->from) &&
                   !bookkeeping_node(e, g->from)) {
            char what[600];
            snprintf(what, sizeof what, "the file calls nvcc's registration code (%s, from %s)",
                     sym_name(e, g->to),
                     g->from < e->nsym ? sym_name(e, g->from) : section_name(e, g->from - e->nsym));
            finding(e, what, "only nvcc's own functions and the init array may");
            reported++;
        }
    }
    if (fatbinaries > 1 && reported < 8)
        finding(e, "more than one fatbinary is registered", "__cudaRegisterFatBinary");
}

/* ---------- objdump's reading of the code ----------
 * What the relocations do not show: calls and address loads the assembler
 * resolved itself (within one section), indirect calls and jumps, raw
 * system calls, and how exit is called. */

typedef struct {
    char mnemonic[32];
    char operands[160];
} insn;

static void parse_insn(const char *text, insn *out)
{
    while (*text == ' ' || *text == '\t')
        text++;
    size_t m = strcspn(text, " \t");
    snprintf(out->mnemonic, sizeof out->mnemonic, "%.*s", (int)(m < 31 ? m : 31), text);
    text += m;
    while (*text == ' ' || *text == '\t')
        text++;
    size_t k = 0;
    for (; *text && k + 1 < sizeof out->operands; text++)
        if (*text != ' ' && *text != '\t')
            out->operands[k++] = *text;
        else if (*text == '\t' || strncmp(text, " <", 2) == 0 || strncmp(text, " #", 2) == 0)
            break;
    out->operands[k] = '\0';
}

/* nvcc's host stub of a __device__ function: { volatile int ___ = 1; exit(___); }
 * as gcc -O3 makes it: movl $0x1,M(%rsp); mov M(%rsp),%edi; call exit. */
static int stub_calls_exit(const insn *call, const insn *prev, const insn *prev2)
{
    if (strcmp(call->mnemonic, "call") != 0 || strcmp(prev->mnemonic, "mov") != 0 ||
        strcmp(prev2->mnemonic, "movl") != 0)
        return 0;
    const char *comma = strrchr(prev->operands, ',');
    if (!comma || strcmp(comma, ",%edi") != 0 || !strstr(prev->operands, "(%rsp)"))
        return 0;
    char want[200];
    snprintf(want, sizeof want, "$0x1,%.*s", (int)(comma - prev->operands), prev->operands);
    return strcmp(prev2->operands, want) == 0;
}

static int hex_value(const char *s, const char *end, unsigned long long *v)
{
    if (s >= end)
        return 0;
    *v = 0;
    for (; s < end; s++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
        if (d < 0)
            return 0;
        *v = *v * 16 + (unsigned)d;
    }
    return 1;
}

/* The executable section objdump calls name, after index after. */
static int code_section_named(const elf *e, const char *name, int after)
{
    for (int t = after + 1; t < e->nsh; t++)
        if ((e->sh[t].sh_flags & SHF_EXECINSTR) && strcmp(section_name(e, t), name) == 0)
            return t;
    return -1;
}

static void read_disassembly(elf *e, const char *text)
{
    int sec = -1, node = -2, reported = 0;
    insn hist[3];
    memset(hist, 0, sizeof hist);
    e->indirect = calloc((size_t)(e->nsym + e->nsh), 1);
    for (const char *s = text; s && *s;) {
        size_t len = strcspn(s, "\n");
        char line[600];
        snprintf(line, sizeof line, "%.*s", (int)(len < 590 ? len : 590), s);
        s += len + (s[len] == '\n');
        if (strncmp(line, "Disassembly of section ", 23) == 0) {
            char *colon = strrchr(line, ':');
            if (colon)
                *colon = '\0';
            sec = code_section_named(e, line + 23, sec);
            node = -2;
            continue;
        }
        char *p = line;
        while (*p == ' ')
            p++;
        char *colon = strchr(p, ':');
        unsigned long long addr;
        if (sec < 0 || !colon || colon[1] != '\t' || !hex_value(p, colon, &addr))
            continue;
        char *body = colon + 2, *rel = strstr(body, ": R_X86_64_"), *relsym = NULL;
        if (rel) { /* "\t<offset>: R_X86_64_<type>\t<symbol>[+-addend]" */
            char *tab = rel;
            while (tab > body && *tab != '\t')
                tab--;
            *tab = '\0';
            relsym = strchr(rel + 2, '\t');
            if (relsym) {
                relsym++;
                relsym[strcspn(relsym, "+-")] = '\0';
            }
        }
        int here = node_at(e, sec, (Elf64_Sxword)addr);
        if (here != node)
            memset(hist, 0, sizeof hist);
        node = here;
        hist[2] = hist[1];
        hist[1] = hist[0];
        parse_insn(body, &hist[0]);
        const insn *in = &hist[0];
        int branch = strstr(in->mnemonic, "call") || strstr(in->mnemonic, "jmp") ||
                     !strcmp(in->mnemonic, "notrack") || !strcmp(in->mnemonic, "bnd");
        if (branch && strchr(body, '*') && here < e->nsym + e->nsh)
            e->indirect[here] = 1;
        if (!strcmp(in->mnemonic, "syscall") || !strcmp(in->mnemonic, "sysenter") ||
            (!strcmp(in->mnemonic, "int") && !strcmp(in->operands, "$0x80"))) {
            finding(e, "the host code makes a raw system call", in->mnemonic);
            continue;
        }
        if (relsym && strcmp(relsym, "exit") == 0) {
            if (!stub_calls_exit(&hist[0], &hist[1], &hist[2]) && reported++ < 4)
                finding(e,
                        "the host code uses exit() (a runner that stops early has no "
                        "outputs; return instead)",
                        here < e->nsym ? sym_name(e, here) : "exit");
            continue;
        }
        if (rel)
            continue;
        /* a target the assembler resolved: "<hex> <symbol...>" */
        char *lt = strstr(body, " <");
        if (!lt)
            continue;
        char *h = lt;
        while (h > body && h[-1] != ' ' && h[-1] != '\t' && h[-1] != ',')
            h--;
        unsigned long long target;
        if (hex_value(h, lt, &target) && target < e->sh[sec].sh_size)
            add_edge(e, here, node_at(e, sec, (Elf64_Sxword)target), NULL);
    }
}

/* exit from data (a table of pointers): never nvcc's stubs */
static void exit_in_data(elf *e, int sec, Elf64_Addr offset, int symi, Elf64_Sxword addend,
                         void *arg)
{
    (void)offset, (void)addend, (void)arg;
    if (!(e->sh[sec].sh_flags & SHF_EXECINSTR) && strcmp(sym_name(e, symi), "exit") == 0 &&
        e->sym[symi].st_shndx == SHN_UNDEF)
        finding(e,
                "the host code uses exit() (a runner that stops early has no outputs; "
                "return instead)",
                section_name(e, sec));
}

static int check_loaded(elf *e, const char *disassembly)
{
    for_each_reloc(e, collect_edge, NULL);
    if (disassembly) {
        read_disassembly(e, disassembly);
        for_each_reloc(e, exit_in_data, NULL);
    }
    check_symbols(e);
    check_init_sections(e);
    check_registration(e);
    check_code_sections(e);
    free(e->edges);
    free(e->indirect);
    return e->findings == 0;
}

int sl_hostobj_check_image(const unsigned char *data, size_t size, const char *label, sl_text *why)
{
    elf e = {0};
    e.data = data;
    e.size = size;
    e.label = label;
    e.why = why;
    if (load(&e) != 0) {
        sl_text_printf(why,
                       "%s: error: submission policy: the compiled object cannot be "
                       "inspected\n",
                       label);
        return -1;
    }
    return check_loaded(&e, NULL);
}

/* ---------- the harness's names ----------
 * A definition of a name the harness also defines is a way into the
 * harness: a weak body named after a strong harness function (an asm
 * label, or the same declaration) is replaced at link time by the
 * harness's code, whose copies to the host are not wrapped; a strong one
 * replaces a template the harness instantiates. Only the compiler's own
 * copies of an inline function or template (weak, in a COMDAT group, the
 * same code in both) may share a name with the harness. */

typedef struct {
    char **name;
    unsigned char *bind;
    size_t n, cap;
} name_list;

static void names_add(name_list *l, const char *name, int bind)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->name = realloc(l->name, l->cap * sizeof *l->name);
        l->bind = realloc(l->bind, l->cap);
        if (!l->name || !l->bind)
            abort();
    }
    l->name[l->n] = strdup(name);
    l->bind[l->n++] = (unsigned char)bind;
}

static void names_free(name_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->name[i]);
    free(l->name);
    free(l->bind);
}

/* The binding the harness gives name, -1 when it does not define it. */
static int harness_binding(const name_list *l, const char *name)
{
    int best = -1;
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->name[i], name) == 0 && (best < 0 || l->bind[i] == STB_GLOBAL))
            best = l->bind[i];
    return best;
}

/* The names an object (one archive member) defines (global and weak), or
 * those it uses from elsewhere (undefined = 1). */
static void member_names(const unsigned char *data, size_t size, name_list *out, int undefined)
{
    sl_text ignored = {0};
    elf e = {0};
    e.data = data;
    e.size = size;
    e.why = &ignored;
    if (load(&e) == 0)
        for (int i = 1; i < e.nsym; i++) {
            int bind = ELF64_ST_BIND(e.sym[i].st_info);
            int defined = e.sym[i].st_shndx != SHN_UNDEF;
            if (*sym_name(&e, i) && (undefined ? !defined : defined && bind != STB_LOCAL))
                names_add(out, sym_name(&e, i), bind);
        }
    sl_text_free(&ignored);
}

static void member_definitions(const unsigned char *data, size_t size, name_list *out)
{
    member_names(data, size, out, 0);
}

static void member_references(const unsigned char *data, size_t size, name_list *out)
{
    member_names(data, size, out, 1);
}

/* Every member of an ar archive (members that are no ELF object, such as
 * its symbol table, define nothing). -1 when it is no archive. */
static int archive_names(const char *path, name_list *out,
                         void (*each)(const unsigned char *, size_t, name_list *))
{
    size_t len = 0;
    char *a = sl_read_file(path, 1u << 30, &len);
    if (!a || len < 8 || memcmp(a, "!<arch>\n", 8) != 0) {
        free(a);
        return -1;
    }
    for (size_t off = 8; off + 60 <= len;) {
        char size[11];
        memcpy(size, a + off + 48, 10);
        size[10] = '\0';
        size_t n = (size_t)strtoull(size, NULL, 10);
        off += 60;
        if (n > len - off)
            break;
        each((const unsigned char *)a + off, n, out);
        off += n + (n & 1);
    }
    free(a);
    return 0;
}

/* Is section sec in a COMDAT group: the compiler's copy of an inline
 * function or template instance, which the linker keeps once? */
static int in_comdat_group(const elf *e, int sec)
{
    for (int g = 0; g < e->nsh; g++) {
        const Elf64_Shdr *gs = &e->sh[g];
        if (gs->sh_type != SHT_GROUP || !in_bounds(e, gs->sh_offset, gs->sh_size) ||
            gs->sh_size < 4)
            continue;
        const Elf32_Word *w = (const Elf32_Word *)(e->data + gs->sh_offset);
        size_t n = gs->sh_size / 4;
        if (!(w[0] & GRP_COMDAT))
            continue;
        for (size_t k = 1; k < n; k++)
            if ((int)w[k] == sec)
                return 1;
    }
    return 0;
}

static void check_harness_names(elf *e, const name_list *harness)
{
    for (int i = 1; i < e->nsym; i++) {
        const Elf64_Sym *s = &e->sym[i];
        const char *name = sym_name(e, i);
        int bind = ELF64_ST_BIND(s->st_info);
        if (s->st_shndx == SHN_UNDEF || bind == STB_LOCAL || !*name)
            continue;
        int theirs = harness_binding(harness, name);
        if (theirs < 0)
            continue;
        if (theirs == STB_GLOBAL)
            finding(e,
                    "the file defines a name the grader's harness defines: the linker would "
                    "join the two, so calls meant for your code would run the harness's, or "
                    "the other way round",
                    name);
        else if (bind == STB_GLOBAL || !in_comdat_group(e, s->st_shndx))
            finding(e,
                    "the file gives its own body to a function the grader's harness also "
                    "uses (a library template or inline function): the harness would run "
                    "yours",
                    name);
    }
}

/* Reads the object at path into e (its bytes are returned, to be freed);
 * NULL when it cannot be read. */
static char *open_object(const char *path, const char *label, sl_text *why, elf *e)
{
    size_t len = 0;
    char *data = sl_read_file(path, 256u << 20, &len);
    memset(e, 0, sizeof *e);
    e->data = (const unsigned char *)data;
    e->size = len;
    e->label = label;
    e->why = why;
    return data;
}

int sl_hostobj_check_harness(const char *object_path, const char *harness_lib, const char *label,
                             sl_text *why)
{
    name_list harness = {0};
    elf e;
    char *data = open_object(object_path, label, why, &e);
    int rc;
    if (!data || load(&e) != 0 || archive_names(harness_lib, &harness, member_definitions) != 0) {
        sl_text_printf(why,
                       "%s: error: submission policy: the compiled object or the harness "
                       "library (%s) cannot be inspected\n",
                       label, harness_lib);
        rc = -1;
    } else {
        check_harness_names(&e, &harness);
        rc = e.findings == 0;
    }
    names_free(&harness);
    free(data);
    return rc;
}

/* objdump's disassembly of the object's code, relocations on the lines of
 * their instructions. malloc'd; NULL when objdump failed. */
static char *disassemble(const char *object_path)
{
    char listing[4200];
    snprintf(listing, sizeof listing, "%s.asm", object_path);
    char *argv[] = {"objdump", "-dr", "-w", "--no-show-raw-insn", (char *)object_path, NULL};
    sl_proc_result r;
    sl_proc_run(argv, listing, 256 << 20, 120, &r);
    char *text = sl_read_file(listing, 256 << 20, NULL);
    unlink(listing);
    if (!r.exited || r.code != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int sl_hostobj_check(const char *object_path, const char *label, sl_text *why)
{
    elf e;
    char *data = open_object(object_path, label, why, &e);
    if (!data) {
        sl_text_printf(why, "%s: error: cannot read %s\n", label, object_path);
        return -1;
    }
    int rc;
    if (load(&e) != 0) {
        sl_text_printf(why,
                       "%s: error: submission policy: the compiled object cannot be "
                       "inspected\n",
                       label);
        rc = -1;
    } else {
        char *listing = disassemble(object_path);
        if (!listing) {
            sl_text_printf(why,
                           "%s: error: submission policy: the host code could not be "
                           "disassembled (objdump)\n",
                           label);
            free(e.edges);
            rc = 0;
        } else {
            rc = check_loaded(&e, listing);
            free(listing);
        }
    }
    free(data);
    return rc;
}

static int allocating_name(const char *name)
{
    return strstr(name, "Malloc") || strstr(name, "Alloc") || strstr(name, "MemPool") ||
           strncmp(name, "cuMem", 5) == 0;
}

int sl_hostobj_allocates(const char *object_path)
{
    elf e;
    sl_text why = {0};
    char *data = open_object(object_path, "", &why, &e);
    int rc = -1;
    if (data && load(&e) == 0) {
        rc = 0;
        for (int i = 1; i < e.nsym && !rc; i++)
            rc = e.sym[i].st_shndx == SHN_UNDEF && allocating_name(sym_name(&e, i));
    }
    free(data);
    sl_text_free(&why);
    return rc;
}

/* ---------- the assembly gcc handed to the assembler ----------
 * Inline assembly is read here, after the compiler has processed the
 * string literals' escapes: the text is what gas reads. gcc marks each
 * asm statement (#APP ... #NO_APP); the only one a lesson file may have
 * is nvcc's own, the fatbinary's data (.section .nv_fatbin / fatbinData:
 * / .quad ...). Anywhere in the text, a directive that reads a file
 * (.incbin, .include) or builds directives (.macro, .irp, .rept ...) is
 * refused (a section or symbol name may smuggle a line in). */
static const char *const GAS_DENIED[] = {".incbin", ".include",    ".macro", ".endm",     ".irp",
                                         ".irpc",   ".rept",       ".endr",  ".altmacro", ".purgem",
                                         ".exitm",  ".noaltmacro", NULL};

/* Whether a statement is one of nvcc's fatbinary block. */
/* A statement without the blanks around it. */
static void trim_statement(const char **st, size_t *n)
{
    while (*n > 0 && ((*st)[*n - 1] == ' ' || (*st)[*n - 1] == '\t' || (*st)[*n - 1] == '\r'))
        (*n)--;
    while (*n > 0 && (**st == ' ' || **st == '\t'))
        (*st)++, (*n)--;
}

static int fatbin_statement(const char *st, size_t n)
{
    trim_statement(&st, &n);
    static const char *const fixed[] = {".section .nv_fatbin, \"a\"", ".align 8",
                                        "fatbinData:", ".text", NULL};
    if (n == 0)
        return 1;
    for (const char *const *f = fixed; *f; f++)
        if (strlen(*f) == n && strncmp(st, *f, n) == 0)
            return 1;
    if (n < 6 || strncmp(st, ".quad ", 6) != 0)
        return 0;
    for (size_t i = 6; i < n; i++)
        if (!strchr("0123456789abcdefx, ", st[i]))
            return 0;
    return 1;
}

/* An instruction system headers put in host inline asm that reaches
 * nothing: libcu++'s spin-wait yield (asm volatile("pause")), a compiler
 * barrier (asm volatile("" ::: "memory")), CPU fences, and GCC 13's
 * <iostream> naming its initialiser. No syscall, no call, no data. */
static int harmless_statement(const char *st, size_t n)
{
    trim_statement(&st, &n);
    static const char *const ok[] = {"pause", "nop", "rep nop", "mfence", "lfence", "sfence",
                                     /* GCC 13's <iostream>: a reference to libstdc++'s
                                        stream initialiser, so that it is linked */
                                     ".globl _ZSt21ios_base_library_initv", NULL};
    if (n == 0)
        return 1;
    for (const char *const *o = ok; *o; o++)
        if (strlen(*o) == n && strncmp(st, *o, n) == 0)
            return 1;
    return 0;
}

static int names_fatbin(const char *st, size_t n)
{
    for (size_t i = 0; i + 11 <= n; i++)
        if (!strncmp(st + i, "fatbinData:", 11) || !strncmp(st + i, ".nv_fatbin", 10))
            return 1;
    return 0;
}

int sl_hostobj_check_assembly(const char *text, const char *label, sl_text *why)
{
    /* app_blocks: inline-asm blocks that hold a fatbinary (nvcc writes one) */
    int bad = 0, in_app = 0, app_blocks = 0, app_ok = 1, block_fatbin = 0;
    for (const char *s = text; *s;) {
        /* one line; "#..." outside a string is a comment */
        size_t len = strcspn(s, "\n");
        const char *line = s, *end = s + len;
        s = end + (*end == '\n');
        const char *t = line;
        while (t < end && (*t == ' ' || *t == '\t'))
            t++;
        if ((size_t)(end - t) >= 4 && !strncmp(t, "#APP", 4) && (end - t == 4 || t[4] == '\r')) {
            in_app = 1;
            block_fatbin = 0;
            continue;
        }
        if (!strncmp(t, "#NO_APP", 7)) {
            in_app = 0;
            app_blocks += block_fatbin;
            continue;
        }
        /* statements: split at ';' and '#' outside strings */
        const char *st = line;
        for (const char *p = line; p <= end; p++) {
            if (p < end && *p == '"') {
                for (p++; p < end && *p != '"'; p++)
                    if (*p == '\\' && p + 1 < end)
                        p++;
                continue;
            }
            if (p < end && *p != ';' && *p != '#')
                continue;
            /* the statement [st, p): labels skipped, then its directive */
            const char *q = st;
            for (;;) {
                while (q < p && (*q == ' ' || *q == '\t' || *q == '\r'))
                    q++;
                const char *w = q;
                while (w < p && (isalnum((unsigned char)*w) || strchr("._$@", *w)))
                    w++;
                if (w < p && *w == ':' && w > q) {
                    q = w + 1;
                    continue;
                }
                break;
            }
            char word[32];
            size_t k = 0;
            while (q < p && k + 1 < sizeof word &&
                   (isalnum((unsigned char)*q) || *q == '.' || *q == '_'))
                word[k++] = (char)tolower((unsigned char)*q++);
            word[k] = '\0';
            if (in_list(GAS_DENIED, word) && bad++ < 4)
                sl_text_printf(why,
                               "%s: error: submission policy: the host code's assembly "
                               "reads a file or defines assembler macros (%s): hand in "
                               "C++ host code\n",
                               label, word);
            if (in_app && names_fatbin(st, (size_t)(p - st)))
                block_fatbin = 1;
            /* nvcc's statements only in the block that holds its fatbinary
             * (.quad elsewhere could be machine code) */
            if (in_app && !(block_fatbin && fatbin_statement(st, (size_t)(p - st))) &&
                !harmless_statement(st, (size_t)(p - st)))
                app_ok = 0;
            if (p < end && *p == '#')
                break; /* the rest of the line is a comment */
            st = p + 1;
        }
    }
    if (!app_ok || app_blocks > 1) {
        bad++;
        sl_text_printf(why,
                       "%s: error: submission policy: the host code contains inline "
                       "assembly (asm): hand in C++ host code (PTX asm belongs in device "
                       "code)\n",
                       label);
    }
    return bad == 0;
}

int sl_hostobj_lesson_names(const char *object_path, const char *harness_lib, sl_text *hide,
                            sl_text *rename)
{
    name_list used = {0};
    elf e;
    sl_text ignored = {0};
    char *data = open_object(object_path, "", &ignored, &e);
    int rc = -1;
    if (data && load(&e) == 0 && archive_names(harness_lib, &used, member_references) == 0) {
        rc = 0;
        for (int i = 1; i < e.nsym; i++) {
            const Elf64_Sym *sym = &e.sym[i];
            const char *name = sym_name(&e, i);
            int bind = ELF64_ST_BIND(sym->st_info);
            if (sym->st_shndx == SHN_UNDEF || bind == STB_LOCAL || !*name ||
                harness_binding(&used, name) >= 0)
                continue; /* what the lesson's harness calls keeps its name */
            /* a COMDAT group is kept or dropped by its name, whatever its
             * binding: only a new name keeps this object's own copy */
            if (bind == STB_GLOBAL && !in_comdat_group(&e, sym->st_shndx))
                sl_text_printf(hide, "%s\n", name);
            else
                sl_text_printf(rename, "%s\n", name);
        }
    }
    names_free(&used);
    sl_text_free(&ignored);
    free(data);
    return rc;
}
