/* judge_w60.h — week 60's judge, its runner and its yard runner agree on
 * the exercise numbers and on each call's arguments. */
#ifndef JUDGE_W60_H
#define JUDGE_W60_H

enum { W60_FN_DECODE = 1, W60_FN_ENCODE, W60_FN_GEMM, W60_FN_TIMED };

/* W60_FN_DECODE: p[0] 256 floats (host memory): the value of every code,
 *                i64[1] the format (0 E4M3, 1 E5M2).
 * W60_FN_ENCODE: p[0] i64[2] floats in, p[1] i64[2] codes out (host
 *                memory), i64[1] the format.
 * W60_FN_GEMM:   p[0] A, p[1] B, p[2] scale_a, p[3] scale_b, p[4] D (each
 *                NULL where the judge sends none, each at the byte offset the
 *                judge chose); i64[1] M, i64[2] N, i64[3] K, i64[4] ldd,
 *                i64[5] grid, i64[6] 1: fp8_gemm_grid, 0: fp8_gemm;
 *                i64[7] W60_MADE_UP: the pointers are made-up addresses
 *                (never dereferenced by a call that refuses): A at
 *                W60_FAKE + (i64[7] >> 8 & 0xff), B at W60_FAKE + 65536 +
 *                (i64[7] >> 16 & 0xff), scale_a at W60_FAKE + 131072 and
 *                scale_b 4 bytes after it (NULL where i64[7] >> 24 & 3 is 1
 *                or 2), D at W60_FAKE + 196608; W60_ALL_NULL: every pointer
 *                NULL (the empty shapes of the test's gemm_contract).
 * W60_FN_TIMED:  the timed protocol's one input and one output: p[0] A
 *                (M K codes), B at W60_B_AT(M, K), scale_a at
 *                W60_S_AT(M, N, K) and scale_b 16 bytes after it; p[1] D
 *                (M x N, ldd N); i64[1..3] M, N, K.
 * (i64[0] is the judge's: a timed request's output length in 4-byte words.) */
#define W60_MADE_UP 1
#define W60_ALL_NULL 2
#define W60_FAKE 0x7f0000000000ull
#define W60_B_AT(M, K) (((unsigned long long)(M) * (unsigned long long)(K) + 255) / 256 * 256)
#define W60_S_AT(M, N, K) \
    (W60_B_AT(M, K) + ((unsigned long long)(N) * (unsigned long long)(K) + 255) / 256 * 256)

/* The yard runner's (judge_w60_yard_runner.c), numbered apart from the
 * student's: W60_YARD_LT: as W60_FN_TIMED, cuBLASLt's FP8 GEMM with fast
 * accumulation through the week's given support/yard_fp8_lt.cu. */
enum { W60_YARD_LT = 101 };
#define W60_YARD_RUNNER "judge-w60-yard-runner"

#endif
