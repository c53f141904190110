/* judge_w58_runner.c — week 58's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's w4a16_decode.o and w4a16_prefill.o,
 * nothing that writes a record. Each entry calls one function of the week's
 * API on what the judge sent (judge_w58.h); judge_w58.c holds every check. */
#include <stdint.h>

#include "judge.h"
#include "judge_w58.h"
#include "w4a16_decode.h"
#include "w4a16_prefill.h"

typedef cudaError_t (*w4_fn)(const uint16_t *x, const uint32_t *wq, const uint16_t *scales, const uint16_t *zeros,
                             uint16_t *y, int M, int N, int K);

/* p[0] x, p[1] wq, p[2] scales, p[3] zeros, p[4] y; i64[1..3] M N K; i64[4] W58_MADE_UP: the test's
 * made-up pointers, i64[5] bytes added to pointer i64[6] */
static int call(w4_fn fn, const jr_args *a)
{
    const void *p[5] = { a->p[0], a->p[1], a->p[2], a->p[3], a->p[4] };
    if (a->i64[4] & W58_MADE_UP) {
        static const unsigned long long AT[5] = { 0, 12288, 4096, 8192, 16384 }; /* x wq scales zeros y */
        for (int i = 0; i < 5; i++)
            p[i] = (const void *)(uintptr_t)(W58_FAKE + AT[i] + (a->i64[6] == i ? (unsigned long long)a->i64[5] : 0));
    }
    cudaError_t e = fn((const uint16_t *)p[0], (const uint32_t *)p[1], (const uint16_t *)p[2], (const uint16_t *)p[3],
                       (uint16_t *)(uintptr_t)p[4], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3]);
    if (e != cudaSuccess && !(a->i64[4] & W58_MADE_UP)) cudaGetLastError();
    return (int)e;
}

static int decode(const jr_args *a) { return call(w4a16_decode, a); }
static int prefill(const jr_args *a) { return call(w4a16_prefill, a); }

/* p[0] x | wq | scales | zeros (w58_timed_layout), p[1] y; i64[1..3] M N K */
static int timed(w4_fn fn, const jr_args *a)
{
    const int M = (int)a->i64[1], N = (int)a->i64[2], K = (int)a->i64[3];
    size_t off[5];
    w58_timed_layout((size_t)M, (size_t)N, (size_t)K, off);
    const unsigned char *in = (const unsigned char *)a->p[0];
    return (int)fn((const uint16_t *)in, (const uint32_t *)(in + off[1]), (const uint16_t *)(in + off[2]),
                   (const uint16_t *)(in + off[3]), (uint16_t *)a->p[1], M, N, K);
}

static int decode_timed(const jr_args *a) { return timed(w4a16_decode, a); }
static int prefill_timed(const jr_args *a) { return timed(w4a16_prefill, a); }

JR_MAIN({ W58_FN_DECODE, "w4a16_decode", decode }, { W58_FN_PREFILL, "w4a16_prefill", prefill },
        { W58_FN_DECODE_TIMED, "w4a16_decode", decode_timed }, { W58_FN_PREFILL_TIMED, "w4a16_prefill", prefill_timed })
