/* emu_test.cc — w4a16_decode (week 58's reference, gen.py's host C++ of it
 * compiled with the knobs given) on w58.decode's shapes: M = 1, 3, 7, 9,
 * 16; K = 128, 256, 4096, 11008; N = 8, 120, 4104; random words (every
 * nibble value), scales and integer zeros, x in [-1, 1); against a double
 * reference on the layout's dequantised weights with the test's tolerance
 * (2^-8 sqrt(sum (x w)^2) + 2^-10 |ref|; NaN fails); y poisoned before the
 * call, guard bytes after it; K = 0, M = 0 and the refusals too. The
 * machine it pretends to be comes from the command line:
 *   emu SMS PER_SM BINARY_VERSION SEED [M K N]
 * SMS x PER_SM sets the splits (1 1: one split, every group in one block,
 * the ring going round many times); BINARY_VERSION 80 takes variant 4's
 * fall-back to variant 1. */
#include "emu_tu.inc" /* gen.py's host C++ of the reference, in the build folder */
extern "C" {
#include "wb_rand.h"
}
#include "w4_quant.h"
void emu_seed(unsigned long s);
extern long emu_bulk_bytes, emu_bulk_count;

static int run_case(wb_rng *rng, int M, int K, int N)
{
    const size_t nw = (size_t)K / 8 * N, ng = (size_t)K / 128 * N;
    uint32_t *wq = (uint32_t *)emu_alloc(nw * 4 + 16);
    uint16_t *s = (uint16_t *)emu_alloc(ng * 2 + 16), *z = (uint16_t *)emu_alloc(ng * 2 + 16);
    uint16_t *x = (uint16_t *)emu_alloc((size_t)M * K * 2 + 16);
    const size_t ny = (size_t)M * N, guard = 64;
    uint16_t *y = (uint16_t *)emu_alloc((ny + guard) * 2);
    for (size_t i = 0; i < nw; i++) wq[i] = (uint32_t)wb_rng_u64(rng);
    for (size_t i = 0; i < ng; i++)
        s[i] = wb_f32_to_f16((float)(0.002 + 0.02 * wb_rng_unit(rng))), z[i] = wb_f32_to_f16((float)wb_rng_int(rng, 0, 15));
    for (size_t i = 0; i < (size_t)M * K; i++) x[i] = wb_f32_to_f16((float)(2 * wb_rng_unit(rng) - 1));
    for (size_t i = 0; i < ny + guard; i++) y[i] = 0xFFFFu;
    const long b0 = emu_bulk_bytes;
    cudaError_t e = w4a16_decode(x, wq, s, z, y, M, N, K);
    int bad = 0;
    if (e != cudaSuccess) { printf("  M %d K %d N %d: returned %d\n", M, K, N, (int)e); bad = 1; }
    for (size_t i = ny; i < ny + guard && !bad; i++)
        if (y[i] != 0xFFFFu) { printf("  M %d K %d N %d: written past y\n", M, K, N); bad = 1; }
    /* the reference, row by row */
    std::vector<double> acc(N), nrm(N);
    std::vector<float> wd((size_t)N);
    for (int m = 0; m < M && !bad; m++) {
        std::fill(acc.begin(), acc.end(), 0.0), std::fill(nrm.begin(), nrm.end(), 0.0);
        for (int k = 0; k < K; k++) {
            const double xv = wb_f16_to_f32(x[(size_t)m * K + k]);
            const size_t gi = (size_t)(k / 128) * N;
            for (int n = 0; n < N; n++) {
                const double w = w4_dequant_one(w4_q(wq, N, k, n), s[gi + n], z[gi + n]);
                acc[n] += xv * w, nrm[n] += xv * w * xv * w;
            }
        }
        for (int n = 0; n < N; n++) {
            const double got = wb_f16_to_f32(y[(size_t)m * N + n]);
            const double tol = std::ldexp(std::sqrt(nrm[n]), -8) + std::ldexp(std::fabs(acc[n]), -10);
            if (!(std::fabs(got - acc[n]) <= tol)) {
                printf("  M %d K %d N %d: y[%d][%d] expected %.6g got %.6g (tolerance %.3g)\n", M, K, N, m, n, acc[n], got, tol);
                bad = 1;
                break;
            }
        }
    }
    const long moved = emu_bulk_bytes - b0;
    printf("  %s  M %2d K %5d N %4d  (%ld bytes bulk-copied)\n", bad ? "BAD" : "ok ", M, K, N, moved);
    emu_free(wq), emu_free(s), emu_free(z), emu_free(x), emu_free(y);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 5) { fprintf(stderr, "usage: emu SMS PER_SM BINARY_VERSION SEED [M K N]\n"); return 2; }
    emu_sms = atoi(argv[1]), emu_per_sm = atoi(argv[2]), emu_binary_version = atoi(argv[3]);
    const unsigned long seed = strtoul(argv[4], NULL, 10);
    emu_seed(seed);
    wb_rng rng;
    wb_rng_seed(&rng, seed);
    int bad = 0;
    if (argc >= 8) return run_case(&rng, atoi(argv[5]), atoi(argv[6]), atoi(argv[7]));
    /* refusals and edges, once */
    {
        uint16_t *p = (uint16_t *)emu_alloc(4096);
        const int shapes[][3] = { { -1, 8, 128 }, { 17, 8, 128 }, { 1, 12, 128 }, { 1, 8, 100 }, { 1, -8, 128 }, { 1, 8, -128 } };
        for (auto &sh : shapes)
            if (w4a16_decode(p, (uint32_t *)p, p, p, p, sh[0], sh[1], sh[2]) != cudaErrorInvalidValue) printf("  refusal of M %d N %d K %d missing\n", sh[0], sh[1], sh[2]), bad = 1;
        if (w4a16_decode(p + 1, (uint32_t *)p, p, p, p, 1, 8, 128) != cudaErrorInvalidValue) printf("  unaligned x accepted\n"), bad = 1;
        for (int i = 0; i < 16; i++) p[i] = 0xFFFFu;
        if (w4a16_decode(p, (uint32_t *)p, p, p, p + 8, 1, 8, 0) != cudaSuccess || p[8] != 0 || p[15] != 0) printf("  K = 0 not zeros\n"), bad = 1;
        p[16] = 0xFFFFu;
        if (w4a16_decode(p, (uint32_t *)p, p, p, p + 16, 0, 8, 128) != cudaSuccess || p[16] != 0xFFFFu) printf("  M = 0 wrote\n"), bad = 1;
        emu_free(p);
    }
    const int Ms[] = { 1, 3, 7, 9, 16 }, Ks[] = { 128, 256, 4096, 11008 }, Ns[] = { 8, 120, 4104 };
    int n = 0;
    for (int K : Ks)
        for (int N : Ns)
            for (int M : Ms) bad |= run_case(&rng, M, K, N), n++;
    printf("%s: %d cases, SMs %d x %d blocks, binary sm_%d, seed %lu\n", bad ? "FAIL" : "PASS", n, emu_sms, emu_per_sm,
           emu_binary_version, seed);
    return bad;
}
