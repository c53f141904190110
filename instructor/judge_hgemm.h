/* judge_hgemm.h — what the judges of the tensor-core HGEMM weeks (week 25's
 * hgemm_wmma, week 26's hgemm_mma, week 27's hgemm_tiled, cutlass_hgemm and
 * cutlass3_hgemm, week 28's gemm_epilogue_bias_act) share (judge_hgemm.c): the call's
 * arguments, the yardsticks' runner's exercise numbers, and the checkpoints'
 * bodies, each week's judge a table that names its function.
 *
 * Every call (the student's, cuBLAS's, the given SIMT GEMM's): p[0] A, p[1]
 * B, p[2] C; i64[0] M x N (the timed protocol's n), i64[1] M, i64[2] N,
 * i64[3] K; C = A B row-major, A M x K and B K x N half bit patterns (the
 * SIMT GEMM's: floats holding the same halves' values), C float. Week 28's
 * fused epilogue adds C = act(A B + bias[col]): i64[4] the activation
 * (ACT_RELU ...), the bias p[3] (NULL: none) in the untimed cases, and in
 * the timed calls (HG_FN_PACKED, HG_YARD_LT) N floats i64[5] bytes into
 * p[1]'s buffer, after B (the timed protocol sends two inputs a call). */
#ifndef JUDGE_HGEMM_H
#define JUDGE_HGEMM_H

/* The student's function, in each week's runner: week 25 hgemm_wmma, week 26
 * hgemm_mma, week 28 gemm_epilogue_bias_act (and HG_FN_PACKED: the same, its
 * bias after B). */
enum { HG_FN_STUDENT = 1, HG_FN_PACKED = 3 };
/* week 27's runner: HG_FN_STUDENT hgemm_tiled, and these */
enum { HG_FN_CUTLASS = 4, HG_FN_CUTLASS3 = 5 };

/* The yard runners' (judge_hgemm_yard_runner.c: instructor code, no student
 * object, beside the judge as judge-w25-yard-runner and judge-w26-yard-runner):
 * HG_YARD_CUBLAS: cublasGemmEx, FP16 in, FP32 compute, FP32 C (the tests'
 *   hgemm_cublas_rm), on the runner's own handle made in the untimed warm-up;
 * HG_YARD_SIMT: week 26's given FP32 CUDA-core GEMM (support/yard_sgemm_simt.cu)
 *   on float inputs; only in week 26's yard runner;
 * HG_YARD_LT: week 28's given cuBLASLt fused epilogue (support/yard_epilogue.cu,
 *   CUBLASLT_EPILOGUE_RELU_BIAS for ACT_RELU), its bias after B as
 *   HG_FN_PACKED's, one plan a rep's buffers made in the untimed warm-up;
 *   only in week 28's yard runner (judge_w28_yard_runner.c);
 * HG_YARD_W26: week 26's reference hgemm_mma (phase5/week26/solution, a
 *   given object here); only in week 27's yard runner. */
enum { HG_YARD_CUBLAS = 101, HG_YARD_SIMT, HG_YARD_LT, HG_YARD_W26 };

#ifndef JUDGE_HGEMM_RUNNER_ONLY
#include "judge_week.h"

/* A function's correctness cases, when not hgemm_check.h's (HGEMM_SHAPES,
 * HGEMM_SPECIAL with HGEMM_NAN_INF, HGEMM_UNALIGNED, HGEMM_LARGE): week
 * 27's CUTLASS 3 GEMM takes N and K multiples of 8 only. */
typedef struct { int M, N, K, off; } hg_shape; /* off: the unaligned shapes' only */
typedef struct {
    const hg_shape *shapes, *special, *unaligned, *large;
    int n_shapes, n_special, special_kind /* hgemm_check.h's HGEMM_NAN_INF or HGEMM_NAN_PM_INF */, n_unaligned, n_large;
} hg_cases;

/* One week: its checkpoints' ids and what the student's function is called. */
typedef struct {
    const char *fn_name;    /* "hgemm_mma" */
    const char *tag;        /* the test's exercise prefix ("mma"): the cases drawn with its tests' tags */
    const char *yard_runner; /* "judge-w26-yard-runner" */
    /* week 28's: the call takes a bias and an activation (fn_name is then
     * gemm_epilogue_bias_act); the timed shape (0: 4096^3) and activation;
     * the tolerance's factor on hgemm_atol(K) (0: 1) */
    int    epi, bm, bn, bk, bact;
    double atol_scale;
    int    fn;              /* the runner's exercise number: 0 HG_FN_STUDENT (week 27's three functions) */
    const hg_cases *cases;  /* NULL: hgemm_check.h's */
} hg_week;

/* The correctness checkpoint (w25.wmma, w26.mma): every case of the test's,
 * every element checked. */
void hg_judge_correct(jd_ck *k, const hg_week *w);
/* Week 28's w28.fused: test_week28.c's cases (its shapes with each
 * activation, with and without a bias, the NaN/+-Inf ones, the unaligned
 * ones, the large ones), every element checked. */
void hg_judge_fused(jd_ck *k, const hg_week *w);
/* Before the student's runner starts: cuBLAS (and the SIMT GEMM) timed
 * through the week's yard runner. */
void hg_cublas_before(const hg_week *w);
void hg_simt_before(const hg_week *w);
void hg_lt_before(const hg_week *w);
void hg_w26_before(const hg_week *w);
/* The speed checkpoints: the student's function at 4096^3 against cuBLAS
 * (w25.wmma-speed, w26.mma-speed) or against the given SIMT GEMM (w26.tc-wins). */
void hg_judge_vs_cublas(jd_ck *k, const hg_week *w);
void hg_judge_vs_simt(jd_ck *k, const hg_week *w);
/* week 28's w28.fused-speed: the fused call with bias and ReLU at the
 * week's shape against cuBLASLt's RELU_BIAS on the same protocol */
void hg_judge_vs_lt(jd_ck *k, const hg_week *w);
/* week 27's w27.tiled-speed: against week 26's reference hgemm_mma */
void hg_judge_vs_w26(jd_ck *k, const hg_week *w);
#endif

#endif
