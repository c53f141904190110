/* test_objcheck.c — Check tests of objcheck.c on objects nvcc builds here
 * ($NVCC, default /usr/local/cuda/bin/nvcc; sm_90, host side), in a fake
 * scratch workbook /tmp/oct-XXXXXX/wb/phase0/week01, plus synthetic ELF files
 * for the pathological cases. The objects are built with -MD, not -MMD:
 * nvcc passes the CCCL folder (cub, thrust, libcu++) as a system include, and
 * -MMD leaves system headers out of the .d. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "objcheck.h"

#include <check.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char root[64], week[128], objdir[160];

static const char *const sources[][2] = {
    { "harness.cu", "#include \"vecadd.h\"\n"
                    "extern \"C\" int wb_compare_f32(const float *a, const float *b, size_t n) { return 0; }\n"
                    "int main() { return 0; }\n"
                    "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    { "dl.cu", "#include <dlfcn.h>\n#include <stdlib.h>\n#include \"vecadd.h\"\n"
               "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) {\n"
               "  void *h = dlopen(\"libcublas.so\", RTLD_NOW); if (!h || getenv(\"WB_SEED\")) system(\"true\");\n"
               "  return (cudaError_t)(dlsym(h, \"cublasSgemm_v2\") != 0); }\n" },
    { "cublas.cu", "#include <cublas_v2.h>\n#include \"vecadd.h\"\n"
                   "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) {\n"
                   "  cublasHandle_t h; cublasCreate(&h); float one = 1;\n"
                   "  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, a, 1, b, 1, &one, c, 1);\n"
                   "  return cudaSuccess; }\n" },
    { "cub.cu", "#include <cub/cub.cuh>\n#include \"vecadd.h\"\n"
                "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) {\n"
                "  void *t = nullptr; size_t bytes = 0;\n"
                "  cub::DeviceReduce::Sum(t, bytes, a, c, (int)n); return cudaSuccess; }\n" },
    { "alias.cu", "#include <cub/device/device_reduce.cuh>\n#include \"vecadd.h\"\n"
                  "namespace mycub = cub;\n#define REDUCE mycub::DeviceReduce::Sum\n"
                  "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) {\n"
                  "  void *t = nullptr; size_t bytes = 0; REDUCE(t, bytes, a, c, (int)n); return cudaSuccess; }\n" },
    { "escape.cu", "#include \"../../secret.h\"\n#include \"vecadd.h\"\n"
                   "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return (cudaError_t)SECRET; }\n" },
    { "override.cu", "#include \"vecadd.h\"\n"
                     "extern \"C\" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {\n"
                     "  *ms = 1e-3f; return cudaSuccess; }\n"
                     "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    { "yard.cu", "#include \"vecadd.h\"\nextern \"C\" cudaError_t yard_copy(void *d, const void *s, size_t n);\n"
                 "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return yard_copy(c, a, n * 4); }\n" },
    { "ctor.cu", "#include \"vecadd.h\"\n"
                 "static long sc(long n, long a) { long r; __asm__ volatile(\"syscall\" : \"=a\"(r) : \"a\"(n), \"D\"(a) : \"rcx\", \"r11\", \"memory\"); return r; }\n"
                 "__attribute__((constructor)) static void early(void) { sc(39, 0); }\n"
                 "__attribute__((destructor)) static void late(void) { }\n"
                 "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    { "global.cu", "#include \"vecadd.h\"\nstruct Early { int v; Early() : v(1) { __asm__ volatile(\"\" ::: \"memory\"); } ~Early() {} };\n"
                   "static Early early;\n"
                   "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return (cudaError_t)(early.v - 1); }\n" },
    { "iostream.cu", "#include <iostream>\n#include \"vecadd.h\"\n"
                     "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    /* a syscall in a section assembled as data that the linker places among code (.stub) */
    { "stub.cu", "#include \"vecadd.h\"\n"
                 "__asm__(\".section .stub,\\\"a\\\",@progbits\\nwbfx_sc:\\n mov %rdi,%rax\\n syscall\\n ret\\n.text\\n\");\n"
                 "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    /* code before main that is not a constructor: an ifunc resolver, .init code, a hand-written .preinit_array */
    { "ifunc.cu", "#include \"vecadd.h\"\nstatic void real(void) {}\n"
                  "extern \"C\" { static void (*pick(void))(void) { return real; }\n"
                  "static void hook(void) __attribute__((ifunc(\"pick\"))); }\n"
                  "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { hook(); return cudaSuccess; }\n" },
    { "initsec.cu", "#include \"vecadd.h\"\n"
                    "__asm__(\".section .init,\\\"ax\\\",@progbits\\n nop\\n.section .wbfx,\\\"a\\\",@progbits\\n.byte 1\\n.text\\n\");\n"
                    "__attribute__((used)) static void early(void) __asm__(\"wbfx_early\");\nstatic void early(void) {}\n"
                    "__asm__(\".section .preinit_array,\\\"aw\\\",@progbits\\n.p2align 3\\n.quad wbfx_early\\n.text\\n\");\n"
                    "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    /* a __device__ helper neither static nor inline: nvcc's host copy of it calls exit(1) (weeks 39 and 40
     * shipped such helpers); the same helper inline: no exit */
    { "anondev.cu", "#include \"vecadd.h\"\nnamespace { __device__ float twice(float v) { return 2 * v; } }\n"
                    "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    /* the same helpers built at the weeks' -O3 (o3_: built with -O3): nvcc's host copies are
     * recognised and not the student's exit; a host function calling exit beside them is */
    { "o3_devhelper.cu", "#include \"vecadd.h\"\n__device__ float twice(float v) { return 2 * v; }\n"
                         "namespace { __device__ float thrice(float v) { return 3 * v; } }\n"
                         "__global__ void k(float *c) { c[0] = twice(thrice(c[0])); }\n"
                         "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { k<<<1, 1>>>(c); return cudaSuccess; }\n" },
    { "o3_hostexit.cu", "#include <stdlib.h>\n#include \"vecadd.h\"\n__device__ float twice(float v) { return 2 * v; }\n"
                        "__attribute__((noinline)) static void bye(int s) { exit(s); }\n"
                        "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { if (!n) bye(0); return cudaSuccess; }\n" },
    /* the host copy of a __device__ function as gcc 13 (Ubuntu 24.04) compiles it at -O3: push %rax; pop %rax
     * between the endbr64 and the call of exit(1) */
    { "gcc13stub.cu", "#include \"vecadd.h\"\n"
                      "__asm__(\".text\\n.globl _Z5twicef\\n.type _Z5twicef,@function\\n_Z5twicef:\\nendbr64\\npush %rax\\n"
                      "pop %rax\\nsub $0x18,%rsp\\nmovl $1,0xc(%rsp)\\nmov 0xc(%rsp),%edi\\ncall exit@PLT\\n"
                      ".size _Z5twicef, .-_Z5twicef\\n\");\n"
                      "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    { "anoninline.cu", "#include \"vecadd.h\"\nnamespace { __device__ inline float twice(float v) { return 2 * v; } }\n"
                       "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    /* function-local statics that register their destructors with __cxa_atexit when first used: Thrust's
     * error categories and a static std::string (week 14's Thrust exercise has them; harmless destructors),
     * then a static of the file's own class whose destructor opens a file (code run after the test), and
     * an object that puts its own code under the name of a standard library destructor */
    { "o3_thrust.cu", "#include <thrust/system/cuda/error.h>\n#include \"vecadd.h\"\n"
                      "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n)\n"
                      "{ return (cudaError_t)(thrust::cuda_category().message(1).size() + thrust::generic_category().message(2).size() == 0); }\n" },
    { "o3_evildtor.cu", "#include <stdio.h>\n#include \"vecadd.h\"\n"
                        "struct Late { ~Late() { FILE *f = fopen(\"results.tsv\", \"a\"); if (f) fclose(f); } };\n"
                        "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { static Late l; (void)l; return cudaSuccess; }\n" },
    { "stddtor.cu", "#include \"vecadd.h\"\nextern \"C\" void _ZNSt9bad_allocD2Ev(void *p) { (void)p; }\n"
                    "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    /* an exercise that reads a file by contract (week 17's PGM reader): refused unless the week's fileio: names it */
    { "fileio.cu", "#include <stdio.h>\n#include <string.h>\n#include \"vecadd.h\"\n"
                   "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) {\n"
                   "  FILE *f = fopen(\"in.pgm\", \"rb\"); if (!f) return cudaErrorInvalidValue;\n"
                   "  size_t k = fread(c, 4, n, f); int e = ferror(f); fclose(f);\n"
                   "  return (cudaError_t)(k != n || e || strpbrk(\"P5\", \"5\") == NULL); }\n" },
    /* strtoull as a newer glibc (2.38 and later) links it from C++: a legitimate parser, not a refused reference */
    { "isoc23.cu", "#include \"vecadd.h\"\n"
                   "extern \"C\" unsigned long long __isoc23_strtoull(const char *, char **, int);\n"
                   "extern \"C\" long __isoc23_strtol(const char *, char **, int);\n"
                   "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n)\n"
                   "{ return (cudaError_t)(__isoc23_strtoull(\"0\", 0, 10) + __isoc23_strtol(\"0\", 0, 10)); }\n" },
    /* 9000 sections of one ret each, made by the assembler in a second: objdump's time grows with their
     * square (40,000 held a class's grading 10 minutes), so past the limit the object is not read */
    { "sections.cu", "#include \"vecadd.h\"\n"
                     "__asm__(\".altmacro\\n.macro wbfx_one k\\n.section .text.wbfx,\\\"ax\\\",@progbits,unique,\\k\\nret\\n"
                     ".endm\\n.set wbfx_i, 0\\n.rept 9000\\nwbfx_one %wbfx_i\\n.set wbfx_i, wbfx_i + 1\\n.endr\\n.text\\n\");\n"
                     "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) { return cudaSuccess; }\n" },
    /* file I/O through libstdc++'s std::__basic_file, under the std:: prefix the check lets through */
    { "basicfile.cu", "#include <bits/basic_file.h>\n#include <ios>\n#include \"vecadd.h\"\n"
                      "cudaError_t vecadd(const float *a, const float *b, float *c, size_t n) {\n"
                      "  std::__basic_file<char> f; if (f.sys_open(5, std::ios_base::out)) f.xsputn(\"x\", 1);\n"
                      "  return cudaSuccess; }\n" },
};
#define NSRC (sizeof sources / sizeof *sources)

static int run(const char *cmd)
{
    int rc = system(cmd);
    if (rc != 0) fprintf(stderr, "failed (%d): %s\n", rc, cmd);
    return rc;
}

/* Build every object once, in parallel, before the tests fork. */
static int build_all(void)
{
    snprintf(root, sizeof root, "/tmp/oct-XXXXXX");
    if (!mkdtemp(root)) return -1;
    snprintf(week, sizeof week, "%s/wb/phase0/week01", root);
    snprintf(objdir, sizeof objdir, "%s/wb/phase0/week01", root);
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' '%s/wb/common/include' && cp phase0/week01/vecadd.h '%s/' && "
             "cp phase0/week01/solution/vecadd.cu '%s/clean.cu' && echo '#define SECRET 42' > '%s/wb/secret.h'",
             week, root, week, week, root);
    if (run(cmd)) return -1;
    for (size_t i = 0; i < NSRC; i++) {
        char p[300];
        snprintf(p, sizeof p, "%s/%s", week, sources[i][0]);
        FILE *f = fopen(p, "w");
        if (!f) return -1;
        fputs(sources[i][1], f);
        fclose(f);
    }
    const char *nvcc = getenv("NVCC") ? getenv("NVCC") : "/usr/local/cuda/bin/nvcc";
    int n = snprintf(cmd, sizeof cmd, "cd '%s' && for f in clean", week);
    for (size_t i = 0; i < NSRC; i++) n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %.*s", (int)(strlen(sources[i][0]) - 3), sources[i][0]);
    snprintf(cmd + n, sizeof cmd - (size_t)n,
             "; do ( %s -c -arch=sm_90 -std=c++17 $(case $f in o3_*) echo -O3;; esac) -MD -I. -I../../common/include $f.cu -o $f.o 2> $f.err || "
             "cat $f.err ) & done; wait", nvcc);
    run(cmd);
    return 0;
}

static oc_report rep;
static char obj[256], dep[256];
static char cuda_inc[] = "/usr/local/cuda/include";

static oc_policy policy(const char *const *forbid)
{
    static const char *api[] = { "vecadd", NULL };
    static const char *hallow[] = { "wb_cuda_check_", NULL };
    static char inc[3][300];
    static const char *dirs[] = { inc[0], inc[1], cuda_inc, "/usr/include", "/usr/lib/gcc", NULL };
    snprintf(inc[0], sizeof inc[0], "%s", week);
    snprintf(inc[1], sizeof inc[1], "%s/wb/common/include", root);
    oc_policy p = { .api = api, .harness_allow = hallow, .forbid = forbid, .include_dirs = dirs };
    return p;
}

/* Check one built object and its .d; returns the report text. */
static const char *verdict(const char *name, const char *const *forbid)
{
    oc_report_free(&rep);
    snprintf(obj, sizeof obj, "%s/%s.o", objdir, name);
    snprintf(dep, sizeof dep, "%s/%s.d", objdir, name);
    ck_assert_msg(access(obj, F_OK) == 0, "nvcc did not build %s", obj);
    oc_policy p = policy(forbid);
    int a = oc_check_object(obj, &p, &rep);
    int b = oc_check_deps(dep, week, &p, &rep);
    ck_assert_msg(a >= 0 && b >= 0, "%s", rep.text);
    char fl[200] = "";
    for (int i = 0; forbid && forbid[i]; i++) snprintf(fl + strlen(fl), sizeof fl - strlen(fl), " %s", forbid[i]);
    fprintf(stderr, "--- %s (forbid:%s): %d violation(s)\n%s", name, fl[0] ? fl : " none", rep.violations,
            rep.text ? rep.text : "");
    return rep.text ? rep.text : "";
}

static const char *const week_forbid[] = { "cublas", "cub", "yard_*", "yard_cub_*", NULL };

START_TEST(clean_exercise_passes)
{
    const char *t = verdict("clean", week_forbid);
    ck_assert_msg(rep.violations == 0, "%s", t);
}
END_TEST

START_TEST(code_before_or_after_the_test_refused)
{
    const char *t = verdict("ctor", NULL);
    ck_assert_msg(strstr(t, "instruction: syscall in "), "%s", t);
    ck_assert_msg(strstr(t, "constructor: _ZL5earlyv: runs before the test"), "%s", t);
    ck_assert_msg(strstr(t, "destructor: _ZL4latev: runs after the test"), "%s", t);
    t = verdict("global", NULL);
    ck_assert_msg(strstr(t, "constructor: _GLOBAL__sub_I_"), "%s", t);
    /* its empty destructor's registration is harmless (static_locals_registering_destructors): the
     * constructor alone refuses it */
    ck_assert_msg(!strstr(t, "references: __cxa_atexit"), "%s", t);
    /* <iostream>'s std::ios_base::Init alone is let through (CUTLASS includes it) */
    t = verdict("iostream", week_forbid);
    ck_assert_msg(rep.violations == 0, "%s", t);
}
END_TEST

/* The linker places sections by name, objdump reads only those flagged
 * executable: every section is read by name and flags. */
/* A static of a library class registers a destructor that only destroys: let through; a static whose
 * destructor does anything else, or a file defining the standard library's destructor, is refused. */
START_TEST(static_locals_registering_destructors)
{
    const char *t = verdict("o3_thrust", NULL);
    ck_assert_msg(rep.violations == 0, "%s", t);
    t = verdict("o3_evildtor", NULL);
    ck_assert_msg(strstr(t, "references: __cxa_atexit: registers code to run after the test"), "%s", t);
    t = verdict("stddtor", NULL);
    ck_assert_msg(strstr(t, "defines: _ZNSt9bad_allocD2Ev: a destructor of the standard library"), "%s", t);
}
END_TEST

/* C's stdio file functions: only for an exercise whose week names it in fileio: (allow_fileio) */
START_TEST(file_io_only_where_the_week_allows_it)
{
    const char *t = verdict("fileio", NULL);
    ck_assert_msg(strstr(t, "references: fopen: file I/O"), "%s", t);
    oc_report_free(&rep);
    oc_policy p = policy(NULL);
    p.allow_fileio = 1;
    snprintf(obj, sizeof obj, "%s/fileio.o", objdir);
    ck_assert_int_ge(oc_check_object(obj, &p, &rep), 0);
    ck_assert_msg(rep.violations == 0, "%s", rep.text ? rep.text : "");
}
END_TEST

START_TEST(hidden_code_and_load_time_code_refused)
{
    const char *t = verdict("stub", NULL);
    ck_assert_msg(strstr(t, "section: .stub: the linker places it among the program's code"), "%s", t);
    t = verdict("ifunc", NULL);
    ck_assert_msg(strstr(t, "ifunc: hook: its resolver runs when the program is loaded"), "%s", t);
    t = verdict("initsec", NULL);
    ck_assert_msg(strstr(t, "section: .init: code the start-up or exit routine runs"), "%s", t);
    ck_assert_msg(strstr(t, "section: .wbfx: an allocated section the compilers never make"), "%s", t);
    ck_assert_msg(strstr(t, "constructor: wbfx_early: runs before the test"), "%s", t);
}
END_TEST

/* The linked program's start-up code against a reference build: the same
 * program passes; an added constructor or ifunc is named. */
START_TEST(linked_startup_compared_with_the_starter)
{
    static const char *const progs[][2] = {
        { "ref", "int main(void) { return 0; }\n" },
        { "arr", "static void e(void) {}\n__attribute__((section(\".init_array\"), used)) static void (*p)(void) = e;\n"
                 "int main(void) { return 0; }\n" },
        { "ifn", "static void r(void) {}\nstatic void (*pick(void))(void) { return r; }\n"
                 "static void h(void) __attribute__((ifunc(\"pick\")));\nint main(void) { h(); return 0; }\n" },
    };
    char cmd[2048];
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "%s/%s.c", root, progs[i][0]);
        FILE *f = fopen(cmd, "w");
        ck_assert_ptr_nonnull(f);
        fputs(progs[i][1], f);
        fclose(f);
    }
    snprintf(cmd, sizeof cmd, "cd '%s' && for f in ref arr ifn; do cc -O1 -o $f $f.c || exit 1; done", root);
    ck_assert_int_eq(run(cmd), 0);
    char ref[200], arr[200], ifn[200];
    snprintf(ref, sizeof ref, "%s/ref", root);
    snprintf(arr, sizeof arr, "%s/arr", root);
    snprintf(ifn, sizeof ifn, "%s/ifn", root);
    oc_report_free(&rep);
    ck_assert_int_eq(oc_check_startup(ref, ref, 0, &rep), 0);
    ck_assert_int_eq(oc_check_startup(arr, ref, 0, &rep), 1);
    ck_assert_msg(strstr(rep.text, "startup: .init_array e: an entry the starter build does not have"), "%s", rep.text);
    oc_report_free(&rep);
    ck_assert_int_ge(oc_check_startup(ifn, ref, 0, &rep), 1);
    ck_assert_msg(strstr(rep.text, "ifunc resolution(s) beyond the starter build's"), "%s", rep.text);
    oc_report_free(&rep);
    ck_assert_int_eq(oc_check_startup(ifn, "/nonexistent", 0, &rep), -1);
}
END_TEST

START_TEST(c23_parsers_allowed)
{
    const char *t = verdict("isoc23", week_forbid);
    ck_assert_msg(rep.violations == 0, "week 04's cli parses with strtoull, which glibc 2.38 links as __isoc23_strtoull: %s", t);
}
END_TEST

START_TEST(harness_internals_refused)
{
    const char *t = verdict("harness", NULL);
    ck_assert_msg(strstr(t, "defines: wb_compare_f32: a harness internal"), "%s", t);
    ck_assert_msg(strstr(t, "defines: main:"), "%s", t);
}
END_TEST

START_TEST(dlopen_getenv_system_refused)
{
    const char *t = verdict("dl", NULL);
    ck_assert_msg(strstr(t, "references: dlopen: loads code") && strstr(t, "references: dlsym:"), "%s", t);
    ck_assert_msg(strstr(t, "references: getenv:") && strstr(t, "references: system: starts another process"), "%s", t);
}
END_TEST

/* nvcc's host copies of __device__ helpers: at -O0 (no build of the
 * grader's) the refusal of exit names them; at the weeks' -O3 they are
 * recognised and pass; a host exit beside them is refused; an inline
 * helper has no copy. */
START_TEST(anonymous_device_helper_explained)
{
    const char *t = verdict("anondev", NULL);
    ck_assert_msg(strstr(t, "references: exit: leaves the test early") && strstr(t, "declare your __device__ functions"), "%s", t);
    t = verdict("anoninline", NULL);
    ck_assert_msg(!strstr(t, "exit"), "%s", t);
    t = verdict("o3_devhelper", NULL);
    ck_assert_msg(!strstr(t, "exit"), "%s", t);
    t = verdict("gcc13stub", NULL);
    ck_assert_msg(!strstr(t, "exit"), "%s", t);
    t = verdict("o3_hostexit", NULL);
    ck_assert_msg(strstr(t, "references: exit: leaves the test early"), "%s", t);
}
END_TEST

START_TEST(cublas_refused_by_symbol_and_header)
{
    const char *t = verdict("cublas", week_forbid);
    ck_assert_msg(strstr(t, "uses cublas (forbidden this week): cublas"), "%s", t);
    /* the call is the violation; its header alone would be a warning */
    ck_assert_msg(!strstr(t, "cublas_v2.h"), "%s", t);
    ck_assert_msg(rep.warnings == 1 && strstr(rep.wtext, "cublas_v2.h: a header of cublas"), "%s", rep.wtext);
    ck_assert_msg(!strstr(t, "not on the allow-list"), "one line for the library, not one a symbol: %s", t);
    /* and with cublas allowed, the same object is fine */
    const char *const none[] = { "cub", NULL };
    t = verdict("cublas", none);
    ck_assert_msg(rep.violations == 0, "%s", t);
}
END_TEST

START_TEST(cub_refused_but_fine_when_allowed)
{
    const char *t = verdict("cub", week_forbid);
    ck_assert_msg(strstr(t, "uses cub (forbidden this week): ") && strstr(t, "3cub"), "%s", t);
    ck_assert_msg(strstr(t, "a header of cub (forbidden this week)"), "%s", t);
    ck_assert_msg(!strstr(t, "uses cublas"), "cub is not cublas: %s", t);
    /* Allowed, cub's NVTX loader uses dlopen and getenv: that alone is fine. */
    const char *const other[] = { "cublas", NULL };
    t = verdict("cub", other);
    ck_assert_msg(rep.violations == 0, "%s", t);
}
END_TEST

START_TEST(renamed_cub_still_seen)
{
    const char *t = verdict("alias", week_forbid);
    ck_assert_msg(strstr(t, "uses cub (forbidden this week)") && strstr(t, "a header of cub"), "%s", t);
}
END_TEST

START_TEST(include_escape_refused)
{
    const char *t = verdict("escape", NULL);
    ck_assert_msg(strstr(t, "header: ../../secret.h: outside the allowed folders (a ../ escape)"), "%s", t);
}
END_TEST

START_TEST(runtime_override_refused)
{
    const char *t = verdict("override", NULL);
    ck_assert_msg(strstr(t, "defines: cudaEventElapsedTime: not the exercise's API"), "%s", t);
}
END_TEST

START_TEST(yardstick_wrapper_refused)
{
    const char *t = verdict("yard", week_forbid);
    ck_assert_msg(strstr(t, "uses yard_* (forbidden this week): yard_copy"), "%s", t);
}
END_TEST

/* A library with link-time symbols is judged by them: its host API header
 * without a call is a warning; its code-in-header parts (curand_kernel.h)
 * and the header-only libraries keep the header rule. */
START_TEST(host_api_header_alone_is_a_warning)
{
    static const struct { const char *hdr, *forbid; int violations, warnings; } c[] = {
        { "cublas_v2.h", "cublas", 0, 1 },         { "cublasLt.h", "cublaslt", 0, 1 },
        { "cufft.h", "cufft", 0, 1 },              { "curand.h", "curand", 0, 1 },
        { "cudnn.h", "cudnn", 0, 1 },              { "nccl.h", "nccl", 0, 1 },
        { "curand_kernel.h", "curand", 1, 0 },     { "cublasdx.hpp", "cublas", 1, 0 },
        { "thrust/device_vector.h", "thrust", 1, 0 }, { "cub/cub.cuh", "cub", 1, 0 },
        { "cutlass/gemm/device/gemm.h", "cutlass", 1, 0 },
    };
    char d[256];
    snprintf(d, sizeof d, "%s/hdr.d", root);
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        /* a header of that name in an allowed folder (the week's): only the library rule can object */
        char h[512], cmd[700];
        snprintf(h, sizeof h, "%s/hdr/%s", week, c[i].hdr);
        snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && touch '%s'", h, h);
        ck_assert_int_eq(run(cmd), 0);
        FILE *f = fopen(d, "w");
        fprintf(f, "x.o : vecadd.h %s\n", h);
        fclose(f);
        oc_report_free(&rep);
        const char *const forbid[] = { c[i].forbid, NULL };
        oc_policy p = policy(forbid);
        ck_assert_int_ge(oc_check_deps(d, week, &p, &rep), 0);
        ck_assert_msg(rep.violations == c[i].violations && rep.warnings == c[i].warnings,
                      "%s (forbid %s): %d violations, %d warnings: %s%s", c[i].hdr, c[i].forbid, rep.violations,
                      rep.warnings, rep.text ? rep.text : "", rep.wtext ? rep.wtext : "");
    }
}
END_TEST

/* ----------------------------------------------------- pathological inputs */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

START_TEST(megabyte_line_in_deps)
{
    char d[256];
    snprintf(d, sizeof d, "%s/huge.d", root);
    FILE *f = fopen(d, "w");
    fputs("x.o : ", f);
    for (int i = 0; i < (1 << 20); i++) fputc('a', f);   /* one 1 MB token */
    fputs(" vecadd.h", f);
    for (int i = 0; i < (1 << 18); i++) fputs(" ../x.h", f); /* 256 Ki short ones on the same line */
    fputs("\n", f);
    fclose(f);
    oc_report_free(&rep);
    oc_policy p = policy(NULL);
    double t0 = now();
    int n = oc_check_deps(d, week, &p, &rep);
    double s = now() - t0;
    fprintf(stderr, "1 MB + 1.8 MB line: %d violations in %.2f s\n", n, s);
    ck_assert_msg(strstr(rep.text, "too long a path"), "%s", rep.text);
    ck_assert_int_eq(n, 1 + (1 << 18));
    ck_assert_msg(s < 120, "took %.2f s (a quadratic check would take hours)", s);
}
END_TEST

/* A synthetic ELF64 .o: nsym global functions "f<i>" defined in section 1. */
static void write_elf(const char *path, long nsym)
{
    FILE *f = fopen(path, "w");
    size_t strsz = 1;
    for (long i = 1; i < nsym; i++) strsz += (size_t)snprintf(NULL, 0, "f%ld", i) + 1;
    Elf64_Ehdr eh = { .e_type = ET_REL, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
                      .e_ehsize = sizeof eh, .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 4 };
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64, eh.e_ident[EI_DATA] = ELFDATA2LSB, eh.e_ident[EI_VERSION] = EV_CURRENT;
    uint64_t symoff = 64, symsz = (uint64_t)nsym * sizeof(Elf64_Sym), stroff = symoff + symsz;
    eh.e_shoff = (stroff + strsz + 7) & ~7ull;
    fwrite(&eh, sizeof eh, 1, f);
    Elf64_Sym s0 = { 0 };
    fwrite(&s0, sizeof s0, 1, f);
    uint32_t name = 1;
    for (long i = 1; i < nsym; i++) {
        Elf64_Sym s = { .st_name = name, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = 1 };
        fwrite(&s, sizeof s, 1, f);
        name += (uint32_t)snprintf(NULL, 0, "f%ld", i) + 1;
    }
    fputc(0, f);
    for (long i = 1; i < nsym; i++) fprintf(f, "f%ld%c", i, 0);
    while ((uint64_t)ftell(f) < eh.e_shoff) fputc(0, f);
    Elf64_Shdr sh[4] = { { 0 },
                         { .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR },
                         { .sh_type = SHT_SYMTAB, .sh_offset = symoff, .sh_size = symsz, .sh_link = 3, .sh_info = 1,
                           .sh_entsize = sizeof(Elf64_Sym) },
                         { .sh_type = SHT_STRTAB, .sh_offset = stroff, .sh_size = strsz } };
    fwrite(sh, sizeof sh, 1, f);
    fclose(f);
}

START_TEST(million_symbols_linear)
{
    char o[256];
    snprintf(o, sizeof o, "%s/big.o", root);
    write_elf(o, 1000001);
    oc_report_free(&rep);
    oc_policy p = policy(week_forbid);
    double t0 = now();
    int n = oc_check_object(o, &p, &rep);
    double s = now() - t0;
    fprintf(stderr, "a million symbols: %d violations in %.2f s, report %zu bytes\n", n, s, rep.len);
    ck_assert_int_eq(n, 1000001); /* each symbol, and the object's missing section names */
    ck_assert_msg(rep.len < 64 * 1024, "the report must stay small: %zu", rep.len);
    ck_assert_msg(s < 120, "took %.2f s (a quadratic check would take hours)", s);
}
END_TEST

START_TEST(too_many_sections_refused_unread)
{
    oc_report_free(&rep);
    snprintf(obj, sizeof obj, "%s/sections.o", objdir);
    ck_assert_msg(access(obj, F_OK) == 0, "nvcc did not build %s", obj);
    oc_policy p = policy(week_forbid);
    double t0 = now();
    int n = oc_check_object(obj, &p, &rep);
    double sec = now() - t0;
    const char *t = rep.text ? rep.text : "";
    ck_assert_int_lt(n, 0);
    ck_assert_int_eq(rep.violations, 1);
    ck_assert_msg(strstr(t, " sections, more than a compiler makes (the limit is 8192): not read"), "%s", t);
    ck_assert_msg(sec < 10, "took %.2f s", sec);
}
END_TEST

START_TEST(basic_file_refused)
{
    const char *t = verdict("basicfile", week_forbid);
    ck_assert_msg(strstr(t, "12__basic_file") && strstr(t, "C++ file or filesystem access"), "%s", t);
}
END_TEST

START_TEST(damaged_objects_refused_not_crashed)
{
    char o[256];
    snprintf(o, sizeof o, "%s/small.o", root);
    write_elf(o, 50);
    struct stat st;
    stat(o, &st);
    FILE *f = fopen(o, "rb");
    unsigned char *good = malloc((size_t)st.st_size), *bad = malloc((size_t)st.st_size);
    ck_assert_int_eq(fread(good, 1, (size_t)st.st_size, f), st.st_size);
    fclose(f);
    oc_policy p = policy(NULL);
    srand(7);
    int refused = 0;
    for (int k = 0; k < 600; k++) { /* each one is also disassembled (objdump): 600, not thousands */
        memcpy(bad, good, (size_t)st.st_size);
        size_t len = (size_t)st.st_size;
        if (k % 3 == 0) len = (size_t)rand() % len + 1; /* truncated */
        for (int j = 0; j < 1 + k % 8; j++) bad[(size_t)rand() % len] = (unsigned char)rand();
        f = fopen(o, "wb");
        fwrite(bad, 1, len, f);
        fclose(f);
        oc_report_free(&rep);
        refused += oc_check_object(o, &p, &rep) < 0;
    }
    fprintf(stderr, "damaged objects: %d of 600 refused as unreadable, none crashed\n", refused);
    ck_assert_int_gt(refused, 0);
    free(good), free(bad);
    snprintf(o, sizeof o, "%s/text.o", root);
    f = fopen(o, "w");
    fputs("not an object\n", f);
    fclose(f);
    oc_report_free(&rep);
    ck_assert_int_eq(oc_check_object(o, &p, &rep), -1);
    ck_assert_msg(strstr(rep.text, "not an ELF64"), "%s", rep.text);
}
END_TEST

int main(void)
{
    if (build_all() != 0) {
        fprintf(stderr, "cannot set up %s\n", root);
        return 1;
    }
    Suite *s = suite_create("objcheck");
    TCase *t = tcase_create("objcheck");
    tcase_set_timeout(t, 240);
    tcase_add_test(t, clean_exercise_passes);
    tcase_add_test(t, static_locals_registering_destructors);
    tcase_add_test(t, file_io_only_where_the_week_allows_it);
    tcase_add_test(t, c23_parsers_allowed);
    tcase_add_test(t, harness_internals_refused);
    tcase_add_test(t, code_before_or_after_the_test_refused);
    tcase_add_test(t, hidden_code_and_load_time_code_refused);
    tcase_add_test(t, linked_startup_compared_with_the_starter);
    tcase_add_test(t, anonymous_device_helper_explained);
    tcase_add_test(t, dlopen_getenv_system_refused);
    tcase_add_test(t, cublas_refused_by_symbol_and_header);
    tcase_add_test(t, cub_refused_but_fine_when_allowed);
    tcase_add_test(t, renamed_cub_still_seen);
    tcase_add_test(t, include_escape_refused);
    tcase_add_test(t, runtime_override_refused);
    tcase_add_test(t, yardstick_wrapper_refused);
    tcase_add_test(t, host_api_header_alone_is_a_warning);
    tcase_add_test(t, megabyte_line_in_deps);
    tcase_add_test(t, million_symbols_linear);
    tcase_add_test(t, damaged_objects_refused_not_crashed);
    tcase_add_test(t, too_many_sections_refused_unread);
    tcase_add_test(t, basic_file_refused);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (failed == 0 && system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", root);
    return failed ? 1 : 0;
}
