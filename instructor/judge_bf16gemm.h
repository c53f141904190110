/* judge_bf16gemm.h — what the judges of Phase 5's Hopper-track BF16 GEMMs
 * (week 54's wgmma_gemm_bf16, week 55's ws_gemm_bf16 and ws_gemm_bf16_grid) share
 * (judge_bf16gemm.c), as judge_hgemm.h is for weeks 25-28: the call's
 * arguments, the runners' exercise numbers, and the checkpoints' bodies,
 * each week's judge a table that names its function and cases.
 *
 * Every GEMM call (the student's, cuBLAS's): p[0] A, p[1] B, p[2] C;
 * i64[0] M x N (the timed protocol's n), i64[1] M, i64[2] N, i64[3] K,
 * i64[4] ldc, i64[5] the grid (BG_FN_GRID only); C = A B^T, A (M x K) and
 * B (N x K) row-major BF16 bit patterns, C float with ldc floats a row
 * (phase5/common/bf16_gemm_check.h's contract). */
#ifndef JUDGE_BF16GEMM_H
#define JUDGE_BF16GEMM_H

/* The student's function, in each week's runner: BG_FN_GEMM the week's
 * GEMM (wgmma_gemm_bf16, ws_gemm_bf16), BG_FN_GRID the same with the grid
 * chosen (week 55's ws_gemm_bf16_grid). */
enum { BG_FN_GEMM = 1, BG_FN_GRID = 2 };

/* The yard runner's (judge_bf16gemm_yard_runner.c: instructor code, no
 * student object, beside the judge as judge-wNN-yard-runner):
 * cublasGemmEx BF16 in, FP32 compute, FP32 C, "TN" (the tests'
 * bf16_gemm_cublas_tn), on the runner's own handle made in the untimed
 * warm-up. */
enum { BG_YARD_CUBLAS = 101 };

#ifndef JUDGE_BF16GEMM_RUNNER_ONLY
#include "judge_week.h"
#include "bf16_gemm_check.h" /* the tests' shape and refusal types, and their tolerance */

/* One week: what its function is called and the test's cases (copied into
 * the week's judge: the test programs keep them to themselves). */
typedef struct {
    const char *fn_name;     /* "wgmma_gemm_bf16" */
    const char *grid_name;   /* week 55's "ws_gemm_bf16_grid", or NULL */
    const char *tag;         /* the hidden seed's tags ("w54") */
    const char *yard_runner; /* "judge-w54-yard-runner" */
    const char *sm90_what;   /* the SKIP's words off compute capability 9.0: the test's wb_need_sm90a argument */
    const bf16_gemm_shape *shapes;
    int n_shapes;
    /* the test's fresh random shapes: n_random of them, the i-th drawn by random(r, i) */
    int n_random;
    bf16_gemm_shape (*random)(wb_rng *r, int i);
    const bf16_gemm_shape *large; /* every element checked here (the test samples 4096) */
    int n_large;
    const bf16_refused_case *refused;
    int n_refused;
} bg_week;

/* The TMA contract's refusals both weeks' tests list (test_week54.c's
 * REFUSED, the first BG_N_REFUSED_TMA rows of test_week55.c's), then week
 * 55's grid < 0 (grid -1): BG_N_REFUSED_TMA + 1 rows. */
#define BG_N_REFUSED_TMA 8
extern const bf16_refused_case bg_refused[BG_N_REFUSED_TMA + 1];

/* The week whose checkpoints the callbacks below form (the week's main
 * says, before jd_week_main). */
void bg_use(const bg_week *w);
/* jd_checkpoint's callbacks for the GEMM checkpoints: bg_judge_gemm
 * (w54.gemm, w55.gemm; without a GPU bg_judge_contract), bg_judge_vs_cublas
 * (w54.gemm-speed, w55.gemm-speed; before the runner bg_cublas_before). */
void bg_gemm_ck(jd_ck *k);
void bg_contract_ck(jd *J, jd_tally *t);
void bg_speed_ck(jd_ck *k);
void bg_before(void);

/* Compute capability 9.0 (sm_90a code loads nowhere else): 1, or 0 with t
 * SKIP and the test's reason. */
int bg_on_sm90(const bg_week *w, jd_tally *t);
/* The GEMM checkpoint (w54.gemm, w55.gemm): the test's shapes, its random
 * shapes, its large shapes (every element), its refusals on real buffers
 * (C untouched) and its empty shapes on NULL pointers. */
void bg_judge_gemm(jd_ck *k, const bg_week *w);
/* Without a GPU (a runner that opens none, host buffers): the contract's
 * host side, the test's gemm_contract: the refusals, the empty shapes. */
void bg_judge_contract(jd *J, jd_tally *t, const bg_week *w);
/* Before the student's runner starts: cuBLAS timed through the week's yard runner. */
void bg_cublas_before(const bg_week *w);
/* The speed checkpoint: the student's function at 4096^3 against cuBLAS. */
void bg_judge_vs_cublas(jd_ck *k, const bg_week *w);
#endif

#endif
