/* tma_copy_check.h — what the tests of Phase 5's TMA copies share (week 53's
 * tma_copy_f32, week 56's tma_multicast_f32, which writes `copies` stacked
 * copies): the shape of a padded float matrix, the source's values (with the
 * bit patterns a copy must carry as they are), the check that every element
 * of the destination, padding included, is the source's bits or still the
 * poison, and the expectations of an empty copy and of a refused one.
 *
 * Included by exactly one test file per binary (it defines static inline
 * functions). A copy under test comes as a tma_copy_call: the week's
 * function with its own extra arguments bound in `ctx`. */
#ifndef PHASE5_TMA_COPY_CHECK_H
#define PHASE5_TMA_COPY_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"

/* A rows x cols matrix whose rows are round4(cols) + pad floats apart: row
 * strides stay multiples of 16 bytes, as TMA requires. */
typedef struct {
    size_t rows, cols, pad_src, pad_dst;
} tma_copy_shape;

static inline size_t tma_round4(size_t x) { return (x + 3) / 4 * 4; }

/* Bits a copy must carry as they are: NaN payloads of both signs, Inf, -0,
 * denormals, the largest and smallest normals (never 0xFFFFFFFF, the poison). */
static const uint32_t TMA_SPECIAL_BITS[] = { 0x7FC00000u, 0x7FC00001u, 0xFFC12345u, 0x7F800001u, 0xFF800123u,
                                             0x7F800000u, 0xFF800000u, 0x80000000u, 0x00000000u, 0x00000001u,
                                             0x807FFFFFu, 0x7F7FFFFFu, 0x00800000u };

/* The empty shapes every copy must accept without writing anything. */
static const size_t TMA_EMPTY_SHAPES[3][2] = { { 0, 7 }, { 7, 0 }, { 0, 0 } };

/* A copy of src (ld_src floats a row) into dst (ld_dst), rows x cols; the
 * week's own arguments (copies, multicast) are in ctx. */
typedef cudaError_t (*tma_copy_call)(const void *ctx, const float *src, size_t ld_src, float *dst, size_t ld_dst,
                                     size_t rows, size_t cols);

/* Copy shape s `copies` times (stacked in dst, each rows x ld_dst) and check
 * every element of dst: the source's bits, or the poison in the padding.
 * The source is uniform in [-1000, 1000]; with `specials`, about a quarter
 * of it is TMA_SPECIAL_BITS. `what` names the call in messages. */
static inline void tma_check_copies(wb_rng *rng, tma_copy_shape s, int copies, int specials, tma_copy_call call,
                                    const void *ctx, const char *what)
{
    const size_t ls = tma_round4(s.cols) + s.pad_src, ld = tma_round4(s.cols) + s.pad_dst;
    const size_t ns = s.rows * ls, nd = (size_t)copies * s.rows * ld;
    uint32_t *hs = wb_hmalloc(ns * 4), *want = wb_hmalloc(nd * 4);
    wb_fill_uniform_f32(rng, (float *)hs, ns, -1000, 1000);
    if (specials)
        for (size_t i = 0; i < ns; i++)
            if (wb_rng_int(rng, 0, 3) == 0)
                hs[i] = TMA_SPECIAL_BITS[wb_rng_int(rng, 0, (int64_t)WB_COUNT(TMA_SPECIAL_BITS) - 1)];
    memset(want, 0xFF, nd * 4); /* the padding stays poisoned */
    for (int k = 0; k < copies; k++)
        for (size_t r = 0; r < s.rows; r++) memcpy(want + ((size_t)k * s.rows + r) * ld, hs + r * ls, s.cols * 4);
    float *ds = wb_dcopy(hs, ns * 4);
    wb_dout o;
    float *dd = wb_dout_alloc(&o, "dst", nd * 4, 0);
    char msg[256];
    snprintf(msg, sizeof msg, "%s: %zu x %zu, ld_src %zu, ld_dst %zu%s", what, s.rows, s.cols, ls, ld,
             specials ? ", NaN/Inf/-0/denormals" : "");
    cudaError_t e = call(ctx, ds, ls, dd, ld, s.rows, s.cols);
    ck_assert_msg(e == cudaSuccess, "%s: returned %s", msg, cudaGetErrorName(e));
    wb_expect_dout_u32(&o, want, nd, msg);
    wb_dfree(ds), wb_dout_free(&o);
    free(hs), free(want);
}

/* dst (n floats from wb_dout_alloc) still all poison: nothing was written. */
static inline void tma_expect_untouched(wb_dout *o, size_t n, const char *what)
{
    uint32_t *want = wb_hmalloc(n * 4);
    memset(want, 0xFF, n * 4);
    wb_expect_dout_u32(o, want, n, what);
    free(want);
}

/* The empty shapes on real buffers: cudaSuccess, and nothing written. */
static inline void tma_check_empty(tma_copy_call call, const void *ctx)
{
    float *ds = wb_dmalloc(256);
    for (size_t i = 0; i < WB_COUNT(TMA_EMPTY_SHAPES); i++) {
        const size_t rows = TMA_EMPTY_SHAPES[i][0], cols = TMA_EMPTY_SHAPES[i][1];
        wb_dout o;
        float *dd = wb_dout_alloc(&o, "dst", 256, 0);
        cudaError_t e = call(ctx, ds, 8, dd, 8, rows, cols);
        ck_assert_msg(e == cudaSuccess, "%zu x %zu: an empty copy is cudaSuccess, got %s", rows, cols,
                      cudaGetErrorName(e));
        char what[64];
        snprintf(what, sizeof what, "%zu x %zu (empty: nothing written)", rows, cols);
        tma_expect_untouched(&o, 64, what);
        wb_dout_free(&o);
    }
    wb_dfree(ds);
}

/* The empty shapes on the CPU: accepted with NULL pointers, so before any
 * CUDA call. */
static inline void tma_check_empty_host(tma_copy_call call, const void *ctx)
{
    for (size_t i = 0; i < WB_COUNT(TMA_EMPTY_SHAPES); i++) {
        cudaError_t e = call(ctx, NULL, 3, NULL, 5, TMA_EMPTY_SHAPES[i][0], TMA_EMPTY_SHAPES[i][1]);
        ck_assert_msg(e == cudaSuccess, "%zu x %zu with NULL pointers: an empty copy is cudaSuccess, got %s",
                      TMA_EMPTY_SHAPES[i][0], TMA_EMPTY_SHAPES[i][1], cudaGetErrorName(e));
    }
}

/* A refusal: cudaErrorInvalidValue, saying why it had to be refused. */
static inline void tma_expect_refused(cudaError_t e, const char *why)
{
    ck_assert_msg(e == cudaErrorInvalidValue, "%s: must be refused with cudaErrorInvalidValue, got %s", why,
                  cudaGetErrorName(e));
}

#endif
