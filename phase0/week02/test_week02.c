/* test_week02.c — week 02's checkpoints: each planted bug fixed, and an error
 * reporter that reports a bad launch instead of crashing.
 *
 * Sizes stay below a few million elements so that `make phase0/week02
 * sanitize` (every test under four compute-sanitizer tools) finishes in
 * seconds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "bugs.h"
#include "support/launcher.h"

/* Under CK_FORK=no (make sanitize, cuda-gdb) every test shares one process.
 * The tests that launch a bad configuration on purpose skip themselves there:
 * memcheck reports every failing CUDA call as an error, and the point of a
 * sanitizer run is a clean report for correct code. */
static int one_process(const char *test)
{
    const char *fork = getenv("CK_FORK");
    if (fork && strcmp(fork, "no") == 0) {
        printf("  %s: skipped under CK_FORK=no (it makes a failing CUDA call on purpose)\n", test);
        return 1;
    }
    return 0;
}

/* Sizes: empty, one, a warp, block edges, not a multiple of any block, large. */
static const size_t SIZES[] = { 0, 1, 31, 255, 256, 257, 1000, 1023, 1024, 1025, 4097, 100003, 1 << 20, 3000017 };

/* ---------------------------------------------------------------- 1. scale */

/* exact == 0: the output is guarded (wb_dout): a band of poison on each side
 * that must stay poisoned. exact == 1: x and y are exactly n floats, with no
 * band, so an out-of-bounds access leaves the allocation (memcheck reports
 * it; a normal run may not). wb_dout always has a band, so that output is
 * allocated and poisoned here. */
static void check_scale(wb_rng *rng, size_t n, int exact)
{
    float *hx = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(rng, hx, n, -10, 10);
    float s = (float)wb_rng_unit(rng) * 4 - 2;
    for (size_t i = 0; i < n; i++) ref[i] = s * hx[i];
    float *dx = wb_dcopy(hx, n * 4);
    char what[64];
    snprintf(what, sizeof what, "n=%zu%s", n, exact ? ", x and y exactly n floats" : "");
    if (!exact) {
        wb_dout y;
        float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
        WB_CUDA(bug_scale(dx, dy, n, s));
        wb_expect_dout_f32(&y, ref, n, 0, 1e-7, what);
        wb_dout_free(&y);
    } else {
        float *dy = wb_dmalloc(n * 4), *hy = wb_hmalloc(n * 4);
        wb_dpoison(dy, n * 4);
        WB_CUDA(bug_scale(dx, dy, n, s));
        wb_sync();
        wb_d2h(hy, dy, n * 4);
        wb_cmp cmp;
        wb_compare_f32("y", hy, ref, n, 0, 1e-7, &cmp);
        WB_EXPECT_CMP(cmp, what);
        wb_dfree(dy);
        free(hy);
    }
    wb_dfree(dx);
    free(hx), free(ref);
}

START_TEST(scale_sizes)
{
    wb_rng rng = WB_RNG();
    check_scale(&rng, SIZES[_i], 0);
}
END_TEST

START_TEST(scale_exact_allocation)
{
    wb_rng rng = WB_RNG();
    check_scale(&rng, 1000, 1);
}
END_TEST

/* ---------------------------------------------------------------- 2. histogram */

START_TEST(histogram_sizes)
{
    size_t n = SIZES[_i];
    wb_rng rng = WB_RNG();
    unsigned *hk = wb_hmalloc(n * 4);
    wb_fill_u32(&rng, hk, n, 1000003u); /* any value: the kernel takes it % HIST_BINS */
    unsigned ref[HIST_BINS] = { 0 };
    for (size_t i = 0; i < n; i++) ref[hk[i] % HIST_BINS]++;
    unsigned *dk = wb_dcopy(hk, n * 4);
    wb_dout hist;
    unsigned *dh = wb_dout_alloc(&hist, "hist", sizeof ref, 0);
    WB_CUDA(bug_histogram(dk, n, dh));
    char what[64];
    snprintf(what, sizeof what, "n=%zu", n);
    wb_expect_dout_u32(&hist, ref, HIST_BINS, what);
    wb_dfree(dk), wb_dout_free(&hist);
    free(hk);
}
END_TEST

/* All keys in one bin: every thread of every warp collides. */
START_TEST(histogram_one_bin)
{
    size_t n = 1 << 16;
    wb_rng rng = WB_RNG();
    unsigned b = (unsigned)wb_rng_int(&rng, 0, HIST_BINS - 1);
    unsigned *hk = wb_hmalloc(n * 4), ref[HIST_BINS] = { 0 };
    for (size_t i = 0; i < n; i++) hk[i] = b + HIST_BINS * (unsigned)wb_rng_int(&rng, 0, 1000);
    ref[b] = (unsigned)n;
    unsigned *dk = wb_dcopy(hk, n * 4);
    wb_dout hist;
    unsigned *dh = wb_dout_alloc(&hist, "hist", sizeof ref, 0);
    WB_CUDA(bug_histogram(dk, n, dh));
    wb_expect_dout_u32(&hist, ref, HIST_BINS, "n=65536, all keys in one bin");
    wb_dfree(dk), wb_dout_free(&hist);
    free(hk);
}
END_TEST

/* ---------------------------------------------------------------- 3. reverse */

START_TEST(reverse_sizes)
{
    size_t n = SIZES[_i];
    wb_rng rng = WB_RNG();
    float *hx = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    for (size_t base = 0; base < n; base += REVERSE_SEG) {
        size_t m = n - base < REVERSE_SEG ? n - base : REVERSE_SEG;
        for (size_t t = 0; t < m; t++) ref[base + t] = hx[base + m - 1 - t];
    }
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(bug_reverse(dx, dy, n));
    char what[64];
    snprintf(what, sizeof what, "n=%zu", n);
    wb_expect_dout_f32(&y, ref, n, 0, 0, what); /* a permutation: exact */
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- 4. normalise */

/* poison_work: fill the workspace with NaN first (deterministic: an
 * uninitialised read shows as NaN). Without it the workspace is a fresh
 * allocation that nothing wrote: what initcheck watches for. */
static void check_normalise(wb_rng *rng, size_t n, int poison_work)
{
    float *hx = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(rng, hx, n, 1, 2); /* positive: the sum is far from 0 */
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += hx[i];
    for (size_t i = 0; i < n; i++) ref[i] = (float)(hx[i] / sum);
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    double *work = wb_dmalloc(sizeof(double));
    if (poison_work) wb_dpoison(work, sizeof(double));
    WB_CUDA(bug_normalise(dx, dy, n, work));
    char what[80];
    snprintf(what, sizeof what, "n=%zu, workspace %s on entry", n, poison_work ? "NaN" : "fresh");
    wb_expect_dout_f32(&y, ref, n, 0, 1e-5, what);
    wb_dfree(dx), wb_dout_free(&y), wb_dfree(work);
    free(hx), free(ref);
}

START_TEST(normalise_sizes)
{
    wb_rng rng = WB_RNG();
    check_normalise(&rng, SIZES[_i], 1);
}
END_TEST

START_TEST(normalise_fresh_workspace)
{
    wb_rng rng = WB_RNG();
    check_normalise(&rng, 5000, 0);
}
END_TEST

/* ---------------------------------------------------------------- 5. affine */

/* Good configurations must run correctly; bad ones must come back as errors. */
static const struct { int block; size_t smem; int ok; } CONFIGS[] = {
    { 256, 0, 1 }, { 1024, 0, 1 }, { 96, 0, 1 }, { 32, 4096, 1 },
    { 2048, 0, 0 },        /* more threads per block than any device allows */
    { 1025, 0, 0 },
    { 256, 1 << 20, 0 },   /* 1 MiB of dynamic shared memory: no device has it */
};

START_TEST(affine_configs)
{
    if (!CONFIGS[_i].ok && one_process("affine_configs (a bad configuration)")) return;
    wb_rng rng = WB_RNG();
    size_t n = (size_t)wb_rng_int(&rng, 1000, 300000);
    float *hx = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hx, n, -10, 10);
    float a = (float)wb_rng_unit(&rng) * 4 - 2, b = (float)wb_rng_unit(&rng) * 4 - 2;
    for (size_t i = 0; i < n; i++) ref[i] = a * hx[i] + b;
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    char what[96];
    snprintf(what, sizeof what, "n=%zu, %d threads per block, %zu bytes of dynamic shared memory", n,
             CONFIGS[_i].block, CONFIGS[_i].smem);
    cudaError_t e = bug_affine(dx, dy, n, a, b, CONFIGS[_i].block, CONFIGS[_i].smem);
    if (CONFIGS[_i].ok) {
        ck_assert_msg(e == cudaSuccess, "%s: returned %s for a launch that is valid", what, cudaGetErrorName(e));
        wb_expect_dout_f32(&y, ref, n, 1e-6, 1e-6, what);
    } else {
        cudaError_t left = cudaGetLastError(); /* clear it whatever happened */
        ck_assert_msg(e != cudaSuccess, "%s: returned cudaSuccess, but the launch failed with %s", what,
                      cudaGetErrorName(left));
    }
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- 6. bug_check_launch */

START_TEST(check_launch_bad_config)
{
    if (one_process("check_launch_bad_config")) return;
    size_t n = 4097;
    float *dy = wb_dmalloc(n * 4);
    char msg[256];
    struct { int block; size_t smem; } bad[] = { { 2048, 0 }, { 256, 1 << 20 } };
    for (size_t k = 0; k < WB_COUNT(bad); k++) {
        memset(msg, 'X', sizeof msg);
        w02_launch_fill(dy, n, 1.0f, bad[k].block, bad[k].smem);
        cudaError_t e = bug_check_launch("fill", 0, msg, sizeof msg);
        ck_assert_msg(e != cudaSuccess,
                      "block %d, smem %zu: bug_check_launch returned cudaSuccess for a launch that failed",
                      bad[k].block, bad[k].smem);
        ck_assert_msg(memchr(msg, 0, sizeof msg) != NULL, "the message is not a terminated string");
        ck_assert_msg(strstr(msg, "fill") == msg, "the message must start with the label 'fill': \"%s\"", msg);
        ck_assert_msg(strstr(msg, cudaGetErrorName(e)) != NULL, "the message must name the error (%s): \"%s\"",
                      cudaGetErrorName(e), msg);
        ck_assert_msg(strstr(msg, cudaGetErrorString(e)) != NULL, "the message must say what it means (%s): \"%s\"",
                      cudaGetErrorString(e), msg);
        ck_assert_msg(cudaGetLastError() == cudaSuccess, "bug_check_launch must clear the launch error");
    }
    /* a short buffer: truncated, still terminated */
    w02_launch_fill(dy, n, 1.0f, 2048, 0);
    char tiny[8];
    memset(tiny, 'X', sizeof tiny);
    ck_assert(bug_check_launch("fill", 0, tiny, sizeof tiny) != cudaSuccess);
    ck_assert_msg(memchr(tiny, 0, sizeof tiny) != NULL, "a message longer than msgsz must be truncated and terminated");
    wb_dfree(dy);
}
END_TEST

START_TEST(check_launch_good)
{
    wb_rng rng = WB_RNG();
    size_t n = (size_t)wb_rng_int(&rng, 1, 100000);
    float *ref = wb_hmalloc(n * 4);
    float v = (float)wb_rng_unit(&rng);
    for (size_t i = 0; i < n; i++) ref[i] = v;
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    char msg[256];
    memset(msg, 'X', sizeof msg);
    w02_launch_fill(dy, n, v, 256, 0);
    cudaError_t e = bug_check_launch("fill", 1, msg, sizeof msg);
    ck_assert_msg(e == cudaSuccess, "a good launch: bug_check_launch returned %s", cudaGetErrorName(e));
    ck_assert_msg(msg[0] == 0, "a good launch: the message must be empty, got \"%.40s\"", msg);
    ck_assert_msg(bug_check_launch("again", 0, NULL, 0) == cudaSuccess, "msg may be NULL when msgsz is 0");
    wb_expect_dout_f32(&y, ref, n, 0, 0, "fill after bug_check_launch(sync=1)");
    wb_dout_free(&y);
    free(ref);
}
END_TEST

/* A kernel that fails while running: only the synchronisation sees it. The
 * context is dead afterwards, so this runs last and only in its own process
 * (Check's fork mode). */
START_TEST(check_launch_fault)
{
    if (one_process("check_launch_fault (it also leaves the CUDA context unusable)")) return;
    float *d = wb_dmalloc(64);
    char msg[256];
    memset(msg, 'X', sizeof msg);
    w02_launch_fault(d);
    cudaError_t e = bug_check_launch("fault", 1, msg, sizeof msg);
    ck_assert_msg(e != cudaSuccess, "a kernel that faults: bug_check_launch(sync=1) returned cudaSuccess");
    ck_assert_msg(strstr(msg, "fault") == msg && strstr(msg, cudaGetErrorName(e)) != NULL,
                  "the message must start with the label and name the error (%s): \"%.200s\"", cudaGetErrorName(e),
                  msg);
}
END_TEST

static const wb_test TESTS[] = {
    { "w02.oob", WB_T(scale_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w02.oob", WB_T(scale_exact_allocation), WB_GPU, 0 },
    { "w02.race", WB_T(histogram_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w02.race", WB_T(histogram_one_bin), WB_GPU, 0 },
    { "w02.barrier", WB_T(reverse_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w02.uninit", WB_T(normalise_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w02.uninit", WB_T(normalise_fresh_workspace), WB_GPU, 0 },
    { "w02.launch-error", WB_T(affine_configs), WB_GPU, WB_COUNT(CONFIGS) },
    { "w02.error-report", WB_T(check_launch_bad_config), WB_GPU, 0 },
    { "w02.error-report", WB_T(check_launch_good), WB_GPU, 0 },
    { "w02.error-report", WB_T(check_launch_fault), WB_GPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
