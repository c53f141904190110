/* variants.cu — week 13 (the single-pass scan): every setting of the
 * reference's knobs in one program (scan1pass_kernel<THREADS, ITEMS,
 * LOOKBACK, DELAY, POLL> in phase3/week13/solution/scan1pass.cu, whose
 * comment says what each knob does), checked, then timed against CUB's
 * DeviceScan::InclusiveSum and a device-to-device copy in the same run, so
 * that the defaults can be set from a measurement. Instructors only.
 *
 * Build and run from the repository root, on the GPU to be tuned for:
 *     make tune-w13                    (tune.mk beside it: builds build/tune/w13_variants, runs it)
 *     build/tune/w13_variants 0 5 9    (only these variants; 0 is always run first, as the baseline)
 *     build/tune/w13_variants -p 5     (5 timing passes instead of 3)
 * What it does: each variant first runs w13.scan1pass's sizes at its own
 * tile (0, 1, 31, 33, a tile - 1, a tile, a tile + 1, 2 tiles + 5, 32 and
 * 33 tiles, 37 tiles + 999, 10^6 + 3, 256 tiles, 3072 tiles + 77; x or y
 * off alignment on some), the look-back's step of 32 K tiles and the next,
 * and two shaken runs, each twice on a poisoned workspace, every element
 * against the host's scan and y's guards checked. A variant that fails is
 * WRONG and is not timed. Then, for the benchmark's size (wb_bench_bytes()
 * of int32, 100M+ on the H100, inputs in [0, 16) as bench_scan1's), each
 * pass times CUB, COPY and every variant (wb_time: 3 warm-ups, 20 samples,
 * L2 overwritten before each, the median), and checks each variant's last
 * output. The table: registers and blocks an SM (this GPU), GB/s (x read
 * + y written) of each pass, and the median pass's ratio to CUB and COPY
 * of the same pass. w13.scan-speed is the ratio to CUB of the shipped
 * kernel (variant 0). */
#include "../../../phase3/week13/solution/scan1pass.cu"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "support/yard_cub_scan.h"
#include "wb_bench.h"

typedef cudaError_t (*scan_fn)(const int32_t *, int32_t *, size_t, void *, unsigned);

/* The given launcher's steps for one instantiation (the shipped one is
 * scan1pass itself, variant 0). */
template <int T, int I, int L, int D, int P>
static cudaError_t run_variant(const int32_t *x, int32_t *y, size_t n, void *tmp, unsigned shake)
{
    const size_t tile = (size_t)T * I, tiles = (n + tile - 1) / tile;
    if (tiles >= ((size_t)1 << 31)) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    cudaError_t e = cudaMemsetAsync(tmp, 0, STATUS_OFFSET + 8 * tiles, 0);
    if (e != cudaSuccess) return e;
    scan1pass_kernel<T, I, L, D, P><<<(unsigned)tiles, T>>>(x, y, n, (unsigned *)tmp,
                                                           (unsigned long long *)((char *)tmp + STATUS_OFFSET), shake);
    return cudaGetLastError();
}
template <int T, int I, int L, int D, int P> static const void *kernel_of() { return (const void *)scan1pass_kernel<T, I, L, D, P>; }

struct variant {
    const char *name;
    int threads, items, lookback;
    scan_fn run;
    const void *kernel;
    size_t tile() const { return (size_t)threads * items; }
};
#define V(T, I, L, D, P, what) { what, T, I, L, run_variant<T, I, L, D, P>, kernel_of<T, I, L, D, P>() }
/* CUB's own int32 scan on sm_90 (cub/device/dispatch/tuning/tuning_scan.cuh,
 * CUDA 13.0): 128 threads x 24 items, a sleep of 1245 ns before the
 * look-back and 648 ns between polls (when its grid has 500 blocks or more). */
static const variant VARIANTS[] = {
    { "shipped: scan1pass() (128 x 24, CUB's sleeps)", SCAN1_THREADS, SCAN1_ITEMS, SCAN1_LOOKBACK, scan1pass,
      (const void *)scan1pass_kernel<> },
    V(256, 16, 1, 0, 0, "256 x 16, no sleeps (first shipped)"),
    V(128, 16, 1, 0, 0, "128 x 16"),
    V(512, 16, 1, 0, 0, "512 x 16"),
    V(256, 8, 1, 0, 0, "256 x 8"),
    V(256, 24, 1, 0, 0, "256 x 24"),
    V(256, 32, 1, 0, 0, "256 x 32"),
    V(128, 24, 1, 0, 0, "128 x 24 (CUB's shape)"),
    V(128, 32, 1, 0, 0, "128 x 32"),
    V(512, 32, 1, 0, 0, "512 x 32"),
    V(256, 16, 2, 0, 0, "256 x 16, look-back 64"),
    V(256, 16, 4, 0, 0, "256 x 16, look-back 128"),
    V(256, 32, 2, 0, 0, "256 x 32, look-back 64"),
    V(128, 24, 2, 0, 0, "128 x 24, look-back 64"),
    V(512, 32, 2, 0, 0, "512 x 32, look-back 64"),
    V(256, 16, 1, 1245, 648, "256 x 16, CUB's sleeps (1245 / 648 ns)"),
    V(128, 24, 1, 1245, 648, "128 x 24, CUB's sleeps: CUB's tuning"),
    V(256, 32, 2, 1245, 648, "256 x 32, look-back 64, CUB's sleeps"),
    V(256, 16, 1, 600, 0, "256 x 16, 600 ns before the look-back"),
};
enum { NV = sizeof VARIANTS / sizeof VARIANTS[0] };

static void die_cuda(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "w13_variants: %s: %s\n", what, cudaGetErrorString(e));
    exit(2);
}

static unsigned long long lcg = 0x13u;
static uint32_t rnd()
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(lcg >> 32);
}

enum { GUARD = 64 }; /* ints of poison before and after y (256 bytes: y keeps its alignment) */

/* Variant v on n ints (x ox ints off, y oy ints off), twice on one
 * poisoned workspace; "" when right, else why not. */
static std::string check_one(const variant &v, size_t n, size_t ox, size_t oy, unsigned shake, bool wide)
{
    std::vector<int32_t> hx(n + ox);
    for (auto &e : hx) e = wide ? (int32_t)rnd() : (int32_t)(rnd() % 2001) - 1000;
    std::vector<uint32_t> ref(n);
    uint32_t acc = 0;
    for (size_t i = 0; i < n; i++) acc += (uint32_t)hx[ox + i], ref[i] = acc;
    int32_t *dx = nullptr, *dyb = nullptr;
    void *tmp = nullptr;
    const size_t ycount = n + oy + 2 * GUARD, tmp_bytes = STATUS_OFFSET + 8 * ((n + v.tile() - 1) / v.tile());
    die_cuda(cudaMalloc(&dx, (n + ox) * 4 + 16), "cudaMalloc x");
    die_cuda(cudaMalloc(&dyb, ycount * 4), "cudaMalloc y");
    die_cuda(cudaMalloc(&tmp, tmp_bytes), "cudaMalloc tmp");
    die_cuda(cudaMemcpy(dx, hx.data(), (n + ox) * 4, cudaMemcpyHostToDevice), "copy x");
    die_cuda(cudaMemset(tmp, 0xFF, tmp_bytes), "poison tmp");
    std::vector<uint32_t> got(ycount);
    std::string bad;
    for (int run = 0; run < 2 && bad.empty(); run++) {
        die_cuda(cudaMemset(dyb, 0xA5, ycount * 4), "poison y");
        cudaError_t e = v.run(n ? dx + ox : nullptr, n ? dyb + GUARD + oy : nullptr, n, tmp, shake);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            bad = std::string("launch: ") + cudaGetErrorString(e);
            if (cudaDeviceSynchronize() != cudaSuccess) {
                printf("The CUDA context is lost (a fault in %s): run again without it.\n", v.name);
                exit(3);
            }
            break;
        }
        die_cuda(cudaMemcpy(got.data(), dyb, ycount * 4, cudaMemcpyDeviceToHost), "copy y back");
        for (size_t i = 0; i < ycount && bad.empty(); i++) {
            const bool inside = i >= GUARD + oy && i < GUARD + oy + n;
            if (!inside && got[i] != 0xA5A5A5A5u) bad = i < GUARD + oy ? "wrote before y" : "wrote past y";
            else if (inside && got[i] != ref[i - GUARD - oy]) {
                char m[160];
                snprintf(m, sizeof m, "y[%zu] = %d, expected %d", i - GUARD - oy, (int32_t)got[i],
                         (int32_t)ref[i - GUARD - oy]);
                bad = m;
            }
        }
        if (!bad.empty() && run) bad = "second run on the workspace: " + bad;
    }
    cudaFree(dx), cudaFree(dyb), cudaFree(tmp);
    if (!bad.empty()) {
        char m[400];
        snprintf(m, sizeof m, "n=%zu, x+%zu, y+%zu%s: %s", n, ox, oy, shake ? ", shaken" : "", bad.c_str());
        bad = m;
    }
    return bad;
}

static std::string check_variant(const variant &v)
{
    const size_t T = v.tile(), K = (size_t)v.lookback;
    const struct { size_t n, ox, oy; unsigned shake; } cases[] = {
        { 0, 0, 0, 0 },          { 1, 0, 0, 0 },          { 31, 0, 1, 0 },           { 33, 1, 0, 0 },
        { T - 1, 0, 0, 0 },      { T, 0, 0, 0 },          { T, 0, 3, 0 },            { T + 1, 0, 0, 0 },
        { 2 * T + 5, 1, 1, 0 },  { 32 * T, 0, 0, 0 },     { 33 * T + 1, 0, 0, 0 },   { 37 * T + 999, 2, 0, 0 },
        { 1000003, 0, 0, 0 },    { 1000003, 0, 2, 0 },    { 256 * T, 0, 0, 0 },      { 3 * 1024 * T + 77, 0, 0, 0 },
        { 32 * K * T, 0, 0, 0 }, { 32 * K * T + 1, 0, 0, 0 }, { 40 * T + 17, 0, 0, rnd() | 1u },
        { ((size_t)1 << 24) + 3, 0, 0, rnd() | 1u },
    };
    int c = 0;
    for (const auto &k : cases) {
        std::string bad = check_one(v, k.n, k.ox, k.oy, k.shake, c++ % 2 == 0);
        if (!bad.empty()) return bad;
    }
    return "";
}

/* The timed scans: the inputs of bench_scan1 (test_week13.c), on the device and the host. */
struct bench {
    size_t n;
    int32_t *x, *y;
    std::vector<int32_t> hx;
    void *tmp, *cub_tmp;
    size_t cub_bytes;
    scan_fn run;
};
static void work_variant(void *p)
{
    bench *b = (bench *)p;
    die_cuda(b->run(b->x, b->y, b->n, b->tmp, 0), "a timed scan");
}
static void work_cub(void *p)
{
    bench *b = (bench *)p;
    die_cuda(yard_cub_scan_i32(b->cub_tmp, b->cub_bytes, b->x, b->y, b->n), "CUB's scan");
}
static bool y_right(const bench &b)
{
    std::vector<int32_t> h(b.n);
    die_cuda(cudaMemcpy(h.data(), b.y, b.n * 4, cudaMemcpyDeviceToHost), "copy y back");
    uint32_t acc = 0;
    for (size_t i = 0; i < b.n; i++)
        if ((uint32_t)h[i] != (acc += (uint32_t)b.hx[i])) return false;
    return true;
}

int main(int argc, char **argv)
{
    std::vector<int> vars;
    int passes = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-p") && i + 1 < argc) {
            passes = std::max(1, atoi(argv[++i]));
            continue;
        }
        const int v = atoi(argv[i]);
        if (v < 0 || v >= NV) {
            fprintf(stderr, "usage: %s [-p passes] [variant 0..%d ...]\n", argv[0], NV - 1);
            return 1;
        }
        if (v) vars.push_back(v);
    }
    if (vars.empty())
        for (int v = 1; v < NV; v++) vars.push_back(v);
    vars.insert(vars.begin(), 0);
    cudaDeviceProp prop;
    die_cuda(cudaGetDeviceProperties(&prop, 0), "no GPU");
    printf("w13_variants on %s (%d SMs)\n", prop.name, prop.multiProcessorCount);

    std::vector<std::string> wrong(NV);
    std::vector<int> regs(NV), per_sm(NV);
    printf("Checks (w13.scan1pass's sizes at each variant's tile, twice on a poisoned workspace):\n");
    for (int v : vars) {
        const variant &va = VARIANTS[v];
        cudaFuncAttributes fa;
        die_cuda(cudaFuncGetAttributes(&fa, va.kernel), "cudaFuncGetAttributes");
        regs[v] = fa.numRegs;
        die_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[v], va.kernel, va.threads, 0), "occupancy");
        wrong[v] = check_variant(va);
        printf("  %2d %-44s %3d registers, %2d blocks an SM (%3d KB of loads in flight): %s\n", v, va.name, regs[v],
               per_sm[v], per_sm[v] * va.threads * va.items * 4 / 1024, wrong[v].empty() ? "ok" : ("WRONG: " + wrong[v]).c_str());
        fflush(stdout);
    }

    bench b;
    const size_t bytes = wb_bench_bytes();
    b.n = bytes / 4;
    die_cuda(cudaMalloc(&b.x, bytes), "cudaMalloc x");
    die_cuda(cudaMalloc(&b.y, bytes), "cudaMalloc y");
    size_t most = 0;
    for (int v : vars) most = std::max(most, (size_t)STATUS_OFFSET + 8 * ((b.n + VARIANTS[v].tile() - 1) / VARIANTS[v].tile()));
    die_cuda(cudaMalloc(&b.tmp, most), "cudaMalloc tmp");
    b.cub_bytes = yard_cub_scan_i32_bytes(b.n);
    die_cuda(cudaMalloc(&b.cub_tmp, b.cub_bytes ? b.cub_bytes : 1), "cudaMalloc CUB's workspace");
    b.hx.resize(b.n);
    lcg = 135;
    for (auto &e : b.hx) e = (int32_t)(rnd() % 16); /* [0, 16): no signed overflow in CUB's int */
    die_cuda(cudaMemcpy(b.x, b.hx.data(), bytes, cudaMemcpyHostToDevice), "copy x");
    printf("Timed: n = %zu int32 (%.0f MB read + the same written), %d passes\n", b.n, bytes / 1e6, passes);

    std::vector<std::vector<double>> gbs(NV, std::vector<double>(passes, NAN));
    std::vector<double> cub(passes, NAN), copy(passes, NAN);
    for (int p = 0; p < passes; p++) {
        wb_summary t;
        copy[p] = wb_yard_copy_gbps(bytes);
        cudaMemset(b.y, 0xA5, bytes);
        wb_time(work_cub, &b, nullptr, &t);
        cub[p] = y_right(b) ? 8.0 * b.n / (t.median * 1e-3) / 1e9 : NAN;
        printf("  pass %d: COPY %.0f GB/s, CUB %.0f GB/s\n", p + 1, copy[p], cub[p]);
        for (int v : vars) {
            if (!wrong[v].empty()) continue;
            b.run = VARIANTS[v].run;
            cudaMemset(b.y, 0xA5, bytes);
            wb_time(work_variant, &b, nullptr, &t);
            if (!y_right(b)) {
                wrong[v] = "the timed output is wrong";
                continue;
            }
            gbs[v][p] = 8.0 * b.n / (t.median * 1e-3) / 1e9;
            printf("    %2d %-44s %6.0f GB/s  %.3f CUB  %.3f COPY\n", v, VARIANTS[v].name, gbs[v][p], gbs[v][p] / cub[p],
                   gbs[v][p] / copy[p]);
            fflush(stdout);
        }
    }

    printf("\n%-3s %-44s %5s %6s", "", "variant", "regs", "blk/SM");
    for (int p = 0; p < passes; p++) printf("  pass %d", p + 1);
    printf("  | median ratio to CUB, to COPY (same pass)\n");
    printf("%-3s %-44s %5s %6s", "", "CUB DeviceScan::InclusiveSum", "", "");
    for (int p = 0; p < passes; p++) printf("  %6.0f", cub[p]);
    printf("\n%-3s %-44s %5s %6s", "", "COPY (device to device)", "", "");
    for (int p = 0; p < passes; p++) printf("  %6.0f", copy[p]);
    printf("\n");
    for (int v : vars) {
        printf("%2d  %-44s %5d %6d", v, VARIANTS[v].name, regs[v], per_sm[v]);
        if (!wrong[v].empty()) {
            printf("  WRONG: %s\n", wrong[v].c_str());
            continue;
        }
        std::vector<double> rc, rk;
        for (int p = 0; p < passes; p++) {
            printf("  %6.0f", gbs[v][p]);
            rc.push_back(gbs[v][p] / cub[p]), rk.push_back(gbs[v][p] / copy[p]);
        }
        std::sort(rc.begin(), rc.end()), std::sort(rk.begin(), rk.end());
        printf("  | %.3f CUB, %.3f COPY%s\n", rc[passes / 2], rk[passes / 2], v == 0 ? "   <- shipped" : "");
    }
    printf("w13.scan-speed is variant 0's ratio to CUB (GB/s of x read and y written).\n");
    cudaFree(b.x), cudaFree(b.y), cudaFree(b.tmp), cudaFree(b.cub_tmp);
    return 0;
}
