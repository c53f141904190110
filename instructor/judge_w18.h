/* judge_w18.h — week 18's judge and its runner agree on the exercise
 * numbers and on each call's arguments (i64[0] is the judge's; the sizes
 * travel in i64[1..]). Every buffer is device memory. A buffer argument
 * the judge leaves out (-1) is NULL. */
#ifndef JUDGE_W18_H
#define JUDGE_W18_H

/* The layers: i64[1..4] batch, in, out, relu.
 * W18_FN_F32:  p[0] x, p[1] W, p[2] b, p[3] y: fp32_linear.
 * W18_FN_F16:  p[0] x, p[1] W (half bits), p[2] b, p[3] y: fp16_linear.
 * W18_FN_I8:   p[0] x, p[1] qw, p[2] sw, p[3] b, p[4] y: int8_linear.
 * W18_FN_BF16: p[0] x (bfloat16 bits), p[1] W (bfloat16 bits), p[2] b,
 *              p[3] y: bf16_linear.
 * W18_FN_SOFTMAX: p[0] logits, p[1] probs (NULL allowed), p[2] pred;
 *              i64[1] batch, i64[2] classes: fp32_softmax_argmax.
 * W18_FN_F16_CONV, W18_FN_BF16_CONV: p[0] src, p[1] dst; i64[1] n:
 *              fp16_from_f32, bf16_from_f32.
 * W18_FN_I8_QUANT: p[0] W, p[1] q, p[2] scale; i64[1] rows, i64[2] cols:
 *              int8_quantize_rows.
 * W18_FN_F32_BAD: p[0] 256 bytes: test_week18.c's bad_sizes, out: the
 *              four statuses (ints), in its order.
 * W18_FN_BF16_BAD: p[0] 1 << 16 bytes (d, 16-byte aligned), p[1] b (1024
 *              bytes), p[2] y (16 x 16 floats): test_week18.c's
 *              bf16_refusals, out: the six refused calls' statuses and
 *              then the batch-0 call's (seven ints).
 * W18_FN_TIMED_F32, W18_FN_TIMED_BF16: the timed layer, p[0] the input
 *              x | W | b in one buffer (W18_W_AT, W18_B_AT), p[1] y;
 *              i64[1..3] batch, in, out; ReLU on. */
enum {
    W18_FN_F32 = 1, W18_FN_F16, W18_FN_I8, W18_FN_BF16, W18_FN_SOFTMAX, W18_FN_F16_CONV, W18_FN_BF16_CONV,
    W18_FN_I8_QUANT, W18_FN_F32_BAD, W18_FN_BF16_BAD, W18_FN_TIMED_F32, W18_FN_TIMED_BF16
};

/* The timed input's layout for element size ES (4: FP32 x and W; 2:
 * bfloat16): x (batch x in), then W (out x in) at W18_W_AT, then b (out
 * floats) at W18_B_AT. */
#define W18_W_AT(es, batch, in)      ((size_t)(es) * (size_t)(batch) * (size_t)(in))
#define W18_B_AT(es, batch, in, out) ((size_t)(es) * ((size_t)(batch) + (size_t)(out)) * (size_t)(in))
#define W18_IN_BYTES(es, batch, in, out) (W18_B_AT(es, batch, in, out) + 4 * (size_t)(out))

/* The yard runner's (judge_w18_yard_runner.c: the week's given
 * support/yard_lt_layer.o, no student object): the same numbers as the
 * timed calls above, the same arguments: cuBLASLt's fused layer
 * (CUBLASLT_EPILOGUE_RELU_BIAS) in FP32 or BF16, planned the first time a
 * buffer pair is seen (the warm-up request). */
#define W18_YARD_RUNNER "judge-w18-yard-runner"

#endif
