/* hgemm_host.h — host code the tests of weeks 25-28 share (phase5/common/,
 * on every phase-5 week's include path): cuBLAS's HGEMM from row-major
 * data and the tensor-core ladder (halves on the host: wb_f16.h).
 *
 * The ladder: `make phase5/week2N bench NAME=ladder` prints, at 1024, 2048 and 4096,
 * cublasGemmEx (FP16 in, FP32 accumulate) and then every HGEMM of the
 * lineage so far as TFLOP/s and as a fraction of cuBLAS in the same run. The
 * earlier weeks' kernels come from the weeks week.txt `uses:`: their
 * reference solutions here (in a student copy, the learner's own). Every
 * timed output is checked on 1024 sampled elements against a
 * double-precision dot product; a wrong one is reported as invalid, with no
 * figure. */
#ifndef HGEMM_HOST_H
#define HGEMM_HOST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <cublas_v2.h>

#include "wb_harness.h"
#include "wb_f16.h"       /* wb_f32_to_f16, wb_f16_to_f32: halves on the host */
#include "gemm_support.h" /* fill_half_uniform */

/* Row-major C (M x N, float) = A (M x K) B (K x N), halves in, FP32
 * accumulate. cuBLAS is column-major: row-major C = A B is column-major
 * C^T = B^T A^T, so B goes first and nothing is transposed. */
static inline cublasStatus_t hgemm_cublas_rm(cublasHandle_t h, int M, int N, int K, const uint16_t *A,
                                             const uint16_t *B, float *C)
{
    const float one = 1.f, zero = 0.f;
    return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16F, N, A, CUDA_R_16F, K, &zero, C,
                        CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

/* ---------------------------------------------------------------- the ladder */

typedef cudaError_t (*hgemm_fn)(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K);
typedef struct { const char *name; hgemm_fn fn; } hgemm_version;

enum { HL_SEED_A = 2501, HL_SEED_B = 2502 };

typedef struct {
    int n;
    uint16_t *A, *B;
    float *C;
    hgemm_fn fn;
    cublasHandle_t h;
} hl_run;

/* The half the device holds for element i of a filled matrix. */
static inline double hl_half(unsigned long long seed, size_t i)
{
    return wb_f16_to_f32(wb_f32_to_f16(wb_hash_uniform_f32(seed, i, -1, 1)));
}

static inline double hl_expect(size_t i, const void *p)
{
    const hl_run *r = p;
    size_t row = i / (size_t)r->n, col = i % (size_t)r->n;
    double s = 0;
    for (int k = 0; k < r->n; k++)
        s += hl_half(HL_SEED_A, row * r->n + k) * hl_half(HL_SEED_B, (size_t)k * r->n + col);
    return s;
}

static inline void hl_work(void *p)
{
    hl_run *r = p;
    WB_CUDA(r->fn(r->A, r->B, r->C, r->n, r->n, r->n));
}

static inline void hl_cublas(void *p)
{
    hl_run *r = p;
    cublasStatus_t s = hgemm_cublas_rm(r->h, r->n, r->n, r->n, r->A, r->B, r->C);
    ck_assert_msg(s == CUBLAS_STATUS_SUCCESS, "cublasGemmEx failed: %s", cublasGetStatusString(s));
}

/* Time one version (or cuBLAS when fn is NULL), check its output, emit its row. */
static inline wb_bench_row hl_row(hl_run *r, const char *variant, hgemm_fn fn, double yard, double target)
{
    double K = r->n;
    wb_bench_row row = { .exercise = "hgemm", .variant = variant, .n = (size_t)r->n,
                         .flops = 2.0 * K * K * K, .bytes = 2.0 * 2.0 * K * K + 4.0 * K * K, .unit = "TFLOP/s",
                         .yard_name = fn ? "cuBLAS" : NULL, .yard = fn ? yard : 0, .target = target };
    r->fn = fn;
    wb_dpoison(r->C, (size_t)r->n * r->n * 4);
    wb_time(fn ? hl_work : hl_cublas, r, NULL, &row.t);
    row.value = row.flops / (row.t.median * 1e-3) / 1e12;
    wb_cmp cmp;
    double atol = 1e-6 + 0.1 * sqrt(K) * ldexp(1.0, -11);
    if (wb_dverify_f32("C", r->C, (size_t)r->n * r->n, hl_expect, r, 1024, atol, 1e-4, &cmp))
        wb_bench_invalid(&row, cmp.msg);
    wb_bench_emit(&row);
    return row;
}

/* The ladder. Returns the ratio to cuBLAS of version `headline` at 4096
 * (NaN when headline < 0 or its output was wrong). Like the SGEMM ladder
 * (gemm_check.h), it serves no checkpoint and shows no target: the speed
 * checkpoint's own benchmark does. */
static inline double hgemm_ladder(const hgemm_version *v, int nv, int headline)
{
    static const int SIZES[] = { 1024, 2048, 4096 };
    double ratio = NAN;
    for (int s = 0; s < 3; s++) {
        int n = SIZES[s];
        hl_run r = { n, wb_dmalloc((size_t)n * n * 2), wb_dmalloc((size_t)n * n * 2), wb_dmalloc((size_t)n * n * 4),
                     NULL, NULL };
        WB_CUDA(fill_half_uniform(r.A, (size_t)n * n, HL_SEED_A, -1, 1));
        WB_CUDA(fill_half_uniform(r.B, (size_t)n * n, HL_SEED_B, -1, 1));
        ck_assert_msg(cublasCreate(&r.h) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
        wb_bench_row lib = hl_row(&r, "cuBLAS GemmEx", NULL, 0, 0);
        double yard = lib.invalid ? NAN : lib.value;
        for (int i = 0; i < nv; i++) {
            int head = i == headline && n == 4096;
            wb_bench_row row = hl_row(&r, v[i].name, v[i].fn, yard, 0);
            if (head) ratio = wb_bench_ratio(&row);
        }
        cublasDestroy(r.h);
        wb_dfree(r.A), wb_dfree(r.B), wb_dfree(r.C);
    }
    return ratio;
}

#endif
