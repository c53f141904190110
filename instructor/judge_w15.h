/* judge_w15.h — week 15's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W15_H
#define JUDGE_W15_H

enum { W15_FN_TRAFFIC = 1, W15_FN_TMP_BYTES, W15_FN_GELU, W15_FN_GELU_TIMED, W15_FN_NORM, W15_FN_NORM_TIMED,
       W15_FN_SOFTMAX, W15_FN_SMOOTH, W15_FN_SGEMM, W15_FN_SGEMM_BIAS_RELU, W15_FN_NORMALIZE };

/* W15_FN_TRAFFIC:         i64[0] chain, i64[1] fused; out: the double traffic_bytes returned (status 0).
 * W15_FN_TMP_BYTES:       out: norm_tmp_bytes() as an unsigned long long (status 0).
 * W15_FN_GELU:            p[0] x, p[1] bias, p[2] r, p[3] y, i64[1] rows, i64[2] cols, f64[0] s.
 * W15_FN_GELU_TIMED:      the timed protocol's two inputs: p[0] x (rows x cols floats) with bias after
 *                         them (cols floats at x + rows x cols), p[1] r, p[2] y; i64 and f64 as W15_FN_GELU.
 * W15_FN_NORM:            p[0] x, p[1] out (one float), p[2] tmp, i64[0] n.
 * W15_FN_NORM_TIMED:      p[0] x (n floats) with tmp i64[1] bytes into the same buffer, p[1] out, i64[0] n.
 * W15_FN_SOFTMAX:         p[0] x, p[1] y, i64[1] rows, i64[2] cols.
 * W15_FN_SMOOTH:          p[0] x, p[1] y, i64[0] n.
 * W15_FN_SGEMM:           p[0] A, p[1] B, p[2] C, i64[1] M, i64[2] N, i64[3] K.
 * W15_FN_SGEMM_BIAS_RELU: p[0] A, p[1] B, p[2] bias, p[3] C, i64 as W15_FN_SGEMM.
 * W15_FN_NORMALIZE:       p[0] x, p[1] y, p[2] tmp, i64[0] n. */

#endif
