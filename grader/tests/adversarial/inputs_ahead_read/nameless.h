// Finds any function of any library loaded in this process without naming
// it in the object: from one of our own functions down to the program's ELF
// header, its dynamic section's DT_DEBUG (the loader's r_debug), the list of
// loaded libraries (link_map), and each library's GNU hash table. The object
// holds no relocation to any of them, only strings.
#ifndef NAMELESS_H
#define NAMELESS_H
#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>

// no libc string functions: only what the allow-list names is linked
static inline int nameless_same(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

static inline const ElfW(Ehdr) *nameless_program_header(const void *inside)
{
    uintptr_t p = (uintptr_t)inside & ~(uintptr_t)4095;
    for (;; p -= 4096) {
        const ElfW(Ehdr) *e = (const ElfW(Ehdr) *)p;
        if (e->e_ident[0] == 0x7f && e->e_ident[1] == 'E' && e->e_ident[2] == 'L' &&
            e->e_ident[3] == 'F' && e->e_phentsize == sizeof(ElfW(Phdr)))
            return e;
    }
}

static inline uint32_t nameless_gnu_hash(const char *s)
{
    uint32_t h = 5381;
    for (; *s; s++)
        h = h * 33 + (unsigned char)*s;
    return h;
}

static inline uintptr_t nameless_abs(uintptr_t v, uintptr_t base) { return v < base ? v + base : v; }

// name in the library whose dynamic section is dyn, loaded at base
static inline void *nameless_in_library(const ElfW(Dyn) *dyn, uintptr_t base, const char *name)
{
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const uint32_t *gnu = NULL;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_SYMTAB)
            symtab = (const ElfW(Sym) *)nameless_abs(dyn->d_un.d_ptr, base);
        else if (dyn->d_tag == DT_STRTAB)
            strtab = (const char *)nameless_abs(dyn->d_un.d_ptr, base);
        else if (dyn->d_tag == DT_GNU_HASH)
            gnu = (const uint32_t *)nameless_abs(dyn->d_un.d_ptr, base);
    }
    if (!symtab || !strtab || !gnu)
        return NULL;
    uint32_t nbuckets = gnu[0], symoffset = gnu[1], bloom_size = gnu[2];
    const uint32_t *buckets = gnu + 4 + bloom_size * (sizeof(ElfW(Addr)) / 4);
    const uint32_t *chain = buckets + nbuckets;
    uint32_t h = nameless_gnu_hash(name);
    uint32_t i = buckets[h % nbuckets];
    if (i < symoffset)
        return NULL;
    for (;; i++) {
        uint32_t ch = chain[i - symoffset];
        if ((ch | 1) == (h | 1) && nameless_same(strtab + symtab[i].st_name, name) &&
            symtab[i].st_shndx != SHN_UNDEF && symtab[i].st_value)
            return (void *)(base + symtab[i].st_value);
        if (ch & 1)
            return NULL;
    }
}

// name in any library of the process; inside: the address of one of our functions
static inline void *nameless_find(const void *inside, const char *name)
{
    const ElfW(Ehdr) *e = nameless_program_header(inside);
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)((uintptr_t)e + e->e_phoff);
    uintptr_t bias = 0;
    const ElfW(Dyn) *dyn = NULL;
    int first = 1;
    for (int i = 0; i < e->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD && first) {
            bias = (uintptr_t)e - (ph[i].p_vaddr & ~(uintptr_t)4095);
            first = 0;
        }
    for (int i = 0; i < e->e_phnum; i++)
        if (ph[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(bias + ph[i].p_vaddr);
    if (!dyn)
        return NULL;
    const struct r_debug *debug = NULL;
    for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_DEBUG)
            debug = (const struct r_debug *)d->d_un.d_ptr;
    if (!debug)
        return NULL;
    for (const struct link_map *m = debug->r_map; m; m = m->l_next) {
        if (!m->l_ld)
            continue;
        void *f = nameless_in_library(m->l_ld, (uintptr_t)m->l_addr, name);
        if (f)
            return f;
    }
    return NULL;
}
#endif
