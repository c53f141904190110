/* objcheck.h — static checks on what a student's exercise file compiled to.
 *
 * The grader links the student's object with its own harness, so what the
 * object defines and references decides what the linked test can do:
 *
 *   (a) definitions: a global symbol the object defines must be the
 *       exercise's API (the caller's list) or one the compiler makes (C++
 *       mangled names: kernels, their stubs, inline and template code; CUDA
 *       registration and fatbin wrappers; NVTX's weak header code). Anything
 *       else with a C name is refused: a student's wb_compare_f32, main or
 *       cudaEventElapsedTime would be taken by the linker over the harness's
 *       or the runtime's. Replacing operator new/delete is refused too.
 *   (b) references: every undefined symbol must be on an allow-list (the
 *       CUDA runtime, the C++ runtime pieces nvcc emits, plain C memory,
 *       string, printf-family and math functions). Known-bad ones get their
 *       own reason: dlopen/dlsym, fork/exec/system/popen, file and socket
 *       I/O, syscall, ptrace, signals, exit (it could end a test early),
 *       getenv (it could tell a graded run from practice). dlopen, dlsym and
 *       getenv are let through only when every use of them is inside NVTX's
 *       own weak loader functions (cub and thrust headers bring those in).
 *       Harness functions (caller's prefixes) only from a short allow-list.
 *   (c) headers, from the .d file nvcc -MMD writes: each must lie under an
 *       allowed folder (real paths, so neither `../` nor a symlink leaves the
 *       scratch copy).
 *   (d) sections, by name and flags (the linker places them by name,
 *       objdump reads only those flagged executable): code only in .text
 *       and .text.*, flagged executable; no .init/.fini code, no allocated
 *       section a compiler never makes, no ifunc (its resolver runs at load).
 *       oc_check_startup compares the linked program's start-up code with
 *       the starter build's, as defence in depth.
 *   A per-week forbid list names libraries: cublas, cublaslt, cufft, curand,
 *   cusparse, cusolver, cudnn, nccl (C prefixes and headers), cub, thrust,
 *   cutlass, cute (C++ namespaces: the mangled component, e.g. N3cub, seen in
 *   every symbol, local ones included, since a cub kernel's stub is static;
 *   and the include folder), and raw symbol prefixes given as "yard_*".
 *   A library with link-time symbols is judged by them: its host API header
 *   (cublas_v2.h, cublasLt.h, cufft.h, curand.h, cudnn*.h, nccl.h, ...)
 *   included without a call is a warning (warnings, wtext), not a
 *   violation; its code-in-header parts (curand_kernel.h and the like) and
 *   the header-only libraries keep the header rule.
 *
 * What it cannot see: a namespace alias (namespace mycub = cub) or a macro
 * does not change the mangled name, so those are caught; but a library's
 * source pasted into the student's file under another namespace name leaves
 * neither its name in the symbols nor its header in the .d. Calls through a
 * function pointer obtained from an allowed function (cudaGetDriverEntryPoint)
 * are invisible. The checks read symbols, not code: the sandbox is what
 * contains what the code does at run time.
 *
 * Inputs are untrusted: the ELF is bounds-checked throughout and both files
 * are read in one linear pass (a 1 MB line, a million symbols).
 */
#ifndef OBJCHECK_H
#define OBJCHECK_H

#include <stddef.h>

typedef struct {
    const char *const *api;              /* the exercise's functions (extern "C") */
    const char *const *harness_prefixes; /* NULL: "wb_", "ck_", "srunner_", "suite_", "tcase_" */
    const char *const *harness_allow;    /* harness functions a submission may call, e.g. "wb_cuda_check_" */
    const char *const *forbid;           /* the week's forbid list: "cublas", "cub", "yard_*", ... */
    const char *const *allow_refs;       /* extra references allowed (exact names) */
    int allow_fileio;                    /* the exercise reads or writes files by contract (week.txt's fileio:):
                                            C's stdio file functions allowed */
    const char *const *include_dirs;     /* folders headers may come from */
} oc_policy;

typedef struct {
    int    violations;   /* how many */
    char  *text;         /* one line each: "WHAT: NAME: why" (the first 200; then a count) */
    size_t len, cap;
    int    benign_inits; /* static initialisers oc_check_object let through (std::ios_base::Init) */
    int    warnings;     /* findings that cost nothing: a forbidden library's host API header included */
    char  *wtext;        /* one line each, as text */
    size_t wlen, wcap;
} oc_report;

/* Check an ELF64 relocatable object. Returns the number of violations added
 * to r, or -1 if the file is not a readable ELF64 object (also reported). */
int oc_check_object(const char *path, const oc_policy *p, oc_report *r);

/* Check the dependency file `dfile`; relative paths in it are relative to
 * `base` (nvcc's working folder). Returns violations added, -1 if unreadable. */
int oc_check_deps(const char *dfile, const char *base, const oc_policy *p, oc_report *r);

void oc_report_free(oc_report *r);

/* Compare the start-up code of the linked test program `linked` with the
 * starter build's `reference`: the same .init and .fini sizes, no IRELATIVE
 * relocation (ifunc) beyond the reference's, and no entry of .preinit_array,
 * .init_array or .fini_array (named by the function it points at) beyond the
 * reference's, except up to `allowed_inits` static initialisers
 * (_GLOBAL__sub_I_*) the object check let through (oc_report.benign_inits).
 * Returns violations added, -1 if either program cannot be read. */
int oc_check_startup(const char *linked, const char *reference, int allowed_inits, oc_report *r);

/* The C names (not C++-mangled, not made by nvcc or the CUDA headers) that a
 * trusted object defines globally: the exercise's API, read from the
 * instructor's own build of the exercise. Appends at most max-*n names to
 * names[*n...] (each malloc'd). Returns how many were added, -1 if the file
 * is not a readable ELF64 object. */
int oc_api_symbols(const char *path, char **names, int *n, int max);

#endif
