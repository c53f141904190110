/* test_week10.c — week 10's checkpoints: the occupancy calculator, the
 * launch-configuration sweep, and a kernel faster at lower occupancy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_test.h"
#include "occupancy.h"
#include "occ_kernels.h"
#include "lowocc.h"

/* ---------------------------------------------------------------- calculator (CPU) */

static const occ_device H100 = { 32, 2048, 32, 1024, 65536, 65536, 255, 256, 4, 233472, 49152, 232448, 1024, 128 };

typedef struct { int threads, regs; size_t smem_static, smem_dyn; int opt_in, blocks; occ_limiter why; } occ_case;

/* Worked by hand from the rules in the README (H100 limits above). */
static const occ_case CASES[] = {
    { 256, 32, 0, 0, 0, 8, OCC_LIMIT_WARPS },        /* 8 warps a block, 64 warps an SM */
    { 128, 64, 0, 0, 0, 8, OCC_LIMIT_REGS },         /* 2048 regs a warp: 8 warps a sub-partition */
    { 1024, 72, 0, 0, 0, 0, OCC_LIMIT_NONE },        /* 2304 * 32 > 65536: cannot launch */
    { 1024, 64, 0, 0, 0, 1, OCC_LIMIT_REGS },        /* exactly the register file */
    { 96, 40, 0, 20000, 0, 11, OCC_LIMIT_SMEM },     /* 21024 -> 21120 bytes: 233472 / 21120 = 11 */
    { 32, 16, 0, 0, 0, 32, OCC_LIMIT_BLOCKS },       /* the 32-block limit */
    { 256, 32, 0, 100000, 1, 2, OCC_LIMIT_SMEM },    /* opted in: 101120 bytes a block */
    { 256, 32, 0, 60000, 0, 0, OCC_LIMIT_NONE },     /* over 48 KB + 1 KB without opting in */
    { 256, 255, 0, 0, 0, 1, OCC_LIMIT_REGS },        /* 8160 -> 8192 regs a warp */
    { 256, 256, 0, 0, 0, 0, OCC_LIMIT_NONE },        /* over 255 registers a thread */
    { 1025, 16, 0, 0, 0, 0, OCC_LIMIT_NONE },        /* over 1024 threads a block */
    { 100, 48, 4096, 0, 0, 10, OCC_LIMIT_REGS },     /* 4 warps; 1536 regs a warp: 10 warps a sub-partition */
    { 32, 200, 0, 0, 0, 8, OCC_LIMIT_REGS },         /* 6400 regs a warp: 2 per sub-partition, not 65536/6400 = 10 */
    { 64, 16, 47000, 1000, 1, 4, OCC_LIMIT_SMEM },   /* 49024 -> 49152 bytes: 4 blocks */
};

static const char *LIMITS[] = { "none", "warps", "blocks", "registers", "shared memory" };

START_TEST(calc_hand_computed)
{
    for (size_t j = 0; j < WB_COUNT(CASES); j++) {
        const occ_case *k = &CASES[j];
        occ_config c = { k->threads, k->regs, k->smem_static, k->smem_dyn, k->opt_in };
        occ_limiter why = OCC_LIMIT_NONE;
        int got = occ_blocks_per_sm(&H100, &c, &why);
        ck_assert_msg(got == k->blocks, "%d threads, %d regs, %zu+%zu B shared%s: %d blocks per SM, expected %d",
                      k->threads, k->regs, k->smem_static, k->smem_dyn, k->opt_in ? " (opted in)" : "", got,
                      k->blocks);
        if (k->blocks > 0)
            ck_assert_msg(why == k->why, "%d threads, %d regs, %zu+%zu B shared: limited by %s, expected %s",
                          k->threads, k->regs, k->smem_static, k->smem_dyn, LIMITS[why], LIMITS[k->why]);
    }
    occ_config full = { 256, 32, 0, 0, 0 }, part = { 96, 40, 0, 20000, 0 };
    ck_assert_msg(wb_close(occ_fraction(&H100, &full), 1.0, 0, 1e-12), "occ_fraction: %g, expected 1", occ_fraction(&H100, &full));
    ck_assert_msg(wb_close(occ_fraction(&H100, &part), 33.0 / 64, 0, 1e-12), "occ_fraction: %g, expected 33/64",
                  occ_fraction(&H100, &part));
}
END_TEST

/* ---------------------------------------------------------------- calculator vs the runtime (GPU) */

static occ_device this_device(void)
{
    int dev = 0, v[12];
    WB_CUDA(cudaGetDevice(&dev));
    const enum cudaDeviceAttr A[12] = {
        cudaDevAttrWarpSize, cudaDevAttrMaxThreadsPerMultiProcessor, cudaDevAttrMaxBlocksPerMultiprocessor,
        cudaDevAttrMaxThreadsPerBlock, cudaDevAttrMaxRegistersPerMultiprocessor, cudaDevAttrMaxRegistersPerBlock,
        cudaDevAttrMaxSharedMemoryPerMultiprocessor, cudaDevAttrMaxSharedMemoryPerBlock,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, cudaDevAttrReservedSharedMemoryPerBlock,
        cudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMinor,
    };
    for (int j = 0; j < 12; j++) WB_CUDA(cudaDeviceGetAttribute(&v[j], A[j], dev));
    /* 255 registers a thread, 256-register units, 4 sub-partitions and
     * 128-byte shared-memory units hold from Volta (cc 7.0) on */
    occ_device d = { v[0], v[1], v[2], v[3], v[4], v[5], 255, 256, 4, (size_t)v[6], (size_t)v[7], (size_t)v[8],
                     (size_t)v[9], 128 };
    return d;
}

static const int THREADS[] = { 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 384, 416, 512, 544, 640, 768, 800, 1024 };
static const size_t DYN[] = { 0, 1, 1000, 3000, 8192, 20000, 40000, 47000, 48128, 49152, 60000, 100000, 150000, 230000 };

START_TEST(calc_matches_runtime)
{
    occ_device dev = this_device();
    int compared = 0, wrong = 0;
    char first[400] = "";
    for (int k = 0; k < occk_count(); k++) {
        struct cudaFuncAttributes a;
        WB_CUDA(occk_attr(k, &a));
        if (occk_opted_in(k)) WB_CUDA(occk_opt_in(k, (int)(dev.smem_per_block_optin - a.sharedSizeBytes)));
        occ_device d = dev; /* the runtime ignores the kernel's own maxThreadsPerBlock here */
        printf("  kernel %-32s %3d registers, %5zu B static shared, at most %d threads a block\n", occk_name(k),
               a.numRegs, a.sharedSizeBytes, a.maxThreadsPerBlock);
        for (size_t t = 0; t < WB_COUNT(THREADS); t++)
            for (size_t s = 0; s < WB_COUNT(DYN); s++) {
                int rt = -1;
                if (occk_max_active(k, THREADS[t], DYN[s], &rt) != cudaSuccess) rt = 0; /* cannot launch */
                cudaGetLastError();
                occ_config c = { THREADS[t], a.numRegs, a.sharedSizeBytes, DYN[s], occk_opted_in(k) };
                int mine = occ_blocks_per_sm(&d, &c, NULL);
                compared++;
                if (mine != rt && wrong++ == 0)
                    snprintf(first, sizeof first, "kernel %s, %d threads, %d regs, %zu+%zu B shared%s: yours %d, runtime %d",
                             occk_name(k), THREADS[t], a.numRegs, a.sharedSizeBytes, DYN[s],
                             occk_opted_in(k) ? " (opted in)" : "", mine, rt);
            }
    }
    printf("  %d configurations compared, %d differ from cudaOccupancyMaxActiveBlocksPerMultiprocessor\n", compared, wrong);
    ck_assert_msg(wrong == 0, "%d of %d configurations differ; first: %s", wrong, compared, first);
}
END_TEST

/* ---------------------------------------------------------------- launch sweep */

enum { SEED_S = 101 };
static const float SCALE = 1.75f;
typedef struct { const float *x; float *y; size_t n; int threads, blocks; } scale_ctx;

static void scale_work(void *p)
{
    scale_ctx *s = p;
    WB_CUDA(scale_launch(s->x, s->y, s->n, SCALE, s->threads, s->blocks));
}

static double scale_expect(size_t i, const void *ctx)
{
    (void)ctx;
    return (double)(SCALE * wb_hash_uniform_f32(SEED_S, i, -1, 1));
}

static const int SW_THREADS[] = { 32, 64, 128, 256, 512, 1024 };
static const int SW_BPS[] = { 1, 2, 4, 8, 16, 32 };

/* Every (block size, blocks per SM) the calculator says fits, at exactly
 * that many blocks per SM; GB/s against a copy; CSV and plot. Returns the
 * number of valid points, or NaN when a point is wrong or the calculator
 * gives no answer. */
static int g_no_gnuplot; /* set by bench_sweep: the CSV was written, no plot could be drawn */

static double bench_sweep(void)
{
    const char *wk = getenv("WB_WEEK_DIR");
    if (!wk || !*wk) wk = "phase2/week10";
    char dir[256], csv[300], png[300], cmd[1200];
    snprintf(dir, sizeof dir, "build/%s", wk);
    snprintf(csv, sizeof csv, "%s/sweep.csv", dir);
    snprintf(png, sizeof png, "%s/sweep.png", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (system(cmd) != 0) return NAN;
    occ_device d = this_device();
    struct cudaFuncAttributes a;
    WB_CUDA(scale_attr(&a));
    size_t bytes = wb_bench_bytes() & ~(size_t)15, n = bytes / 4;
    scale_ctx s = { wb_dmalloc(bytes), wb_dmalloc(bytes), n, 0, 0 };
    wb_dfill_uniform_f32((float *)s.x, n, SEED_S, -1, 1);
    double copy = wb_yard_copy_gbps(bytes);
    int sms = wb_this_device()->sm_count, points = 0, bad = 0;
    FILE *f = fopen(csv, "w");
    if (!f) {
        printf("  cannot write %s\n", csv);
        wb_dfree((void *)s.x), wb_dfree(s.y);
        return NAN;
    }
    fprintf(f, "threads,blocks_per_sm,occupancy,gbps,copy_gbps,ratio\n");
    for (size_t t = 0; t < WB_COUNT(SW_THREADS); t++) {
        occ_config c = { SW_THREADS[t], a.numRegs, a.sharedSizeBytes, 0, 0 };
        int fit = occ_blocks_per_sm(&d, &c, NULL);
        if (fit <= 0) {
            printf("  occ_blocks_per_sm says %d blocks of %d threads fit: the sweep needs your calculator\n", fit,
                   SW_THREADS[t]);
            bad++;
            continue;
        }
        for (size_t b = 0; b < WB_COUNT(SW_BPS); b++) {
            if (SW_BPS[b] > fit) continue;
            s.threads = SW_THREADS[t], s.blocks = SW_BPS[b] * sms;
            wb_dpoison(s.y, bytes);
            char variant[64];
            double occ = (double)SW_BPS[b] * ((SW_THREADS[t] + 31) / 32) / (d.max_threads_per_sm / 32);
            snprintf(variant, sizeof variant, "%4d thr x %2d blk/SM (occ %.3f)", SW_THREADS[t], SW_BPS[b], occ);
            wb_bench_row r = { .exercise = "launch-sweep", .variant = variant, .n = n, .bytes = 8.0 * n,
                               .unit = "GB/s", .yard_name = "COPY", .yard = copy };
            wb_time(scale_work, &s, NULL, &r.t);
            r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
            wb_cmp cmp;
            if (wb_dverify_f32("y", s.y, n, scale_expect, NULL, 1 << 12, 0, 1e-7, &cmp)) wb_bench_invalid(&r, cmp.msg), bad++;
            wb_bench_emit(&r);
            fprintf(f, "%d,%d,%.6f,%.6g,%.6g,%.4f\n", SW_THREADS[t], SW_BPS[b], occ, r.value, copy, r.value / copy);
            points++;
        }
    }
    fclose(f);
    wb_dfree((void *)s.x), wb_dfree(s.y);
    printf("  sweep: %s (%d points)\n", csv, points);
    if (bad || points == 0) return NAN;
    char gp[300];
    snprintf(gp, sizeof gp, "%s/sweep.gp", wk);
    int drawn = wb_gnuplot(gp, csv, png);
    g_no_gnuplot = drawn == 0;
    return drawn < 0 ? 0 : points;
}

START_TEST(launch_sweep)
{
    double points = bench_sweep();
    ck_assert_msg(!isnan(points), "the sweep has wrong points or no calculator answer (see above)");
    if (g_no_gnuplot) wb_skip_test_no_gnuplot("build/phase2/week10/sweep.csv");
    ck_assert_msg(points > 0, "the sweep was measured but not plotted");
    wb_report("sweep.csv and sweep.png in build/phase2/week10");
}
END_TEST

/* ---------------------------------------------------------------- lower occupancy, faster */

static float lowocc_ref(float x)
{
    float acc[LOWOCC_ACC];
    for (int j = 0; j < LOWOCC_ACC; j++) acc[j] = x * (float)(j + 1) / LOWOCC_ACC;
    for (int r = 0; r < LOWOCC_STEPS; r++) {
        float c = 0.01f * (r + 1);
        for (int j = 0; j < LOWOCC_ACC; j++) acc[j] = fmaf(acc[j], 0.5f, acc[(j + 1) % LOWOCC_ACC] * 0.25f) + c;
    }
    float s = 0;
    for (int j = 0; j < LOWOCC_ACC; j++) s += acc[j];
    return s;
}

static const size_t LO_SIZES[] = { 0, 1, 7, 255, 257, 4097, 100003, 1 << 20 };

START_TEST(lowocc_sizes)
{
    wb_rng rng = WB_RNG();
    size_t n = LO_SIZES[_i];
    float *hx = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hx, n, -4, 4);
    if (n >= 2) hx[0] = NAN, hx[1] = INFINITY;
    for (size_t i = 0; i < n; i++) ref[i] = lowocc_ref(hx[i]);
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(lowocc_run(dx, dy, n));
    char what[64];
    snprintf(what, sizeof what, "n=%zu", n);
    wb_expect_dout_f32(&y, ref, n, 1e-5, 1e-5, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}
END_TEST

enum { SEED_L = 103 };
typedef struct { const float *x; float *y; size_t n; } lo_ctx;
static void lo_capped_work(void *p)
{
    lo_ctx *c = p;
    WB_CUDA(lowocc_capped(c->x, c->y, c->n));
}
static void lo_yours_work(void *p)
{
    lo_ctx *c = p;
    WB_CUDA(lowocc_run(c->x, c->y, c->n));
}
static double lo_expect(size_t i, const void *ctx)
{
    (void)ctx;
    return lowocc_ref(wb_hash_uniform_f32(SEED_L, i, -4, 4));
}

/* Your version against the given register-capped one, same data, same run;
 * the figure is elements per second, the ratio yours / capped. */
static double bench_lowocc(void)
{
    size_t n = (size_t)1 << 23;
    lo_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), n };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_L, -4, 4);
    int regs[2] = { 0, 0 }, local[2] = { 0, 0 };
    WB_CUDA(lowocc_regs(1, &regs[0], &local[0]));
    WB_CUDA(lowocc_regs(0, &regs[1], &local[1]));
    printf("  capped: %d registers, %d B local a thread; yours: %d registers, %d B local\n", regs[0], local[0], regs[1],
           local[1]);
    wb_bench_row cap = { .exercise = "lowocc", .variant = "given: __launch_bounds__(256,8)", .n = n, .bytes = 8.0 * n,
                         .unit = "Gelem/s" };
    wb_dpoison(c.y, n * 4);
    wb_time(lo_capped_work, &c, NULL, &cap.t);
    cap.value = n / (cap.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", c.y, n, lo_expect, NULL, 1 << 12, 1e-5, 1e-5, &cmp)) wb_bench_invalid(&cap, cmp.msg);
    wb_bench_emit(&cap);
    wb_bench_row r = { .exercise = "lowocc", .variant = "yours", .n = n, .bytes = 8.0 * n, .unit = "Gelem/s",
                       .yard_name = "CAPPED", .yard = cap.value };
    wb_dpoison(c.y, n * 4);
    wb_time(lo_yours_work, &c, NULL, &r.t);
    r.value = n / (r.t.median * 1e-3) / 1e9;
    if (wb_dverify_f32("y", c.y, n, lo_expect, NULL, 1 << 12, 1e-5, 1e-5, &cmp)) wb_bench_invalid(&r, cmp.msg);
    wb_dfree((void *)c.x), wb_dfree(c.y);
    return wb_bench_headline(&r);
}

static const wb_test TESTS[] = {
    { "w10.calc", WB_T(calc_hand_computed), WB_CPU, 0 },
    { "w10.calc", WB_T(calc_matches_runtime), WB_GPU, 0 },
    { "w10.sweep", WB_T(launch_sweep), WB_GPU, 0 },
    { "w10.lowocc", WB_T(lowocc_sizes), WB_GPU, WB_COUNT(LO_SIZES) },
    WB_SPEED("w10.lowocc", bench_lowocc),
};

/* The sweep serves no target; `--bench` also runs lowocc. */
static const wb_benchmark BENCHES[] = {
    { "sweep", bench_sweep },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
