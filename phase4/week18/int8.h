/* int8.h — week 18: the same layer in INT8: weights quantised per output
 * channel once, activations per row on the fly, int32 accumulation, one
 * float rescale at the end.
 *
 * The quantiser, everywhere in this week (weights and activations alike),
 * for a vector v of length n:
 *   amax  = max |v[k]|                  (exact: no rounding in a max)
 *   scale = amax / 127.0f               (float division)
 *   q[k]  = rintf(v[k] * (127.0f / amax))   clamped to -127..127 (ties to even)
 *   and when amax == 0: scale = 0 and every q[k] = 0.
 * so v[k] ~ q[k] * scale. Inputs are finite (NaN has no int8). */
#ifndef INT8_H
#define INT8_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The padded row length of an int8 weight matrix: in rounded up to a
 * multiple of 4, so every row starts 4-byte aligned and packs into ints. */
#define I8_LD(in) ((((in) + 3) / 4) * 4)

/* Quantise each row o < rows of W (rows x cols floats, row-major) with the
 * quantiser above: q[o][0..cols) as int8 in a rows x I8_LD(cols) array, the
 * padding columns cols..I8_LD(cols)-1 set to 0, and scale[o]. Device arrays
 * (q 4-byte aligned); rows >= 0, cols >= 1. Default stream, no wait. */
cudaError_t int8_quantize_rows(const float *W, int rows, int cols, int8_t *q, float *scale);

/* y[r][o] = act(acc * (sx[r] * sw[o]) + b[o]), where row r of x (batch x in
 * floats) is quantised with the quantiser above (giving qx[r][k] and sx[r]),
 * acc = sum_k qx[r][k] qw[o][k] exactly in int32, qw (out x I8_LD(in), as
 * int8_quantize_rows writes it) and sw[o] are the weights' quantisation, b has
 * out floats. ReLU as in fp32_linear when relu != 0. The float products are
 * taken in that order, sx[r] * sw[o] first. Any batch >= 0, in >= 1, out >= 1;
 * nothing outside y[0 .. batch*out) written. Default stream, no wait. */
cudaError_t int8_linear(const float *x, const int8_t *qw, const float *sw, const float *b, float *y, int batch, int in,
                        int out, int relu);

#ifdef __cplusplus
}
#endif
#endif
