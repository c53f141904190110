/* judge_w14_runner.c — week 14's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's blas.o, cubdev.o, cubblock.o and
 * thrustops.o (with cuBLAS, the week's libs), nothing that writes a record.
 * Each entry calls one function of the week's API on what the judge sent
 * (judge_w14.h); judge_w14.c holds every check. A cuBLAS handle cannot
 * cross processes: the runner makes its own, once, and sets its stream,
 * pointer mode and math mode before each call as the judge asks. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "blas.h"
#include "cubblock.h"
#include "cubdev.h"
#include "judge.h"
#include "judge_w14.h"
#include "judge_ws.h"
#include "thrustops.h"

static cublasHandle_t g_h;

/* The handle for a call: null when asked, else the runner's, on the
 * default stream in host pointer mode and the math mode given. NULL with
 * *fail set when cuBLAS would not make one. */
static cublasHandle_t handle(long long flags, int math, int *fail)
{
    *fail = 0;
    if (flags & W14_NULL_HANDLE) return NULL;
    if (!g_h && cublasCreate(&g_h) != CUBLAS_STATUS_SUCCESS) return g_h = NULL, *fail = 1, NULL;
    if (cublasSetStream(g_h, 0) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(g_h, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(g_h, (cublasMath_t)math) != CUBLAS_STATUS_SUCCESS)
        return *fail = 1, NULL;
    return g_h;
}

/* The handle's pointer and math modes after the call, into out[]. */
static void modes(const jr_args *a, cublasHandle_t h)
{
    int m[2] = { -1, -1 };
    cublasPointerMode_t pm;
    cublasMath_t mm;
    if (h && cublasGetPointerMode(h, &pm) == CUBLAS_STATUS_SUCCESS) m[0] = (int)pm;
    if (h && cublasGetMathMode(h, &mm) == CUBLAS_STATUS_SUCCESS) m[1] = (int)mm;
    memcpy(a->out, m, sizeof m), *a->out_len = sizeof m;
}

static int tf32(const jr_args *a)
{
    const float *x = a->p[0];
    float *y = a->p[1];
    for (long long i = 0; i < a->i64[1]; i++) y[i] = blas_tf32_round(x[i]);
    return 0;
}

static int axpy(const jr_args *a)
{
    int fail;
    cublasHandle_t h = handle(a->i64[2], CUBLAS_DEFAULT_MATH, &fail);
    if (fail) return -1;
    cublasStatus_t s = blas_axpy(h, (int)a->i64[1], (float)a->f64[0], a->p[0], a->p[1]);
    modes(a, h);
    return (int)s;
}

static int dot(const jr_args *a)
{
    int fail;
    cublasHandle_t h = handle(a->i64[2], CUBLAS_DEFAULT_MATH, &fail);
    if (fail) return -1;
    cublasStatus_t s = blas_dot(h, (int)a->i64[1], a->p[0], a->p[1], a->p[2]);
    modes(a, h);
    return (int)s;
}

static int gemm(const jr_args *a)
{
    long long f = a->i64[7];
    int fail;
    cublasHandle_t h = handle(f & 0xff, (int)(f >> 8), &fail);
    if (fail) return -1;
    cublasStatus_t s = blas_gemm(h, (f & W14_MODE_TF32) ? W14_TF32 : W14_FP32, !!(f & W14_TA), !!(f & W14_TB),
                                 (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (float)a->f64[0], a->p[0],
                                 (int)a->i64[4], a->p[1], (int)a->i64[5], (float)a->f64[1], a->p[2], (int)a->i64[6]);
    modes(a, h);
    return (int)s;
}

static int batched(const jr_args *a)
{
    int M = (int)a->i64[1], N = (int)a->i64[2], K = (int)a->i64[3], batch = (int)a->i64[4], fail;
    cublasHandle_t h = handle(0, CUBLAS_PEDANTIC_MATH, &fail);
    if (fail) return -1;
    size_t nb = (size_t)batch * sizeof(void *);
    void **hp = malloc(3 * nb + 24);
    char *dp = jr_workspace(3 * nb + 24);
    if (!hp || !dp) return free(hp), -1;
    const float *A = a->p[0], *B = a->p[1];
    float *C = a->p[2];
    for (int b = 0; b < batch; b++) {
        hp[b] = (void *)(A + (size_t)b * M * K);
        hp[batch + b] = (void *)(B + (size_t)b * K * N);
        hp[2 * batch + b] = C + (size_t)b * M * N;
    }
    if (nb && cudaMemcpy(dp, hp, 3 * nb, cudaMemcpyHostToDevice) != cudaSuccess) return free(hp), -1;
    free(hp);
    cublasStatus_t s = blas_gemm_batched(h, M, N, K, (const float *const *)dp, (const float *const *)(dp + nb),
                                         (float *const *)(dp + 2 * nb), batch);
    modes(a, h);
    return (int)s;
}

static int strided(const jr_args *a)
{
    int fail;
    cublasHandle_t h = handle(a->f64[0] != 0 ? W14_NULL_HANDLE : 0, CUBLAS_PEDANTIC_MATH, &fail);
    if (fail) return -1;
    cublasStatus_t s = blas_gemm_strided(h, (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], a->p[0], a->i64[5],
                                         a->p[1], a->i64[6], a->p[2], a->i64[7], (int)a->i64[4]);
    modes(a, h);
    return (int)s;
}

/* The CUB pattern: the query, then the call (W14_WS_*, judge_w14.h). */
static cudaError_t cub_call(int fn, const jr_args *a, void *tmp, size_t *bytes)
{
    int n = (int)a->i64[1];
    switch (fn) {
    case W14_FN_CUB_SUM: return cubdev_sum(tmp, bytes, a->p[0], a->p[1], n);
    case W14_FN_CUB_SCAN: return cubdev_scan(tmp, bytes, a->p[0], a->p[1], n);
    default: return cubdev_sort_pairs(tmp, bytes, a->p[0], a->p[1], a->p[2], a->p[3], n, (int)a->i64[2]);
    }
}

static int cub(int fn, const jr_args *a)
{
    unsigned long long q = ~0ull;
    size_t bytes = (size_t)-1;
    cudaError_t e = cub_call(fn, a, NULL, &bytes);
    q = bytes;
    memcpy(a->out, &q, sizeof q), *a->out_len = sizeof q;
    if (e != cudaSuccess) return (int)e;
    if (bytes == (size_t)-1) return 0; /* the judge fails it: the query wrote nothing */
    void *tmp = jr_workspace(bytes ? bytes : 1);
    if (!tmp) return -1;
    if (a->i64[3] == W14_WS_SMALL) {
        size_t small = 1;
        e = cub_call(fn, a, tmp, &small);
        cudaGetLastError();
        return (int)e;
    }
    return (int)cub_call(fn, a, tmp, &bytes);
}

static int cub_sum(const jr_args *a) { return cub(W14_FN_CUB_SUM, a); }
static int cub_scan(const jr_args *a) { return cub(W14_FN_CUB_SCAN, a); }
static int cub_sort(const jr_args *a) { return cub(W14_FN_CUB_SORT, a); }

static int argmax(const jr_args *a)
{
    return (int)cubblock_row_argmax(a->p[0], (int)a->i64[1], (int)a->i64[2], a->p[1]);
}

static int amax(const jr_args *a) { return (int)cubblock_row_amax(a->p[0], (int)a->i64[1], (int)a->i64[2], a->p[1]); }

static int sqdist(const jr_args *a)
{
    double got = NAN;
    cudaError_t e = thr_sqdist(a->p[0], a->p[1], (size_t)a->i64[1], &got);
    memcpy(a->out, &got, sizeof got), *a->out_len = sizeof got;
    return (int)e;
}

static int sort_by_key(const jr_args *a) { return (int)thr_sort_by_key(a->p[0], a->p[1], (size_t)a->i64[1]); }

/* The test's thrust_out_of_memory, in the runner's process: the memory to
 * take is this process's to take. */
static int oom(const jr_args *a)
{
    cudaError_t e = thr_sort_by_key(a->p[0], a->p[1], (size_t)1 << 20);
    if (e != cudaSuccess) return (int)e;
    if (cudaDeviceSynchronize() != cudaSuccess) return -1;
    static void *hog[1024];
    int nh = 0;
    const size_t chunks[] = { (size_t)1 << 30, (size_t)64 << 20, (size_t)4 << 20 };
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
        while (nh < 1024 && cudaMalloc(&hog[nh], chunks[c]) == cudaSuccess) nh++;
    cudaGetLastError(); /* the last cudaMalloc failed on purpose */
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    int big = (int)thr_sort_by_key(a->p[0], a->p[1], (size_t)W14_OOM_N);
    for (int i = 0; i < nh; i++) cudaFree(hog[i]);
    cudaGetLastError();
    unsigned long long fb = free_b;
    memcpy(a->out, &big, sizeof big), memcpy(a->out + 8, &fb, sizeof fb), *a->out_len = 16;
    return 0;
}

/* Timed: one row-major 4096^3 product in TF32 mode (judge_gemm.h's layout). */
static int gemm_tf32(const jr_args *a)
{
    int M = (int)a->i64[1], N = (int)a->i64[2], K = (int)a->i64[3], fail;
    cublasHandle_t h = handle(0, CUBLAS_DEFAULT_MATH, &fail);
    if (fail) return -1;
    return blas_gemm(h, W14_TF32, 0, 0, M, N, K, 1.0f, a->p[0], K, a->p[1], N, 0.0f, a->p[2], N) == CUBLAS_STATUS_SUCCESS
               ? 0
               : (int)cudaErrorUnknown;
}

/* Timed: batch contiguous n x n products, one strided-batched call. */
static int strided_timed(const jr_args *a)
{
    int n = (int)a->i64[1], batch = (int)a->i64[2], fail;
    long long nn = (long long)n * n;
    cublasHandle_t h = handle(0, CUBLAS_PEDANTIC_MATH, &fail);
    if (fail) return -1;
    return blas_gemm_strided(h, n, n, n, a->p[0], nn, a->p[1], nn, a->p[2], nn, batch) == CUBLAS_STATUS_SUCCESS
               ? 0
               : (int)cudaErrorUnknown;
}

/* Timed (w14.sort-speed): SortPairs of n pairs over bits [0, end_bit), the
 * query and then the call with the runner's workspace, as the test's
 * bench_sort calls it (its workspace allocated once: judge_ws.h keeps it). */
static int sort_timed(const jr_args *a)
{
    int n = (int)a->i64[0], end_bit = (int)a->i64[2];
    const unsigned *ki = a->p[0], *vi = a->p[1];
    unsigned *ko = a->p[2], *vo = ko + n;
    size_t bytes = 0;
    cudaError_t e = cubdev_sort_pairs(NULL, &bytes, ki, ko, vi, vo, n, end_bit);
    if (e != cudaSuccess) return (int)e;
    void *tmp = jr_workspace(bytes ? bytes : 1);
    if (!tmp) return (int)cudaErrorMemoryAllocation;
    return (int)cubdev_sort_pairs(tmp, &bytes, ki, ko, vi, vo, n, end_bit);
}

JR_MAIN({ W14_FN_TF32, "blas_tf32_round", tf32 }, { W14_FN_AXPY, "blas_axpy", axpy }, { W14_FN_DOT, "blas_dot", dot },
        { W14_FN_GEMM, "blas_gemm", gemm }, { W14_FN_BATCHED, "blas_gemm_batched", batched },
        { W14_FN_STRIDED, "blas_gemm_strided", strided }, { W14_FN_CUB_SUM, "cubdev_sum", cub_sum },
        { W14_FN_CUB_SCAN, "cubdev_scan", cub_scan }, { W14_FN_CUB_SORT, "cubdev_sort_pairs", cub_sort },
        { W14_FN_ARGMAX, "cubblock_row_argmax", argmax }, { W14_FN_AMAX, "cubblock_row_amax", amax },
        { W14_FN_SQDIST, "thr_sqdist", sqdist }, { W14_FN_SORT_BY_KEY, "thr_sort_by_key", sort_by_key },
        { W14_FN_THRUST_OOM, "thr_sort_by_key, memory taken", oom }, { W14_FN_GEMM_TF32, "blas_gemm (W14_TF32)", gemm_tf32 },
        { W14_FN_STRIDED_TIMED, "blas_gemm_strided", strided_timed },
        { W14_FN_SORT_TIMED, "cubdev_sort_pairs", sort_timed })
