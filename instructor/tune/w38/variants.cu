/* variants.cu — week 38 (FlashAttention forward): times every variant of
 * the reference kernel (fa_variant<N> in phase6/week38/solution/flash_attn.cu)
 * against cuDNN's SDPA in one run, so that the default (FA_VARIANT there) can
 * be set from a measurement. Instructors only: instructor/ is never released.
 *
 * Build and run from the repository root, on the GPU to be tuned for:
 *     make tune-w38                      (tune.mk beside it: builds build/tune/w38_variants, runs it)
 *     build/tune/w38_variants 0 5 6      (only these variants)
 * What it does, in well under a minute on an H100: every variant first runs
 * six small shapes with tails (D 64 and 128, causal and not, S 17 to 1031)
 * against a full double-precision reference on the host; then, for each of
 * B4 H16 S4096 D128 non-causal, the same causal, and B8 H16 S2048 D64
 * non-causal, it runs once on a poisoned output and checks 32 sampled rows
 * against the double reference and every element against the output of the
 * first variant found right there (variant 0 unless left out),
 * times 15 runs (median, after 3 warm-ups), and checks the sampled rows of the
 * last timed run again. cuDNN's SDPA is timed on the same inputs in the same
 * run (phase6/common/cudnn-frontend/yard_sdpa_cudnn.cu). A variant that fails any check
 * is shown WRONG and gets no figure. The table: TFLOP/s per shape (4 B H S^2 D
 * flops, half that causal) and the ratio to cuDNN; the week's checkpoint
 * w38.fwd-speed is the first column's ratio (target 0.45). A kernel that
 * faults leaves the CUDA context unusable: the program stops there and names
 * the variant; run it again without that variant. */
#include "../../../phase6/week38/solution/flash_attn.cu"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bf16_fill.h" /* phase6/common/ */
#include "yard_sdpa_cudnn.h" /* phase6/common/cudnn-frontend/ */

typedef cudaError_t (*variant_fn)(const __nv_bfloat16 *, const __nv_bfloat16 *, const __nv_bfloat16 *,
                                  __nv_bfloat16 *, float *, long long, int, int, int, float);
static_assert(FA_N_VARIANTS == 8, "list every variant below");
static const variant_fn VARIANTS[FA_N_VARIANTS] = {
    fa_variant_run<0>, fa_variant_run<1>, fa_variant_run<2>, fa_variant_run<3>,
    fa_variant_run<4>, fa_variant_run<5>, fa_variant_run<6>, fa_variant_run<7>,
};

struct shape {
    int B, H, S, D, causal;
};
static const shape TAILS[] = { { 1, 2, 1031, 128, 0 }, { 1, 2, 1031, 128, 1 }, { 2, 1, 333, 64, 0 },
                               { 2, 1, 333, 64, 1 },   { 1, 1, 17, 128, 1 },   { 1, 3, 129, 64, 0 } };
static const shape TIMED[] = { { 4, 16, 4096, 128, 0 }, { 4, 16, 4096, 128, 1 }, { 8, 16, 2048, 64, 0 } };
enum { N_TIMED = sizeof TIMED / sizeof TIMED[0], WARM = 3, REPS = 15, HEADS = 4, ROWS = 8 };
static const double ATOL = 5e-3, RTOL = 8e-3; /* the week's test (test_week38.c) */
static const double ATOL_VS_V0 = 2e-2, RTOL_VS_V0 = 2e-2;

static void die_cuda(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "w38_variants: %s: %s\n", what, cudaGetErrorString(e));
    exit(2);
}

static float to_f(__nv_bfloat16 h) { return __bfloat162float(h); }
static size_t elems(const shape &s) { return (size_t)s.B * s.H * s.S * s.D; }
static double flops(const shape &s) { return 4.0 * s.B * s.H * (double)s.S * s.S * s.D / (s.causal ? 2 : 1); }

/* Query row i of one head in double: softmax over the keys it sees, then the
 * weighted sum of V. kh, vh: the head's S x D keys and values. */
static void exact_row(const float *qi, const float *kh, const float *vh, const shape &s, int i, double scale,
                      double *out)
{
    const int seen = s.causal ? i + 1 : s.S;
    std::vector<double> w(seen);
    double top = -INFINITY, total = 0;
    for (int j = 0; j < seen; j++) {
        double dot = 0;
        for (int d = 0; d < s.D; d++) dot += (double)qi[d] * kh[(size_t)j * s.D + d];
        w[j] = dot * scale;
        top = std::max(top, w[j]);
    }
    for (int j = 0; j < seen; j++) total += (w[j] = exp(w[j] - top));
    for (int d = 0; d < s.D; d++) {
        double a = 0;
        for (int j = 0; j < seen; j++) a += w[j] * vh[(size_t)j * s.D + d];
        out[d] = a / total;
    }
}

static bool close_enough(double got, double want, double atol, double rtol)
{
    return fabs(got - want) <= atol + rtol * fabs(want); /* false for NaN */
}

struct device_set { /* Q, K, V and O (with a poisoned guard after O) of one shape; lse written, not checked */
    shape s;
    __nv_bfloat16 *q, *k, *v, *o;
    float *lse;
    size_t n, guard;
    device_set(const shape &sh) : s(sh), n(elems(sh)), guard(4096)
    {
        die_cuda(cudaMalloc(&q, n * 2), "cudaMalloc Q");
        die_cuda(cudaMalloc(&k, n * 2), "cudaMalloc K");
        die_cuda(cudaMalloc(&v, n * 2), "cudaMalloc V");
        die_cuda(cudaMalloc(&o, (n + guard) * 2), "cudaMalloc O");
        die_cuda(cudaMalloc(&lse, (size_t)s.B * s.H * s.S * 4), "cudaMalloc lse");
    }
    ~device_set() { cudaFree(q), cudaFree(k), cudaFree(v), cudaFree(o), cudaFree(lse); }
    float scale() const { return (float)(1.0 / sqrt((double)s.D)); }
    void poison() { die_cuda(cudaMemset(o, 0xFF, (n + guard) * 2), "poison O"); } /* 0xFFFF: a bf16 NaN */
    cudaError_t run(int var) const
    {
        return VARIANTS[var](q, k, v, o, lse, (long long)s.B * s.H, s.S, s.D, s.causal,
                             scale() * 1.4426950408889634f);
    }
    /* O and its guard to the host; false when the guard was written. */
    bool fetch(std::vector<__nv_bfloat16> &h) const
    {
        h.resize(n + guard);
        die_cuda(cudaMemcpy(h.data(), o, (n + guard) * 2, cudaMemcpyDeviceToHost), "copy O back");
        for (size_t i = n; i < n + guard; i++) {
            unsigned short u;
            memcpy(&u, &h[i], 2);
            if (u != 0xFFFFu) return false;
        }
        return true;
    }
};

/* The (head, row) pairs a timed shape is checked at, and their exact outputs. */
struct samples {
    std::vector<int> head, row;
    std::vector<double> want; /* HEADS * ROWS * D */
};

static void sample_reference(const device_set &ds, samples &sp)
{
    const shape &s = ds.s;
    const size_t hs = (size_t)s.S * s.D;
    std::vector<__nv_bfloat16> raw(hs);
    std::vector<float> kh(hs), vh(hs), qi(s.D);
    unsigned long long lcg = 0x38u + (unsigned)s.S * 7u + (unsigned)s.causal;
    auto next = [&](int n) { lcg = lcg * 6364136223846793005ull + 1442695040888963407ull; return (int)((lcg >> 33) % (unsigned)n); };
    sp.want.assign((size_t)HEADS * ROWS * s.D, 0.0);
    for (int hh = 0; hh < HEADS; hh++) {
        const int bh = hh == 0 ? 0 : hh == 1 ? s.B * s.H - 1 : next(s.B * s.H);
        die_cuda(cudaMemcpy(raw.data(), ds.k + bh * hs, hs * 2, cudaMemcpyDeviceToHost), "copy K");
        for (size_t i = 0; i < hs; i++) kh[i] = to_f(raw[i]);
        die_cuda(cudaMemcpy(raw.data(), ds.v + bh * hs, hs * 2, cudaMemcpyDeviceToHost), "copy V");
        for (size_t i = 0; i < hs; i++) vh[i] = to_f(raw[i]);
        for (int rr = 0; rr < ROWS; rr++) {
            const int row = rr == 0 ? 0 : rr == 1 ? s.S - 1 : next(s.S);
            die_cuda(cudaMemcpy(raw.data(), ds.q + bh * hs + (size_t)row * s.D, s.D * 2, cudaMemcpyDeviceToHost),
                     "copy Q row");
            for (int d = 0; d < s.D; d++) qi[d] = to_f(raw[d]);
            exact_row(qi.data(), kh.data(), vh.data(), s, row, ds.scale(), &sp.want[(size_t)(hh * ROWS + rr) * s.D]);
            sp.head.push_back(bh), sp.row.push_back(row);
        }
    }
}

/* Counts the sampled elements of h (a fetched O) off the reference. */
static size_t sample_errors(const device_set &ds, const samples &sp, const std::vector<__nv_bfloat16> &h,
                            double atol = ATOL, double rtol = RTOL)
{
    const shape &s = ds.s;
    size_t bad = 0;
    for (size_t p = 0; p < sp.head.size(); p++)
        for (int d = 0; d < s.D; d++) {
            size_t at = ((size_t)sp.head[p] * s.S + sp.row[p]) * s.D + d;
            bad += !close_enough(to_f(h[at]), sp.want[p * s.D + d], atol, rtol);
        }
    return bad;
}

/* Median of REPS timed runs of f, in ms, after WARM untimed ones. */
template <class F> static double median_ms(F f)
{
    cudaEvent_t a, b;
    die_cuda(cudaEventCreate(&a), "event"), die_cuda(cudaEventCreate(&b), "event");
    for (int i = 0; i < WARM; i++) f();
    std::vector<float> t(REPS);
    for (int i = 0; i < REPS; i++) {
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        die_cuda(cudaEventSynchronize(b), "a timed run");
        cudaEventElapsedTime(&t[i], a, b);
    }
    cudaEventDestroy(a), cudaEventDestroy(b);
    std::sort(t.begin(), t.end());
    return t[REPS / 2];
}

/* A launch error: said and counted as WRONG. A fault (sticky error): fatal. */
static bool launched(cudaError_t e, int var, const char *where)
{
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return true;
    printf("  variant %d, %s: %s\n", var, where, cudaGetErrorString(e));
    if (cudaDeviceSynchronize() != cudaSuccess) { /* a launch error was cleared where it was read */
        printf("The CUDA context is lost (a fault in variant %d): run again without it.\n", var);
        exit(3);
    }
    return false;
}

/* Every variant on the small shapes, every element against a double
 * reference computed once a shape; wrong[v] gets the first failure. */
static void check_tails(const std::vector<int> &vars, std::vector<std::string> &wrong)
{
    for (const shape &s : TAILS) {
        device_set ds(s);
        const size_t hs = (size_t)s.S * s.D;
        std::vector<__nv_bfloat16> hq(ds.n), hk(ds.n), hv(ds.n), got;
        std::vector<float> fq(ds.n), fk(ds.n), fv(ds.n);
        unsigned long long x = 0x9e3779b97f4a7c15ull ^ ((unsigned)s.S * 131u + s.D + s.causal);
        for (size_t i = 0; i < ds.n; i++) { /* Q, K uniform in [-3, 3), V in [-1, 1), rounded to bf16 */
            float u[3];
            for (float &uu : u) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                uu = (float)((x >> 40) * (1.0 / 16777216.0));
            }
            hq[i] = __float2bfloat16_rn(6.f * u[0] - 3.f), fq[i] = to_f(hq[i]);
            hk[i] = __float2bfloat16_rn(6.f * u[1] - 3.f), fk[i] = to_f(hk[i]);
            hv[i] = __float2bfloat16_rn(2.f * u[2] - 1.f), fv[i] = to_f(hv[i]);
        }
        die_cuda(cudaMemcpy(ds.q, hq.data(), ds.n * 2, cudaMemcpyHostToDevice), "copy Q");
        die_cuda(cudaMemcpy(ds.k, hk.data(), ds.n * 2, cudaMemcpyHostToDevice), "copy K");
        die_cuda(cudaMemcpy(ds.v, hv.data(), ds.n * 2, cudaMemcpyHostToDevice), "copy V");
        std::vector<double> want(ds.n);
        for (int bh = 0; bh < s.B * s.H; bh++)
            for (int i = 0; i < s.S; i++)
                exact_row(&fq[bh * hs + (size_t)i * s.D], &fk[bh * hs], &fv[bh * hs], s, i, ds.scale(),
                          &want[bh * hs + (size_t)i * s.D]);
        char what[160];
        snprintf(what, sizeof what, "B%d H%d S%d D%d %s", s.B, s.H, s.S, s.D, s.causal ? "causal" : "non-causal");
        for (int v : vars) {
            if (!wrong[v].empty()) continue;
            ds.poison();
            if (!launched(ds.run(v), v, what)) {
                wrong[v] = std::string(what) + ": launch failed";
                continue;
            }
            if (!ds.fetch(got)) {
                wrong[v] = std::string(what) + ": wrote past O";
                continue;
            }
            for (size_t i = 0; i < ds.n; i++)
                if (!close_enough(to_f(got[i]), want[i], ATOL, RTOL)) {
                    char msg[300];
                    snprintf(msg, sizeof msg, "%s: head %zu row %zu d %zu is %g, want %g", what, i / hs,
                             i % hs / s.D, i % s.D, to_f(got[i]), want[i]);
                    wrong[v] = msg;
                    break;
                }
        }
    }
}

int main(int argc, char **argv)
{
    std::vector<int> vars;
    for (int i = 1; i < argc; i++) {
        int v = atoi(argv[i]);
        if (v < 0 || v >= FA_N_VARIANTS) {
            fprintf(stderr, "usage: %s [variant 0..%d ...]\n", argv[0], FA_N_VARIANTS - 1);
            return 1;
        }
        vars.push_back(v);
    }
    if (vars.empty())
        for (int v = 0; v < FA_N_VARIANTS; v++) vars.push_back(v);
    cudaDeviceProp prop;
    die_cuda(cudaGetDeviceProperties(&prop, 0), "no GPU");
    printf("w38_variants on %s; the week ships variant %d (FA_VARIANT)\n", prop.name, FA_VARIANT);
    for (int v : vars) printf("  %d: %s\n", v, FA_VARIANT_NAMES[v]);

    std::vector<std::string> wrong(FA_N_VARIANTS);
    printf("Small shapes with tails, every element against a double reference:\n");
    check_tails(vars, wrong);
    for (int v : vars) {
        printf("  %d: %s\n", v, wrong[v].empty() ? "ok" : ("WRONG: " + wrong[v]).c_str());
    }

    std::vector<std::vector<double>> tf(FA_N_VARIANTS, std::vector<double>(N_TIMED, NAN));
    double cudnn[N_TIMED];
    for (int si = 0; si < N_TIMED; si++) {
        const shape &s = TIMED[si];
        cudnn[si] = NAN;
        device_set ds(s);
        die_cuda(bf16_fill_uniform((uint16_t *)ds.q, ds.n, 3810 + si, -3, 3), "fill Q");
        die_cuda(bf16_fill_uniform((uint16_t *)ds.k, ds.n, 3820 + si, -3, 3), "fill K");
        die_cuda(bf16_fill_uniform((uint16_t *)ds.v, ds.n, 3830 + si, -1, 1), "fill V");
        die_cuda(cudaDeviceSynchronize(), "fill");
        samples sp;
        sample_reference(ds, sp);
        printf("B%d H%d S%d D%d %s:\n", s.B, s.H, s.S, s.D, s.causal ? "causal" : "non-causal");

        char why[400] = "";
        if (yard_sdpa_cudnn_prepare(s.B, s.H, s.S, s.D, s.causal, ds.scale(), why, sizeof why)) {
            auto run = [&] {
                char w2[400];
                if (!yard_sdpa_cudnn_fwd((uint16_t *)ds.q, (uint16_t *)ds.k, (uint16_t *)ds.v, (uint16_t *)ds.o, s.B,
                                         s.H, s.S, s.D, s.causal, ds.scale(), w2, sizeof w2))
                    printf("  cuDNN: %s\n", w2);
            };
            ds.poison();
            double ms = median_ms(run);
            std::vector<__nv_bfloat16> h;
            die_cuda(cudaDeviceSynchronize(), "cuDNN SDPA");
            ds.fetch(h);
            size_t bad = sample_errors(ds, sp, h, 2e-2, 2e-2); /* the test's tolerance for cuDNN */
            if (bad) printf("  cuDNN: %zu sampled elements off the reference: no yardstick\n", bad);
            else cudnn[si] = flops(s) / (ms * 1e-3) / 1e12;
            printf("  cuDNN SDPA: %.1f TFLOP/s\n", cudnn[si]);
        } else {
            printf("  cuDNN SDPA cannot run here: %s\n", why);
        }

        std::vector<__nv_bfloat16> v0, h; /* v0: the output of the first variant found right, vs_var */
        int vs_var = -1;
        for (int v : vars) {
            if (!wrong[v].empty()) continue;
            ds.poison();
            if (!launched(ds.run(v), v, "first run")) {
                wrong[v] = "launch failed";
                continue;
            }
            size_t bad = 0;
            if (!ds.fetch(h)) wrong[v] = "wrote past O";
            else if ((bad = sample_errors(ds, sp, h)) != 0) wrong[v] = std::to_string(bad) + " sampled elements off";
            else if (vs_var < 0) v0 = h, vs_var = v;
            else {
                size_t off = 0;
                for (size_t i = 0; i < ds.n; i++)
                    off += !close_enough(to_f(h[i]), to_f(v0[i]), ATOL_VS_V0, RTOL_VS_V0);
                if (off) wrong[v] = std::to_string(off) + " elements differ from variant " + std::to_string(vs_var);
            }
            if (!wrong[v].empty()) {
                printf("  %d: WRONG (%s)\n", v, wrong[v].c_str());
                continue;
            }
            double ms = median_ms([&] { ds.run(v); });
            if (!launched(cudaGetLastError(), v, "timed runs")) {
                wrong[v] = "timed runs failed";
                continue;
            }
            ds.fetch(h);
            if ((bad = sample_errors(ds, sp, h)) != 0) {
                wrong[v] = "timed output: " + std::to_string(bad) + " sampled elements off";
                printf("  %d: WRONG (%s)\n", v, wrong[v].c_str());
                continue;
            }
            tf[v][si] = flops(s) / (ms * 1e-3) / 1e12;
            printf("  %d: %.1f TFLOP/s (%.3f ms)\n", v, tf[v][si], ms);
        }
    }

    printf("\n%-8s", "variant");
    for (const shape &s : TIMED) printf(" | B%d H%d S%d D%d %-10s", s.B, s.H, s.S, s.D, s.causal ? "causal" : "non-causal");
    printf("\n%-8s", "cuDNN");
    for (int si = 0; si < N_TIMED; si++) printf(" | %7.1f TFLOP/s %12s", cudnn[si], "");
    printf("\n");
    for (int v : vars) {
        printf("%-8d", v);
        if (!wrong[v].empty()) {
            printf(" | WRONG: %s\n", wrong[v].c_str());
            continue;
        }
        for (int si = 0; si < N_TIMED; si++) printf(" | %7.1f TFLOP/s %5.3f cuDNN", tf[v][si], tf[v][si] / cudnn[si]);
        printf("%s\n", v == FA_VARIANT ? "   <- shipped" : "");
    }
    printf("w38.fwd-speed is the first column's ratio; its target is 0.45 and the reference must reach 0.50.\n");
    yard_sdpa_cudnn_release();
    return 0;
}
