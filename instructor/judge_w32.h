/* judge_w32.h — week 32's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W32_H
#define JUDGE_W32_H

enum { W32_FN_HOST = 1, W32_FN_DX, W32_FN_WS_BYTES, W32_FN_DGB, W32_FN_DX_TIMED, W32_FN_DGB_TIMED };

/* W32_FN_HOST:      ln_host_backward on host memory, in doubles: p[0] the inputs one after another
 *                   (x: rows x cols, gamma: cols, mean: rows, rstd: rows, dy: rows x cols), p[1] the
 *                   outputs (dx: rows x cols, dgamma: cols, dbeta: cols); i64[1] rows, i64[2] cols.
 * W32_FN_DX:        ln_dx_backward: p[0] x, p[1] dy, p[2] gamma, p[3] mean, with rstd i64[3] floats after
 *                   it (NULL where mean is), p[4] dx; i64[1] rows, i64[2] cols.
 * W32_FN_WS_BYTES:  out: ln_dgb_workspace_bytes(i64[1], i64[2]) as an unsigned long long (status 0).
 * W32_FN_DGB:       ln_dgb_backward: p[0] x, p[1] dy, p[2] mean (rstd as for W32_FN_DX), p[3] dgamma,
 *                   p[4] dbeta, p[5] workspace; i64[1] rows, i64[2] cols.
 * W32_FN_DX_TIMED:  the timed protocol's two inputs and output: p[0] x (i64[0] = rows x cols floats) with
 *                   gamma, mean and rstd after it (cols, rows and rows floats), p[1] dy, p[2] dx;
 *                   i64[1] rows, i64[2] cols.
 * W32_FN_DGB_TIMED: p[0] x with mean and rstd after it (rows floats each) and the workspace i64[3]
 *                   bytes into the same buffer (none where i64[4] is 0: NULL), p[1] dy, p[2] dgamma
 *                   (cols floats) with dbeta after it; i64[1] rows, i64[2] cols. */

#endif
