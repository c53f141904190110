/* judge_gemm_refs.c — the GEMM judges' timed references and speed
 * checkpoint's end (judge_gemm_refs.h). One slot a rep (as many as the
 * device holds, then reused in turn), so the look's expected values before
 * a request and the full checks after it compute each rep's product once. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge_gemm_refs.h"
#include "judge_kernels.h"

typedef struct {
    unsigned long long sa, sb;
    int                ok;
    double            *ref;
} ref_slot;
static ref_slot    g_slot[JD_BENCH_MAX_K];
static int         g_nslot, g_turn;
static jd_ref_make g_make;
static void (*g_scratch_free)(void);

void jd_refs_use(jd_ref_make make, void (*scratch_free)(void)) { g_make = make, g_scratch_free = scratch_free; }

void jd_refs_release(void)
{
    for (int i = 0; i < g_nslot; i++) cudaFree(g_slot[i].ref);
    g_nslot = 0, g_turn = 0;
    if (g_scratch_free) g_scratch_free();
    cudaGetLastError();
}

static const double *ref_for(const jd_bench *b, const unsigned long long *seed)
{
    for (int i = 0; i < g_nslot; i++)
        if (g_slot[i].ok && g_slot[i].sa == seed[0] && g_slot[i].sb == seed[1]) return g_slot[i].ref;
    if (!g_make) return NULL;
    ref_slot *s = NULL;
    if (g_nslot < JD_BENCH_MAX_K) {
        double *r = NULL;
        if (cudaMalloc((void **)&r, b->n * 8) == cudaSuccess) s = &g_slot[g_nslot++], s->ref = r;
        cudaGetLastError();
    }
    if (!s) {
        if (!g_nslot) return NULL;
        s = &g_slot[g_turn++ % g_nslot];
    }
    s->ok = 0;
    if (g_make(b, seed, s->ref) != 0) return NULL;
    s->sa = seed[0], s->sb = seed[1], s->ok = 1;
    return s->ref;
}

float jd_refs_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const double *ref = ref_for(b, seed);
    double r = NAN;
    if (!ref || cudaMemcpy(&r, ref + i, sizeof r, cudaMemcpyDeviceToHost) != cudaSuccess) return NAN;
    return (float)r;
}

int jd_refs_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                  unsigned long long h[2])
{
    const double *ref = ref_for(b, seed);
    if (!ref) return -1;
    return jd_full_check_done(jd_prefix_check_f32(out, ref, b->n, b->atol, b->rtol, bad, jd_stream), bad, h);
}

void jd_gemm_speed(jd_ck *k, jd_bench *mine, jd_bench *yard, const char *yard_runner, double before_ms,
                   const char *before_why, double flops, const char *shape, const char *yard_label)
{
    double ms = NAN, yms = NAN, value = NAN, yv = NAN;
    char why[700] = "", ywhy[600] = "", detail[240] = "";
    int rc = jd_bench_run(k->J, mine, JD_YARD_TIMED, &ms, why, sizeof why);
    jd_refs_release();
    if (rc == 0) {
        double after = NAN;
        yms = jd_yard_faster(yard_runner, yard, JD_YARD_TIMED, before_ms, before_why, &after, ywhy, sizeof ywhy);
        jd_refs_release();
        if (!(yms > 0)) {
            snprintf(why, sizeof why, "no figure for %s: %s", yard->fn_name, ywhy);
        } else {
            value = flops / (ms * 1e-3) / 1e12, yv = flops / (yms * 1e-3) / 1e12;
            snprintf(detail, sizeof detail, "%.4g TFLOP/s vs %s %.4g at %s (judge's clock, %d calls a request, median of %d)",
                     value, yard_label, yv, shape, mine->k, JD_YARD_TIMED);
            printf("  %s: %.4f ms a call by the judge's clock (%.4f by the runner's own); %s %.4f (before the runner "
                   "%.4f, after %.4f): %.3fx\n",
                   mine->fn_name, ms, mine->runner_ms, yard->fn_name, yms, before_ms, after, yms / ms);
        }
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "TFLOP/s", yard_label, yv, detail, why);
}

int jd_on_sm90(jd_tally *t, const char *what)
{
    struct cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    if (cudaGetDeviceProperties(&p, jd_dev) == cudaSuccess && p.major == 9 && p.minor == 0) return 1;
    t->skipped++;
    if (!t->msg[0])
        snprintf(t->msg, sizeof t->msg,
                 "%s is sm_90a code, which loads only on a compute capability 9.0 GPU (H100, H200); this one is %d.%d",
                 what, p.major, p.minor);
    return 0;
}
