/* judge_w37_runner.c — week 37's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's attn_io.o and flash_attn.o (with the
 * week's given support objects and cuBLAS, as the grader links a week's
 * runner), nothing that writes a record. Each entry calls one function of
 * the week's API on what the judge sent (judge_w37.h); judge_w37.c holds
 * every check. */
#include <stdint.h>
#include <string.h>

#include "attn_io.h"
#include "flash_attn.h"
#include "judge.h"
#include "judge_w37.h"

static int put_double(const jr_args *a, double v)
{
    memcpy(a->out, &v, sizeof v), *a->out_len = sizeof v;
    return 0;
}

/* i64[1] bh, i64[2] S, i64[3] D */
static int io_naive(const jr_args *a)
{
    return put_double(a, attn_io_naive_bytes((int64_t)a->i64[1], (int64_t)a->i64[2], (int64_t)a->i64[3]));
}

/* i64[1] bh, i64[2] S, i64[3] D, i64[4] Br, i64[5] Bc, i64[6] causal */
static int io_flash(const jr_args *a)
{
    return put_double(a, attn_io_flash_bytes((int64_t)a->i64[1], (int64_t)a->i64[2], (int64_t)a->i64[3],
                                             (int64_t)a->i64[4], (int64_t)a->i64[5], (int)a->i64[6]));
}

/* p[0] q, p[1] k, p[2] v, p[3] o, p[4] lse, i64[1] bh, i64[2] S, i64[3] D, i64[4] causal, f64[0] scale;
 * an error the call returned is cleared after it, as the test's flash_rejects clears it */
static int flash(const jr_args *a)
{
    cudaError_t e = flash_attn((const float *)a->p[0], (const float *)a->p[1], (const float *)a->p[2], (float *)a->p[3],
                               (float *)a->p[4], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (float)a->f64[0],
                               (int)a->i64[4]);
    if (e != cudaSuccess) cudaGetLastError();
    return (int)e;
}

/* p[0] Q K V (i64[0] floats each), p[1] O (i64[0] floats) then lse */
static int flash_packed(const jr_args *a)
{
    const size_t n = (size_t)a->i64[0];
    const float *qkv = (const float *)a->p[0];
    float *o = (float *)a->p[1];
    return (int)flash_attn(qkv, qkv + n, qkv + 2 * n, o, o + n, (int)a->i64[1], (int)a->i64[2], (int)a->i64[3],
                           (float)a->f64[0], (int)a->i64[4]);
}

JR_MAIN({ W37_FN_IO_NAIVE, "attn_io_naive_bytes", io_naive }, { W37_FN_IO_FLASH, "attn_io_flash_bytes", io_flash },
        { W37_FN_FLASH, "flash_attn", flash }, { W37_FN_FLASH_PACKED, "flash_attn", flash_packed })
