/* judge_w60_runner.c — week 60's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's fp8_convert.o and fp8_gemm.o, nothing
 * that writes a record. Each entry calls one function of the week's API on
 * what the judge sent (judge_w60.h); judge_w60.c holds every check. */
#include <stddef.h>
#include <stdint.h>

#include "fp8_convert.h"
#include "fp8_gemm.h"
#include "judge.h"
#include "judge_w60.h"

/* p[0] 256 floats; i64[1] the format */
static int decode(const jr_args *a)
{
    float *out = (float *)a->p[0];
    for (unsigned c = 0; c < 256; c++)
        out[c] = a->i64[1] ? fp8_convert_from_e5m2((uint8_t)c) : fp8_convert_from_e4m3((uint8_t)c);
    return 0;
}

/* p[0] floats, p[1] codes; i64[1] the format, i64[2] how many */
static int encode(const jr_args *a)
{
    const float *x = (const float *)a->p[0];
    uint8_t *out = (uint8_t *)a->p[1];
    for (long long i = 0; i < a->i64[2]; i++) out[i] = a->i64[1] ? fp8_convert_to_e5m2(x[i]) : fp8_convert_to_e4m3(x[i]);
    return 0;
}

/* p[0] A, p[1] B, p[2] scale_a, p[3] scale_b, p[4] D; i64[1..7] as judge_w60.h says */
static int gemm(const jr_args *a)
{
    const uint8_t *A = (const uint8_t *)a->p[0], *B = (const uint8_t *)a->p[1];
    const float *sa = (const float *)a->p[2], *sb = (const float *)a->p[3];
    uint16_t *D = (uint16_t *)a->p[4];
    const long long f = a->i64[7];
    if (f & W60_ALL_NULL) {
        A = NULL, B = NULL, sa = NULL, sb = NULL, D = NULL;
    } else if (f & W60_MADE_UP) {
        const int null_scale = (int)(f >> 24 & 3);
        A = (const uint8_t *)(uintptr_t)(W60_FAKE + (unsigned long long)(f >> 8 & 0xff));
        B = (const uint8_t *)(uintptr_t)(W60_FAKE + 65536 + (unsigned long long)(f >> 16 & 0xff));
        sa = null_scale == 1 ? NULL : (const float *)(uintptr_t)(W60_FAKE + 131072);
        sb = null_scale == 2 ? NULL : (const float *)(uintptr_t)(W60_FAKE + 131072 + 4);
        D = (uint16_t *)(uintptr_t)(W60_FAKE + 196608);
    }
    const int M = (int)a->i64[1], N = (int)a->i64[2], K = (int)a->i64[3];
    const size_t ldd = (size_t)a->i64[4];
    return (int)(a->i64[6] ? fp8_gemm_grid(A, B, sa, sb, D, M, N, K, ldd, (int)a->i64[5])
                           : fp8_gemm(A, B, sa, sb, D, M, N, K, ldd));
}

/* p[0] A | B | scales, p[1] D; i64[1..3] M N K */
static int timed(const jr_args *a)
{
    const long long M = a->i64[1], N = a->i64[2], K = a->i64[3];
    const uint8_t *in = (const uint8_t *)a->p[0];
    const float *s = (const float *)(in + W60_S_AT(M, N, K));
    return (int)fp8_gemm(in, in + W60_B_AT(M, K), s, s + 4, (uint16_t *)a->p[1], (int)M, (int)N, (int)K, (size_t)N);
}

JR_MAIN({ W60_FN_DECODE, "fp8_convert_from", decode }, { W60_FN_ENCODE, "fp8_convert_to", encode },
        { W60_FN_GEMM, "fp8_gemm", gemm }, { W60_FN_TIMED, "fp8_gemm", timed })
