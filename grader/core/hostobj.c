#include "hostobj.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

/* Library functions a lesson file has no business calling from the host.
 * exit, atexit and abort are missing on purpose: nvcc's own code calls them. */
static const char *const DENIED[] = {
    "system", "popen", "fork", "vfork", "clone", "daemon", "execl", "execle", "execlp", "execv",
    "execve", "execvp", "execvpe", "fexecve", "posix_spawn", "posix_spawnp", "pthread_create",
    "fopen", "fopen64", "freopen", "freopen64", "open", "open64", "openat", "openat64", "creat",
    "creat64", "opendir", "remove", "unlink", "unlinkat", "rename", "renameat", "truncate",
    "dlopen", "dlsym", "dlvsym", "syscall", "ptrace", "prctl", "kill", "killpg", "setsid",
    "socket", "connect", "_exit", "_Exit", "quick_exit", "at_quick_exit", "__libc_start_main",
    NULL};
/* Mangled-name prefixes: the file streams of <fstream>. */
static const char *const DENIED_PREFIX[] = {
    "_ZNSt14basic_ifstream", "_ZNSt14basic_ofstream", "_ZNSt13basic_fstream",
    "_ZNSt13basic_filebuf", NULL};
/* The only code .init_array may run: nvcc's fatbinary registration. */
static const char *const NVCC_INIT = "__sti____cudaRegisterAll";

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
    return str_at(e->shstr, e->shstrsize, e->sh[i].sh_name);
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

static int denied(const char *name)
{
    for (const char *const *d = DENIED; *d; d++)
        if (strcmp(name, *d) == 0)
            return 1;
    for (const char *const *d = DENIED_PREFIX; *d; d++)
        if (strncmp(name, *d, strlen(*d)) == 0)
            return 1;
    return 0;
}

static void check_symbols(elf *e)
{
    for (int i = 1; i < e->nsym; i++) {
        const Elf64_Sym *s = &e->sym[i];
        const char *name = sym_name(e, i);
        int bind = ELF64_ST_BIND(s->st_info);
        if (s->st_shndx == SHN_UNDEF) {
            if (*name && denied(name))
                finding(e, "the host code calls a function the runner may not use", name);
        } else if (strcmp(name, "main") == 0 && (bind == STB_GLOBAL || bind == STB_WEAK)) {
            finding(e, "the file defines main(): the runner has its own", name);
        }
    }
}

/* The function an .init_array entry points at: a named symbol, or a
 * section symbol plus an offset that a function symbol starts at. */
static const char *init_target(const elf *e, int symi, Elf64_Sxword addend)
{
    if (symi <= 0 || symi >= e->nsym)
        return "?";
    const Elf64_Sym *s = &e->sym[symi];
    if (ELF64_ST_TYPE(s->st_info) != STT_SECTION)
        return sym_name(e, symi);
    for (int i = 1; i < e->nsym; i++) {
        const Elf64_Sym *f = &e->sym[i];
        if (f->st_shndx == s->st_shndx && ELF64_ST_TYPE(f->st_info) == STT_FUNC &&
            (Elf64_Sxword)f->st_value == addend)
            return sym_name(e, i);
    }
    return "?";
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

static void check_init_relocations(elf *e, int target, const Elf64_Shdr *rs)
{
    if (!in_bounds(e, rs->sh_offset, rs->sh_size))
        return;
    int rela = rs->sh_type == SHT_RELA;
    size_t entsize = rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    for (size_t off = 0; off + entsize <= rs->sh_size; off += entsize) {
        const unsigned char *p = e->data + rs->sh_offset + off;
        Elf64_Xword info = rela ? ((const Elf64_Rela *)p)->r_info : ((const Elf64_Rel *)p)->r_info;
        Elf64_Sxword addend = rela ? ((const Elf64_Rela *)p)->r_addend : 0;
        const char *fn = init_target(e, (int)ELF64_R_SYM(info), addend);
        if (strstr(fn, NVCC_INIT))
            continue;
        char what[256];
        snprintf(what, sizeof what, "code that runs %s main() (a global object with a "
                 "constructor, a constructor attribute, <iostream>...) in %s",
                 strstr(section_name(e, target), "fini") || strstr(section_name(e, target), "dtors")
                     ? "after" : "before", section_name(e, target));
        /* gcc names a file's dynamic initialisation after its first function */
        finding(e, what, strncmp(fn, "_GLOBAL__sub_I", 14) == 0 ? "initialisers of global objects"
                         : *fn ? fn : "?");
    }
}

static void check_init_sections(elf *e)
{
    for (int t = 0; t < e->nsh; t++) {
        if (!is_init_section(section_name(e, t)) || e->sh[t].sh_size == 0)
            continue;
        int relocated = 0;
        for (int r = 0; r < e->nsh; r++) {
            const Elf64_Shdr *rs = &e->sh[r];
            if ((rs->sh_type == SHT_RELA || rs->sh_type == SHT_REL) && rs->sh_info == (Elf64_Word)t) {
                check_init_relocations(e, t, rs);
                relocated = 1;
            }
        }
        if (!relocated)
            finding(e, "an initialisation section without relocations", section_name(e, t));
    }
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
    check_symbols(&e);
    check_init_sections(&e);
    return e.findings == 0;
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
    free(data);
    return rc;
}
