/* objcheck.c — symbol and header checks on a student's object (see objcheck.h).
 *
 * The ELF64 symbol table is read directly (no nm, no binutils output format):
 * the file is mapped, every offset and size is checked against its length,
 * and every name against its string table, before use. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "objcheck.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Past this many sections an object is refused unread; objdump gets this
 * many seconds of CPU time (twice of wall time) to disassemble one. */
#define OC_MAX_SECTIONS 8192
#define OC_OBJDUMP_S 60

#define MAX_LINES 200
#define MAX_DEPFILE (64L << 20)

void oc_report_free(oc_report *r)
{
    free(r->text);
    free(r->wtext);
    memset(r, 0, sizeof *r);
}

/* One line appended to a growing text. */
static void add_line(char **text, size_t *len, size_t *cap, const char *fmt, va_list ap)
{
    char line[1024];
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (*len + (size_t)n + 1 > *cap) {
        size_t c = *cap ? 2 * *cap : 4096;
        while (c < *len + (size_t)n + 1) c *= 2;
        char *t = realloc(*text, c);
        if (!t) return;
        *text = t, *cap = c;
    }
    memcpy(*text + *len, line, (size_t)n);
    *len += (size_t)n;
    (*text)[*len] = 0;
}

static void report(oc_report *r, const char *fmt, ...)
{
    if (++r->violations > MAX_LINES) return;
    va_list ap;
    va_start(ap, fmt);
    add_line(&r->text, &r->len, &r->cap, fmt, ap);
    va_end(ap);
}

/* Not a violation: a line for the feedback (a library's header included
 * where its calls are judged by the symbols). */
static void warn(oc_report *r, const char *fmt, ...)
{
    if (++r->warnings > MAX_LINES) return;
    va_list ap;
    va_start(ap, fmt);
    add_line(&r->wtext, &r->wlen, &r->wcap, fmt, ap);
    va_end(ap);
}

static int starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static int in_list(const char *const *l, const char *s)
{
    for (int i = 0; l && l[i]; i++)
        if (!strcmp(l[i], s)) return 1;
    return 0;
}

static int in_prefixes(const char *const *l, const char *s)
{
    for (int i = 0; l && l[i]; i++)
        if (starts(s, l[i])) return 1;
    return 0;
}

/* ------------------------------------------------------------- libraries */

typedef struct {
    const char *name;     /* as in forbid.txt */
    const char *cprefix;  /* C API prefix, or NULL */
    const char *ns;       /* C++ namespace (mangled component), or NULL */
    const char *hprefix;  /* header file name prefix, or NULL */
    const char *hdir;     /* include folder name, or NULL */
} lib;

static const lib known_libs[] = {
    { "cublas", "cublas", NULL, "cublas", NULL },     { "cublaslt", "cublasLt", NULL, "cublasLt", NULL },
    { "cufft", "cufft", NULL, "cufft", NULL },        { "curand", "curand", NULL, "curand", NULL },
    { "cusparse", "cusparse", NULL, "cusparse", NULL }, { "cusolver", "cusolver", NULL, "cusolver", NULL },
    { "cudnn", "cudnn", NULL, "cudnn", NULL },        { "nccl", "nccl", NULL, "nccl", NULL },
    { "cub", NULL, "cub", NULL, "cub" },              { "thrust", NULL, "thrust", NULL, "thrust" },
    { "cutlass", NULL, "cutlass", NULL, "cutlass" },  { "cute", NULL, "cute", NULL, "cute" },
};

/* Headers of a library's host API: declarations of functions that live in
 * the library's shared object, so a call leaves an undefined symbol the
 * symbol check sees (cublasSgemm_v2). Including one without calling it does
 * nothing (public SGEMM kernels start with #include <cublas_v2.h>): a
 * warning, not a violation. A library's other headers are code in the
 * header, inlined without a symbol to see (curand_kernel.h's device
 * generators, nccl_device.h, the MathDx *dx headers), and keep the header
 * rule, as do the header-only libraries (cub, thrust, cutlass, cute). */
static int host_api_header(const char *lib, const char *bn)
{
    static const char *const h[][7] = {
        { "cublas", "cublas.h", "cublas_v2.h", "cublas_api.h", "cublasXt.h", NULL },
        { "cublaslt", "cublasLt.h", NULL },
        { "cufft", "cufft.h", "cufftXt.h", "cufftw.h", NULL },
        { "curand", "curand.h", NULL },
        { "cusparse", "cusparse.h", "cusparse_v2.h", NULL },
        { "cusolver", "cusolverDn.h", "cusolverSp.h", "cusolverRf.h", "cusolverMg.h", "cusolver_common.h", NULL },
        { "nccl", "nccl.h", "nccl_net.h", NULL },
    };
    if (!strcmp(lib, "cudnn")) /* every cuDNN header declares the library's functions (the frontend calls them) */
        return starts(bn, "cudnn") && strlen(bn) > 2 && !strcmp(bn + strlen(bn) - 2, ".h");
    for (size_t i = 0; i < sizeof h / sizeof *h; i++)
        if (!strcmp(h[i][0], lib))
            for (int k = 1; h[i][k]; k++)
                if (!strcmp(h[i][k], bn)) return 1;
    return 0;
}

/* The forbid word as a library; "yard_*" is a raw symbol prefix. */
static lib lib_of(const char *w, char *buf, size_t sz)
{
    for (size_t i = 0; i < sizeof known_libs / sizeof *known_libs; i++)
        if (!strcmp(w, known_libs[i].name)) return known_libs[i];
    size_t n = strlen(w);
    if (n && w[n - 1] == '*') {
        snprintf(buf, sz, "%.*s", (int)(n - 1), w);
        return (lib){ w, buf, NULL, NULL, NULL };
    }
    return (lib){ w, w, w, w, w };
}

/* Does the mangled name hold the source-name <len><ns> (e.g. "3cub")? The
 * length must stand alone: "13cubic" is not "3cub". */
static int has_component(const char *name, const char *ns)
{
    char pat[80];
    int k = snprintf(pat, sizeof pat, "%zu%s", strlen(ns), ns);
    if (k <= 0 || k >= (int)sizeof pat) return 0;
    for (const char *p = strstr(name, pat); p; p = strstr(p + 1, pat)) {
        if (p > name && p[-1] >= '0' && p[-1] <= '9') continue;
        return 1;
    }
    return 0;
}

/* A replaceable global operator new/delete (not the placement forms
 * _ZnwmPv, _ZdlPvS_ that <new> defines inline). */
static int replaces_new_delete(const char *s)
{
    if (!(starts(s, "_Znwm") || starts(s, "_Znam") || starts(s, "_ZdlPv") || starts(s, "_ZdaPv"))) return 0;
    return strcmp(s, "_ZnwmPv") && strcmp(s, "_ZnamPv") && strcmp(s, "_ZdlPvS_") && strcmp(s, "_ZdaPvS_");
}

static int is_mangled(const char *s) { return s[0] == '_' && s[1] == 'Z'; }

static int lib_symbol(const lib *l, const char *name)
{
    if (l->cprefix && !is_mangled(name) && starts(name, l->cprefix)) return 1;
    if (l->ns && strstr(name, "_Z") && has_component(name, l->ns)) return 1;
    return 0;
}

/* A C function of a known library (cublasSgemm_v2, curandCreateGenerator). */
static int known_lib_api(const char *name)
{
    for (size_t i = 0; i < sizeof known_libs / sizeof *known_libs; i++)
        if (known_libs[i].cprefix && starts(name, known_libs[i].cprefix)) return 1;
    return 0;
}

/* ------------------------------------------------------------- references */

static const char *const ok_c[] = {
    "memcpy", "memmove", "memset", "memcmp", "memchr", "strlen", "strnlen", "strcmp", "strncmp", "strcpy", "strncpy",
    "strcat", "strncat", "strchr", "strrchr", "strstr", "strerror", "printf", "fprintf", "sprintf", "snprintf",
    "vprintf", "vfprintf", "vsprintf", "vsnprintf", "puts", "fputs", "putchar", "fputc", "putc", "fwrite", "fflush",
    "perror", "malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign", "abort", "__assert_fail",
    "__stack_chk_fail", "__printf_chk", "__fprintf_chk", "__sprintf_chk", "__snprintf_chk", "__vsnprintf_chk",
    "__vfprintf_chk", "__vprintf_chk", "__memcpy_chk", "__memmove_chk", "__memset_chk", "__strcpy_chk",
    "__strncpy_chk", "__strcat_chk", "stdout", "stderr", "atexit", "__dso_handle", "_GLOBAL_OFFSET_TABLE_", "qsort",
    "bsearch", "abs", "labs", "llabs", "div", "ldiv", "rand", "srand", "atoi", "atol", "atof", "strtol", "strtoul",
    "strtoll", "strtoull", "strtod", "strtof", "strpbrk", "strspn", "strcspn",
    /* glibc 2.38 and later name the four integer parsers so in C23 and C++ builds (<stdlib.h> redirects) */
    "__isoc23_strtol", "__isoc23_strtoul", "__isoc23_strtoll", "__isoc23_strtoull", "clock", "time", "clock_gettime", "gettimeofday", "__errno_location",
    "sched_yield", "nanosleep", "usleep", "_Unwind_Resume", "__gxx_personality_v0",
    /* the page size (week 16's host registration rounds to it): a query, no side effect */
    "sysconf", "getpagesize",
    /* libgcc's 128-bit integer division, which the compiler emits for __int128 arithmetic (CUTLASS 3's
     * host code: week 27's cutlass3_gemm): arithmetic only */
    "__udivti3", "__umodti3", "__divti3", "__modti3", NULL
};

static const char *const ok_math[] = {
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "erf", "erfc", "fabs", "floor", "ceil", "round", "lround",
    "llround", "trunc", "fmod", "remainder", "fma", "fmin", "fmax", "fdim", "hypot", "ldexp", "frexp", "modf",
    "nearbyint", "rint", "lrint", "llrint", "copysign", "nan", "tgamma", "lgamma", "sincos", "exp10", "scalbn",
    "ilogb", "logb", "__isnan", "__isinf", "__finite", "__isnanf", "__isinff", "__finitef", NULL
};

static const char *const ok_prefixes[] = {
    "cuda", "__cuda", "__cxa_", "_ZSt", "_ZNSt", "_ZNKSt", "_ZTVN10__cxxabiv", "_ZTISt", "_ZTSSt", "_ZTVSt",
    "_ZNSo", "_ZNKSo", "_ZNSi", "_ZNKSi", "_Znwm", "_Znam", "_ZdlPv", "_ZdaPv", NULL
};

/* C's stdio file functions: allowed to an exercise whose contract reads or writes files (oc_policy's
 * allow_fileio, week.txt's fileio:), to no other */
static const char *const stdio_files[] = {
    "fopen", "fopen64", "fclose", "fread", "fwrite", "fseek", "fseeko", "fseeko64", "ftell", "ftello", "ftello64",
    "fgets", "fgetc", "getc", "ungetc", "feof", "ferror", "clearerr", "rewind", "fscanf", "__isoc99_fscanf",
    "__isoc23_fscanf", "__fread_chk", "__fgets_chk", NULL
};

/* std:: pieces that reach files even though they sit in the std namespace */
/* (12__basic_file: the class under filebuf, whose open, sys_open, xsgetn and xsputn read and write any
 * file or inherited descriptor through an allowed header, bits/basic_file.h) */
static const char *const std_files[] = { "fstream", "filebuf", "12__basic_file", "10filesystem", "4__fs", NULL };

typedef struct {
    const char *const names[16];
    const char *why;
} bad_group;

static const bad_group bad_refs[] = {
    { { "dlopen", "dlsym", "dlmopen", "dlvsym", "dlclose", "dlerror", "dladdr", "dlinfo" },
      "loads code at run time (a forbidden library, a hook on the harness)" },
    { { "fork", "vfork", "clone", "clone3", "posix_spawn", "posix_spawnp", "execve", "execv", "execvp", "execvpe",
        "execl", "execlp", "execle", "fexecve", "system", "popen" },
      "starts another process" },
    { { "open", "open64", "openat", "openat64", "creat", "creat64", "fopen", "fopen64", "freopen", "fdopen", "read",
        "write", "pread", "pwrite", "mmap", "mmap64" },
      "file I/O: an exercise has no file to touch (the answers, the harness's records)" },
    { { "unlink", "remove", "rename", "mkdir", "opendir", "readdir", "truncate", "ftruncate", "mprotect", "chmod" },
      "changes files or memory protection" },
    { { "socket", "connect", "bind", "listen", "accept", "accept4", "send", "sendto", "sendmsg", "recv", "recvfrom",
        "recvmsg", "getaddrinfo", "gethostbyname" },
      "network" },
    { { "syscall", "ptrace", "prctl", "setrlimit", "prlimit", "seccomp" }, "raw system interface" },
    { { "kill", "signal", "sigaction", "raise", "alarm", "setitimer", "sigprocmask", "pthread_kill" },
      "signals: could hide a crash or stop the harness" },
    { { "exit", "_exit", "_Exit", "quick_exit", "longjmp", "siglongjmp", "_longjmp" },
      "leaves the test early: a checkpoint could look passed" },
    { { "getenv", "secure_getenv", "environ", "__environ", "setenv", "putenv", "unsetenv", "clearenv" },
      "reads or changes the environment: could tell a graded run from practice" },
};

/* nvcc's host copy of a __device__ function that is neither static nor
 * inline, as the host compiler builds it at the weeks' -O3: `volatile int v
 * = 1; exit(v);`, the whole function (21 bytes, 25 after an endbr64):
 *   sub $0x18,%rsp; movl $1,0xc(%rsp); mov 0xc(%rsp),%edi; call exit
 * True when the relocation at r_offset of code section `code` (its bytes
 * at `b`, `size` of them) is that call's, and the function symbol of the
 * section starts the sequence and is no longer than it. Such a call exits
 * with status 1, which fails the test whatever else happens (and an early
 * exit with any status is a FAIL in the harness and no reply to a judge),
 * so it is not the student's exit: a learner's __device__ helper would
 * otherwise lose the week. */
static int nvcc_device_stub_call(const uint8_t *b, uint64_t size, uint64_t r_offset, unsigned code,
                                 const Elf64_Sym *sym, size_t nsym)
{
    static const uint8_t STUB[] = { 0x48, 0x83, 0xec, 0x18, 0xc7, 0x44, 0x24, 0x0c, 0x01, 0x00, 0x00, 0x00,
                                    0x8b, 0x7c, 0x24, 0x0c, 0xe8 };
    static const uint8_t ENDBR[] = { 0xf3, 0x0f, 0x1e, 0xfa };
    if (r_offset < sizeof STUB || r_offset + 4 > size) return 0;
    uint64_t at = r_offset - sizeof STUB;
    if (memcmp(b + at, STUB, sizeof STUB)) return 0;
    /* before it: gcc 13 (Ubuntu 24.04) puts push %rax; pop %rax there, after
     * the endbr64 of -fcf-protection builds; older ones neither or the endbr64 */
    uint64_t start = at;
    if (start >= 2 && b[start - 2] == 0x50 && b[start - 1] == 0x58) start -= 2;
    if (start >= sizeof ENDBR && !memcmp(b + start - sizeof ENDBR, ENDBR, sizeof ENDBR)) start -= sizeof ENDBR;
    for (size_t i = 1; i < nsym; i++)
        if (ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC && sym[i].st_shndx == code &&
            (sym[i].st_value == at || sym[i].st_value == start) && sym[i].st_value + sym[i].st_size == r_offset + 4)
            return 1;
    return 0;
}

static const char *bad_reason(const char *s)
{
    for (size_t g = 0; g < sizeof bad_refs / sizeof *bad_refs; g++)
        for (int i = 0; i < 16 && bad_refs[g].names[i]; i++)
            if (!strcmp(s, bad_refs[g].names[i])) return bad_refs[g].why;
    return NULL;
}

/* Used by NVTX's header-only loader (cub, thrust): allowed from there only. */
static int nvtx_may_use(const char *s)
{
    return !strcmp(s, "dlopen") || !strcmp(s, "dlsym") || !strcmp(s, "dlclose") || !strcmp(s, "dlerror") ||
           !strcmp(s, "getenv");
}

static int math_ok(const char *s)
{
    char base[64];
    size_t n = strlen(s);
    if (n >= sizeof base) return 0;
    if (in_list(ok_math, s)) return 1;
    if (n > 1 && (s[n - 1] == 'f' || s[n - 1] == 'l')) {
        memcpy(base, s, n - 1);
        base[n - 1] = 0;
        return in_list(ok_math, base);
    }
    return 0;
}

static int compiler_made(const char *n, int bind);

static const char *const default_harness[] = { "wb_", "ck_", "srunner_", "suite_", "tcase_", NULL };

/* ------------------------------------------------------------- the object */

typedef struct {
    const uint8_t *b;
    size_t size;
} span;

/* [off, off+len) inside the file? */
static int fits(const span *f, uint64_t off, uint64_t len) { return off <= f->size && len <= f->size - off; }

#define NVCC_REGISTER "_ZL24__sti____cudaRegisterAllv"

/* What the disassembly (check_code) found of each function of the object
 * being checked, for the constructor rule in check_elf. */
typedef struct {
    char name[128];
    char dep[128];  /* a __static_initialization_and_destruction helper it calls */
    int  bad;       /* calls or references anything but the allowed few */
    int  init;      /* constructs std::ios_base::Init */
    int  dtor;      /* a destructor (named ...D0Ev, D1Ev or D2Ev) */
} code_fn;
static code_fn *g_fns;
static int g_nfns, g_capfns;

static const code_fn *code_fn_named(const char *n)
{
    for (int i = 0; i < g_nfns; i++)
        if (!strcmp(g_fns[i].name, n)) return &g_fns[i];
    return NULL;
}

/* A C++ static initialiser that only constructs std::ios_base::Init (what
 * <iostream> puts in every file that includes it, CUTLASS's headers among
 * them) and registers its destructor: it calls nothing but that constructor,
 * __cxa_atexit and a local __static_initialization_and_destruction helper
 * of the same kind, and references only those, __dso_handle and data. */
static int benign_static_init(const char *n, int depth)
{
    const code_fn *c = n && *n ? code_fn_named(n) : NULL;
    if (!c || c->bad || c->dtor || depth > 2) return 0;
    if (c->dep[0]) return benign_static_init(c->dep, depth + 1);
    return c->init;
}

/* A destructor's mangled name: ...D0Ev (deleting), D1Ev (complete), D2Ev (base). */
static int dtor_name(const char *n)
{
    size_t k = strlen(n);
    return is_mangled(n) && k > 4 && n[k - 4] == 'D' && n[k - 3] >= '0' && n[k - 3] <= '2' && !strcmp(n + k - 2, "Ev");
}

/* The standard library's destructors that Thrust's and CUB's headers
 * register or call from theirs: libstdc++'s code, as long as no student
 * object defines one of them (check_elf refuses that, so an object cannot
 * put its own code under these names). */
static const char *const STD_DTORS[] = {
    "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED1Ev", "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED2Ev",
    "_ZNSt9bad_allocD1Ev", "_ZNSt9bad_allocD2Ev", "_ZNSt13runtime_errorD1Ev", "_ZNSt13runtime_errorD2Ev",
    "_ZNSt3_V214error_categoryD1Ev", "_ZNSt3_V214error_categoryD2Ev", "_ZNSt9exceptionD1Ev", "_ZNSt9exceptionD2Ev",
    NULL
};

/* What a benign destructor may reference besides another one of this file:
 * operator delete, a vtable or type information (data), and STD_DTORS. */
static int dtor_may_use(const char *n)
{
    return !strcmp(n, "_ZdlPv") || !strcmp(n, "_ZdlPvm") || starts(n, "_ZTV") || starts(n, "_ZTI") || in_list(STD_DTORS, n);
}

/* A destructor of this file whose code does nothing but return, store a
 * vtable, free memory and call other such destructors: what a function-local
 * static of a library class registers with __cxa_atexit (Thrust's error
 * categories in every file that uses Thrust). Code that only destroys cannot
 * write a record, so registering it is harmless. */
static int benign_dtor(const char *n, int depth)
{
    const code_fn *c = n && *n ? code_fn_named(n) : NULL;
    if (!c || !c->dtor || c->bad || depth > 3) return 0;
    return c->dep[0] ? benign_dtor(c->dep, depth + 1) : 1;
}


/* ------------------------------------------------------------- sections */

/* Every section of the object, by name and flags. The linker places input
 * sections by NAME (its script: `*(.text .stub .text.* .gnu.linkonce.t.*)`
 * into the program's code, `.init` into the start-up code, `.init_array*`
 * into the constructors), while objdump disassembles only sections FLAGGED
 * executable and the constructor rule below reads arrays by type: a
 * `syscall` in a `.stub` section assembled as data ("a") runs as code and
 * is never read. So: a section whose name the linker puts among code must
 * be `.text` or `.text.*` and flagged executable (objdump reads it); code
 * anywhere else is refused; `.init`/`.fini` code is refused (it runs
 * before or after the test); an allocated section with a name outside the
 * ones the compilers make is refused (the linker would place it where it
 * likes). Non-allocated sections (debug, notes, symbols, relocations) are
 * not loaded and pass. */
static int dot_family(const char *n, const char *base)
{
    size_t k = strlen(base);
    return !strncmp(n, base, k) && (n[k] == 0 || n[k] == '.');
}

static int code_name(const char *n)
{
    return dot_family(n, ".text") || !strcmp(n, ".stub") || starts(n, ".gnu.linkonce.t") || dot_family(n, ".init") ||
           dot_family(n, ".fini") || dot_family(n, ".plt") || !strcmp(n, ".iplt");
}

/* the start-up arrays, by name (what the linker goes by) */
static int before_main_name(const char *n)
{
    return dot_family(n, ".init_array") || dot_family(n, ".preinit_array") || dot_family(n, ".ctors");
}
static int after_main_name(const char *n) { return dot_family(n, ".fini_array") || dot_family(n, ".dtors"); }

static int data_name(const char *n)
{
    static const char *const fam[] = { ".data", ".rodata", ".bss", ".tdata", ".tbss", ".gcc_except_table",
                                       ".data.rel.ro", ".lrodata", ".ldata", ".lbss", NULL };
    for (int i = 0; fam[i]; i++)
        if (dot_family(n, fam[i])) return 1;
    return !strcmp(n, ".eh_frame") || !strcmp(n, ".nv_fatbin") || !strcmp(n, ".nvFatBinSegment") ||
           !strcmp(n, "__nv_relfatbin") || !strcmp(n, "__nv_module_id") || !strcmp(n, ".note.gnu.property") ||
           before_main_name(n) || after_main_name(n);
}

static int check_sections(const span *f, const Elf64_Ehdr *eh, const Elf64_Shdr *sh, unsigned nsec, const char *path,
                          oc_report *r)
{
    int before = r->violations;
    const char *shstr = NULL;
    size_t shsz = 0;
    if (eh->e_shstrndx < nsec && sh[eh->e_shstrndx].sh_type == SHT_STRTAB &&
        fits(f, sh[eh->e_shstrndx].sh_offset, sh[eh->e_shstrndx].sh_size) && sh[eh->e_shstrndx].sh_size > 0) {
        shstr = (const char *)f->b + sh[eh->e_shstrndx].sh_offset;
        shsz = sh[eh->e_shstrndx].sh_size;
        if (shstr[shsz - 1] != 0) shstr = NULL;
    }
    if (!shstr) return report(r, "object: %s: damaged section names", path), 1;
    for (unsigned i = 1; i < nsec; i++) {
        if (sh[i].sh_name >= shsz) {
            report(r, "section: #%u: its name lies outside the section names", i);
            continue;
        }
        const char *n = shstr + sh[i].sh_name;
        uint64_t fl = sh[i].sh_flags;
        int alloc = (fl & SHF_ALLOC) != 0, exec = (fl & SHF_EXECINSTR) != 0;
        if (dot_family(n, ".init") || dot_family(n, ".fini")) {
            report(r, "section: %s: code the start-up or exit routine runs, before or after the test", n);
            continue;
        }
        if (code_name(n)) {
            if (!dot_family(n, ".text"))
                report(r, "section: %s: the linker places it among the program's code; the compiler never makes it", n);
            else if (!exec || !alloc || sh[i].sh_type != SHT_PROGBITS)
                report(r, "section: %s: not marked executable, yet the linker places it among the program's code "
                          "(code the disassembler would not read)", n);
            continue;
        }
        if (exec) {
            report(r, "section: %s: code in a section the compiler never makes", n);
            continue;
        }
        if (sh[i].sh_type == SHT_REL) {
            report(r, "section: %s: REL relocations (x86-64 objects use RELA)", n);
            continue;
        }
        if (alloc && !data_name(n)) report(r, "section: %s: an allocated section the compilers never make", n);
    }
    return r->violations - before;
}

/* benign_dtor for symbol si, by its name or an alias (a destructor's D1Ev and D2Ev are one function, which
 * objdump names once). */
static int benign_dtor_sym(const Elf64_Sym *sym, size_t nsym, const char *str, size_t si)
{
    if (benign_dtor(str + sym[si].st_name, 0)) return 1;
    for (size_t i = 1; i < nsym; i++)
        if (i != si && ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC && sym[i].st_shndx == sym[si].st_shndx &&
            sym[i].st_value == sym[si].st_value && benign_dtor(str + sym[i].st_name, 0))
            return 1;
    return 0;
}

/* The __cxa_atexit call at rel[k], in function fn_i: does it register a benign destructor and nothing
 * else? Every code address taken in fn_i since its start or its previous __cxa_atexit call must be a
 * benign destructor of this file (one at least); the other references there may be data of this file,
 * __dso_handle, a vtable or type information. Anything else (an address in code taken without a name, an
 * undefined symbol that could be another file's function) and the call is refused as before. */
static int registers_benign_dtor(const Elf64_Rela *rel, size_t nrel, size_t k, const Elf64_Sym *sym, size_t nsym,
                                 const char *str, const Elf64_Shdr *sh, unsigned nsec, size_t fn_i)
{
    uint64_t lo = sym[fn_i].st_value, hi = rel[k].r_offset;
    for (size_t j = 0; j < nrel; j++) { /* the previous __cxa_atexit call of this function */
        size_t sj = ELF64_R_SYM(rel[j].r_info);
        if (sj && sj < nsym && rel[j].r_offset >= lo && rel[j].r_offset < hi && !strcmp(str + sym[sj].st_name, "__cxa_atexit"))
            lo = rel[j].r_offset + 1;
    }
    int dtors = 0;
    for (size_t j = 0; j < nrel; j++) {
        if (rel[j].r_offset < lo || rel[j].r_offset >= hi) continue;
        unsigned t = ELF64_R_TYPE(rel[j].r_info);
        size_t sj = ELF64_R_SYM(rel[j].r_info);
        if (t == R_X86_64_PLT32) continue; /* a call: not an address handed on */
        if (!sj || sj >= nsym) return 0;
        const char *n = str + sym[sj].st_name;
        int type = ELF64_ST_TYPE(sym[sj].st_info);
        unsigned shn = sym[sj].st_shndx;
        if (type == STT_FUNC && shn != SHN_UNDEF) {
            if (!benign_dtor_sym(sym, nsym, str, sj)) return 0;
            dtors++;
        } else if (type == STT_SECTION) {
            if (shn >= nsec || (sh[shn].sh_flags & SHF_EXECINSTR)) return 0; /* an unnamed address in code */
        } else if (shn == SHN_UNDEF) {
            if (in_list(STD_DTORS, n)) dtors++; /* std::string's, as a static std::string registers it */
            else if (strcmp(n, "__dso_handle") && !starts(n, "_ZTV") && !starts(n, "_ZTI")) return 0;
        } else if (type != STT_OBJECT) {
            return 0;
        }
    }
    return dtors > 0;
}

static int check_elf(const span *f, const char *path, const oc_policy *p, oc_report *r)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->b;
    if (f->size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB)
        return report(r, "object: %s: not an ELF64 little-endian file", path), -1;
    if (eh->e_type != ET_REL) return report(r, "object: %s: not a relocatable object (.o)", path), -1;
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 ||
        !fits(f, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) || eh->e_shoff % 8)
        return report(r, "object: %s: damaged section table", path), -1;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f->b + eh->e_shoff);
    unsigned nsec = eh->e_shnum, symidx = 0;
    for (unsigned i = 0; i < nsec; i++)
        if (sh[i].sh_type == SHT_SYMTAB) {
            if (symidx) return report(r, "object: %s: two symbol tables", path), -1;
            symidx = i;
        }
    if (!symidx) return report(r, "object: %s: no symbol table", path), -1;
    const Elf64_Shdr *st = &sh[symidx];
    if (st->sh_entsize != sizeof(Elf64_Sym) || !fits(f, st->sh_offset, st->sh_size) || st->sh_offset % 8 ||
        st->sh_link >= nsec || sh[st->sh_link].sh_type != SHT_STRTAB || !fits(f, sh[st->sh_link].sh_offset, sh[st->sh_link].sh_size))
        return report(r, "object: %s: damaged symbol table", path), -1;
    const Elf64_Sym *sym = (const Elf64_Sym *)(f->b + st->sh_offset);
    size_t nsym = st->sh_size / sizeof(Elf64_Sym);
    const char *str = (const char *)f->b + sh[st->sh_link].sh_offset;
    size_t strsz = sh[st->sh_link].sh_size;
    if (!strsz || str[strsz - 1] != 0) return report(r, "object: %s: damaged string table", path), -1;

    /* Which sections hold only NVTX's weak functions, which anything else. */
    uint8_t *sec = calloc(nsec, 1); /* bit 1: an nvtx weak function, bit 2: another function */
    uint32_t *nvtx_uses = calloc(nsym ? nsym : 1, sizeof *nvtx_uses), *other_uses = calloc(nsym ? nsym : 1, sizeof *other_uses);
    if (!sec || !nvtx_uses || !other_uses) {
        free(sec), free(nvtx_uses), free(other_uses);
        return report(r, "object: %s: out of memory", path), -1;
    }
    for (size_t i = 1; i < nsym; i++) {
        if (sym[i].st_name >= strsz) {
            free(sec), free(nvtx_uses), free(other_uses);
            return report(r, "object: %s: symbol %zu has a name outside the string table", path, i), -1;
        }
        unsigned shn = sym[i].st_shndx;
        if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC || shn == SHN_UNDEF || shn >= nsec) continue;
        const char *n = str + sym[i].st_name;
        int nvtx = ELF64_ST_BIND(sym[i].st_info) == STB_WEAK && (starts(n, "nvtx") || strstr(n, "4nvtx"));
        sec[shn] |= nvtx ? 1 : 2;
    }
    for (unsigned s = 0; s < nsec; s++) {
        if (sh[s].sh_type != SHT_RELA || sh[s].sh_link != symidx) continue;
        if (sh[s].sh_entsize != sizeof(Elf64_Rela) || !fits(f, sh[s].sh_offset, sh[s].sh_size) || sh[s].sh_offset % 8 ||
            sh[s].sh_info >= nsec)
            continue; /* not used for attribution: an unattributed use counts as the student's */
        const Elf64_Rela *rel = (const Elf64_Rela *)(f->b + sh[s].sh_offset);
        int only_nvtx = sec[sh[s].sh_info] == 1;
        for (size_t k = 0; k < sh[s].sh_size / sizeof *rel; k++) {
            size_t si = ELF64_R_SYM(rel[k].r_info);
            if (si < nsym) (only_nvtx ? nvtx_uses : other_uses)[si]++;
        }
    }

    /* References to exit, and those that are calls from nvcc's host copies of
     * __device__ functions (nvcc_device_stub_call): when every one is, exit
     * is not reported. */
    size_t exit_refs = 0, exit_stub_refs = 0;
    for (unsigned s = 0; s < nsec; s++) {
        if (sh[s].sh_type != SHT_RELA || sh[s].sh_link != symidx || sh[s].sh_info >= nsec) continue;
        if (sh[s].sh_entsize != sizeof(Elf64_Rela) || !fits(f, sh[s].sh_offset, sh[s].sh_size) || sh[s].sh_offset % 8) continue;
        const Elf64_Shdr *tgt = &sh[sh[s].sh_info];
        int code = (tgt->sh_flags & SHF_EXECINSTR) && tgt->sh_type == SHT_PROGBITS && fits(f, tgt->sh_offset, tgt->sh_size);
        const Elf64_Rela *rel = (const Elf64_Rela *)(f->b + sh[s].sh_offset);
        for (size_t k = 0; k < sh[s].sh_size / sizeof *rel; k++) {
            size_t si = ELF64_R_SYM(rel[k].r_info);
            if (si == 0 || si >= nsym || strcmp(str + sym[si].st_name, "exit")) continue;
            exit_refs++;
            unsigned type = ELF64_R_TYPE(rel[k].r_info);
            if (code && (type == R_X86_64_PLT32 || type == R_X86_64_PC32) && rel[k].r_addend == -4 &&
                nvcc_device_stub_call(f->b + tgt->sh_offset, tgt->sh_size, rel[k].r_offset, sh[s].sh_info, sym, nsym))
                exit_stub_refs++;
        }
    }

    /* The forbid list as libraries. */
    enum { MAXL = 32 };
    lib libs[MAXL];
    char libbuf[MAXL][64];
    const char *first[MAXL] = { 0 };
    long hits[MAXL] = { 0 };
    int nl = 0;
    for (int i = 0; p->forbid && p->forbid[i] && nl < MAXL; i++, nl++) libs[nl] = lib_of(p->forbid[i], libbuf[nl], sizeof libbuf[nl]);
    const char *const *harness = p->harness_prefixes ? p->harness_prefixes : default_harness;

    int before = r->violations;
    check_sections(f, eh, sh, nsec, path, r);

    /* Code run before the test's main or after it ends (constructors,
     * destructors, functions registered to run at exit) could write the
     * harness's results record itself, or rewrite it once the harness has:
     * exercise code runs only when the test calls it. nvcc's own registration
     * (__sti____cudaRegisterAll, which registers __cudaUnregisterBinaryUtil
     * with atexit) is the one exception: one entry, under its exact name (a
     * second function of that name would not assemble). */
    int nvcc_ctors = 0;
    for (unsigned s = 0; s < nsec; s++) {
        if (sh[s].sh_type != SHT_RELA || sh[s].sh_link != symidx || sh[s].sh_info >= nsec) continue;
        const Elf64_Shdr *tgt = &sh[sh[s].sh_info];
        const char *tname = "";
        if (eh->e_shstrndx < nsec && sh[eh->e_shstrndx].sh_type == SHT_STRTAB &&
            fits(f, sh[eh->e_shstrndx].sh_offset, sh[eh->e_shstrndx].sh_size) && tgt->sh_name < sh[eh->e_shstrndx].sh_size &&
            memchr(f->b + sh[eh->e_shstrndx].sh_offset + tgt->sh_name, 0, sh[eh->e_shstrndx].sh_size - tgt->sh_name))
            tname = (const char *)f->b + sh[eh->e_shstrndx].sh_offset + tgt->sh_name;
        int before_main = tgt->sh_type == SHT_INIT_ARRAY || tgt->sh_type == SHT_PREINIT_ARRAY || before_main_name(tname);
        int after_main = tgt->sh_type == SHT_FINI_ARRAY || after_main_name(tname);
        int code = (tgt->sh_flags & SHF_EXECINSTR) != 0;
        if (!before_main && !after_main && !code) continue;
        if (sh[s].sh_entsize != sizeof(Elf64_Rela) || !fits(f, sh[s].sh_offset, sh[s].sh_size) || sh[s].sh_offset % 8) {
            if (before_main || after_main) report(r, "object: %s: unreadable relocations for %s", path, tname);
            continue;
        }
        const Elf64_Rela *rel = (const Elf64_Rela *)(f->b + sh[s].sh_offset);
        for (size_t k = 0; k < sh[s].sh_size / sizeof *rel; k++) {
            size_t si = ELF64_R_SYM(rel[k].r_info);
            if (si == 0 || si >= nsym) continue;
            if (before_main || after_main) {
                /* the function an entry points at: a symbol, or section + addend */
                size_t fi = si;
                if (ELF64_ST_TYPE(sym[si].st_info) == STT_SECTION) {
                    fi = 0;
                    for (size_t i = 1; i < nsym && !fi; i++)
                        if (ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC && sym[i].st_shndx == sym[si].st_shndx &&
                            sym[i].st_value == (uint64_t)rel[k].r_addend)
                            fi = i;
                }
                const char *fn = fi ? str + sym[fi].st_name : "";
                if (!strcmp(fn, NVCC_REGISTER) && before_main && ++nvcc_ctors == 1) continue;
                if (before_main && benign_static_init(fn, 0)) { r->benign_inits++; continue; }
                report(r, "%s: %s: runs %s the test (exercise code runs only when the test calls it)",
                       before_main ? "constructor" : "destructor", *fn ? fn : "(unnamed)",
                       before_main ? "before" : "after");
                continue;
            }
            /* a call in code: atexit and friends only from nvcc's registration */
            const char *callee = str + sym[si].st_name;
            if (strcmp(callee, "atexit") && strcmp(callee, "__cxa_atexit") && strcmp(callee, "at_quick_exit") &&
                strcmp(callee, "on_exit") && strcmp(callee, "__cxa_thread_atexit") &&
                strcmp(callee, "__cxa_thread_atexit_impl"))
                continue;
            size_t in = 0;
            for (size_t i = 1; i < nsym && !in; i++)
                if (ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC && sym[i].st_shndx == sh[s].sh_info &&
                    rel[k].r_offset >= sym[i].st_value && rel[k].r_offset < sym[i].st_value + sym[i].st_size)
                    in = i;
            if (in && !strcmp(str + sym[in].st_name, NVCC_REGISTER)) continue;
            if (in && benign_static_init(str + sym[in].st_name, 0)) continue;
            if (in && !strcmp(callee, "__cxa_atexit") &&
                registers_benign_dtor(rel, sh[s].sh_size / sizeof *rel, k, sym, nsym, str, sh, nsec, in))
                continue;
            report(r, "references: %s: registers code to run after the test (in %s)", callee,
                   in ? str + sym[in].st_name : "(unnamed)");
        }
    }
    for (size_t i = 1; i < nsym; i++) {
        const char *n = str + sym[i].st_name;
        int bind = ELF64_ST_BIND(sym[i].st_info), type = ELF64_ST_TYPE(sym[i].st_info);
        if (!*n || type == STT_SECTION || type == STT_FILE) continue;
        int forbidden_lib = 0;
        for (int l = 0; l < nl; l++)
            if (lib_symbol(&libs[l], n)) {
                forbidden_lib = 1;
                if (hits[l]++ == 0) first[l] = n;
            }
        if (sym[i].st_shndx != SHN_UNDEF && in_list(STD_DTORS, n))
            report(r, "defines: %s: a destructor of the standard library (libstdc++'s own, run at exit when a "
                      "static of its class is destroyed)", n);
        if (type == STT_GNU_IFUNC && sym[i].st_shndx != SHN_UNDEF)
            report(r, "ifunc: %s: its resolver runs when the program is loaded, before the test "
                      "(exercise code runs only when the test calls it)", n);
        if (bind == STB_LOCAL) continue;
        int defined = sym[i].st_shndx != SHN_UNDEF;
        int harness_name = in_prefixes(harness, n);
        if (defined) {
            if (in_list(p->api, n)) continue;
            if (!strcmp(n, "main")) report(r, "defines: main: the test's own main would be displaced");
            else if (harness_name) report(r, "defines: %s: a harness internal (the linker would take it over the harness's)", n);
            else if (replaces_new_delete(n))
                report(r, "defines: %s: replaces the global operator new/delete", n);
            else if (compiler_made(n, bind))
                continue; /* made by nvcc or by the CUDA headers */
            else report(r, "defines: %s: not the exercise's API (a C symbol here could displace the harness's or the runtime's)", n);
            continue;
        }
        /* a reference */
        if (harness_name) {
            if (!in_list(p->harness_allow, n)) report(r, "references: %s: a harness internal exercise code may not call", n);
            continue;
        }
        if (in_list(p->allow_refs, n)) continue;
        if (p->allow_fileio && in_list(stdio_files, n)) continue;
        if (forbidden_lib) continue; /* said once, with the library, below */
        if (known_lib_api(n)) continue; /* a library this week allows (the build links it or fails) */
        const char *why = bad_reason(n);
        if (why) {
            if (nvtx_may_use(n) && nvtx_uses[i] > 0 && other_uses[i] == 0) continue; /* only NVTX's loader */
            /* nvcc gives every __device__ function that is neither static nor inline a host copy that calls
             * exit(1) (kept by the host compiler unless static and unused): not the student's exit when every
             * reference is such a copy's call; else say so, since the learner may never have written the call */
            if (!strcmp(n, "exit") && exit_refs > 0 && exit_stub_refs == exit_refs) continue;
            report(r, "references: %s: %s%s", n, why,
                   !strcmp(n, "exit") ? " (if your code calls no exit itself: nvcc gives each __device__ function "
                                        "that is neither static nor inline a host copy that calls exit; declare "
                                        "your __device__ functions __device__ inline, or static __device__)"
                                      : "");
            continue;
        }
        if (is_mangled(n)) {
            int file = 0;
            for (int k = 0; std_files[k]; k++) file |= strstr(n, std_files[k]) != NULL;
            if (file) report(r, "references: %s: C++ file or filesystem access", n);
            else if (!in_prefixes(ok_prefixes, n)) report(r, "references: %s: not on the allow-list of references", n);
            continue;
        }
        if (in_list(ok_c, n) || math_ok(n) || in_prefixes(ok_prefixes, n) ||
            (n[0] == 'c' && n[1] == 'u' && n[2] >= 'A' && n[2] <= 'Z'))
            continue;
        report(r, "references: %s: not on the allow-list of references", n);
    }
    for (int l = 0; l < nl; l++)
        if (hits[l])
            report(r, "uses %s (forbidden this week): %s%s", libs[l].name, first[l],
                   hits[l] > 1 ? " and more symbols of it" : "");
    free(sec), free(nvtx_uses), free(other_uses);
    return r->violations - before;
}

/* System calls made directly (the syscall, sysenter or int instruction in
 * host code) pass by every library function the reference check knows:
 * with them a submission can write the results record itself. The
 * compiler never emits them (libc's wrappers hold them), so any one is the
 * student's inline assembly. The host code is read with objdump (binutils,
 * which the host compiler needs anyway). */
static int check_code(const char *path, oc_report *r)
{
    int before = r->violations, fd[2];
    if (pipe(fd) != 0) return report(r, "object: %s: cannot disassemble (pipe: %s)", path, strerror(errno)), 1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0) dup2(nul, 2);
        /* a backstop past the section limit: objdump stopped (its output then
         * cut short, a finding) after OC_OBJDUMP_S of CPU time or twice that
         * of wall time; both survive the exec */
        struct rlimit cpu = { OC_OBJDUMP_S, OC_OBJDUMP_S + 5 };
        setrlimit(RLIMIT_CPU, &cpu);
        alarm(2 * OC_OBJDUMP_S);
        execlp("objdump", "objdump", "-d", "-r", "--no-show-raw-insn", "--", path, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        return report(r, "object: %s: cannot disassemble (fork: %s)", path, strerror(errno)), 1;
    }
    FILE *in = fdopen(fd[0], "r");
    char line[4096], fn[256] = "", branch[256] = "", said_in[256] = "\001";
    long lines = 0;
    g_nfns = 0;
    code_fn *cur = NULL;
    while (in && fgets(line, sizeof line, in)) {
        lines++;
        line[strcspn(line, "\n")] = 0;
        /* "0000000000000040 <name>:" opens a function */
        char *lt = strchr(line, '<'), *gt = lt ? strstr(lt, ">:") : NULL;
        if (line[0] != ' ' && line[0] != '\t' && lt && gt) {
            snprintf(fn, sizeof fn, "%.*s", (int)(gt - lt - 1), lt + 1);
            branch[0] = 0, cur = NULL;
            /* only a static initialiser (benign_static_init) or a destructor (benign_dtor) can be let through */
            int dt = dtor_name(fn);
            if (!dt && !strstr(fn, "_GLOBAL__sub_I") && !strstr(fn, "__static_initialization_and_destruction")) continue;
            if (g_nfns == g_capfns) {
                int cap = g_capfns ? 2 * g_capfns : 64;
                code_fn *m = realloc(g_fns, (size_t)cap * sizeof *m);
                if (m) g_fns = m, g_capfns = cap;
            }
            if (g_nfns < g_capfns) {
                cur = &g_fns[g_nfns++];
                memset(cur, 0, sizeof *cur);
                snprintf(cur->name, sizeof cur->name, "%s", fn);
                cur->dtor = dt;
            }
            continue;
        }
        /* "\t\t\t25c: R_X86_64_PLT32\t_ZNSt8ios_base4InitC1Ev-0x4": a relocation of the line above */
        char *rx = strstr(line, ": R_");
        if (line[0] == '\t' && rx) {
            char *sym = strchr(rx + 2, '\t');
            char target[256] = "";
            if (sym) snprintf(target, sizeof target, "%.*s", (int)strcspn(sym + 1, "+-"), sym + 1);
            if (cur && cur->dtor) {
                if (dtor_may_use(target)) ;
                else if (dtor_name(target) && (!cur->dep[0] || !strcmp(cur->dep, target)) && strcmp(target, fn))
                    snprintf(cur->dep, sizeof cur->dep, "%s", target);
                else cur->bad = 1;
            } else if (cur) {
                if (!strcmp(target, "_ZNSt8ios_base4InitC1Ev")) cur->init = 1;
                else if (!strcmp(target, "_ZNSt8ios_base4InitD1Ev") || !strcmp(target, "__cxa_atexit") ||
                         !strcmp(target, "__dso_handle") || (target[0] == '.' && strncmp(target, ".text", 5)))
                    ;
                else if (strstr(target, "__static_initialization_and_destruction"))
                    snprintf(cur->dep, sizeof cur->dep, "%s", target);
                else cur->bad = 1;
            }
            branch[0] = 0; /* the branch above was relocated: judged by its target */
            continue;
        }
        /* a direct branch that was not relocated: to itself, or to another function of this file */
        if (branch[0] && cur) {
            if (!strcmp(branch, fn)) ; /* a jump inside the function */
            else if (!cur->dtor && strstr(branch, "__static_initialization_and_destruction"))
                snprintf(cur->dep, sizeof cur->dep, "%s", branch);
            else cur->bad = 1;
        }
        branch[0] = 0;
        /* "  4f:\tsyscall" : the mnemonic follows the first tab */
        char *t = strchr(line, '\t');
        if (!t) continue;
        t++;
        while (*t == ' ') t++;
        size_t k = strcspn(t, " \t");
        int bad = (k == 7 && !strncmp(t, "syscall", 7)) || (k == 8 && !strncmp(t, "sysenter", 8)) ||
                  (k == 3 && !strncmp(t, "int", 3));
        if (bad && strcmp(fn, said_in) != 0) { /* one finding a function */
            snprintf(said_in, sizeof said_in, "%s", fn);
            char mn[16];
            snprintf(mn, sizeof mn, "%.*s", (int)k, t);
            report(r, "instruction: %s in %s: a system call made directly (the harness's records could be forged)", mn,
                   fn[0] ? fn : "(unnamed)");
        }
        if (cur && (t[0] == 'j' || !strncmp(t, "call", 4))) {
            if (strchr(t, '*')) cur->bad = 1; /* an indirect call or jump */
            else {
                char *bl = strchr(t, '<'), *bg = bl ? strchr(bl, '>') : NULL;
                if (bl && bg) snprintf(branch, sizeof branch, "%.*s", (int)strcspn(bl + 1, "+>"), bl + 1);
            }
        }
    }
    if (branch[0] && cur && strcmp(branch, fn)) cur->bad = 1;
    if (in) fclose(in);
    else close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || lines == 0)
        report(r, "object: %s: cannot disassemble (objdump %s)%s", path,
               WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "not found"
               : WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGALRM ||
                                         WTERMSIG(status) == SIGKILL)
                   ? "stopped: past its time limit"
                   : "failed",
               WIFEXITED(status) && WEXITSTATUS(status) == 127 ? ": the grader needs binutils' objdump" : "");
    return r->violations - before;
}

/* Map a regular file of at least `min` bytes read-only into *f; -1 (errno
 * set where a call failed) if it cannot be. unmap_file undoes it. */
static int map_file(const char *path, size_t min, span *f)
{
    errno = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < min || st.st_size == 0) {
        if (fd >= 0) close(fd);
        return -1;
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return -1;
    *f = (span){ m, (size_t)st.st_size };
    return 0;
}
static void unmap_file(span *f) { munmap((void *)f->b, f->size); }

int oc_check_object(const char *path, const oc_policy *p, oc_report *r)
{
    span f;
    if (map_file(path, 1, &f) != 0) {
        report(r, "object: %s: cannot be read (%s)", path, errno ? strerror(errno) : "not a regular file");
        return -1;
    }
    /* An object of tens of thousands of sections (assembler directives make
     * them in seconds) costs objdump time that grows with their square: one
     * of 40,000 held a class's grading 10 minutes. A compiler's object for a
     * week's exercise has a few hundred (391 the most among the references,
     * CUB's); past OC_MAX_SECTIONS it is refused unread. */
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f.b;
    if (f.size >= sizeof *eh && !memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
        eh->e_shnum > OC_MAX_SECTIONS) {
        report(r, "object: %s: %u sections, more than a compiler makes (the limit is %d): not read", path,
               (unsigned)eh->e_shnum, OC_MAX_SECTIONS);
        unmap_file(&f);
        return -1;
    }
    int c = check_code(path, r); /* first: check_elf's constructor rule reads what it found */
    int n = check_elf(&f, path, p, r);
    unmap_file(&f);
    g_nfns = 0;
    return n < 0 ? n : n + c;
}


/* ------------------------------------------------------------- linked start-up */

typedef struct {
    char **names;      /* one a start-up entry: the function it points at ("?" unknown) */
    int n, cap;
    uint64_t init_sz, fini_sz;
    int has_init, has_fini;
    long irelative;    /* ifunc resolutions the loader runs */
} startup;

static void su_add(startup *u, const char *kind, const char *fn)
{
    if (u->n == u->cap) {
        int cap = u->cap ? 2 * u->cap : 32;
        char **m = realloc(u->names, (size_t)cap * sizeof *m);
        if (!m) return;
        u->names = m, u->cap = cap;
    }
    char buf[400];
    snprintf(buf, sizeof buf, "%s %s", kind, fn);
    u->names[u->n] = strdup(buf);
    if (u->names[u->n]) u->n++;
}

static void su_free(startup *u)
{
    for (int i = 0; i < u->n; i++) free(u->names[i]);
    free(u->names);
    memset(u, 0, sizeof *u);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The start-up code of a linked program: the entries of its .preinit_array,
 * .init_array and .fini_array (by the function each points at, from .symtab),
 * the sizes of .init and .fini, its IRELATIVE relocations. -1: unreadable. */
static int read_startup(const char *path, startup *u)
{
    memset(u, 0, sizeof *u);
    span f;
    if (map_file(path, sizeof(Elf64_Ehdr), &f) != 0) return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f.b;
    int rc = -1;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        !fits(&f, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) || eh->e_shstrndx >= eh->e_shnum)
        goto out;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f.b + eh->e_shoff);
    unsigned nsec = eh->e_shnum;
    const Elf64_Shdr *ss = &sh[eh->e_shstrndx];
    if (!fits(&f, ss->sh_offset, ss->sh_size) || ss->sh_size == 0 || f.b[ss->sh_offset + ss->sh_size - 1]) goto out;
    const char *shstr = (const char *)f.b + ss->sh_offset;
    const Elf64_Sym *sym = NULL;
    const char *str = NULL;
    size_t nsym = 0, strsz = 0;
    for (unsigned i = 0; i < nsec; i++)
        if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_entsize == sizeof(Elf64_Sym) && fits(&f, sh[i].sh_offset, sh[i].sh_size) &&
            sh[i].sh_link < nsec && fits(&f, sh[sh[i].sh_link].sh_offset, sh[sh[i].sh_link].sh_size) &&
            sh[sh[i].sh_link].sh_size > 0 && !f.b[sh[sh[i].sh_link].sh_offset + sh[sh[i].sh_link].sh_size - 1]) {
            sym = (const Elf64_Sym *)(f.b + sh[i].sh_offset), nsym = sh[i].sh_size / sizeof *sym;
            str = (const char *)f.b + sh[sh[i].sh_link].sh_offset, strsz = sh[sh[i].sh_link].sh_size;
        }
    for (unsigned i = 0; i < nsec; i++) {
        if (sh[i].sh_name >= ss->sh_size) continue;
        const char *n = shstr + sh[i].sh_name;
        if (!strcmp(n, ".init")) u->has_init = 1, u->init_sz = sh[i].sh_size;
        if (!strcmp(n, ".fini")) u->has_fini = 1, u->fini_sz = sh[i].sh_size;
        if (sh[i].sh_type == SHT_RELA && sh[i].sh_entsize == sizeof(Elf64_Rela) && fits(&f, sh[i].sh_offset, sh[i].sh_size)) {
            const Elf64_Rela *rel = (const Elf64_Rela *)(f.b + sh[i].sh_offset);
            for (size_t k = 0; k < sh[i].sh_size / sizeof *rel; k++)
                if (ELF64_R_TYPE(rel[k].r_info) == R_X86_64_IRELATIVE) u->irelative++;
        }
        const char *kind = sh[i].sh_type == SHT_PREINIT_ARRAY || !strcmp(n, ".preinit_array") ? ".preinit_array"
                         : sh[i].sh_type == SHT_INIT_ARRAY || !strcmp(n, ".init_array") ? ".init_array"
                         : sh[i].sh_type == SHT_FINI_ARRAY || !strcmp(n, ".fini_array") ? ".fini_array"
                         : !strcmp(n, ".ctors") ? ".ctors" : !strcmp(n, ".dtors") ? ".dtors" : NULL;
        if (!kind || sh[i].sh_type == SHT_NOBITS) continue;
        if (!fits(&f, sh[i].sh_offset, sh[i].sh_size)) goto out;
        for (uint64_t k = 0; k + 8 <= sh[i].sh_size; k += 8) {
            uint64_t a;
            memcpy(&a, f.b + sh[i].sh_offset + k, 8);
            const char *fn = "?";
            for (size_t j = 1; j < nsym; j++)
                if (sym[j].st_value == a && sym[j].st_name < strsz && sym[j].st_shndx != SHN_UNDEF &&
                    (ELF64_ST_TYPE(sym[j].st_info) == STT_FUNC || ELF64_ST_TYPE(sym[j].st_info) == STT_GNU_IFUNC)) {
                    fn = str + sym[j].st_name;
                    break;
                }
            su_add(u, kind, fn);
        }
    }
    qsort(u->names, (size_t)u->n, sizeof *u->names, cmp_str);
    rc = 0;
out:
    unmap_file(&f);
    return rc;
}

int oc_check_startup(const char *linked, const char *reference, int allowed_inits, oc_report *r)
{
    startup a, b;
    if (read_startup(reference, &b) != 0) {
        su_free(&b);
        return report(r, "startup: %s: the starter build cannot be read", reference), -1;
    }
    if (read_startup(linked, &a) != 0) {
        su_free(&a), su_free(&b);
        return report(r, "startup: %s: the linked test program cannot be read", linked), -1;
    }
    int before = r->violations;
    if (a.has_init != b.has_init || a.init_sz != b.init_sz)
        report(r, "startup: .init: %llu bytes, the starter build's %llu: code added to the start-up routine",
               (unsigned long long)a.init_sz, (unsigned long long)b.init_sz);
    if (a.has_fini != b.has_fini || a.fini_sz != b.fini_sz)
        report(r, "startup: .fini: %llu bytes, the starter build's %llu: code added to the exit routine",
               (unsigned long long)a.fini_sz, (unsigned long long)b.fini_sz);
    if (a.irelative > b.irelative)
        report(r, "startup: %ld ifunc resolution(s) beyond the starter build's: code the loader runs before the test",
               a.irelative - b.irelative);
    /* each entry of the learner's program beyond the starter build's (sorted multisets) */
    int i = 0, j = 0, extra_inits = 0;
    while (i < a.n) {
        int c = j < b.n ? strcmp(a.names[i], b.names[j]) : -1;
        if (c == 0) { i++, j++; continue; }
        if (c > 0) { j++; continue; }
        const char *e = a.names[i++];
        /* a static initialiser the object check let through (std::ios_base::Init), up to how many it did */
        if (starts(e, ".init_array _GLOBAL__sub_I_") && extra_inits < allowed_inits) { extra_inits++; continue; }
        report(r, "startup: %s: an entry the starter build does not have (code run %s the test)", e,
               starts(e, ".fini") || starts(e, ".dtors") ? "after" : "before");
    }
    su_free(&a), su_free(&b);
    return r->violations - before;
}

/* Made by nvcc or by the CUDA headers, not written by a person. */
static int compiler_made(const char *n, int bind)
{
    return is_mangled(n) || starts(n, "DW.ref.") || starts(n, "__fatbinwrap_") || starts(n, "__cudaRegisterLinkedBinary_") ||
           starts(n, "__nv_") ||
           (bind == STB_WEAK && (starts(n, "nvtx") || starts(n, "InitializeInjectionNvtx") || starts(n, "hostRef")));
}

int oc_api_symbols(const char *path, char **names, int *n, int max)
{
    span f;
    if (map_file(path, sizeof(Elf64_Ehdr), &f) != 0) return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f.b;
    int added = -1;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_type != ET_REL ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || !fits(&f, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
        goto out;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f.b + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB) continue;
        const Elf64_Shdr *s = &sh[i];
        if (s->sh_entsize != sizeof(Elf64_Sym) || !fits(&f, s->sh_offset, s->sh_size) || s->sh_link >= eh->e_shnum ||
            !fits(&f, sh[s->sh_link].sh_offset, sh[s->sh_link].sh_size) || sh[s->sh_link].sh_size == 0)
            goto out;
        const Elf64_Sym *sym = (const Elf64_Sym *)(f.b + s->sh_offset);
        const char *str = (const char *)f.b + sh[s->sh_link].sh_offset;
        size_t strsz = sh[s->sh_link].sh_size, nsym = s->sh_size / sizeof *sym;
        if (str[strsz - 1] != 0) goto out;
        added = 0;
        for (size_t k = 1; k < nsym && *n < max; k++) {
            if (sym[k].st_name >= strsz || sym[k].st_shndx == SHN_UNDEF) continue;
            int bind = ELF64_ST_BIND(sym[k].st_info), type = ELF64_ST_TYPE(sym[k].st_info);
            const char *nm = str + sym[k].st_name;
            if (bind == STB_LOCAL || !*nm || (type != STT_FUNC && type != STT_OBJECT) || compiler_made(nm, bind)) continue;
            char *c = strdup(nm);
            if (c) names[(*n)++] = c, added++;
        }
        break;
    }
out:
    unmap_file(&f);
    return added;
}

/* ------------------------------------------------------------- headers */

/* "a/./b/../c" -> "a/c", in place; absolute paths only. */
static void normalize(char *s)
{
    char *out = s, *in = s;
    while (*in) {
        while (*in == '/') in++;
        char *seg = in;
        while (*in && *in != '/') in++;
        size_t len = (size_t)(in - seg);
        if (len == 0 || (len == 1 && seg[0] == '.')) continue;
        if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            while (out > s && *--out != '/') {}
            continue;
        }
        *out++ = '/';
        memmove(out, seg, len);
        out += len;
    }
    if (out == s) *out++ = '/';
    *out = 0;
}

static int under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == 0);
}

static void check_dep(const char *dep, const char *base, const oc_policy *p, char (*dirs)[PATH_MAX], int ndirs,
                      const lib *libs, int nl, long *hits, char (*first)[160], long *whits, char (*wfirst)[160],
                      oc_report *r)
{
    char full[PATH_MAX], real[PATH_MAX];
    if (strlen(dep) + strlen(base) + 2 >= sizeof full) {
        report(r, "header: %.80s...: too long a path", dep);
        return;
    }
    if (dep[0] == '/') snprintf(full, sizeof full, "%s", dep);
    else snprintf(full, sizeof full, "%s/%s", base, dep);
    if (!realpath(full, real)) { /* gone since the build: judge the text */
        snprintf(real, sizeof real, "%s", full);
        normalize(real);
    }
    int ok = 0;
    for (int i = 0; i < ndirs && !ok; i++) ok = under(real, dirs[i]);
    if (!ok) report(r, "header: %s: outside the allowed folders%s", dep, strstr(dep, "..") ? " (a ../ escape)" : "");
    /* forbidden libraries by file name or folder, on the path as written and as resolved */
    const char *paths[2] = { full, real };
    for (int l = 0; l < nl; l++) {
        int hit = 0, host = 0;
        for (int k = 0; k < 2 && !hit; k++) {
            const char *bn = strrchr(paths[k], '/');
            bn = bn ? bn + 1 : paths[k];
            const char *dot = strrchr(bn, '.');
            int header = dot && (!strcmp(dot, ".h") || !strcmp(dot, ".hpp") || !strcmp(dot, ".cuh") || !strcmp(dot, ".hxx"));
            if (libs[l].hprefix && header && starts(bn, libs[l].hprefix)) {
                if (libs[l].cprefix && host_api_header(libs[l].name, bn)) host = 1;
                else hit = 1;
            }
            if (libs[l].hdir) {
                char comp[80];
                snprintf(comp, sizeof comp, "/%s/", libs[l].hdir);
                if (strstr(paths[k], comp)) hit = 1;
            }
        }
        if (hit && hits[l]++ == 0) snprintf(first[l], sizeof first[l], "%s", dep);
        else if (!hit && host && whits[l]++ == 0) snprintf(wfirst[l], sizeof wfirst[l], "%s", dep);
    }
    (void)p;
}

int oc_check_deps(const char *dfile, const char *base, const oc_policy *p, oc_report *r)
{
    FILE *f = fopen(dfile, "r");
    if (!f) {
        report(r, "deps: %s: cannot be read", dfile);
        return -1;
    }
    char *t = malloc(MAX_DEPFILE + 1);
    size_t n = t ? fread(t, 1, MAX_DEPFILE + 1, f) : 0;
    fclose(f);
    if (!t || n > MAX_DEPFILE) {
        free(t);
        report(r, "deps: %s: larger than %ld bytes", dfile, MAX_DEPFILE);
        return -1;
    }
    t[n] = 0;
    static char dirs[64][PATH_MAX];
    int ndirs = 0;
    for (int i = 0; p->include_dirs && p->include_dirs[i] && ndirs < 64; i++) {
        if (!realpath(p->include_dirs[i], dirs[ndirs])) continue;
        ndirs++;
    }
    enum { MAXL = 32 };
    lib libs[MAXL];
    char libbuf[MAXL][64], first[MAXL][160], wfirst[MAXL][160];
    long hits[MAXL] = { 0 }, whits[MAXL] = { 0 };
    int nl = 0;
    for (int i = 0; p->forbid && p->forbid[i] && nl < MAXL; i++, nl++) libs[nl] = lib_of(p->forbid[i], libbuf[nl], sizeof libbuf[nl]);

    int before = r->violations;
    /* One pass: tokens split at unescaped blanks; a token ending in ':' (or a
     * lone ':') ends the targets of a rule; an unescaped newline ends a rule. */
    char tok[PATH_MAX + 2];
    size_t tl = 0;
    int in_deps = 0, too_long = 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? t[i] : '\n';
        if (c == '\\' && i + 1 < n && t[i + 1] == '\n') { i++; c = ' '; }
        else if (c == '\\' && i + 1 < n && t[i + 1] == ' ') { i++; if (tl < PATH_MAX) tok[tl++] = ' '; else too_long = 1; continue; }
        else if (c == '$' && i + 1 < n && t[i + 1] == '$') { i++; if (tl < PATH_MAX) tok[tl++] = '$'; else too_long = 1; continue; }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (tl || too_long) {
                tok[tl] = 0;
                if (!in_deps && tl && tok[tl - 1] == ':') in_deps = 1; /* "target:" */
                else if (!in_deps && !strcmp(tok, ":")) in_deps = 1;
                else if (in_deps && too_long) report(r, "header: %.60s...: too long a path", tok);
                else if (in_deps) check_dep(tok, base, p, dirs, ndirs, libs, nl, hits, first, whits, wfirst, r);
                tl = 0, too_long = 0;
            }
            if (c == '\n') in_deps = 0;
            continue;
        }
        if (tl < PATH_MAX) tok[tl++] = c;
        else too_long = 1;
    }
    free(t);
    for (int l = 0; l < nl; l++)
        if (hits[l])
            report(r, "header: %s: a header of %s (forbidden this week)%s", first[l], libs[l].name,
                   hits[l] > 1 ? ", and more of its headers" : "");
        else if (whits[l])
            warn(r, "header: %s: a header of %s, which is forbidden this week: the include alone costs nothing (a "
                 "call is seen by its symbol, and that scores the week 0); remove it", wfirst[l], libs[l].name);
    return r->violations - before;
}
