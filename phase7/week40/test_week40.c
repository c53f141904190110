/* test_week40.c — week 40's C checkpoint: softmax_checked's C API computes
 * week 39's softmax in FP32, FP16 and BF16 (in place too) and refuses every
 * bad argument with cudaErrorInvalidValue before launching anything. The
 * binding's checks are test_week40.py's. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "softmax_checked.h"

#include "softmax_host.h"

static const char *NAMES[] = { "FP32", "FP16", "BF16" };
static const size_t ELEM[] = { 4, 2, 2 };
static const double RTOL[] = { 1e-5, 2e-3, 1.6e-2 }, ATOL[] = { 1e-6, 1e-7, 1e-7 };

static float get(const unsigned char *h, smc_dtype dt, size_t i)
{
    float f;
    uint16_t u;
    if (dt == SMC_F32) { memcpy(&f, h + 4 * i, 4); return f; }
    memcpy(&u, h + 2 * i, 2);
    return dt == SMC_F16 ? wb_f16_to_f32(u) : wb_bf16_to_f32(u);
}

/* U(-5, 5) inputs (a NaN row and a -Inf element when there are rows enough),
 * rounded to the storage type; y separate, or x itself when in_place. */
static void check(wb_rng *rng, smc_dtype dt, long long rows, long long cols, int in_place)
{
    size_t n = (size_t)(rows * cols), es = ELEM[dt], nb = (n ? n : 1) * es;
    float *x = wb_hmalloc((n ? n : 1) * 4);
    double *ref = wb_hmalloc((n ? n : 1) * 8);
    unsigned char *hx = wb_hmalloc(nb), *hy = wb_hmalloc(nb);
    wb_fill_uniform_f32(rng, x, n, -5, 5);
    if (rows >= 3 && cols >= 2) x[1 * cols + 1] = NAN, x[2 * cols] = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (dt == SMC_F32) { memcpy(hx + 4 * i, &x[i], 4); continue; }
        uint16_t h = dt == SMC_F16 ? wb_f32_to_f16(x[i]) : wb_f32_to_bf16(x[i]);
        memcpy(hx + 2 * i, &h, 2);
        x[i] = get(hx, dt, i);
    }
    for (long long r = 0; r < rows; r++) ref_row(x + r * cols, ref + r * cols, cols);
    char what[96];
    snprintf(what, sizeof what, "%s %lld x %lld%s", NAMES[dt], rows, cols, in_place ? " in place" : "");
    wb_dout out;
    void *dy = wb_dout_alloc(&out, "y", nb, 0), *dx = NULL;
    if (in_place) WB_CUDA(cudaMemcpy(dy, hx, nb, cudaMemcpyHostToDevice));
    else dx = wb_dcopy(hx, nb);
    cudaError_t e = softmax_checked(in_place ? dy : dx, dy, rows, cols, dt, 0);
    if (e != cudaSuccess) ck_abort_msg("%s: softmax_checked returned %s", what, cudaGetErrorString(e));
    WB_CUDA(cudaDeviceSynchronize());
    wb_expect_dout_guards(&out, hy, what);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        float g = get(hy, dt, i);
        int ok = isnan(ref[i]) ? isnan(g) : (!isnan(g) && fabs(g - ref[i]) <= ATOL[dt] + RTOL[dt] * fabs(ref[i]));
        if (!ok && bad++ == 0) first = i;
    }
    if (bad)
        ck_abort_msg("%s (seed %llu): %zu of %zu elements wrong; first at flat index %zu: got %.9g, want %.9g", what,
                     (unsigned long long)wb_base_seed(), bad, n, first, get(hy, dt, first), ref[first]);
    if (dx) WB_CUDA(cudaFree(dx));
    wb_dout_free(&out);
    free(x), free(ref), free(hx), free(hy);
}

static const long long SHAPES[][2] = { { 0, 8 }, { 4, 0 }, { 1, 1 }, { 5, 3 }, { 17, 257 }, { 8, 8191 }, { 3, 100003 } };

START_TEST(capi_shapes)
{
    for (int dt = 0; dt < 3; dt++)
        for (int ip = 0; ip < 2; ip++) {
            wb_rng rng = WB_RNG();
            check(&rng, (smc_dtype)dt, SHAPES[_i][0], SHAPES[_i][1], ip);
        }
}
END_TEST

/* Each bad call returns cudaErrorInvalidValue, and leaves y and the context untouched. */
START_TEST(capi_refuses)
{
    static const struct { long long rows, cols; int dt, nullx, nully; const char *what; } BAD[] = {
        { -1, 8, SMC_F32, 0, 0, "rows = -1" },
        { 4, -8, SMC_F16, 0, 0, "cols = -8" },
        { 1LL << 31, 1, SMC_F32, 0, 0, "rows = 2^31 (one block a row: past the grid)" },
        { 4, 8, 3, 0, 0, "dtype 3" },
        { 4, 8, -1, 0, 0, "dtype -1" },
        { 4, 8, SMC_F32, 1, 0, "x NULL with 4 x 8 to compute" },
        { 4, 8, SMC_BF16, 0, 1, "y NULL with 4 x 8 to compute" },
    };
    wb_rng rng = WB_RNG();
    float hx[32];
    wb_fill_uniform_f32(&rng, hx, 32, -1, 1);
    float *dx = wb_dcopy(hx, sizeof hx);
    wb_dout out;
    float *dy = wb_dout_alloc(&out, "y", sizeof hx, 0);
    for (size_t k = 0; k < WB_COUNT(BAD); k++) {
        cudaError_t e = softmax_checked(BAD[k].nullx ? NULL : dx, BAD[k].nully ? NULL : (void *)dy, BAD[k].rows,
                                        BAD[k].cols, (smc_dtype)BAD[k].dt, 0);
        cudaError_t later = cudaDeviceSynchronize();
        if (e != cudaErrorInvalidValue)
            ck_abort_msg("softmax_checked with %s returned %s, want cudaErrorInvalidValue (refuse it before launching)",
                         BAD[k].what, cudaGetErrorString(e));
        if (later != cudaSuccess)
            ck_abort_msg("softmax_checked with %s: something was launched anyway and failed: %s", BAD[k].what,
                         cudaGetErrorString(later));
    }
    float got[32];
    wb_expect_dout_guards(&out, got, "y after the refused calls");
    for (int i = 0; i < 32; i++)
        if (!isnan(got[i])) ck_abort_msg("y[%d] was written (%g) by a call that should have been refused", i, got[i]);
    WB_CUDA(cudaFree(dx));
    wb_dout_free(&out);
}
END_TEST

static const wb_test TESTS[] = {
    { "w40.capi", WB_T(capi_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w40.capi", WB_T(capi_refuses), WB_GPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
