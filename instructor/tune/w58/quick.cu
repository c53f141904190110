/* instructor/tune/w58/quick.cu — week 58's decode reference, one setting of
 * its macros, checked and timed in a few seconds (quick.sh builds it with
 * each setting): the test's decode shapes (M = 1, 2, 3, 7, 8, 9, 16; K = 128,
 * 256, 4096, 11008; N = 8, 120, 4104) and two of many groups a split (x
 * staged in several chunks by variant 9) against a double reference on the
 * layout's dequantised weights (sampled columns where N is large) at the
 * test's tolerance, nothing written past y; then K = N = 16384 at M = 1, 2,
 * 4, 8 and 16: the median of 22 warm calls against a device-to-device copy
 * of the same bytes in the same loop, the ratio as the week's benchmark
 * forms it (bytes read over the copy's bytes read and written a second),
 * and 24 sampled columns of the last call checked. Random words, scales in
 * [0.001, 0.101], zeros 0..15, x in [-1, 1]. `quick check`: the
 * correctness part alone (for compute-sanitizer). QK, QN: another timing
 * shape. Built with -DW58_TIMELINE (the set's macros and this file): each
 * block's start, main-loop end and exit in the last back-to-back call.
 * Each M's second line: the isolated calls again, each after a memset of
 * twice L2 (as wb_time flushes: dirty lines when the call starts) and
 * after a read of twice L2 (clean lines), the copy likewise. */
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <string>
#include <cuda_runtime.h>
#include "wb_f16.h"
#include "w4_quant.h"
#include "w4a16_decode.h"
#ifdef W58_TIMELINE
cudaError_t w58_timeline(unsigned long long *host, int blocks);
#endif
static uint64_t st = 88172645463325252ull;
static uint32_t rnd() { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return (uint32_t)(st >> 11); }
static double unit() { return rnd() / 2097152.0 / 2048.0; }
struct L { int M, N, K; std::vector<uint16_t> x, s, z; std::vector<uint32_t> w; };
static void make(L &l, int M, int N, int K)
{
    l.M = M, l.N = N, l.K = K;
    l.x.resize((size_t)std::max(M, 1) * std::max(K, 1)); l.w.resize((size_t)std::max(K / 8, 1) * std::max(N, 1));
    l.s.resize((size_t)std::max(K / 128, 1) * std::max(N, 1)); l.z.resize(l.s.size());
    for (auto &v : l.x) v = wb_f32_to_f16((float)(2 * unit() - 1));
    for (auto &v : l.w) v = rnd() ^ (rnd() << 16);
    for (size_t i = 0; i < l.s.size(); i++) l.s[i] = wb_f32_to_f16((float)(0.001 + 0.1 * unit())), l.z[i] = wb_f32_to_f16((float)(rnd() % 16));
}
static int check(const L &l, const std::vector<uint16_t> &y, int ncols_sample)
{
    int bad = 0;
    for (int ci = 0; ci < (ncols_sample ? ncols_sample : l.N); ci++) {
        int n = ncols_sample ? (int)(rnd() % l.N) : ci;
        for (int m = 0; m < l.M; m++) {
            double ref = 0, nrm = 0;
            for (int k = 0; k < l.K; k++) {
                unsigned q = w4_q(l.w.data(), l.N, k, n);
                double wv = w4_dequant_one(q, l.s[(size_t)(k / 128) * l.N + n], l.z[(size_t)(k / 128) * l.N + n]);
                double p = wb_f16_to_f32(l.x[(size_t)m * l.K + k]) * wv;
                ref += p, nrm += p * p;
            }
            double got = wb_f16_to_f32(y[(size_t)m * l.N + n]);
            if (!(std::isfinite(got) && fabs(got - ref) <= 0x1p-8 * sqrt(nrm) + 0x1p-10 * fabs(ref) + 0x1p-24)) {
                if (bad < 3) printf("   BAD M=%d N=%d K=%d y[%d][%d] ref %.6g got %.6g\n", l.M, l.N, l.K, m, n, ref, got);
                bad++;
            }
        }
    }
    return bad;
}
struct D { uint16_t *x, *s, *z, *y; uint32_t *w; };
static D up(const L &l, size_t ypad)
{
    D d;
    cudaMalloc(&d.x, l.x.size() * 2); cudaMalloc(&d.w, l.w.size() * 4); cudaMalloc(&d.s, l.s.size() * 2);
    cudaMalloc(&d.z, l.z.size() * 2); cudaMalloc(&d.y, ((size_t)std::max(l.M, 1) * std::max(l.N, 1) + ypad) * 2);
    cudaMemcpy(d.x, l.x.data(), l.x.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(d.w, l.w.data(), l.w.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d.s, l.s.data(), l.s.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(d.z, l.z.data(), l.z.size() * 2, cudaMemcpyHostToDevice);
    return d;
}
/* A read of every byte of p (n uint4): what L2 held is evicted (dirty lines
 * written back) and L2 is left holding clean lines. */
static __global__ void read_all(const uint4 *p, size_t n, unsigned *sink)
{
    unsigned a = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint4 v = __ldcg(p + i);
        a ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (a == 0x9e3779b9u) *sink = a; /* keeps the loads */
}
static void down(D &d) { cudaFree(d.x); cudaFree(d.w); cudaFree(d.s); cudaFree(d.z); cudaFree(d.y); }
/* One layer of fresh inputs, y poisoned with 64 halves past it: 1 if y is
 * wrong (sample columns checked, all when 0) or written past M N. */
static int one_case(int M, int N, int K, int sample)
{
    L l;
    make(l, M, N, K);
    D d = up(l, 64);
    size_t ny = (size_t)M * N + 64;
    cudaMemset(d.y, 0xff, ny * 2);
    cudaError_t e = w4a16_decode(d.x, d.w, d.s, d.z, d.y, M, N, K);
    cudaError_t e2 = cudaDeviceSynchronize();
    std::vector<uint16_t> y(ny);
    cudaMemcpy(y.data(), d.y, ny * 2, cudaMemcpyDeviceToHost);
    int bad = (e || e2) ? 1 : check(l, y, sample);
    for (size_t i = (size_t)M * N; i < ny; i++)
        if (y[i] != 0xffff) { bad++; printf("   wrote past y M=%d N=%d K=%d\n", M, N, K); break; }
    down(d);
    return bad != 0;
}
int main(int argc, char **argv)
{
    int fails = 0, cases = 0;
    const int Ms[] = { 1, 2, 3, 7, 8, 9, 16 }, Ks[] = { 128, 256, 4096, 11008 }, Ns[] = { 8, 120, 4104 };
    for (int M : Ms) for (int K : Ks) for (int N : Ns) fails += one_case(M, N, K, N > 200 ? 200 : 0), cases++;
    for (int M : { 3, 16 }) fails += one_case(M, 16384, 40960, 64), cases++; /* many groups a split: x staged in chunks */
    printf("correctness: %d of %d cases failed\n", fails, cases);
    if (argc > 1 && std::string(argv[1]) == "check") return fails != 0; /* no timing (under compute-sanitizer) */
    /* QK, QN: another timing shape (a fixed cost a launch shows as a ratio
     * that grows with K); the checks above are always the test's shapes */
    const int K = getenv("QK") ? atoi(getenv("QK")) : 16384, N = getenv("QN") ? atoi(getenv("QN")) : 16384;
    L l; make(l, 16, N, K);
    D d = up(l, 0);
    size_t wbytes = (size_t)K * N / 2, szb = (size_t)K / 128 * N * 2 * 2;
    const size_t cbytes = wbytes + szb + (size_t)16 * K * 2 + (size_t)16 * N * 2; /* the copy's bytes at M = 16 */
    char *c1, *c2; cudaMalloc(&c1, cbytes); cudaMalloc(&c2, cbytes);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    /* Before each isolated call, the L2 as the week's benchmark leaves it
     * (wb_time: a memset of twice L2, its lines dirty when the call starts)
     * and as a read of another buffer leaves it (clean lines): the first
     * makes a call that writes little pay for the memset's write-back, the
     * copy (which writes as much as it reads) less so. */
    int l2b = 0; cudaDeviceGetAttribute(&l2b, cudaDevAttrL2CacheSize, 0);
    const size_t fbytes = std::max((size_t)2 * l2b, (size_t)64 << 20);
    char *fl; unsigned *sink; cudaMalloc(&fl, fbytes); cudaMalloc(&sink, 4); cudaMemset(fl, 0x3c, fbytes);
    auto flush = [&](int how) {
        if (how == 1) cudaMemsetAsync(fl, 0x5a, fbytes);
        if (how == 2) read_all<<<264, 512>>>((const uint4 *)fl, fbytes / 16, sink);
    };
    for (int M : { 1, 2, 4, 8, 16 }) {
        size_t bytes = wbytes + szb + (size_t)M * K * 2 + (size_t)M * N * 2;
        std::vector<float> tk, tc;
        for (int r = 0; r < 25; r++) {
            float ms;
            cudaEventRecord(a); cudaMemcpyAsync(c2, c1, bytes, cudaMemcpyDeviceToDevice); cudaEventRecord(b); cudaEventSynchronize(b);
            cudaEventElapsedTime(&ms, a, b); if (r >= 3) tc.push_back(ms);
            cudaEventRecord(a); w4a16_decode(d.x, d.w, d.s, d.z, d.y, M, N, K); cudaEventRecord(b); cudaEventSynchronize(b);
            cudaEventElapsedTime(&ms, a, b); if (r >= 3) tk.push_back(ms);
        }
        std::sort(tk.begin(), tk.end()); std::sort(tc.begin(), tc.end());
        double mk = tk[tk.size() / 2], mc = tc[tc.size() / 2];
        double fk[3] = { 0, 0, 0 }, fc[3] = { 0, 0, 0 }; /* after a memset flush (1), a read flush (2) */
        for (int how = 1; how <= 2; how++) {
            std::vector<float> k2, c2v;
            for (int r = 0; r < 25; r++) {
                float ms;
                flush(how); cudaEventRecord(a); cudaMemcpyAsync(c2, c1, bytes, cudaMemcpyDeviceToDevice); cudaEventRecord(b);
                cudaEventSynchronize(b); cudaEventElapsedTime(&ms, a, b); if (r >= 3) c2v.push_back(ms);
                flush(how); cudaEventRecord(a); w4a16_decode(d.x, d.w, d.s, d.z, d.y, M, N, K); cudaEventRecord(b);
                cudaEventSynchronize(b); cudaEventElapsedTime(&ms, a, b); if (r >= 3) k2.push_back(ms);
            }
            std::sort(k2.begin(), k2.end()); std::sort(c2v.begin(), c2v.end());
            fk[how] = k2[k2.size() / 2], fc[how] = c2v[c2v.size() / 2];
        }
        /* back to back: 10 calls between two events, as the week's benchmark's warm calls run */
        float kb, cb;
#ifdef W58_TIMELINE
        w58_timeline(NULL, 0);
#endif
        cudaEventRecord(a); for (int r = 0; r < 10; r++) w4a16_decode(d.x, d.w, d.s, d.z, d.y, M, N, K);
        cudaEventRecord(b); cudaEventSynchronize(b); cudaEventElapsedTime(&kb, a, b);
        cudaEventRecord(a); for (int r = 0; r < 10; r++) cudaMemcpyAsync(c2, c1, bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(b); cudaEventSynchronize(b); cudaEventElapsedTime(&cb, a, b);
        std::vector<uint16_t> y((size_t)M * N);
        cudaMemcpy(y.data(), d.y, y.size() * 2, cudaMemcpyDeviceToHost);
        L l2 = l; l2.M = M; /* x rows 0..M-1 are the first M rows: same K */
        int bad = check(l2, y, 24);
#ifdef W58_TIMELINE
        /* the last of the 10 back-to-back calls: each block's start, main
         * loop's end and exit (thread 0, global timer) against the first
         * start, and the 10 calls' mean time */
        {
            std::vector<unsigned long long> t(3 * 4096);
            if (w58_timeline(t.data(), 4096) == cudaSuccess) {
                int nb = 0;
                while (nb < 4096 && t[3 * nb] && t[3 * nb + 2] >= t[3 * nb]) nb++;
                unsigned long long t0 = ~0ull;
                for (int i = 0; i < nb; i++) t0 = std::min(t0, t[3 * i]);
                std::vector<double> st, le, ex;
                for (int i = 0; i < nb; i++)
                    st.push_back((t[3 * i] - t0) / 1e3), le.push_back((t[3 * i + 1] - t0) / 1e3), ex.push_back((t[3 * i + 2] - t0) / 1e3);
                std::sort(st.begin(), st.end()); std::sort(le.begin(), le.end()); std::sort(ex.begin(), ex.end());
                if (nb)
                    printf("  timeline M=%d, %d blocks (us from the first start): start max %.2f; loop end min %.2f median %.2f max %.2f; "
                           "exit min %.2f max %.2f; a call %.2f\n", M, nb, st.back(), le.front(), le[nb / 2], le.back(), ex.front(),
                           ex.back(), kb * 100);
            }
        }
#endif
        printf("M=%2d  %7.1f us  %6.0f GB/s  copy %6.0f GB/s  ratio %.3f  back to back %7.1f us ratio %.3f  %s\n", M, mk * 1e3,
               bytes / mk / 1e6, 2 * bytes / mc / 1e6, mc / mk / 2, kb * 100, cb / kb / 2, bad ? "BAD" : "ok");
        printf("      after a memset of 2 L2: %7.1f us, copy %7.1f us, ratio %.3f; after a read of 2 L2: %7.1f us, copy %7.1f us, "
               "ratio %.3f\n", fk[1] * 1e3, fc[1] * 1e3, fc[1] / fk[1] / 2, fk[2] * 1e3, fc[2] * 1e3, fc[2] / fk[2] / 2);
    }
    cudaFree(fl); cudaFree(sink);
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
