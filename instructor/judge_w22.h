/* judge_w22.h — week 22's judge and runner agree on the exercise numbers
 * and on each call's arguments. */
#ifndef JUDGE_W22_H
#define JUDGE_W22_H

enum { W22_FN_TILED_T = 1, W22_FN_TILED, W22_FN_BLOCKS };

/* W22_FN_TILED_T: tiled_sgemm_t(i64[4], M, N, K, A, B, C) in judge_gemm.h's layout (p[0] A, p[1] B,
 *                 p[2] C, i64[1] M, i64[2] N, i64[3] K); the buffers the judge leaves out are NULL.
 * W22_FN_TILED:   tiled_sgemm, the same layout.
 * W22_FN_BLOCKS:  i64[0] T; out: tiled_sgemm_blocks_per_sm(T) as an int (status 0). */

#endif
