/* test_week08.c — week 08's checkpoints: last-block reduction, grid sync,
 * warp-vote compaction, a lock-free stack. Many seeds: WB_SEED=random. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_test.h"
#include "gridsync.h"
#include "lastblock.h"
#include "lfstack.h"
#include "vote.h"

static const size_t SIZES[] = { 0, 1, 2, 31, 255, 256, 257, 2047, 2049, 65537, 1000003, 2000000 };

/* ---------------------------------------------------------------- lastblock */

START_TEST(lastblock_exact_deterministic)
{
    wb_rng rng = WB_RNG();
    size_t n = SIZES[_i];
    float *hx = wb_hmalloc((n + 1) * 4);
    for (size_t i = 0; i < n; i++) hx[i] = (float)wb_rng_int(&rng, -3, 5); /* exact in any order */
    double ref = 0;
    for (size_t i = 0; i < n; i++) ref += hx[i];
    float *dx = wb_dcopy(hx, n * 4);
    void *tmp = wb_dmalloc(lastblock_tmp_bytes());
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "sum", 4, 0);
    char what[64];
    for (int run = 0; run < 3; run++) { /* the same workspace: the counter must come back to 0 */
        wb_dout_poison(&out);
        WB_CUDA(reduce_lastblock(dx, n, dout, tmp));
        float got;
        snprintf(what, sizeof what, "n=%zu, run %d, integer data", n, run + 1);
        wb_expect_dout_guards(&out, &got, what);
        ck_assert_msg(got == (float)ref, "n=%zu, run %d (seed %llu): sum %.1f, expected %.1f", n, run + 1,
                      (unsigned long long)wb_base_seed(), got, ref);
    }
    /* float data: close to the double sum, and the same bits every run */
    wb_fill_uniform_f32(&rng, hx, n, -1, 2);
    double fref = 0, abs_sum = 0;
    for (size_t i = 0; i < n; i++) fref += hx[i], abs_sum += fabs(hx[i]);
    wb_h2d(dx, hx, n * 4);
    uint32_t bits0 = 0;
    for (int run = 0; run < 5; run++) {
        wb_dout_poison(&out);
        WB_CUDA(reduce_lastblock(dx, n, dout, tmp));
        float got;
        snprintf(what, sizeof what, "n=%zu, run %d, float data", n, run + 1);
        wb_expect_dout_guards(&out, &got, what);
        ck_assert_msg(wb_close(got, fref, 1e-6 * abs_sum + 1e-7, 0), "n=%zu float data: sum %.9g, expected %.9g", n, got, fref);
        uint32_t bits;
        memcpy(&bits, &got, 4);
        if (run == 0) bits0 = bits;
        ck_assert_msg(bits == bits0, "n=%zu: run %d gave different bits (0x%08x vs 0x%08x): the sum is not deterministic",
                      n, run + 1, bits, bits0);
    }
    wb_dfree(dx), wb_dout_free(&out), wb_dfree(tmp);
    free(hx);
}
END_TEST

/* ---------------------------------------------------------------- gridsync */

START_TEST(center_sizes)
{
    wb_rng rng = WB_RNG();
    size_t n = (size_t)_i < WB_COUNT(SIZES) ? SIZES[_i] : (size_t)wb_rng_int(&rng, 1, 5000000);
    float *hx = wb_hmalloc(n * 4);
    double *ref = wb_hmalloc(n * 8);
    wb_fill_uniform_f32(&rng, hx, n, -1, 3);
    double mean = 0;
    for (size_t i = 0; i < n; i++) mean += hx[i];
    mean = n ? mean / n : 0;
    for (size_t i = 0; i < n; i++) ref[i] = hx[i] - mean;
    float *dx = wb_dcopy(hx, n * 4);
    void *tmp = wb_dmalloc(center_tmp_bytes());
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(center_mean(dx, dy, n, tmp));
    char what[48];
    snprintf(what, sizeof what, "n=%zu", n);
    wb_expect_dout_f32_f64(&y, ref, n, 1e-5, 1e-6, what);
    wb_dfree(dx), wb_dout_free(&y), wb_dfree(tmp);
    free(hx), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- vote */

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

START_TEST(compact_sizes)
{
    wb_rng rng = WB_RNG();
    size_t n = (size_t)_i < WB_COUNT(SIZES) ? SIZES[_i] : (size_t)wb_rng_int(&rng, 1, 3000000);
    float *hx = wb_hmalloc(n * 4), *hout = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    if (n > 8) hx[1] = NAN, hx[2] = INFINITY, hx[3] = -INFINITY, hx[4] = 0.f, hx[5] = -0.f, hx[6] = 1e-30f;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (hx[i] > 0) ref[k++] = hx[i];
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout out, cnt;
    float *dout = wb_dout_alloc(&out, "out", n * 4, 0);
    unsigned int *dcount = wb_dout_alloc(&cnt, "count", 4, 0), count = 0;
    WB_CUDA(compact_positive(dx, n, dout, dcount));
    char what[64];
    snprintf(what, sizeof what, "n=%zu", n);
    wb_expect_dout_guards(&cnt, &count, what);
    /* the kept elements come in any order: the test compares them sorted, and
     * out[count..n) must still hold the poison (the guards cover past n) */
    wb_expect_dout_guards(&out, hout, what);
    ck_assert_msg(count == k, "n=%zu (seed %llu): count %u, expected %zu", n, (unsigned long long)wb_base_seed(), count, k);
    qsort(hout, k, 4, cmp_float);
    qsort(ref, k, 4, cmp_float);
    snprintf(what, sizeof what, "n=%zu, kept elements sorted", n);
    wb_cmp cmp;
    wb_compare_f32("out", hout, ref, k, 0, 0, &cmp);
    WB_EXPECT_CMP(cmp, what);
    ck_assert_msg(wb_count_not_byte(hout + k, (n - k) * 4, 0xFF) == 0, "n=%zu: written past out[count-1]", n);
    wb_dfree(dx), wb_dout_free(&out), wb_dout_free(&cnt);
    free(hx), free(hout), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- lfstack */

START_TEST(stack_push_pop)
{
    static const size_t SN[] = { 1, 2, 31, 33, 1000, 100003, (size_t)1 << 20 };
    size_t n = SN[_i], extra = 100, m = n + extra;
    wb_dout head_o, next_o, pop_o;
    unsigned int *dhead = wb_dout_alloc(&head_o, "head", 4, 0), *dnext = wb_dout_alloc(&next_o, "next", n * 4, 0),
                 *dpop = wb_dout_alloc(&pop_o, "popped", m * 4, 0);
    unsigned int empty = STACK_EMPTY, head;
    unsigned int *next = wb_hmalloc(n * 4), *pop = wb_hmalloc(m * 4);
    unsigned char *seen = calloc(n, 1);
    char what[48];
    wb_h2d(dhead, &empty, 4);
    WB_CUDA(stack_push_all(dhead, dnext, n));
    snprintf(what, sizeof what, "n=%zu, after the pushes", n);
    wb_expect_dout_guards(&head_o, &head, what);
    wb_expect_dout_guards(&next_o, next, what);
    size_t walked = 0;
    for (unsigned v = head; v != STACK_EMPTY; v = next[v]) {
        /* `if ... ck_abort_msg`, not ck_assert, inside loops over a million
         * elements: Check logs every passed assertion. */
        if (v >= n) ck_abort_msg("n=%zu: the stack holds node %u, past n", n, v);
        if (seen[v]) ck_abort_msg("n=%zu: node %u is in the stack twice (a cycle)", n, v);
        seen[v] = 1, walked++;
    }
    ck_assert_msg(walked == n, "n=%zu: the stack holds %zu nodes after %zu pushes", n, walked, n);
    WB_CUDA(stack_pop_all(dhead, dnext, dpop, m));
    snprintf(what, sizeof what, "n=%zu, after the pops", n);
    wb_expect_dout_guards(&pop_o, pop, what);
    wb_expect_dout_guards(&head_o, &head, what);
    memset(seen, 0, n);
    size_t empties = 0;
    for (size_t t = 0; t < m; t++) {
        if (pop[t] == STACK_EMPTY) {
            empties++;
            continue;
        }
        if (pop[t] >= n) ck_abort_msg("n=%zu: thread %zu popped %u, not a node", n, t, pop[t]);
        if (seen[pop[t]]) ck_abort_msg("n=%zu: node %u popped twice", n, pop[t]);
        seen[pop[t]] = 1;
    }
    ck_assert_msg(empties == extra, "n=%zu: %zu of %zu pops found the stack empty, expected %zu", n, empties, m, extra);
    ck_assert_msg(head == STACK_EMPTY, "n=%zu: the stack is not empty after popping everything (head %u)", n, head);
    wb_dout_free(&head_o), wb_dout_free(&next_o), wb_dout_free(&pop_o);
    free(next), free(pop), free(seen);
}
END_TEST

/* ---------------------------------------------------------------- benchmarks (no targets) */

enum { SEED_X = 81 };

typedef struct { const float *x; float *out; size_t n; void *tmp; unsigned int *count; } w8_ctx;

static void lb_work(void *p)
{
    w8_ctx *c = p;
    WB_CUDA(reduce_lastblock(c->x, c->n, c->out, c->tmp));
}

static double lb_expect(size_t i, const void *ctx)
{
    (void)i;
    return *(const double *)ctx;
}

static double bench_lastblock(void)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    w8_ctx c = { wb_dmalloc(bytes), wb_dmalloc(4), n, wb_dmalloc(lastblock_tmp_bytes()), NULL };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, 0, 1);
    float *h = wb_hmalloc(bytes);
    wb_d2h(h, c.x, bytes);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += h[i];
    free(h);
    double copy = wb_yard_copy_gbps(bytes);
    wb_bench_row r = { .exercise = "lastblock", .variant = "single pass, threadfence", .n = n, .bytes = 4.0 * n,
                       .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    wb_dpoison(c.out, 4);
    wb_time(lb_work, &c, NULL, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("sum", c.out, 1, lb_expect, &sum, 1, 1e-5 * sum, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
    wb_bench_emit(&r);
    wb_dfree((void *)c.x), wb_dfree(c.out), wb_dfree(c.tmp);
    return wb_bench_ratio(&r);
}

static void cp_work(void *p)
{
    w8_ctx *c = p;
    WB_CUDA(compact_positive(c->x, c->n, c->out, c->count));
}

static double bench_compact(void)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    w8_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), n, NULL, wb_dmalloc(4) };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, -1, 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += wb_hash_uniform_f32(SEED_X, i, -1, 1) > 0;
    double copy = wb_yard_copy_gbps(bytes);
    wb_bench_row r = { .exercise = "compact", .variant = "warp vote, half kept", .n = n, .bytes = 4.0 * n + 4.0 * k,
                       .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    wb_time(cp_work, &c, NULL, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    unsigned int count = 0;
    wb_d2h(&count, c.count, 4);
    if (count != k) {
        char msg[96];
        snprintf(msg, sizeof msg, "count %u, expected %zu", count, k);
        wb_bench_invalid(&r, msg);
    }
    wb_bench_emit(&r);
    wb_dfree((void *)c.x), wb_dfree(c.out), wb_dfree(c.count);
    return wb_bench_ratio(&r);
}

static const wb_test TESTS[] = {
    { "w08.lastblock", WB_T(lastblock_exact_deterministic), WB_GPU, WB_COUNT(SIZES) },
    { "w08.gridsync", WB_T(center_sizes), WB_GPU, WB_COUNT(SIZES) + 4 },
    { "w08.vote", WB_T(compact_sizes), WB_GPU, WB_COUNT(SIZES) + 4 },
    { "w08.lockfree", WB_T(stack_push_pop), WB_GPU, 7 },
};

static const wb_benchmark BENCHES[] = {
    { "lastblock", bench_lastblock },
    { "compact", bench_compact },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
