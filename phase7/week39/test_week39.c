/* test_week39.c — week 39's C checkpoint: the row softmax of softmax_ext.cu
 * through its C API, in FP32, FP16 and BF16, against a double CPU reference.
 * The PyTorch builds of the same file are test_week39.py's. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "softmax_ext.h"

#include "softmax_host.h"

static const char *NAMES[] = { "FP32", "FP16", "BF16" };
static const size_t ELEM[] = { 4, 2, 2 };
/* The output is float rounded once to the storage type: 2 units in the last place. */
static const double RTOL[] = { 1e-5, 2e-3, 1.6e-2 }, ATOL[] = { 1e-6, 1e-7, 1e-7 };

/* x filled U(-5, 5) (then +-1e4, NaN and +-Inf rows when `special`), rounded to
 * the storage type, run through softmax_ext, compared with ref_row on the
 * rounded inputs at ATOL + RTOL |ref|; NaN only where the reference is NaN. */
static void check(wb_rng *rng, softmax_dtype dt, long long rows, long long cols, int special)
{
    size_t n = (size_t)(rows * cols), es = ELEM[dt];
    float *x = wb_hmalloc((n ? n : 1) * 4);
    double *ref = wb_hmalloc((n ? n : 1) * 8);
    unsigned char *hx = wb_hmalloc((n ? n : 1) * es), *hy = wb_hmalloc((n ? n : 1) * es);
    wb_fill_uniform_f32(rng, x, n, -5, 5);
    if (special && rows >= 8 && cols >= 8) {
        x[0 * cols + 3] = 1e4f;                                       /* exp(1e4) overflows without the max */
        for (long long j = 0; j < cols; j++) x[1 * cols + j] = -1e4f;
        x[1 * cols + cols / 2] = -1e4f + 3;
        x[2 * cols + cols - 1] = NAN;
        x[3 * cols + 1] = INFINITY;
        for (long long j = 0; j < cols; j += 3) x[4 * cols + j] = -INFINITY;
        for (long long j = 0; j < cols; j++) x[5 * cols + j] = -INFINITY;
        x[6 * cols + 0] = -INFINITY;
    }
    for (size_t i = 0; i < n; i++) { /* the storage type's inputs, and the floats they hold */
        if (dt == SOFTMAX_F32) memcpy(hx + 4 * i, &x[i], 4);
        else {
            uint16_t h = dt == SOFTMAX_F16 ? wb_f32_to_f16(x[i]) : wb_f32_to_bf16(x[i]);
            memcpy(hx + 2 * i, &h, 2);
            x[i] = dt == SOFTMAX_F16 ? wb_f16_to_f32(h) : wb_bf16_to_f32(h);
        }
    }
    for (long long r = 0; r < rows; r++) ref_row(x + r * cols, ref + r * cols, cols);
    void *dx = wb_dcopy(hx, (n ? n : 1) * es);
    wb_dout out;
    void *dy = wb_dout_alloc(&out, "y", (n ? n : 1) * es, 0);
    char what[128];
    snprintf(what, sizeof what, "%s %lld x %lld%s", NAMES[dt], rows, cols, special ? " with +-1e4, NaN, +-Inf rows" : "");
    cudaError_t e = softmax_ext(dx, dy, rows, cols, dt, 0);
    if (e != cudaSuccess) ck_abort_msg("%s: softmax_ext returned %s", what, cudaGetErrorString(e));
    WB_CUDA(cudaDeviceSynchronize());
    wb_expect_dout_guards(&out, hy, what); /* also waits and fetches y */
    size_t bad = 0, first = 0;
    double got0 = 0;
    for (size_t i = 0; i < n; i++) {
        float g;
        if (dt == SOFTMAX_F32) memcpy(&g, hy + 4 * i, 4);
        else {
            uint16_t h;
            memcpy(&h, hy + 2 * i, 2);
            g = dt == SOFTMAX_F16 ? wb_f16_to_f32(h) : wb_bf16_to_f32(h);
        }
        int ok = isnan(ref[i]) ? isnan(g) : (!isnan(g) && fabs(g - ref[i]) <= ATOL[dt] + RTOL[dt] * fabs(ref[i]));
        if (!ok && bad++ == 0) first = i, got0 = g;
    }
    if (bad)
        ck_abort_msg("%s (seed %llu): %zu of %zu elements wrong; first at row %zu col %zu: got %.9g, want %.9g%s",
                     what, (unsigned long long)wb_base_seed(), bad, n, first / (size_t)cols, first % (size_t)cols,
                     got0, ref[first], isnan(got0) ? " (NaN: never written, or a wrong NaN)" : "");
    WB_CUDA(cudaFree(dx));
    wb_dout_free(&out);
    free(x), free(ref), free(hx), free(hy);
}

static const long long SHAPES[][2] = { { 0, 64 }, { 3, 0 }, { 1, 1 }, { 7, 1 }, { 5, 3 }, { 1, 1000 }, { 33, 256 },
                                       { 17, 257 }, { 64, 4096 }, { 8, 8191 }, { 2, 100003 }, { 4099, 129 } };

START_TEST(capi_shapes)
{
    for (int dt = 0; dt < 3; dt++) {
        wb_rng rng = WB_RNG();
        check(&rng, (softmax_dtype)dt, SHAPES[_i][0], SHAPES[_i][1], 0);
    }
}
END_TEST

START_TEST(capi_special)
{
    static const long long S[][2] = { { 9, 777 }, { 8, 8 }, { 16, 4097 } };
    for (int dt = 0; dt < 3; dt++) {
        wb_rng rng = WB_RNG();
        check(&rng, (softmax_dtype)dt, S[_i][0], S[_i][1], 1);
    }
}
END_TEST

/* Bad arguments are refused before anything is launched. */
START_TEST(capi_refuses)
{
    float *d;
    WB_CUDA(cudaMalloc((void **)&d, 64));
    cudaError_t e1 = softmax_ext(d, d + 8, 2, 4, (softmax_dtype)7, 0);
    cudaError_t e2 = softmax_ext(d, d + 8, -1, 4, SOFTMAX_F32, 0);
    cudaError_t e3 = softmax_ext(d, d + 8, 2, -4, SOFTMAX_F16, 0);
    ck_assert_msg(e1 == cudaErrorInvalidValue, "softmax_ext with dtype 7 returned %s, want cudaErrorInvalidValue",
                  cudaGetErrorString(e1));
    ck_assert_msg(e2 == cudaErrorInvalidValue && e3 == cudaErrorInvalidValue,
                  "softmax_ext with rows = -1 or cols = -4 returned %s and %s, want cudaErrorInvalidValue",
                  cudaGetErrorString(e2), cudaGetErrorString(e3));
    WB_CUDA(cudaDeviceSynchronize());
    WB_CUDA(cudaFree(d));
}
END_TEST

static const wb_test TESTS[] = {
    { "w39.capi", WB_T(capi_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w39.capi", WB_T(capi_special), WB_GPU, 3 },
    { "w39.capi", WB_T(capi_refuses), WB_GPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
