/* judge_w61.h — week 61's judge, its runner and its yard runner agree on
 * the exercise numbers, each call's arguments and the timed inputs' values
 * (a hash of the hidden seed that the judge's host code and its kernels
 * both evaluate). */
#ifndef JUDGE_W61_H
#define JUDGE_W61_H

#include <stdint.h>

enum { W61_FN_PRUNE = 1, W61_FN_COMPRESS, W61_FN_DECOMPRESS, W61_FN_GEMM, W61_FN_PROBE, W61_FN_TIMED };

/* W61_FN_PRUNE:      p[0] w, p[1] wp (host memory); i64[1] rows, i64[2] K,
 *                    i64[3] W61_IN_PLACE: wp = w; W61_ALL_NULL: both NULL.
 * W61_FN_COMPRESS:   p[0] wp, p[1] vals, p[2] meta (host); i64[1] rows, i64[2] K.
 * W61_FN_DECOMPRESS: p[0] vals, p[1] meta, p[2] w (host); i64[1] rows, i64[2] K.
 * W61_FN_GEMM:       p[0] x, p[1] vals, p[2] meta, p[3] y (device);
 *                    i64[1..3] M, N, K; i64[4] W61_MADE_UP: the test's
 *                    made-up addresses (W61_FAKE + 0, 4096, 8192, 12288,
 *                    never dereferenced by a call that refuses), i64[5]
 *                    then 1..4: x + 4 halves, vals + 4 halves, meta + 2
 *                    words or y + 1 half (the unaligned pointer), 0 none.
 * W61_FN_PROBE:      the week's given sp24_probe_one: p[0] a, p[1] b,
 *                    p[2] e, p[3] d (device); i64[1] the selector.
 * W61_FN_TIMED:      the timed protocol's one input and one output: p[0]
 *                    x (M x K) at 0, vals at W61_V_AT(M, K), meta at
 *                    W61_E_AT(M, N, K); p[1] y; i64[1..3] M, N, K.
 * (i64[0] is the judge's: a timed request's output length in 4-byte words.) */
#define W61_IN_PLACE 1
#define W61_ALL_NULL 2
#define W61_MADE_UP  1
#define W61_FAKE     ((unsigned long long)1 << 20)
#define W61_V_AT(M, K) (((unsigned long long)(M) * (unsigned long long)(K) * 2 + 255) / 256 * 256)
#define W61_E_AT(M, N, K) \
    (W61_V_AT(M, K) + ((unsigned long long)(N) * (unsigned long long)(K) + 255) / 256 * 256)

/* The yard runner's (judge_w61_yard_runner.c), numbered apart from the
 * student's: W61_YARD_CUBLAS: cublasGemmEx on the dense pruned weights (the
 * test's sp_cublas: TN, FP16 in and out, FP32 compute, the runner's own
 * handle): p[0] x at 0, the dense W (N x K FP16) at W61_V_AT(M, K); p[1] y. */
enum { W61_YARD_CUBLAS = 101 };
#define W61_YARD_RUNNER "judge-w61-yard-runner"

/* ---------------------------------------------------------------- the timed inputs' values */

#ifdef __CUDACC__
#define W61_HD __host__ __device__ __forceinline__
#else
#define W61_HD inline
#endif

static W61_HD uint64_t w61_hash(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* x[m][k] = w61_xint(seed, m K + k) / 8: an integer in [-8, 8], |x| <= 1
 * as the test's uniform x. */
static W61_HD int w61_xint(uint64_t seed, uint64_t i) { return (int)(w61_hash(seed ^ (i * 0x632be59bd9b4e019ull)) % 17u) - 8; }

/* Group g = n (K/4) + q of W (seed: the rep's W seed): its pair of kept
 * positions (0..5: (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)) and its two kept
 * values' integers s = 0, 1 in [-8, 8] (W = the integer / 16; a kept value
 * may be 0: the metadata still says two positions). */
static W61_HD int w61_pair(uint64_t seed, uint64_t g) { return (int)(w61_hash(seed ^ (g * 0xd1b54a32d192ed03ull)) % 6u); }
static W61_HD int w61_i0(int pair) { return pair < 3 ? 0 : pair < 5 ? 1 : 2; }
static W61_HD int w61_i1(int pair) { return pair < 3 ? pair + 1 : pair < 5 ? pair - 1 : 3; }
static W61_HD int w61_wint(uint64_t seed, uint64_t g, int s)
{
    return (int)(w61_hash((seed + 0x5851f42d4c957f2dull) ^ ((2 * g + (uint64_t)s) * 0x9fb21c651e98df25ull)) % 17u) - 8;
}

#endif
