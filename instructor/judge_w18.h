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

/* The CPU functions (host memory both processes map, a memfd):
 * W18_FN_MLP_LOAD:    p[0] a file's bytes, i64[1] their number (-1: a path
 *                     that does not exist); p[1] room for i64[2] floats.
 *                     The runner writes the bytes to a file of its own in
 *                     $TMPDIR, model_io_mlp_load on a model filled with 0x5A
 *                     bytes first; on success W[0], b[0], W[1], b[1], ...
 *                     copied to p[1] when they fit, then model_io_mlp_free.
 *                     out: w18_load_rep.
 * W18_FN_DIGITS_LOAD: the same for model_io_digits_load: x to p[1] (room
 *                     for i64[2] floats), the labels to p[2] (room for
 *                     i64[3] bytes), then model_io_digits_free.
 * W18_FN_PLAN_BYTES:  p[0] n_layers + 1 ints, i64[1] n_layers, i64[2]
 *                     batch: out: plan_mlp_bytes (a size_t). */
enum { W18_FN_MLP_LOAD = 31, W18_FN_DIGITS_LOAD, W18_FN_PLAN_BYTES };

#define W18_MAX_LAYERS 8 /* model_io.h's MLP_MAX_LAYERS */

/* The model on the device (device buffers):
 * W18_FN_FORWARD:    p[0] the parameters (w18_param_at), p[1] room for the
 *                    converted weights (w18_conv_at; NULL: none made), p[2]
 *                    x, p[3] logits, p[4] pred, p[5] the workspace; i64[1]
 *                    precision, i64[2] batch, i64[3] the workspace's bytes,
 *                    i64[4] n_layers, i64[5..7] the dims (w18_dims_pack).
 *                    With p[1]: each layer's FP16 weights made by
 *                    fp16_from_f32 and INT8 ones by int8_quantize_rows from
 *                    its FP32 weights, then the device synchronised (the
 *                    test's dev_model_make); then plan_mlp_forward on the
 *                    mlp_dev of those pointers. The status: the first error.
 * W18_FN_BF16_CHAIN: p[0] the parameters, p[1] room for the BF16 weights
 *                    (w18_conv_at's FP16 places), p[2] x, p[3] h (batch x
 *                    widest floats), p[4] a (batch x widest bfloat16), p[5]
 *                    logits; i64[2] batch, i64[4] n_layers, i64[5..7] the
 *                    dims: the test's run_held_out_bf16 (x to bfloat16, then
 *                    each layer's weights converted, bf16_linear into h or
 *                    the logits, h converted back into a). */
enum { W18_FN_FORWARD = 41, W18_FN_BF16_CHAIN };

/* 256-byte places, as separate cudaMallocs would give. */
static inline size_t w18_al(size_t v) { return (v + 255) & ~(size_t)255; }
/* Bytes into the parameters of layer l's W (part 0, dims[l+1] x dims[l]
 * floats) or b (part 1, dims[l+1] floats); l = n_layers: their total. */
static inline size_t w18_param_at(const int *dims, int l, int part)
{
    size_t o = 0;
    for (int j = 0; j < l; j++) o += w18_al((size_t)dims[j + 1] * dims[j] * 4) + w18_al((size_t)dims[j + 1] * 4);
    return part ? o + w18_al((size_t)dims[l + 1] * dims[l] * 4) : o;
}
/* Bytes into the converted weights of layer l's half (or bfloat16) bits
 * (part 0), INT8 weights (1: dims[l+1] x I8_LD(dims[l])) and scales (2);
 * l = n_layers: their total. */
static inline size_t w18_conv_at(const int *dims, int l, int part)
{
    size_t o = 0;
    for (int j = 0; j <= l; j++) {
        if (j == l && part == 0) break;
        const size_t in = (size_t)dims[j], out = (size_t)dims[j + 1], h = w18_al(out * in * 2);
        const size_t q = w18_al(out * ((in + 3) / 4 * 4));
        if (j == l) return o + h + (part == 2 ? q : 0);
        o += h + q + w18_al(out * 4);
    }
    return o;
}
/* The dims (up to 9, each below 2^16) in i64[5..7], four to a word. */
static inline void w18_dims_pack(long long *i64, const int *dims, int n_layers)
{
    i64[5] = i64[6] = i64[7] = 0;
    for (int l = 0; l <= n_layers; l++) i64[5 + l / 4] |= (long long)(dims[l] & 0xffff) << (16 * (l % 4));
}
static inline void w18_dims_unpack(const long long *i64, int *dims, int n_layers)
{
    for (int l = 0; l <= n_layers; l++) dims[l] = (int)(i64[5 + l / 4] >> (16 * (l % 4)) & 0xffff);
}

/* What the runner saw of a load. */
typedef struct {
    int rc;                       /* the loader's return */
    int err_set;                  /* err[0] != 0 after the call */
    int empty;                    /* the model or set left empty (every field model_io.h names zero / NULL) */
    int n_layers, dims[W18_MAX_LAYERS + 1]; /* the model's (W18_FN_MLP_LOAD) */
    int n, features;              /* the set's (W18_FN_DIGITS_LOAD) */
    int null_array;               /* rc 0 but a W[l], b[l], x or label NULL */
    int copied;                   /* the values went to p[1] (and p[2]) */
    int freed_empty;              /* the free left it empty */
    int io_failed;                /* the runner's own file work failed */
} w18_load_rep;

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
