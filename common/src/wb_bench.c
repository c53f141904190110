/* wb_bench.c — event timing, the copy yardstick, benchmark rows. */
#include "wb_bench.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <cuda_runtime_api.h>

static void *flush_buf;
static size_t flush_bytes;

/* Allocated once per process, before any timed region. */
static void ensure_flush_buffer(void)
{
    if (flush_buf) return;
    flush_bytes = 2 * (size_t)wb_this_device()->l2_bytes;
    if (flush_bytes < (64u << 20)) flush_bytes = 64u << 20;
    flush_buf = wb_dmalloc(flush_bytes);
}

void wb_time(wb_work_fn fn, void *ctx, const wb_bench_opts *opts, wb_summary *t)
{
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    if (opts) o = *opts;
    const char *e = getenv("WB_BENCH_SAMPLES");
    if (e && atoi(e) > 0) o.samples = atoi(e);
    if (o.samples < 1) o.samples = 1;
    if (o.flush_l2) ensure_flush_buffer();

    cudaEvent_t start, stop;
    WB_CUDA(cudaEventCreate(&start));
    WB_CUDA(cudaEventCreate(&stop));
    const int poison = o.out && o.out_bytes >= 4;
    for (int i = 0; i < o.warmup; i++) {
        if (poison) WB_CUDA(cudaMemsetAsync(o.out, 0xFF, o.out_bytes, 0));
        fn(ctx);
        WB_LAUNCH();
    }
    WB_CUDA(cudaDeviceSynchronize());
    double *ms = calloc((size_t)o.samples, sizeof *ms);
    int escaped = 0, spot = -1, spot_bad = 0;
    char spot_why[160] = "";
    /* the look's positions come from the clock, drawn after each sample: the
     * work cannot know them when it runs */
    struct timespec seed_ts;
    clock_gettime(CLOCK_MONOTONIC, &seed_ts);
    unsigned long long look_state = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)seed_ts.tv_nsec ^
                                    ((unsigned long long)seed_ts.tv_sec << 32) ^ (unsigned long long)(uintptr_t)o.out;
    enum { LOOK = 64 };
    size_t *look_at = poison ? calloc((size_t)o.samples * LOOK, sizeof *look_at) : NULL;
    uint32_t *look_val = poison ? calloc((size_t)o.samples * LOOK, sizeof *look_val) : NULL;
    if (poison && (!look_at || !look_val)) {
        fprintf(stderr, "wb_time: out of host memory\n");
        exit(1);
    }
    if (o.fresh && o.check) {
        /* a sample of the second half, chosen by the clock: not predictable from the arguments */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        int half = o.samples / 2, span = o.samples - half;
        spot = half + (int)((unsigned long long)ts.tv_nsec % (unsigned long long)(span > 0 ? span : 1));
    }
    for (int i = 0; i < o.samples; i++) {
        if (i == spot) {
            o.fresh(ctx, 0x5107ULL + (unsigned long long)i);
            WB_CUDA(cudaDeviceSynchronize());
        }
        if (poison) WB_CUDA(cudaMemsetAsync(o.out, 0xFF, o.out_bytes, 0));
        if (o.flush_l2) WB_CUDA(cudaMemsetAsync(flush_buf, i & 0xFF, flush_bytes, 0));
        WB_CUDA(cudaEventRecord(start, 0));
        fn(ctx);
        WB_CUDA(cudaEventRecord(stop, 0));
        WB_CUDA(cudaEventSynchronize(stop));
        WB_LAUNCH();
        float f = 0;
        WB_CUDA(cudaEventElapsedTime(&f, start, stop));
        ms[i] = f;
        /* Device work still running once the stop event has completed was
         * not timed (a stream the events do not wait for): waiting for it
         * takes time here. An idle device answers in microseconds. */
        double t0 = wb_seconds();
        WB_CUDA(cudaDeviceSynchronize());
        double tail = (wb_seconds() - t0) * 1e3;
        if (tail > 0.05 + 0.25 * f) escaped++;
        if (poison) {
            /* untimed: 64 words of this sample's output, at positions drawn
             * here, after the work, kept to be held against the checked
             * output at the end */
            size_t words = o.out_bytes / 4;
            for (int k = 0; k < LOOK; k++) {
                look_state = look_state * 6364136223846793005ULL + 1442695040888963407ULL;
                size_t at = (size_t)((look_state >> 17) % words);
                look_at[(size_t)i * LOOK + k] = at;
                WB_CUDA(cudaMemcpy(&look_val[(size_t)i * LOOK + k], (const char *)o.out + 4 * at, 4,
                                   cudaMemcpyDeviceToHost));
            }
        }
        if (i == spot) {
            spot_bad = o.check(ctx, spot_why, sizeof spot_why) != 0;
            o.fresh(ctx, 0);
            /* untimed: the output of the first inputs again, so a check after
             * wb_time finds it whichever sample the spot check took */
            fn(ctx);
            WB_LAUNCH();
            WB_CUDA(cudaDeviceSynchronize());
        }
    }
    /* Every sample but the spot check's ran on the first inputs, so its
     * output must be, bit for bit, the output the work leaves now (the last
     * run's, which the benchmark verifies after wb_time): a sample that wrote
     * other numbers (garbage, or a part of the work) while later runs were
     * right is seen at the positions looked at. */
    int differs = -1, differ_words = 0, poisoned = 0;
    for (int i = 0; poison && i < o.samples && differs < 0; i++) {
        if (i == spot) continue;
        for (int k = 0; k < LOOK; k++) {
            uint32_t w = 0, was = look_val[(size_t)i * LOOK + k];
            WB_CUDA(cudaMemcpy(&w, (const char *)o.out + 4 * look_at[(size_t)i * LOOK + k], 4, cudaMemcpyDeviceToHost));
            if (w != was) differs = i, differ_words++, poisoned += was == 0xFFFFFFFFu;
        }
    }
    free(look_at), free(look_val);
    wb_summarize(ms, (size_t)o.samples, t);
    if (differs >= 0) {
        snprintf(t->refused, sizeof t->refused, "timed run %d of %d left other words than the checked run at %d of "
                 "64 positions looked at (%d still the poison written before it): work skipped? no figure",
                 differs + 1, o.samples, differ_words, poisoned);
        printf("  timing refused: %s\n", t->refused);
        t->median = t->min = t->max = t->mean = NAN;
    } else if (spot_bad) {
        snprintf(t->refused, sizeof t->refused, "a timed run on fresh inputs gave a wrong output (work skipped "
                 "or answered from an earlier call?): %s: no figure", spot_why);
        printf("  timing refused: %s\n", t->refused);
        t->median = t->min = t->max = t->mean = NAN;
    }
    /* One late sample is the host's hiccup; most of them is work on the side. */
    else if (2 * escaped > o.samples) {
        snprintf(t->refused, sizeof t->refused, "device work went on after the timed region in %d of %d samples "
                 "(work on a stream the timing does not wait for?): no figure", escaped, o.samples);
        printf("  timing refused: %s\n", t->refused);
        t->median = t->min = t->max = t->mean = NAN;
    }
    free(ms);
    WB_CUDA(cudaEventDestroy(start));
    WB_CUDA(cudaEventDestroy(stop));
}

size_t wb_bench_bytes(void)
{
    const wb_device *d = wb_this_device();
    size_t b = 8 * (size_t)d->l2_bytes;
    if (b < (256u << 20)) b = 256u << 20;
    if (b > d->global_mem_bytes / 8) b = d->global_mem_bytes / 8;
    return b & ~(size_t)4095;
}

typedef struct { void *dst; const void *src; size_t bytes; } copy_ctx;

static void copy_work(void *p)
{
    copy_ctx *c = p;
    WB_CUDA(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0));
}

double wb_yard_copy_gbps(size_t bytes)
{
    copy_ctx c = { wb_dmalloc(bytes), NULL, bytes };
    void *src = wb_dmalloc(bytes);
    WB_CUDA(cudaMemset(src, 0x3C, bytes));
    c.src = src;
    wb_summary t;
    /* Timed as the learner's kernels are (WB_BENCH_DEFAULTS: warm-up, samples,
     * L2 overwritten before each sample): the memset's dirty lines above are
     * gone before the first timed copy, as the fill's are before a kernel's. */
    wb_time(copy_work, &c, NULL, &t);
    wb_dfree(c.dst);
    wb_dfree(src);
    return 2.0 * (double)bytes / (t.median * 1e-3) / 1e9;
}

double wb_bench_ratio(const wb_bench_row *r)
{
    return (!r->invalid && r->yard_name && r->yard > 0) ? r->value / r->yard : NAN;
}

static int header_printed;

void wb_bench_invalid(wb_bench_row *r, const char *why)
{
    r->value = NAN;
    snprintf(r->why, sizeof r->why, "%s", why);
    r->invalid = 1;
}

/* Made from the row alone (a row measured earlier and emitted later keeps
 * its own reason), saying when the yardstick failed. */
const char *wb_bench_detail(const wb_bench_row *r, char *buf, size_t n)
{
    const char *refused = isnan(r->t.median) ? r->t.refused : "";
    if (r->invalid && refused[0])
        /* both: the refusal is the cause (work skipped on a repeated call
         * leaves the output the spot check poisoned), the wrong output its echo */
        snprintf(buf, n, "%s; then WRONG OUTPUT: %s", refused, r->why[0] ? r->why : "-");
    else if (r->invalid)
        snprintf(buf, n, "WRONG OUTPUT, no valid figure: %s", r->why[0] ? r->why : "-");
    else if (refused[0])
        snprintf(buf, n, "%s", refused);
    else if (r->yard_name && !(r->yard > 0))
        snprintf(buf, n, "%.4g %s, but the yardstick %s gave no valid figure (its output was wrong or it failed: "
                 "see its row)", r->value, r->unit, r->yard_name);
    else if (r->yard_name)
        snprintf(buf, n, "%.4g %s vs %s %.4g %s", r->value, r->unit, r->yard_name, r->yard, r->unit);
    else
        snprintf(buf, n, "%.4g %s", r->value, r->unit);
    return buf;
}

size_t wb_dverify_f32(const char *name, const float *d, size_t n, wb_expect_fn expect, const void *ctx,
                      size_t samples, double atol, double rtol, wb_cmp *out)
{
    size_t k = samples + 128 < n ? samples + 128 : n;
    size_t *idx = malloc((k ? k : 1) * sizeof *idx);
    float *got = malloc((k ? k : 1) * sizeof *got);
    double *ref = malloc((k ? k : 1) * sizeof *ref);
    wb_rng rng = wb_rng_for(name, (int)(n & 0x7fffffff));
    for (size_t j = 0; j < k; j++) {
        if (k == n) idx[j] = j;
        else if (j < 64) idx[j] = j;
        else if (j < 128) idx[j] = n - 128 + j;
        else idx[j] = (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
        WB_CUDA(cudaMemcpy(&got[j], d + idx[j], sizeof(float), cudaMemcpyDeviceToHost));
        ref[j] = expect(idx[j], ctx);
    }
    wb_cmp c;
    wb_compare_f32_f64(name, got, ref, k, atol, rtol, &c);
    if (c.bad) {
        /* name the real index of the first wrong element */
        size_t first = idx[c.first_bad];
        char msg[sizeof c.msg];
        snprintf(msg, sizeof msg, "%zu of %zu sampled elements wrong; first %s[%zu] expected %.9g got %.9g", c.bad, k,
                 name, first, ref[c.first_bad], (double)got[c.first_bad]);
        snprintf(c.msg, sizeof c.msg, "%s", msg);
    }
    if (out) *out = c;
    free(idx), free(got), free(ref);
    return c.bad;
}

void wb_bench_emit(const wb_bench_row *r)
{
    double ratio = wb_bench_ratio(r);
    if (!header_printed) {
        printf("  %-14s %-30s %12s %10s %10s %12s %-16s %7s %7s\n", "exercise", "variant", "n", "median ms",
               "min ms", "figure", "yardstick", "ratio", "target");
        header_printed = 1;
    }
    char fig[32], yard[40], tgt[16], rat[16];
    snprintf(fig, sizeof fig, "%.4g %s", r->value, r->unit);
    if (r->yard_name) snprintf(yard, sizeof yard, "%s %.4g", r->yard_name, r->yard);
    else snprintf(yard, sizeof yard, "-");
    if (isnan(ratio)) snprintf(rat, sizeof rat, "-");
    else snprintf(rat, sizeof rat, "%.3f", ratio);
    if (r->target > 0) snprintf(tgt, sizeof tgt, ">= %.2f", r->target);
    else snprintf(tgt, sizeof tgt, "-");
    if (r->invalid) snprintf(fig, sizeof fig, "WRONG");
    printf("  %-14s %-30s %12zu %10.4f %10.4f %12s %-16s %7s %7s\n", r->exercise, r->variant, r->n, r->t.median,
           r->t.min, fig, yard, rat, tgt);
    if (r->invalid) {
        char detail[600];
        printf("    %s\n", wb_bench_detail(r, detail, sizeof detail));
    }
    fflush(stdout);

    const char *csv = getenv("WB_CSV");
    if (!csv || !*csv) return;
    const wb_device *d = wb_this_device();
    struct stat st;
    int fresh = stat(csv, &st) != 0 || st.st_size == 0;
    FILE *f = fopen(csv, "a");
    if (!f) {
        fprintf(stderr, "warning: cannot append to %s\n", csv);
        return;
    }
    if (fresh)
        fprintf(f, "date,week,exercise,variant,n,bytes,flops,median_ms,min_ms,samples,value,unit,yardstick,"
                   "yardstick_value,ratio,target,intensity_flop_per_byte,gflops,gbps,device,cc,sm_count,"
                   "cuda_runtime,driver,seed\n");
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
    const char *week = getenv("WB_WEEK");
    double secs = r->t.median * 1e-3;
    fprintf(f, "%s,%s,%s,\"%s\",%zu,%.0f,%.0f,%.6f,%.6f,%zu,%.6g,%s,%s,%.6g,%.6g,%.3g,%.6g,%.6g,%.6g,\"%s\",%d.%d,%d,%d,%d,%llu\n",
            date, week ? week : "", r->exercise, r->variant, r->n, r->bytes, r->flops, r->t.median, r->t.min,
            r->t.n, r->value, r->unit, r->yard_name ? r->yard_name : "", r->yard_name ? r->yard : 0.0,
            isnan(ratio) ? 0.0 : ratio, r->target, r->bytes > 0 ? r->flops / r->bytes : 0.0,
            secs > 0 ? r->flops / secs / 1e9 : 0.0, secs > 0 ? r->bytes / secs / 1e9 : 0.0, d->name, d->cc_major,
            d->cc_minor, d->sm_count, d->runtime_version, d->driver_version, (unsigned long long)wb_base_seed());
    fclose(f);
}

/* ---- the headline row of a speed checkpoint ---- */

double wb_bench_headline(wb_bench_row *r, wb_headline *h)
{
    if (h && r->target <= 0 && h->target > 0) r->target = h->target;
    wb_bench_emit(r);
    double ratio = wb_bench_ratio(r);
    if (!h) return ratio;
    double target = h->target;
    memset(h, 0, sizeof *h);
    h->target = target;
    h->set = 1;
    h->invalid = r->invalid;
    h->value = r->value;
    h->yard = r->yard_name ? r->yard : NAN;
    h->ratio = ratio;
    snprintf(h->unit, sizeof h->unit, "%s", r->unit ? r->unit : "");
    snprintf(h->yard_name, sizeof h->yard_name, "%s", r->yard_name ? r->yard_name : "");
    /* The detail is written here once, as the record keeps it. The problem
     * size goes with a valid figure, so a regression report (and a
     * gradebook) says which size a ratio was measured at: the detail is cut
     * to 150 characters to leave it room. */
    int sized = r->n > 0 && !r->invalid;
    wb_bench_detail(r, h->detail, sized ? 151 : sizeof h->detail);
    if (sized) {
        size_t k = strlen(h->detail);
        snprintf(h->detail + k, sizeof h->detail - k, " at n = %zu", r->n);
    }
    return ratio;
}
