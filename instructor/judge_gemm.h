/* judge_gemm.h — what the judges of phase 5's SGEMM weeks (21-24) share
 * (judge_gemm.c), and how their runners call a week's SGEMM.
 *
 * Every SGEMM of those weeks has phase5/week21/naive.h's interface,
 * fn(M, N, K, A, B, C) with row-major A (M x K), B (K x N) and C (M x N).
 * A call request's arguments: p[0] A, p[1] B, p[2] C, i64[1] M, i64[2] N,
 * i64[3] K (i64[0] is the judge's element count of C). A runner's entry is
 * jg_call(a, the week's function); the judge's side is below. */
#ifndef JUDGE_GEMM_H
#define JUDGE_GEMM_H

#include <cuda_runtime_api.h>

#include "judge.h"

typedef cudaError_t (*jg_fn)(int M, int N, int K, const float *A, const float *B, float *C);

/* A runner's entry: the week's function on what the judge sent. */
static inline int jg_call(const jr_args *a, jg_fn fn)
{
    return (int)fn((int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (const float *)a->p[0], (const float *)a->p[1],
                   (float *)a->p[2]);
}

/* The yardstick's runner (judge_gemm_yard_runner.c, instructor code only,
 * beside the judges): JG_YARD_CUBLAS is cublasSgemm in CUBLAS_PEDANTIC_MATH
 * (FP32, no TF32) computing row-major C = A B on its own handle, with the
 * call layout above. */
#define JG_YARD_RUNNER "judge-gemm-yard-runner"
enum { JG_YARD_CUBLAS = 101, JG_YARD_NAIVE };
/* JG_YARD_NAIVE: week 21's NAIVE, yard_naive_sgemm (phase5/week21/support/
 * yard_naive.cu built in the instructor's tree: the reference naive kernel),
 * the same layout; timed at JG_NAIVE_MAX_K calls a request (some 100 ms a
 * call), as is the coalesced kernel set against it. */
#define JG_NAIVE_MAX_K 4

#ifndef JG_RUNNER_ONLY
#include "judge_week.h"

/* A case a week's test adds to GEMM_CASES (week 24's warptile_large):
 * its sizes and offset (sampled there or not, every element is checked
 * here), drawn as gemm_check_case draws one, from the test's tag, index 0. */
typedef struct {
    int         M, N, K, off;
    const char *tag;
} jg_extra;

/* A set of correctness cases through one exercise: the cases of
 * phase5/common/gemm_check.h (GEMM_CASES, what test_week21.c-test_week24.c
 * loop over, or only some of them; the two NaN/Inf cases of
 * gemm_check_nonfinite), then extra where it is given, each drawn for the
 * hidden seed with the test's tags (case i of GEMM_CASES from tag_sizes,
 * index i; NaN/Inf case j from tag_nonfinite, index j). */
typedef struct {
    int             fn;
    const char     *fn_name;
    const char     *tag_sizes, *tag_nonfinite; /* tag_nonfinite NULL: no NaN/Inf case */
    const int      *only;                      /* only these GEMM_CASES, n_only of them (NULL: all) */
    int             n_only;
    const jg_extra *extra;                     /* optional */
    long long       arg;                       /* the call's i64[4] (week 22's tile size, week 21's TF32 handle) */
    const char     *arg_name;                  /* optional: the cases are named "fn_name ARG_NAME=arg ..." */
    const char     *note;                      /* optional: said after each case's sizes */
} jg_set;

/* A checkpoint's correctness (into k's tally): set's cases, each into a
 * poisoned C with a guard band on each side, every element against the
 * double product within the test's gemm_tol(K), a NaN where one is due
 * written, nothing written outside C. */
void jg_correct(jd_ck *k, const jg_set *set);
/* The usual set: every case, both NaN/Inf cases, extra where given. */
void jg_correct_all(jd_ck *k, int fn, const char *fn_name, const char *tag_sizes, const char *tag_nonfinite,
                    const jg_extra *extra);

/* A speed checkpoint at 4096^3 (the test's gemm_vs_cublas_4096): exercise
 * fn (label: the version's name) through the timed-call protocol, every
 * output checked in full against the judge's cublasDgemm product within
 * gemm_tol(4096), against cuBLAS FP32 (pedantic) timed through the same
 * protocol by the yard runner (jg_yard_before before the student's runner
 * starts, again after, the faster kept). */
void jg_speed_vs_cublas(jd_ck *k, int fn, const char *fn_name, const char *label);
void jg_yard_before(void);
/* The same against the yard runner's yard_fn (JG_YARD_CUBLAS or
 * JG_YARD_NAIVE: week 21's, timed before by jg_naive_before). */
void jg_speed(jd_ck *k, int fn, const char *fn_name, const char *label, int yard_fn);
void jg_naive_before(void);

/* The 4096^3 timed protocol's set-up for exercise fn (the student's or the
 * yard runner's), max_k calls a request; TFLOP/s of a call of ms. */
void   jg_bench_setup(jd_bench *x, int fn, const char *fn_name, int max_k);
double jg_tflops(const jd_bench *x, double ms);
#endif

#endif
