/* test_week18.c — week 18's checkpoints: the loader, the model's stated
 * accuracy, the FP32, FP16, INT8 and BF16 layers and their tolerances
 * against FP32, the memory plan, samples per second against batch size, and
 * two wide layers against cuBLASLt (FP32, BF16 on the tensor cores). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_harness.h"
#include "wb_file.h"
#include "wb_f16.h"
#include "model_io.h"
#include "fp32.h"
#include "fp16.h"
#include "int8.h"
#include "plan.h"
#include "bf16.h"
#include "support/yard_bias_relu.h"
#include "support/yard_lt_layer.h"

/* ---------------------------------------------------------------- what this week states
 * The shipped model on the 2000 held-out digits (README, "The model"): the
 * FP32 model classifies HELD_OUT_CORRECT of them right; FP16 weights keep
 * every logit within FP16_LOGIT_TOL of FP32 and lose at most FP16_MAX_DROP
 * points of accuracy; INT8 within INT8_LOGIT_TOL and INT8_MAX_DROP points;
 * BF16 (inputs, weights and every activation rounded to bfloat16, FP32
 * sums) within BF16_LOGIT_TOL and BF16_MAX_DROP points. */
enum { HELD_OUT_N = 2000, HELD_OUT_CORRECT = 1906 };
static const int SHIPPED_DIMS[] = { 64, 128, 64, 10 };
#define FP16_LOGIT_TOL 0.02
#define FP16_MAX_DROP  0.10  /* points of accuracy (percent) */
#define INT8_LOGIT_TOL 0.60
#define INT8_MAX_DROP  0.50
#define BF16_LOGIT_TOL 0.20
#define BF16_MAX_DROP  0.25
/* The plan's peak for the shipped model: 2 buffers x 128 floats a sample. */
#define SHIPPED_PLAN_BYTES_PER_SAMPLE 1024u

/* ---------------------------------------------------------------- files */

static void data_path(char *out, size_t len, const char *name)
{
    const char *wk = getenv("WB_WEEK_DIR");
    snprintf(out, len, "%s/data/%s", wk && *wk ? wk : "phase4/week18", name);
}

/* Little-endian fields of a file image, the test's own reading and writing. */
static uint32_t le32_at(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void le32_put(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static float lef_at(const unsigned char *p)
{
    uint32_t u = le32_at(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void write_bytes(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s: %s", path, strerror(errno));
    ck_assert_msg(n == 0 || fwrite(b, 1, n, f) == n, "short write to %s", path);
    fclose(f);
}

/* A scratch folder for the files the loader test makes. */
static void scratch_dir(char *dir, size_t len)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, len, "%s/w18-XXXXXX", t && *t ? t : "/tmp");
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp %s: %s", dir, strerror(errno));
}

/* The image of a model file: header, then W and b of each layer, values from rng. */
static unsigned char *model_image(wb_rng *rng, int L, const int *dims, size_t *len)
{
    size_t params = 0;
    for (int l = 0; l < L; l++) params += (size_t)dims[l + 1] * (dims[l] + 1);
    size_t head = 16 + 4 * (size_t)(L + 1);
    *len = head + 4 * params;
    unsigned char *img = wb_hmalloc(*len);
    memcpy(img, "WB18MLP", 8);
    le32_put(img + 8, 1);
    le32_put(img + 12, (uint32_t)L);
    for (int l = 0; l <= L; l++) le32_put(img + 16 + 4 * l, (uint32_t)dims[l]);
    for (size_t i = 0; i < params; i++) {
        float v = (float)(wb_rng_unit(rng) * 2 - 1);
        uint32_t u;
        memcpy(&u, &v, 4);
        le32_put(img + head + 4 * i, u);
    }
    return img;
}

static unsigned char *digits_image(wb_rng *rng, int n, int rows, int cols, size_t *len)
{
    size_t f = (size_t)rows * cols;
    *len = 24 + (size_t)n * (f + 1);
    unsigned char *img = wb_hmalloc(*len);
    memcpy(img, "WB18DIG", 8);
    le32_put(img + 8, 1), le32_put(img + 12, (uint32_t)n), le32_put(img + 16, (uint32_t)rows);
    le32_put(img + 20, (uint32_t)cols);
    for (size_t i = 0; i < (size_t)n * f; i++) img[24 + i] = (unsigned char)wb_rng_int(rng, 0, 255);
    for (int i = 0; i < n; i++) img[24 + (size_t)n * f + i] = (unsigned char)wb_rng_int(rng, 0, 9);
    return img;
}

/* The model in img must be exactly what model_io_mlp_load gave. */
static void expect_model_equals(const mlp_model *m, const unsigned char *img, const char *what)
{
    int L = (int)le32_at(img + 12);
    ck_assert_msg(m->n_layers == L, "%s: n_layers %d, the file has %d", what, m->n_layers, L);
    for (int l = 0; l <= L; l++)
        ck_assert_msg(m->dims[l] == (int)le32_at(img + 16 + 4 * l), "%s: dims[%d] = %d, the file has %u", what, l,
                      m->dims[l], le32_at(img + 16 + 4 * l));
    const unsigned char *p = img + 16 + 4 * (L + 1);
    for (int l = 0; l < L; l++) {
        ck_assert_msg(m->W[l] && m->b[l], "%s: W[%d] or b[%d] is NULL", what, l, l);
        size_t nw = (size_t)m->dims[l + 1] * m->dims[l], bad = 0;
        for (size_t i = 0; i < nw; i++, p += 4) bad += m->W[l][i] != lef_at(p);
        for (int i = 0; i < m->dims[l + 1]; i++, p += 4) bad += m->b[l][i] != lef_at(p);
        if (bad) ck_abort_msg("%s: %zu weights or biases of layer %d differ from the file", what, bad, l);
    }
}

static void expect_refused_model(const char *path, const char *what)
{
    mlp_model m;
    memset(&m, 0x5A, sizeof m);
    char err[256] = "";
    int rc = model_io_mlp_load(path, &m, err, sizeof err);
    if (rc == 0) model_io_mlp_free(&m);
    ck_assert_msg(rc != 0, "model_io_mlp_load accepted %s (%s): it must return -1", path, what);
    ck_assert_msg(err[0] != 0, "model_io_mlp_load refused %s (%s) but wrote no reason into err", path, what);
    ck_assert_msg(m.n_layers == 0 && m.storage == NULL && m.W[0] == NULL && m.b[0] == NULL,
                  "model_io_mlp_load refused %s (%s) but left the model non-empty (n_layers %d)", path, what,
                  m.n_layers);
}

static void expect_refused_digits(const char *path, const char *what)
{
    digits_set d;
    memset(&d, 0x5A, sizeof d);
    char err[256] = "";
    int rc = model_io_digits_load(path, &d, err, sizeof err);
    if (rc == 0) model_io_digits_free(&d);
    ck_assert_msg(rc != 0, "model_io_digits_load accepted %s (%s): it must return -1", path, what);
    ck_assert_msg(err[0] != 0, "model_io_digits_load refused %s (%s) but wrote no reason into err", path, what);
    ck_assert_msg(d.n == 0 && d.x == NULL && d.label == NULL,
                  "model_io_digits_load refused %s (%s) but left the set non-empty", path, what);
}

/* ---------------------------------------------------------------- w18.load (CPU) */

START_TEST(load_shipped)
{
    char path[512], err[256] = "";
    data_path(path, sizeof path, "mlp_digits.bin");
    size_t len = 0;
    unsigned char *img = (unsigned char *)wb_read_file(path, &len);
    ck_assert_msg(img != NULL, "cannot read %s (run from the workbook's top folder)", path);
    mlp_model m;
    ck_assert_msg(model_io_mlp_load(path, &m, err, sizeof err) == 0, "model_io_mlp_load(%s): %s", path, err);
    ck_assert_int_eq(m.n_layers, 3);
    for (int l = 0; l < 4; l++) ck_assert_int_eq(m.dims[l], SHIPPED_DIMS[l]);
    expect_model_equals(&m, img, path);
    model_io_mlp_free(&m);
    ck_assert_msg(m.storage == NULL && m.n_layers == 0, "model_io_mlp_free must leave the model empty");
    free(img);

    data_path(path, sizeof path, "digits_test.bin");
    img = (unsigned char *)wb_read_file(path, &len);
    ck_assert_msg(img != NULL, "cannot read %s", path);
    digits_set d;
    ck_assert_msg(model_io_digits_load(path, &d, err, sizeof err) == 0, "model_io_digits_load(%s): %s", path, err);
    ck_assert_int_eq(d.n, HELD_OUT_N);
    ck_assert_int_eq(d.features, 64);
    size_t bad = 0;
    for (size_t i = 0; i < (size_t)d.n * 64; i++) bad += d.x[i] != img[24 + i] / 255.0f;
    for (int i = 0; i < d.n; i++) bad += d.label[i] != img[24 + (size_t)d.n * 64 + i];
    if (bad) ck_abort_msg("%s: %zu pixels or labels differ from the file (x = byte / 255.0f)", path, bad);
    model_io_digits_free(&d);
    free(img);
}
END_TEST

/* A random valid model of 1-4 layers loads exactly; each damaged copy is refused. */
enum { BAD_MODELS = 12, BAD_DIGITS = 8 };
START_TEST(load_checks)
{
    wb_rng rng = WB_RNG();
    char dir[300], path[400];
    scratch_dir(dir, sizeof dir);
    int L = (int)wb_rng_int(&rng, 1, 4), dims[5];
    for (int l = 0; l <= L; l++) dims[l] = (int)wb_rng_int(&rng, 1, 40);
    size_t len;
    unsigned char *img = model_image(&rng, L, dims, &len);
    size_t head = 16 + 4 * (size_t)(L + 1);

    snprintf(path, sizeof path, "%s/good.bin", dir);
    write_bytes(path, img, len);
    mlp_model m;
    char err[256] = "";
    ck_assert_msg(model_io_mlp_load(path, &m, err, sizeof err) == 0, "model_io_mlp_load of a valid %d-layer model: %s",
                  L, err);
    expect_model_equals(&m, img, "a valid random model");
    model_io_mlp_free(&m);

    for (int c = 0; c < BAD_MODELS; c++) {
        unsigned char *b = wb_hmalloc(len + 128); /* room for the last case */
        memcpy(b, img, len);
        size_t n = len;
        const char *what = "";
        float nan = NAN, inf = INFINITY;
        switch (c) {
        case 0: b[3] ^= 0x20, what = "wrong magic"; break;
        case 1: le32_put(b + 8, 2), what = "version 2"; break;
        case 2: le32_put(b + 12, 0), what = "0 layers"; break;
        case 3: le32_put(b + 12, MLP_MAX_LAYERS + 1), what = "too many layers"; break;
        case 4: le32_put(b + 16 + 4 * (size_t)wb_rng_int(&rng, 0, L), 0), what = "a dimension of 0"; break;
        case 5: le32_put(b + 16, MLP_MAX_DIM + 1), what = "a dimension past MLP_MAX_DIM"; break;
        case 6: n = len - 1, what = "one byte short"; break;
        case 7: b[len] = 0, n = len + 1, what = "one byte too many"; break;
        case 8: memcpy(b + head + 4 * (size_t)wb_rng_int(&rng, 0, (int64_t)(len - head) / 4 - 1), &nan, 4),
                what = "a NaN weight"; break;
        case 9: memcpy(b + len - 4, &inf, 4), what = "an infinite bias"; break;
        case 10: n = 0, what = "an empty file"; break;
        default: /* dims in range whose size (134 MB) the small file does not have */
            le32_put(b + 12, 2), le32_put(b + 16, 4096), le32_put(b + 20, 4096), le32_put(b + 24, 4096);
            n = 28 + 4 * 16, what = "huge dimensions in a small file";
            break;
        }
        snprintf(path, sizeof path, "%s/bad%d.bin", dir, c);
        write_bytes(path, b, n);
        expect_refused_model(path, what);
        unlink(path);
        free(b);
    }
    snprintf(path, sizeof path, "%s/no-such-file.bin", dir);
    expect_refused_model(path, "a file that does not exist");

    int nd = (int)wb_rng_int(&rng, 1, 50), rows = (int)wb_rng_int(&rng, 1, 9), cols = (int)wb_rng_int(&rng, 1, 9);
    size_t dlen;
    unsigned char *dimg = digits_image(&rng, nd, rows, cols, &dlen);
    snprintf(path, sizeof path, "%s/digits.bin", dir);
    write_bytes(path, dimg, dlen);
    digits_set d;
    ck_assert_msg(model_io_digits_load(path, &d, err, sizeof err) == 0,
                  "model_io_digits_load of %d valid %d x %d samples: %s", nd, rows, cols, err);
    ck_assert_msg(d.n == nd && d.features == rows * cols,
                  "model_io_digits_load: n %d features %d, the file has %d and %d", d.n, d.features, nd, rows * cols);
    size_t bad = 0;
    for (size_t i = 0; i < (size_t)nd * rows * cols; i++) bad += d.x[i] != dimg[24 + i] / 255.0f;
    for (int i = 0; i < nd; i++) bad += d.label[i] != dimg[dlen - nd + i];
    ck_assert_msg(bad == 0, "model_io_digits_load: %zu pixels or labels differ from the file", bad);
    model_io_digits_free(&d);
    for (int c = 0; c < BAD_DIGITS; c++) {
        /* the last case: n = 2^20 images of 64 x 64 claim 24 + 2^20 x 4097 bytes, which is 24 + 2^20
         * modulo 2^32; the file has exactly 24 + 2^20, all zero after the header (labels that pass) */
        size_t wrap = 24 + ((size_t)1 << 20);
        unsigned char *b = wb_hmalloc((dlen > wrap ? dlen : wrap) + 1);
        memcpy(b, dimg, dlen);
        size_t n = dlen;
        const char *what = "";
        switch (c) {
        case 0: b[0] = 'X', what = "wrong magic"; break;
        case 1: le32_put(b + 8, 7), what = "version 7"; break;
        case 2: le32_put(b + 12, 0), what = "n = 0"; break;
        case 3: le32_put(b + 16, 65), what = "65 rows"; break;
        case 4: n = dlen - 1, what = "one byte short"; break;
        case 5: b[dlen] = 0, n = dlen + 1, what = "one byte too many"; break;
        case 6: b[dlen - 1 - (size_t)wb_rng_int(&rng, 0, nd - 1)] = 10, what = "a label of 10"; break;
        default: /* the size check must be 64-bit: in 32 bits this size matches */
            memset(b + 24, 0, wrap - 24);
            le32_put(b + 12, 1u << 20), le32_put(b + 16, 64), le32_put(b + 20, 64);
            n = wrap, what = "2^20 images of 64 x 64 in a 1 MiB file (a size that wraps in 32 bits)";
            break;
        }
        snprintf(path, sizeof path, "%s/baddigits%d.bin", dir, c);
        write_bytes(path, b, n);
        expect_refused_digits(path, what);
        unlink(path);
        free(b);
    }
    snprintf(path, sizeof path, "%s/good.bin", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/digits.bin", dir);
    unlink(path);
    rmdir(dir);
    free(img), free(dimg);
}
END_TEST

/* ---------------------------------------------------------------- CPU references */

/* int8.h's quantiser on the host: q[0..n), returns the scale. */
static float quant_ref(const float *v, int n, int8_t *q)
{
    float big = 0;
    for (int k = 0; k < n; k++) big = fabsf(v[k]) > big ? fabsf(v[k]) : big;
    if (big == 0) {
        memset(q, 0, (size_t)n);
        return 0;
    }
    float mul = 127.0f / big;
    for (int k = 0; k < n; k++) {
        float t = rintf(v[k] * mul);
        q[k] = (int8_t)(t > 127 ? 127 : t < -127 ? -127 : t);
    }
    return big / 127.0f;
}

/* One layer on the CPU in double: y = act(x W^T + b); W as floats (FP32 and
 * FP16 after rounding the weights) */
static void layer_ref(const float *x, const float *W, const float *b, double *y, int batch, int in, int out, int relu)
{
    for (int r = 0; r < batch; r++)
        for (int o = 0; o < out; o++) {
            double s = 0;
            const float *xr = x + (size_t)r * in, *wo = W + (size_t)o * in;
            for (int k = 0; k < in; k++) s += (double)xr[k] * wo[k];
            s += b[o];
            y[(size_t)r * out + o] = relu && s < 0 ? 0 : s;
        }
}

/* The INT8 layer on the CPU, int8.h's definition step by step. */
static void layer_ref_i8(const float *x, const int8_t *qw, const float *sw, const float *b, float *y, int batch,
                         int in, int out, int relu)
{
    int ld = I8_LD(in);
    int8_t *qx = wb_hmalloc((size_t)in);
    for (int r = 0; r < batch; r++) {
        float sx = quant_ref(x + (size_t)r * in, in, qx);
        for (int o = 0; o < out; o++) {
            int32_t acc = 0;
            for (int k = 0; k < in; k++) acc += (int32_t)qx[k] * qw[(size_t)o * ld + k];
            float s = sx * sw[o];
            float v = (float)acc * s;
            v = v + b[o];
            y[(size_t)r * out + o] = relu && v < 0 ? 0 : v;
        }
    }
    free(qx);
}

static void round_weights_f16(const float *W, float *Wh, size_t n)
{
    for (size_t i = 0; i < n; i++) Wh[i] = wb_f16_to_f32(wb_f32_to_f16(W[i]));
}

static void quantize_weights_ref(const float *W, int rows, int cols, int8_t *q, float *s)
{
    int ld = I8_LD(cols);
    memset(q, 0, (size_t)rows * ld);
    for (int o = 0; o < rows; o++) s[o] = quant_ref(W + (size_t)o * cols, cols, q + (size_t)o * ld);
}

/* The test's own name for the BF16 path (plan.h's precisions are 0..2). */
enum { PREC_BF16 = 3 };

static void round_bf16(const float *v, float *r, size_t n)
{
    for (size_t i = 0; i < n; i++) r[i] = wb_bf16_to_f32(wb_f32_to_bf16(v[i]));
}

/* The whole model on the CPU in a precision: logits (n x classes) as floats,
 * each layer's output kept in float as the device keeps it. PREC_BF16 rounds
 * each layer's input (x, then every hidden activation) and weights to
 * bfloat16, as bf16_from_f32 does before each bf16_linear. */
static void model_ref(const mlp_model *m, int prec, const float *x, int n, float *logits)
{
    int L = m->n_layers, widest = 1;
    for (int l = 0; l <= L; l++) widest = m->dims[l] > widest ? m->dims[l] : widest;
    float *a = wb_hmalloc((size_t)n * widest * 4), *c = wb_hmalloc((size_t)n * widest * 4);
    double *y = wb_hmalloc((size_t)n * widest * 8);
    memcpy(a, x, (size_t)n * m->dims[0] * 4);
    for (int l = 0; l < L; l++) {
        int in = m->dims[l], out = m->dims[l + 1], relu = l < L - 1;
        size_t nw = (size_t)out * in;
        if (prec == MLP_INT8) {
            int8_t *q = wb_hmalloc((size_t)out * I8_LD(in));
            float *s = wb_hmalloc((size_t)out * 4);
            quantize_weights_ref(m->W[l], out, in, q, s);
            layer_ref_i8(a, q, s, m->b[l], c, n, in, out, relu);
            free(q), free(s);
        } else {
            float *W = m->W[l], *Wh = NULL;
            if (prec == MLP_FP16) round_weights_f16(m->W[l], W = Wh = wb_hmalloc(nw * 4), nw);
            if (prec == PREC_BF16) {
                round_bf16(m->W[l], W = Wh = wb_hmalloc(nw * 4), nw);
                round_bf16(a, a, (size_t)n * in);
            }
            layer_ref(a, W, m->b[l], y, n, in, out, relu);
            for (size_t i = 0; i < (size_t)n * out; i++) c[i] = (float)y[i];
            free(Wh);
        }
        float *t = a;
        a = c, c = t;
    }
    memcpy(logits, a, (size_t)n * m->dims[L] * 4);
    free(a), free(c), free(y);
}

static int argmax_row(const float *v, int n)
{
    int best = 0;
    for (int c = 1; c < n; c++)
        if (v[c] > v[best]) best = c;
    return best;
}

/* ---------------------------------------------------------------- w18.model (CPU) */

static int count_correct(const float *logits, const uint8_t *label, int n)
{
    int ok = 0;
    for (int i = 0; i < n; i++) ok += argmax_row(logits + (size_t)i * 10, 10) == label[i];
    return ok;
}

static double max_abs_diff(const float *a, const float *b, size_t n)
{
    double d = 0;
    for (size_t i = 0; i < n; i++) d = fabs((double)a[i] - b[i]) > d ? fabs((double)a[i] - b[i]) : d;
    return d;
}

/* Loads the shipped files with your loaders (and fails the test when they cannot). */
static void load_shipped(mlp_model *m, digits_set *d)
{
    char path[512], err[256] = "";
    data_path(path, sizeof path, "mlp_digits.bin");
    ck_assert_msg(model_io_mlp_load(path, m, err, sizeof err) == 0, "model_io_mlp_load(%s): %s", path, err);
    data_path(path, sizeof path, "digits_test.bin");
    ck_assert_msg(model_io_digits_load(path, d, err, sizeof err) == 0, "model_io_digits_load(%s): %s", path, err);
    ck_assert_msg(m->n_layers == 3 && m->dims[0] == d->features && m->dims[3] == 10,
                  "the shipped model and held-out set do not fit together (n_layers %d, inputs %d, features %d)",
                  m->n_layers, m->dims[0], d->features);
}

/* The stated figures, on the CPU: FP32 accuracy, and the FP16 and INT8
 * emulations within their stated tolerances. */
START_TEST(model_accuracy_cpu)
{
    mlp_model m;
    digits_set d;
    load_shipped(&m, &d);
    float *l32 = wb_hmalloc((size_t)d.n * 40), *lq = wb_hmalloc((size_t)d.n * 40);
    model_ref(&m, MLP_FP32, d.x, d.n, l32);
    int ok32 = count_correct(l32, d.label, d.n);
    printf("  CPU FP32: %d of %d held-out digits right (%.2f %%)\n", ok32, d.n, 100.0 * ok32 / d.n);
    ck_assert_msg(ok32 == HELD_OUT_CORRECT, "the FP32 model gets %d of %d right on the CPU; the week states %d", ok32,
                  d.n, HELD_OUT_CORRECT);
    const struct { int prec; const char *name; double tol, drop; } P[] = {
        { MLP_FP16, "FP16", FP16_LOGIT_TOL, FP16_MAX_DROP },
        { MLP_INT8, "INT8", INT8_LOGIT_TOL, INT8_MAX_DROP },
        { PREC_BF16, "BF16", BF16_LOGIT_TOL, BF16_MAX_DROP },
    };
    for (int p = 0; p < (int)WB_COUNT(P); p++) {
        model_ref(&m, P[p].prec, d.x, d.n, lq);
        double diff = max_abs_diff(lq, l32, (size_t)d.n * 10);
        int ok = count_correct(lq, d.label, d.n);
        double drop = 100.0 * (ok32 - ok) / d.n;
        printf("  CPU %s emulation: max |logit - FP32| %.4f (stated <= %.2f), %d right (%.2f %%, drop %.2f points, "
               "stated <= %.2f)\n", P[p].name, diff, P[p].tol, ok, 100.0 * ok / d.n, drop, P[p].drop);
        ck_assert_msg(diff <= P[p].tol && drop <= P[p].drop, "%s on the CPU: max diff %.4f, drop %.2f points: "
                      "outside the stated tolerance", P[p].name, diff, drop);
    }
    char fig[128];
    snprintf(fig, sizeof fig, "FP32 %d of %d right (%.2f %%) on the CPU", ok32, d.n, 100.0 * ok32 / d.n);
    wb_report(fig);
    free(l32), free(lq);
    model_io_mlp_free(&m), model_io_digits_free(&d);
}
END_TEST

/* ---------------------------------------------------------------- layer shapes */

typedef struct { int batch, in, out, relu; } layer_shape;
static const layer_shape SHAPES[] = {
    { 0, 64, 128, 1 },  { 1, 1, 1, 0 },     { 1, 64, 10, 0 },    { 3, 5, 7, 1 },      { 31, 33, 65, 1 },
    { 64, 64, 64, 1 },  { 65, 128, 64, 1 }, { 257, 100, 130, 0 }, { 1000, 128, 10, 0 }, { 4097, 64, 128, 1 },
    { 5, 300, 3, 1 },   { 70001, 128, 64, 1 },
};

typedef struct {
    int batch, in, out, relu;
    float *hx, *hW, *hb;   /* host */
    float *dx, *dW, *db;   /* device */
} layer_case;

static void layer_case_make(wb_rng *rng, layer_shape s, layer_case *c)
{
    c->batch = s.batch, c->in = s.in, c->out = s.out, c->relu = s.relu;
    size_t nx = (size_t)s.batch * s.in, nw = (size_t)s.out * s.in;
    c->hx = wb_hmalloc(nx * 4 + 4), c->hW = wb_hmalloc(nw * 4), c->hb = wb_hmalloc((size_t)s.out * 4);
    wb_fill_uniform_f32(rng, c->hx, nx, -1, 1);
    wb_fill_uniform_f32(rng, c->hW, nw, -0.5f, 0.5f);
    wb_fill_uniform_f32(rng, c->hb, (size_t)s.out, -1, 1);
    c->dx = wb_dcopy(c->hx, nx * 4), c->dW = wb_dcopy(c->hW, nw * 4), c->db = wb_dcopy(c->hb, (size_t)s.out * 4);
}

static void layer_case_free(layer_case *c)
{
    wb_dfree(c->dx), wb_dfree(c->dW), wb_dfree(c->db);
    free(c->hx), free(c->hW), free(c->hb);
}

static void describe(char *what, size_t len, const char *fn, const layer_case *c)
{
    snprintf(what, len, "%s batch=%d in=%d out=%d relu=%d", fn, c->batch, c->in, c->out, c->relu);
}

/* FP32 against the double reference (sums of up to 300 products of
 * |x| <= 1, |w| <= 0.5). */
static void check_linear_f32(layer_case *c)
{
    size_t ny = (size_t)c->batch * c->out;
    double *ref = wb_hmalloc(ny * 8 + 8);
    layer_ref(c->hx, c->hW, c->hb, ref, c->batch, c->in, c->out, c->relu);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", ny * 4, 0);
    WB_CUDA(fp32_linear(c->dx, c->dW, c->db, dy, c->batch, c->in, c->out, c->relu));
    char what[128];
    describe(what, sizeof what, "fp32_linear", c);
    wb_expect_dout_f32_f64(&y, ref, ny, 1e-4, 1e-4, what);
    wb_dout_free(&y);
    free(ref);
}

START_TEST(fp32_shapes)
{
    wb_rng rng = WB_RNG();
    layer_case c;
    layer_case_make(&rng, SHAPES[_i], &c);
    check_linear_f32(&c);
    layer_case_free(&c);
}
END_TEST

/* NaN and +-Inf in the input propagate as the arithmetic says: a NaN row is
 * all NaN (ReLU keeps it), an Inf gives +-Inf or NaN. */
START_TEST(fp32_nan_inf)
{
    wb_rng rng = WB_RNG();
    layer_shape s = { 37, 70, 50, (int)(_i & 1) };
    layer_case c;
    layer_case_make(&rng, s, &c);
    c.hx[3 * 70 + 5] = NAN, c.hx[10 * 70] = INFINITY, c.hx[11 * 70 + 2] = -INFINITY;
    c.hx[36 * 70 + 69] = NAN;
    wb_h2d(c.dx, c.hx, (size_t)s.batch * s.in * 4);
    check_linear_f32(&c);
    layer_case_free(&c);
}
END_TEST

/* fp32_softmax_argmax: random logits; some rows with NaN, -Inf, a repeated
 * maximum (the first wins) or values near +-1e4 (max subtraction). */
static const int SOFTMAX_SHAPES[][2] = { { 0, 10 }, { 1, 1 }, { 1, 10 }, { 7, 3 }, { 33, 10 }, { 100, 31 },
                                         { 9, 32 }, { 77, 33 }, { 5, 1000 }, { 65537, 10 } };

START_TEST(softmax_rows)
{
    wb_rng rng = WB_RNG();
    int batch = SOFTMAX_SHAPES[_i][0], classes = SOFTMAX_SHAPES[_i][1];
    size_t n = (size_t)batch * classes;
    float *hl = wb_hmalloc(n * 4 + 4);
    wb_fill_uniform_f32(&rng, hl, n, -8, 8);
    for (int r = 0; r < batch && r < 64; r++) {
        float *row = hl + (size_t)r * classes;
        int c = (int)wb_rng_int(&rng, 0, classes - 1);
        switch (r % 8) {
        case 1: row[c] = NAN; break;
        case 2: if (classes > 1) row[c] = -INFINITY; break;
        case 3: if (classes > 2) row[classes - 1] = row[c] = 9.5f; break; /* the maximum twice */
        case 4: for (int k = 0; k < classes; k++) row[k] += (r & 16) ? 1e4f : -1e4f; break;
        default: break;
        }
    }
    double *rp = wb_hmalloc(n * 8 + 8);
    uint32_t *rk = wb_hmalloc((size_t)batch * 4 + 4);
    for (int r = 0; r < batch; r++) {
        const float *row = hl + (size_t)r * classes;
        int has_nan = 0, best = 0;
        for (int k = 0; k < classes; k++) has_nan |= isnan(row[k]);
        for (int k = 1; k < classes; k++) best = row[k] > row[best] ? k : best;
        double z = 0;
        for (int k = 0; k < classes; k++) z += exp((double)row[k] - row[best]);
        for (int k = 0; k < classes; k++) rp[(size_t)r * classes + k] = has_nan ? NAN : exp((double)row[k] - row[best]) / z;
        rk[r] = has_nan ? (uint32_t)-1 : (uint32_t)best;
    }
    float *dl = wb_dcopy(hl, n * 4);
    wb_dout p, k;
    float *dp = wb_dout_alloc(&p, "probs", n * 4, 0);
    int *dk = wb_dout_alloc(&k, "pred", (size_t)batch * 4, 0);
    /* pred's poison would read as -1, a valid answer: fill it with 0x7f7f7f7f (guards stay poisoned) */
    if (batch) WB_CUDA(cudaMemset(dk, 0x7f, (size_t)batch * 4));
    WB_CUDA(fp32_softmax_argmax(dl, dp, dk, batch, classes));
    char what[96];
    snprintf(what, sizeof what, "fp32_softmax_argmax batch=%d classes=%d", batch, classes);
    wb_expect_dout_f32_f64(&p, rp, n, 1e-6, 1e-5, what);
    wb_expect_dout_u32(&k, rk, (size_t)batch, what);
    /* probs == NULL: pred alone */
    wb_dout_poison(&k);
    if (batch) WB_CUDA(cudaMemset(dk, 0x7f, (size_t)batch * 4));
    WB_CUDA(fp32_softmax_argmax(dl, NULL, dk, batch, classes));
    snprintf(what, sizeof what, "fp32_softmax_argmax probs=NULL batch=%d classes=%d", batch, classes);
    wb_expect_dout_u32(&k, rk, (size_t)batch, what);
    wb_dfree(dl), wb_dout_free(&p), wb_dout_free(&k);
    free(hl), free(rp), free(rk);
}
END_TEST

START_TEST(bad_sizes)
{
    float *d = wb_dmalloc(256);
    ck_assert_msg(fp32_linear(d, d, d, d, -1, 4, 4, 0) != cudaSuccess, "fp32_linear must refuse batch < 0");
    ck_assert_msg(fp32_linear(d, d, d, d, 4, 0, 4, 0) != cudaSuccess, "fp32_linear must refuse in == 0");
    ck_assert_msg(fp32_linear(d, d, d, d, 4, 4, 0, 0) != cudaSuccess, "fp32_linear must refuse out == 0");
    ck_assert_msg(fp32_softmax_argmax(d, d, (int *)d, 4, 0) != cudaSuccess,
                  "fp32_softmax_argmax must refuse classes == 0");
    cudaGetLastError();
    wb_dfree(d);
}
END_TEST

/* ---------------------------------------------------------------- w18.fp16 */

/* A device conversion of n floats h to a 16-bit format (fp16_from_f32,
 * bf16_from_f32) against the host's (ref), bit for bit; a NaN may come out
 * as any NaN of the format (exponent bits exp all set, a mantissa bit set).
 * The output is guarded and poisoned before the call. */
static void expect_conversion(const char *name, cudaError_t (*conv)(const float *, uint16_t *, size_t),
                              uint16_t (*ref)(float), uint16_t exp, const float *h, size_t n)
{
    const uint16_t man = (uint16_t)(exp - 1) & (uint16_t)~exp & 0x7fffu; /* the bits below the exponent */
    uint16_t *want = wb_hmalloc(n * 2 + 2);
    for (size_t i = 0; i < n; i++) want[i] = ref(h[i]);
    float *d = wb_dcopy(h, n * 4);
    wb_dout o;
    uint16_t *dout = wb_dout_alloc(&o, name, n * 2, 0);
    WB_CUDA(conv(d, dout, n));
    uint16_t *got = wb_hmalloc(n * 2 + 2);
    char what[64];
    snprintf(what, sizeof what, "%s n=%zu", name, n);
    wb_expect_dout_guards(&o, got, what);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        int ok = isnan(h[i]) ? ((got[i] & exp) == exp && (got[i] & man) != 0) : got[i] == want[i];
        if (!ok && bad++ == 0) first = i;
    }
    if (bad)
        ck_abort_msg("%s: %zu of %zu wrong; [%zu] = %.9g (%a) gave 0x%04x, expected 0x%04x", what, bad, n, first,
                     (double)h[first], (double)h[first], got[first], (unsigned)want[first]);
    wb_dfree(d), wb_dout_free(&o);
    free(want), free(got);
}

/* Every kind of float: normal, subnormal in half, below half's range, the
 * rounding boundaries near 65504, ties, Inf, NaN. */
START_TEST(f16_convert)
{
    wb_rng rng = WB_RNG();
    static const size_t N[] = { 0, 1, 1000, 1 << 20 };
    size_t n = N[_i];
    float *h = wb_hmalloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++) {
        uint32_t u = (uint32_t)wb_rng_u64(&rng);
        float f;
        switch (i % 4) {
        case 0: memcpy(&f, &u, 4); break;                                                /* any bit pattern */
        case 1: f = (float)((wb_rng_unit(&rng) * 2 - 1) * 70000); break;                 /* around half's range */
        case 2: f = (float)((wb_rng_unit(&rng) * 2 - 1) * 1e-4); break;                  /* subnormal halves */
        default: f = wb_f16_to_f32((uint16_t)(u & 0x7bff)) + (u >> 31 ? 1 : -1) * ldexpf(1, -25); break; /* near ties */
        }
        h[i] = f;
    }
    static const float SPECIAL[] = { 0.f, -0.f, 65504.f, 65519.f, 65520.f, 1e9f, INFINITY, -INFINITY, NAN,
                                     0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1p-26f, 1.00048828125f, 1.00146484375f, 6e-8f };
    for (size_t i = 0; i < WB_COUNT(SPECIAL) && i < n; i++) h[i] = SPECIAL[i];
    expect_conversion("fp16_from_f32", fp16_from_f32, wb_f32_to_f16, 0x7c00, h, n);
    free(h);
}
END_TEST

START_TEST(fp16_shapes)
{
    wb_rng rng = WB_RNG();
    layer_case c;
    layer_case_make(&rng, SHAPES[_i], &c);
    size_t nw = (size_t)c.out * c.in, ny = (size_t)c.batch * c.out;
    uint16_t *hh = wb_hmalloc(nw * 2);
    float *wr = wb_hmalloc(nw * 4);
    for (size_t i = 0; i < nw; i++) hh[i] = wb_f32_to_f16(c.hW[i]), wr[i] = wb_f16_to_f32(hh[i]);
    uint16_t *dh = wb_dcopy(hh, nw * 2);
    double *ref = wb_hmalloc(ny * 8 + 8);
    layer_ref(c.hx, wr, c.hb, ref, c.batch, c.in, c.out, c.relu);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", ny * 4, 0);
    WB_CUDA(fp16_linear(c.dx, dh, c.db, dy, c.batch, c.in, c.out, c.relu));
    char what[128];
    describe(what, sizeof what, "fp16_linear", &c);
    wb_expect_dout_f32_f64(&y, ref, ny, 1e-4, 1e-4, what);
    wb_dout_free(&y), wb_dfree(dh);
    free(hh), free(wr), free(ref);
    layer_case_free(&c);
}
END_TEST

/* ---------------------------------------------------------------- w18.int8 */

static const int QROWS[][2] = { { 0, 5 }, { 1, 1 }, { 3, 7 }, { 10, 64 }, { 64, 128 }, { 129, 33 }, { 1000, 300 } };

START_TEST(i8_quantize)
{
    wb_rng rng = WB_RNG();
    int rows = QROWS[_i][0], cols = QROWS[_i][1], ld = I8_LD(cols);
    size_t nw = (size_t)rows * cols;
    float *hw = wb_hmalloc(nw * 4 + 4);
    wb_fill_uniform_f32(&rng, hw, nw, -2, 2);
    if (rows > 2) memset(hw + (size_t)2 * cols, 0, (size_t)cols * 4); /* a row of zeros: scale 0, q 0 */
    if (rows > 1) hw[cols + (int)wb_rng_int(&rng, 0, cols - 1)] = 9.f;   /* one large weight in row 1 */
    int8_t *rq = wb_hmalloc((size_t)rows * ld + 4);
    float *rs = wb_hmalloc((size_t)rows * 4 + 4);
    quantize_weights_ref(hw, rows, cols, rq, rs);
    float *dw = wb_dcopy(hw, nw * 4);
    wb_dout q, s;
    int8_t *dq = wb_dout_alloc(&q, "q", (size_t)rows * ld, 0);
    float *ds = wb_dout_alloc(&s, "scale", (size_t)rows * 4, 0);
    WB_CUDA(int8_quantize_rows(dw, rows, cols, dq, ds));
    char what[96];
    snprintf(what, sizeof what, "int8_quantize_rows rows=%d cols=%d", rows, cols);
    wb_expect_dout_f32(&s, rs, (size_t)rows, 0, 0, what);
    int8_t *gq = wb_hmalloc((size_t)rows * ld + 4);
    wb_expect_dout_guards(&q, gq, what);
    for (size_t i = 0; i < (size_t)rows * ld; i++)
        if (gq[i] != rq[i])
            ck_abort_msg("%s: q[%zu][%zu] = %d, expected %d (w = %.9g, padding columns are 0)", what, i / ld, i % ld,
                         gq[i], rq[i], (i % ld) < (size_t)cols ? (double)hw[(i / ld) * cols + i % ld] : 0.0);
    wb_dfree(dw), wb_dout_free(&q), wb_dout_free(&s);
    free(hw), free(rq), free(rs), free(gq);
}
END_TEST

START_TEST(i8_shapes)
{
    wb_rng rng = WB_RNG();
    layer_case c;
    layer_case_make(&rng, SHAPES[_i], &c);
    if (c.batch > 4) memset(c.hx + (size_t)4 * c.in, 0, (size_t)c.in * 4); /* a row of zeros: y = act(b) */
    wb_h2d(c.dx, c.hx, (size_t)c.batch * c.in * 4);
    int ld = I8_LD(c.in);
    size_t ny = (size_t)c.batch * c.out;
    int8_t *hq = wb_hmalloc((size_t)c.out * ld);
    float *hs = wb_hmalloc((size_t)c.out * 4), *ref = wb_hmalloc(ny * 4 + 4);
    quantize_weights_ref(c.hW, c.out, c.in, hq, hs);
    layer_ref_i8(c.hx, hq, hs, c.hb, ref, c.batch, c.in, c.out, c.relu);
    int8_t *dq = wb_dcopy(hq, (size_t)c.out * ld);
    float *dsw = wb_dcopy(hs, (size_t)c.out * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", ny * 4, 0);
    WB_CUDA(int8_linear(c.dx, dq, dsw, c.db, dy, c.batch, c.in, c.out, c.relu));
    char what[128];
    describe(what, sizeof what, "int8_linear", &c);
    /* the int32 sums are exact; only the last multiply-add may round differently (a fused FMA) */
    wb_expect_dout_f32(&y, ref, ny, 1e-5, 1e-5, what);
    wb_dout_free(&y), wb_dfree(dq), wb_dfree(dsw);
    free(hq), free(hs), free(ref);
    layer_case_free(&c);
}
END_TEST

/* ---------------------------------------------------------------- the model on the device */

typedef struct {
    mlp_dev dev;
    void   *owned[4 * MLP_MAX_LAYERS + 1];
    int     n_owned;
} dev_model;

/* Upload a model in every precision; FP16 and INT8 weights are made on the
 * device by your fp16_from_f32 and int8_quantize_rows (when `convert`). */
static void dev_model_make(const mlp_model *m, dev_model *g, int convert)
{
    memset(g, 0, sizeof *g);
    g->dev.n_layers = m->n_layers;
    memcpy(g->dev.dims, m->dims, sizeof m->dims);
    for (int l = 0; l < m->n_layers; l++) {
        int in = m->dims[l], out = m->dims[l + 1];
        size_t nw = (size_t)out * in;
        float *W = wb_dcopy(m->W[l], nw * 4), *b = wb_dcopy(m->b[l], (size_t)out * 4);
        g->dev.W32[l] = W, g->dev.b[l] = b;
        g->owned[g->n_owned++] = W, g->owned[g->n_owned++] = b;
        if (!convert) continue;
        uint16_t *Wh = wb_dmalloc(nw * 2);
        int8_t *q = wb_dmalloc((size_t)out * I8_LD(in));
        float *s = wb_dmalloc((size_t)out * 4);
        WB_CUDA(fp16_from_f32(W, Wh, nw));
        WB_CUDA(int8_quantize_rows(W, out, in, q, s));
        g->dev.W16[l] = Wh, g->dev.W8[l] = q, g->dev.sw8[l] = s;
        g->owned[g->n_owned++] = Wh, g->owned[g->n_owned++] = q, g->owned[g->n_owned++] = s;
    }
    wb_sync();
}

static void dev_model_free(dev_model *g)
{
    for (int i = 0; i < g->n_owned; i++) wb_dfree(g->owned[i]);
    g->n_owned = 0;
}

static const char *PREC_NAME[] = { "FP32", "FP16", "INT8" };

/* Runs the shipped model on the held-out set in precision prec through a
 * guarded workspace of exactly the plan's size; checks the workspace's
 * guards, returns logits and pred on the host. */
static void run_held_out(const mlp_model *m, const digits_set *d, int prec, float *logits, int *pred)
{
    dev_model g;
    dev_model_make(m, &g, prec != MLP_FP32);
    size_t plan = plan_mlp_bytes(m->dims, m->n_layers, d->n);
    ck_assert_msg(plan == (size_t)SHIPPED_PLAN_BYTES_PER_SAMPLE * d->n, "plan_mlp_bytes = %zu for %d samples, the plan "
                  "states %u bytes a sample", plan, d->n, SHIPPED_PLAN_BYTES_PER_SAMPLE);
    float *dx = wb_dcopy(d->x, (size_t)d->n * d->features * 4);
    wb_dout w, l, p;
    void *dw = wb_dout_alloc(&w, "workspace", plan, 0);
    float *dl = wb_dout_alloc(&l, "logits", (size_t)d->n * 40, 0);
    int *dp = wb_dout_alloc(&p, "pred", (size_t)d->n * 4, 0);
    WB_CUDA(cudaMemset(dp, 0x7f, (size_t)d->n * 4));
    WB_CUDA(plan_mlp_forward(&g.dev, prec, dx, d->n, dl, dp, dw, plan));
    char what[96];
    snprintf(what, sizeof what, "plan_mlp_forward %s on the held-out set", PREC_NAME[prec]);
    void *scratch = wb_hmalloc(plan);
    wb_expect_dout_guards(&w, scratch, what);
    free(scratch);
    wb_expect_dout_guards(&l, logits, what);
    wb_expect_dout_guards(&p, pred, what);
    wb_dfree(dx), wb_dout_free(&w), wb_dout_free(&l), wb_dout_free(&p);
    dev_model_free(&g);
}

/* The preds must be the argmax of the logits the device returned. */
static void expect_preds_follow(const float *logits, const int *pred, int n, int classes, const char *what)
{
    for (int i = 0; i < n; i++)
        if (pred[i] != argmax_row(logits + (size_t)i * classes, classes))
            ck_abort_msg("%s: pred[%d] = %d, but the largest of its logits is class %d", what, i, pred[i],
                         argmax_row(logits + (size_t)i * classes, classes));
}

START_TEST(fp32_model)
{
    mlp_model m;
    digits_set d;
    load_shipped(&m, &d);
    float *ref = wb_hmalloc((size_t)d.n * 40), *got = wb_hmalloc((size_t)d.n * 40);
    int *pred = wb_hmalloc((size_t)d.n * 4);
    model_ref(&m, MLP_FP32, d.x, d.n, ref);
    run_held_out(&m, &d, MLP_FP32, got, pred);
    wb_cmp cmp;
    wb_compare_f32("logits", got, ref, (size_t)d.n * 10, 1e-4, 1e-4, &cmp);
    WB_EXPECT_CMP(cmp, "FP32 logits of the held-out set against the CPU");
    expect_preds_follow(got, pred, d.n, 10, "FP32 held-out set");
    int ok = 0;
    for (int i = 0; i < d.n; i++) ok += pred[i] == d.label[i];
    ck_assert_msg(ok == HELD_OUT_CORRECT, "FP32 on the device: %d of %d right, the week states %d", ok, d.n,
                  HELD_OUT_CORRECT);
    char fig[160];
    snprintf(fig, sizeof fig, "FP32 on the device: %d of %d right (%.2f %%), logits within %.2g of the CPU", ok, d.n,
             100.0 * ok / d.n, cmp.max_err);
    wb_report(fig);
    free(ref), free(got), free(pred);
    model_io_mlp_free(&m), model_io_digits_free(&d);
}
END_TEST

/* FP16 or INT8 on the device against the CPU's FP32: the stated tolerance. */
static void check_quantised_model(int prec, double tol, double max_drop)
{
    mlp_model m;
    digits_set d;
    load_shipped(&m, &d);
    float *ref = wb_hmalloc((size_t)d.n * 40), *got = wb_hmalloc((size_t)d.n * 40);
    int *pred = wb_hmalloc((size_t)d.n * 4);
    model_ref(&m, MLP_FP32, d.x, d.n, ref);
    run_held_out(&m, &d, prec, got, pred);
    char what[64];
    snprintf(what, sizeof what, "%s logits against FP32", PREC_NAME[prec]);
    for (size_t i = 0; i < (size_t)d.n * 10; i++)
        if (!isfinite(got[i])) ck_abort_msg("%s: logit %zu is %g (never written, or wrong)", what, i, (double)got[i]);
    double diff = max_abs_diff(got, ref, (size_t)d.n * 10);
    expect_preds_follow(got, pred, d.n, 10, what);
    int ok = 0;
    for (int i = 0; i < d.n; i++) ok += pred[i] == d.label[i];
    double drop = 100.0 * (HELD_OUT_CORRECT - ok) / d.n;
    char fig[200];
    snprintf(fig, sizeof fig, "%s: max |logit - FP32| %.4f (stated <= %.2f); %d of %d right (%.2f %%, %+.2f points "
             "against FP32, stated drop <= %.2f)", PREC_NAME[prec], diff, tol, ok, d.n, 100.0 * ok / d.n, -drop, max_drop);
    printf("  %s\n", fig);
    ck_assert_msg(diff <= tol, "%s", fig);
    ck_assert_msg(drop <= max_drop, "%s", fig);
    wb_report(fig);
    free(ref), free(got), free(pred);
    model_io_mlp_free(&m), model_io_digits_free(&d);
}

START_TEST(fp16_model) { check_quantised_model(MLP_FP16, FP16_LOGIT_TOL, FP16_MAX_DROP); }
END_TEST

START_TEST(int8_model) { check_quantised_model(MLP_INT8, INT8_LOGIT_TOL, INT8_MAX_DROP); }
END_TEST

/* ---------------------------------------------------------------- w18.bf16 */

/* The tolerance of a BF16 layer against double, from K: each product of two
 * bfloat16 is exact in FP32, so the only errors are the FP32 roundings of the
 * sum. In the worst case they add up to K u sum |x w| (u = 2^-24, or 2^-23
 * for an accumulator that truncates); errors of both signs grow far slower.
 * The test allows K |x|max |w|max 2^-19 (K times 16 u of the largest
 * product) and 2^-19 relative: many times what a correct kernel shows, and
 * far below one dropped or doubled product. */
#define BF16_RTOL 0x1p-19
static double bf16_atol(int in, double xmax, double wmax) { return in * xmax * wmax * 0x1p-19; }

/* Every kind of float: any bit pattern, the largest finite bfloat16 and the
 * overflow boundary, ties between two bfloat16 (even and odd), Inf, NaN,
 * subnormals. */
START_TEST(bf16_convert)
{
    wb_rng rng = WB_RNG();
    static const size_t N[] = { 0, 1, 1000, 1 << 20 };
    size_t n = N[_i];
    float *h = wb_hmalloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++) {
        uint32_t u = (uint32_t)wb_rng_u64(&rng);
        float f;
        switch (i % 3) {
        case 0: memcpy(&f, &u, 4); break;                                   /* any bit pattern */
        case 1: f = (float)((wb_rng_unit(&rng) * 2 - 1) * 8); break;        /* ordinary values */
        default: u = (u & 0xffff0000u) | 0x8000u, memcpy(&f, &u, 4); break; /* exactly half way: a tie */
        }
        h[i] = f;
    }
    static const float SPECIAL[] = { 0.f, -0.f, 0x1.fep127f, 0x1.fefffep127f, 0x1.ffp127f, 0x1.ff0002p127f,
                                     INFINITY, -INFINITY, NAN, -NAN, 1.00390625f, 1.01171875f, 0x1p-133f,
                                     0x1.8p-134f, 1e-45f, 3.14159265f };
    for (size_t i = 0; i < WB_COUNT(SPECIAL) && i < n; i++) h[i] = SPECIAL[i];
    expect_conversion("bf16_from_f32", bf16_from_f32, wb_f32_to_bf16, 0x7f80, h, n);
    free(h);
}
END_TEST

/* BF16 layer shapes: in a multiple of 8 (the contract), out anything. */
static const layer_shape BF16_SHAPES[] = {
    { 0, 64, 128, 1 },  { 1, 8, 1, 0 },      { 1, 64, 10, 0 },     { 3, 16, 7, 1 },     { 31, 40, 65, 1 },
    { 64, 64, 64, 1 },  { 65, 128, 64, 1 },  { 127, 200, 130, 0 }, { 257, 136, 10, 0 }, { 129, 1024, 129, 1 },
    { 4097, 64, 128, 1 }, { 70001, 128, 64, 1 },
};

/* c's x and W rounded to bfloat16 (c->hx and c->hW become the rounded
 * values, the reference's inputs), on the device as bit patterns. */
static void bf16_case_upload(layer_case *c, uint16_t **dx, uint16_t **dW)
{
    size_t nx = (size_t)c->batch * c->in, nw = (size_t)c->out * c->in;
    uint16_t *hx = wb_hmalloc(nx * 2 + 2), *hw = wb_hmalloc(nw * 2);
    for (size_t i = 0; i < nx; i++) hx[i] = wb_f32_to_bf16(c->hx[i]), c->hx[i] = wb_bf16_to_f32(hx[i]);
    for (size_t i = 0; i < nw; i++) hw[i] = wb_f32_to_bf16(c->hW[i]), c->hW[i] = wb_bf16_to_f32(hw[i]);
    *dx = wb_dcopy(hx, nx * 2), *dW = wb_dcopy(hw, nw * 2);
    free(hx), free(hw);
}

static void check_linear_bf16(layer_case *c)
{
    uint16_t *dx, *dW;
    bf16_case_upload(c, &dx, &dW);
    size_t ny = (size_t)c->batch * c->out;
    double *ref = wb_hmalloc(ny * 8 + 8);
    layer_ref(c->hx, c->hW, c->hb, ref, c->batch, c->in, c->out, c->relu);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", ny * 4, 0);
    WB_CUDA(bf16_linear(dx, dW, c->db, dy, c->batch, c->in, c->out, c->relu));
    char what[128];
    describe(what, sizeof what, "bf16_linear", c);
    wb_expect_dout_f32_f64(&y, ref, ny, bf16_atol(c->in, 1, 0.5), BF16_RTOL, what);
    wb_dout_free(&y), wb_dfree(dx), wb_dfree(dW);
    free(ref);
}

START_TEST(bf16_shapes)
{
    wb_rng rng = WB_RNG();
    layer_case c;
    layer_case_make(&rng, BF16_SHAPES[_i], &c);
    check_linear_bf16(&c);
    layer_case_free(&c);
}
END_TEST

/* NaN and +-Inf: a NaN row is all NaN (ReLU keeps it), an Inf gives +-Inf
 * or NaN, as in double. */
START_TEST(bf16_nan_inf)
{
    wb_rng rng = WB_RNG();
    layer_shape s = { 37, 72, 50, (int)(_i & 1) };
    layer_case c;
    layer_case_make(&rng, s, &c);
    c.hx[3 * 72 + 5] = NAN, c.hx[10 * 72] = INFINITY, c.hx[11 * 72 + 2] = -INFINITY;
    c.hx[36 * 72 + 71] = NAN;
    check_linear_bf16(&c);
    layer_case_free(&c);
}
END_TEST

/* The contract's refusals: cudaErrorInvalidValue and nothing written. */
START_TEST(bf16_refusals)
{
    uint16_t *d = wb_dmalloc(1 << 16);
    float *b = wb_dmalloc(1024);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", 16 * 16 * 4, 0);
    const struct { const uint16_t *x, *W; int batch, in, out; const char *what; } C[] = {
        { d, d + 4096, 16, 12, 16, "in = 12, not a multiple of 8" },
        { d + 1, d + 4096, 16, 16, 16, "x 2 bytes past a 16-byte boundary" },
        { d, d + 4100, 16, 16, 16, "W 8 bytes past a 16-byte boundary" },
        { d, d + 4096, -1, 16, 16, "batch < 0" },
        { d, d + 4096, 16, 0, 16, "in = 0" },
        { d, d + 4096, 16, 16, 0, "out = 0" },
    };
    for (size_t i = 0; i < WB_COUNT(C); i++) {
        cudaError_t e = bf16_linear(C[i].x, C[i].W, b, dy, C[i].batch, C[i].in, C[i].out, 1);
        ck_assert_msg(e == cudaErrorInvalidValue, "bf16_linear with %s must give cudaErrorInvalidValue, got %s",
                      C[i].what, cudaGetErrorName(e));
    }
    cudaGetLastError();
    ck_assert_msg(bf16_linear(d, d + 4096, b, dy, 0, 16, 16, 1) == cudaSuccess, "bf16_linear: batch 0 must succeed");
    float *h = wb_hmalloc(16 * 16 * 4);
    wb_expect_dout_guards(&y, h, "bf16_linear after refused calls and batch 0");
    for (int i = 0; i < 16 * 16; i++)
        if (!isnan(h[i])) ck_abort_msg("bf16_linear: a refused call (or batch 0) wrote y[%d]", i);
    free(h);
    wb_dout_free(&y), wb_dfree(d), wb_dfree(b);
}
END_TEST

/* ---------------------------------------------------------------- w18.bf16-model */

/* The shipped model in BF16 on the device, with your bf16_from_f32 and
 * bf16_linear only: x and each layer's weights rounded to bfloat16, each
 * hidden layer's FP32 output rounded again before the next layer. Returns
 * the logits (n x 10) on the host; the class is the argmax of each row. */
static void run_held_out_bf16(const mlp_model *m, const digits_set *d, float *logits)
{
    int L = m->n_layers, n = d->n, widest = 1;
    for (int l = 0; l <= L; l++) widest = m->dims[l] > widest ? m->dims[l] : widest;
    float *dx = wb_dcopy(d->x, (size_t)n * d->features * 4), *h = wb_dmalloc((size_t)n * widest * 4);
    uint16_t *a = wb_dmalloc((size_t)n * widest * 2);
    wb_dout lo;
    float *dl = wb_dout_alloc(&lo, "logits", (size_t)n * m->dims[L] * 4, 0);
    WB_CUDA(bf16_from_f32(dx, a, (size_t)n * d->features));
    for (int l = 0; l < L; l++) {
        int in = m->dims[l], out = m->dims[l + 1];
        size_t nw = (size_t)out * in;
        float *W = wb_dcopy(m->W[l], nw * 4), *b = wb_dcopy(m->b[l], (size_t)out * 4);
        uint16_t *Wb = wb_dmalloc(nw * 2);
        WB_CUDA(bf16_from_f32(W, Wb, nw));
        float *y = l == L - 1 ? dl : h;
        WB_CUDA(bf16_linear(a, Wb, b, y, n, in, out, l < L - 1));
        if (l < L - 1) WB_CUDA(bf16_from_f32(h, a, (size_t)n * out));
        wb_sync();
        wb_dfree(W), wb_dfree(b), wb_dfree(Wb);
    }
    wb_expect_dout_guards(&lo, logits, "the BF16 model on the held-out set");
    wb_dfree(dx), wb_dfree(h), wb_dfree(a), wb_dout_free(&lo);
}

START_TEST(bf16_model)
{
    mlp_model m;
    digits_set d;
    load_shipped(&m, &d);
    float *ref = wb_hmalloc((size_t)d.n * 40), *got = wb_hmalloc((size_t)d.n * 40);
    model_ref(&m, MLP_FP32, d.x, d.n, ref);
    run_held_out_bf16(&m, &d, got);
    for (size_t i = 0; i < (size_t)d.n * 10; i++)
        if (!isfinite(got[i])) ck_abort_msg("BF16 logits: logit %zu is %g (never written, or wrong)", i, (double)got[i]);
    double diff = max_abs_diff(got, ref, (size_t)d.n * 10);
    int ok = count_correct(got, d.label, d.n);
    double drop = 100.0 * (HELD_OUT_CORRECT - ok) / d.n;
    char fig[200];
    snprintf(fig, sizeof fig, "BF16: max |logit - FP32| %.4f (stated <= %.2f); %d of %d right (%.2f %%, %+.2f points "
             "against FP32, stated drop <= %.2f)", diff, BF16_LOGIT_TOL, ok, d.n, 100.0 * ok / d.n, -drop, BF16_MAX_DROP);
    printf("  %s\n", fig);
    ck_assert_msg(diff <= BF16_LOGIT_TOL, "%s", fig);
    ck_assert_msg(drop <= BF16_MAX_DROP, "%s", fig);
    wb_report(fig);
    free(ref), free(got);
    model_io_mlp_free(&m), model_io_digits_free(&d);
}
END_TEST

/* ---------------------------------------------------------------- w18.plan */

START_TEST(plan_formula)
{
    wb_rng rng = WB_RNG();
    ck_assert_msg(plan_mlp_bytes(SHIPPED_DIMS, 3, 65536) == (size_t)64 << 20,
                  "the shipped model at batch 65536: plan_mlp_bytes = %zu, the plan states 64 MiB (67108864)",
                  plan_mlp_bytes(SHIPPED_DIMS, 3, 65536));
    ck_assert_msg(plan_mlp_bytes(SHIPPED_DIMS, 3, 1) == SHIPPED_PLAN_BYTES_PER_SAMPLE, "one sample: %zu bytes, "
                  "expected %u", plan_mlp_bytes(SHIPPED_DIMS, 3, 1), SHIPPED_PLAN_BYTES_PER_SAMPLE);
    ck_assert_msg(plan_mlp_bytes(SHIPPED_DIMS, 3, 0) == 0, "batch 0 needs no workspace");
    ck_assert_msg(plan_mlp_bytes(SHIPPED_DIMS, 1, 1000) == 0, "a one-layer model has no hidden layer: 0 bytes");
    for (int t = 0; t < 100; t++) {
        int L = (int)wb_rng_int(&rng, 1, MLP_MAX_LAYERS), dims[MLP_MAX_LAYERS + 1], batch = (int)wb_rng_int(&rng, 1, 1 << 20);
        size_t widest = 0;
        for (int l = 0; l <= L; l++) dims[l] = (int)wb_rng_int(&rng, 1, MLP_MAX_DIM);
        for (int l = 1; l < L; l++) widest = (size_t)dims[l] > widest ? (size_t)dims[l] : widest;
        size_t want = 2 * (size_t)batch * widest * 4, got = plan_mlp_bytes(dims, L, batch);
        ck_assert_msg(got == want, "%d layers, batch %d: plan_mlp_bytes = %zu, expected %zu (2 x batch x widest "
                      "hidden layer %zu x 4 bytes; inputs and logits are not the plan's)", L, batch, got, want, widest);
    }
}
END_TEST

/* A deep random model whose widest hidden layer is in the middle, through a
 * guarded workspace of exactly the plan's size: correct logits, nothing
 * outside the workspace; a workspace 4 bytes short, or an unknown
 * precision, is refused with nothing written. */
START_TEST(plan_forward)
{
    wb_rng rng = WB_RNG();
    static const int DIMS[][7] = { { 5, 3, 70, 2, 9, 40, 4 }, { 64, 128, 64, 10 }, { 17, 1 }, { 33, 7, 7, 7, 7, 7, 7 } };
    static const int LAYERS[] = { 6, 3, 1, 6 }, BATCH[] = { 1000, 129, 33, 1 };
    mlp_model m;
    memset(&m, 0, sizeof m);
    m.n_layers = LAYERS[_i];
    memcpy(m.dims, DIMS[_i], sizeof DIMS[_i]);
    size_t total = 0;
    for (int l = 0; l < m.n_layers; l++) total += (size_t)m.dims[l + 1] * (m.dims[l] + 1);
    float *store = wb_hmalloc(total * 4), *q = store;
    for (int l = 0; l < m.n_layers; l++) {
        size_t nw = (size_t)m.dims[l + 1] * m.dims[l];
        wb_fill_uniform_f32(&rng, q, nw, -0.6f, 0.6f), m.W[l] = q, q += nw;
        wb_fill_uniform_f32(&rng, q, (size_t)m.dims[l + 1], -0.2f, 0.4f), m.b[l] = q, q += m.dims[l + 1];
    }
    int batch = BATCH[_i], classes = m.dims[m.n_layers];
    float *hx = wb_hmalloc((size_t)batch * m.dims[0] * 4), *ref = wb_hmalloc((size_t)batch * classes * 4);
    wb_fill_uniform_f32(&rng, hx, (size_t)batch * m.dims[0], 0, 1);
    model_ref(&m, MLP_FP32, hx, batch, ref);

    dev_model g;
    dev_model_make(&m, &g, 0);
    size_t plan = plan_mlp_bytes(m.dims, m.n_layers, batch);
    float *dx = wb_dcopy(hx, (size_t)batch * m.dims[0] * 4);
    wb_dout w, l, p;
    void *dw = wb_dout_alloc(&w, "workspace", plan, 0);
    float *dl = wb_dout_alloc(&l, "logits", (size_t)batch * classes * 4, 0);
    int *dp = wb_dout_alloc(&p, "pred", (size_t)batch * 4, 0);
    char what[96];
    snprintf(what, sizeof what, "plan_mlp_forward, %d layers, batch %d", m.n_layers, batch);

    /* refusals first: nothing may be written */
    if (plan >= 4) {
        cudaError_t e = plan_mlp_forward(&g.dev, MLP_FP32, dx, batch, dl, dp, dw, plan - 4);
        ck_assert_msg(e == cudaErrorInvalidValue, "%s: a workspace 4 bytes short of the plan must give "
                      "cudaErrorInvalidValue, got %s", what, cudaGetErrorName(e));
    }
    ck_assert_msg(plan_mlp_forward(&g.dev, 7, dx, batch, dl, dp, dw, plan) == cudaErrorInvalidValue,
                  "%s: precision 7 must give cudaErrorInvalidValue", what);
    ck_assert_msg(plan_mlp_forward(&g.dev, MLP_FP32, dx, 0, dl, dp, dw, 0) == cudaSuccess, "%s: batch 0 must succeed",
                  what);
    cudaGetLastError();
    float *hl = wb_hmalloc((size_t)batch * classes * 4);
    wb_expect_dout_guards(&l, hl, what);
    for (size_t i = 0; i < (size_t)batch * classes; i++)
        if (!isnan(hl[i])) ck_abort_msg("%s: a refused call (or batch 0) wrote logits[%zu]", what, i);

    WB_CUDA(cudaMemset(dp, 0x7f, (size_t)batch * 4));
    WB_CUDA(plan_mlp_forward(&g.dev, MLP_FP32, dx, batch, dl, dp, dw, plan));
    float *scratch = wb_hmalloc(plan + 4);
    wb_expect_dout_guards(&w, scratch, what); /* every activation stayed inside the plan */
    /* and is where the plan puts it: the last two hidden layers are still in their buffers, layer l's in
     * buffer l % 2 (A at work, B at work + plan / 2) */
    for (int h = m.n_layers - 2; h >= 0 && h >= m.n_layers - 3; h--) {
        mlp_model part = m;
        part.n_layers = h + 1;
        size_t nh = (size_t)batch * m.dims[h + 1];
        float *want = wb_hmalloc(nh * 4);
        model_ref(&part, MLP_FP32, hx, batch, want);
        for (size_t i = 0; i < nh; i++) want[i] = want[i] < 0 ? 0 : want[i];
        char where[160];
        snprintf(where, sizeof where, "%s: layer %d's output in buffer %c of the workspace (the plan: layer l "
                 "writes buffer l %% 2; no memory but the workspace)", what, h, (h & 1) ? 'B' : 'A');
        wb_cmp hc;
        wb_compare_f32("hidden", scratch + (h & 1) * (plan / 8), want, nh, 1e-4, 1e-4, &hc);
        WB_EXPECT_CMP(hc, where);
        free(want);
    }
    free(scratch);
    wb_expect_dout_guards(&l, hl, what);
    wb_cmp cmp;
    wb_compare_f32("logits", hl, ref, (size_t)batch * classes, 1e-4, 1e-4, &cmp);
    WB_EXPECT_CMP(cmp, what);
    int *hp = wb_hmalloc((size_t)batch * 4);
    wb_expect_dout_guards(&p, hp, what);
    expect_preds_follow(hl, hp, batch, classes, what); /* pred is the argmax of the logits it returned */
    free(hp);
    char fig[128];
    snprintf(fig, sizeof fig, "plan peak %zu bytes for %d samples of a %d-layer model", plan, batch, m.n_layers);
    wb_report(fig);
    wb_dfree(dx), wb_dout_free(&w), wb_dout_free(&l), wb_dout_free(&p);
    dev_model_free(&g);
    free(store), free(hx), free(ref), free(hl);
}
END_TEST

/* ---------------------------------------------------------------- throughput */

static const int SWEEP_BATCH[] = { 1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144 };
enum { HEADLINE_BATCH = 65536 };

typedef struct {
    const mlp_dev *dev;
    int prec, batch;
    const float *x;        /* the timed input: row r is held-out sample (r + shift) % n */
    const float *x0;       /* maxb + n rows, row r = sample r % n: x is x0 + shift rows */
    size_t feat;
    int n, shift;
    int out_shift;         /* the shift of the last call's input: what logits and pred hold */
    const float *ref;      /* the held-out logits on the CPU, FP32 */
    double atol, rtol;     /* the precision's stated tolerance */
    float *logits;
    int *pred;
    void *work;
    size_t work_bytes;
} fwd_ctx;

static void fwd_work(void *p)
{
    fwd_ctx *c = p;
    c->out_shift = c->shift;
    WB_CUDA(plan_mlp_forward(c->dev, c->prec, c->x, c->batch, c->logits, c->pred, c->work, c->work_bytes));
}

/* Logit i of a timed output: sample ((i / 10) + shift) % n, class i % 10. */
static double logit_expect(size_t i, const void *p)
{
    const fwd_ctx *c = p;
    return c->ref[(((i / 10) + (size_t)c->out_shift) % (size_t)c->n) * 10 + i % 10];
}

/* The timed output: sampled logits against the CPU at the precision's
 * tolerance, and every pred the argmax of the logits the device returned.
 * 0, or the number wrong with the reason in why. */
static size_t fwd_verify(const fwd_ctx *c, size_t samples, char *why, size_t size)
{
    wb_cmp cmp;
    size_t bad = wb_dverify_f32("logits", c->logits, (size_t)c->batch * 10, logit_expect, c, samples, c->atol,
                                c->rtol, &cmp);
    if (bad) {
        snprintf(why, size, "%s", cmp.msg);
        return bad;
    }
    float *hl = wb_hmalloc((size_t)c->batch * 40);
    int *hp = wb_hmalloc((size_t)c->batch * 4);
    wb_d2h(hl, c->logits, (size_t)c->batch * 40);
    wb_d2h(hp, c->pred, (size_t)c->batch * 4);
    for (int r = 0; r < c->batch; r++)
        if (hp[r] != argmax_row(hl + (size_t)r * 10, 10) && bad++ == 0)
            snprintf(why, size, "pred[%d] = %d, but the largest of its logits is class %d", r, hp[r],
                     argmax_row(hl + (size_t)r * 10, 10));
    free(hl), free(hp);
    return bad;
}

/* The timing's spot check (wb_bench_opts): one timed run reads other rows
 * (the held-out set shifted by 1 .. n-1 samples) into a poisoned output.
 * fresh(c, 0) points the input back; wb_time then runs the work once more,
 * and out_shift says which rows the output was computed from. */
static void fwd_fresh(void *p, unsigned long long salt)
{
    fwd_ctx *c = p;
    c->shift = salt ? 1 + (int)(salt % (unsigned long long)(c->n - 1)) : 0;
    c->x = c->x0 + (size_t)c->shift * c->feat;
    if (!salt) return;
    wb_dpoison(c->logits, (size_t)c->batch * 40);
    wb_dpoison(c->pred, (size_t)c->batch * 4);
}

static int fwd_check(void *p, char *why, size_t size) { return fwd_verify(p, 1 << 12, why, size) != 0; }

/* Samples per second of plan_mlp_forward in each precision against batch size,
 * every timed output checked against the CPU's FP32 logits (at the stated
 * tolerance of its precision); build/phase4/week18/throughput.csv, and the
 * plot when gnuplot is there. *fig says what was found. Returns the number
 * of rows with a wrong output, or -1 when the sweep could not run. */
static int g_no_gnuplot; /* set by throughput_sweep: the CSV was written, no plot could be drawn */

static int throughput_sweep(char *fig, size_t figlen)
{
    mlp_model m;
    digits_set d;
    load_shipped(&m, &d);
    float *ref = wb_hmalloc((size_t)d.n * 40);
    model_ref(&m, MLP_FP32, d.x, d.n, ref);
    dev_model g;
    dev_model_make(&m, &g, 1);
    int maxb = SWEEP_BATCH[WB_COUNT(SWEEP_BATCH) - 1];
    size_t feat = (size_t)d.features, work_bytes = plan_mlp_bytes(m.dims, m.n_layers, maxb);
    size_t rows = (size_t)maxb + (size_t)d.n; /* room for the spot check's shift */
    float *hx = wb_hmalloc(rows * feat * 4);
    for (size_t r = 0; r < rows; r++) memcpy(hx + r * feat, d.x + (r % (size_t)d.n) * feat, feat * 4);
    float *dx = wb_dcopy(hx, rows * feat * 4), *dl = wb_dmalloc((size_t)maxb * 40);
    int *dp = wb_dmalloc((size_t)maxb * 4);
    void *dw = wb_dmalloc(work_bytes);
    free(hx);

    const char *wk = getenv("WB_WEEK_DIR");
    if (!wk || !*wk) wk = "phase4/week18";
    char dir[300], csv[400], png[400], cmd[1400];
    snprintf(dir, sizeof dir, "build/%s", wk);
    snprintf(csv, sizeof csv, "%s/throughput.csv", dir);
    snprintf(png, sizeof png, "%s/throughput.png", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    int bad = 0;
    FILE *f = system(cmd) == 0 ? fopen(csv, "w") : NULL;
    if (!f) {
        snprintf(fig, figlen, "cannot write %s", csv);
        bad = -1;
        goto out;
    }
    fprintf(f, "batch,fp32_samples_per_s,fp16_samples_per_s,int8_samples_per_s,fp32_us,fp16_us,int8_us\n");
    double head[3] = { 0, 0, 0 }, flops_per_sample = 0;
    for (int l = 0; l < m.n_layers; l++) flops_per_sample += 2.0 * m.dims[l] * m.dims[l + 1];
    const double tol[3] = { 1e-4, FP16_LOGIT_TOL, INT8_LOGIT_TOL };
    for (size_t bi = 0; bi < WB_COUNT(SWEEP_BATCH); bi++) {
        int batch = SWEEP_BATCH[bi];
        double sps[3], us[3];
        for (int prec = 0; prec < 3; prec++) {
            fwd_ctx c = { &g.dev, prec, batch, dx, dx, feat, d.n, 0, 0, ref, tol[prec], prec ? 0 : 1e-4,
                          dl, dp, dw, work_bytes };
            wb_dpoison(dl, (size_t)batch * 40), wb_dpoison(dp, (size_t)batch * 4);
            char variant[48];
            snprintf(variant, sizeof variant, "%s batch %d", PREC_NAME[prec], batch);
            wb_bench_row r = { .exercise = "mlp_forward", .variant = variant, .n = (size_t)batch,
                               .bytes = (double)batch * (feat * 4 + 44), .flops = flops_per_sample * batch,
                               .unit = "Msamples/s" };
            wb_bench_opts o = WB_BENCH_DEFAULTS;
            o.fresh = fwd_fresh, o.check = fwd_check;
            wb_time(fwd_work, &c, &o, &r.t);
            r.value = batch / (r.t.median * 1e-3) / 1e6;
            char why[200];
            if (fwd_verify(&c, 4096, why, sizeof why)) {
                wb_bench_invalid(&r, why);
                bad++;
            } else if (isnan(r.t.median)) { /* the spot check or the timing refused the figure */
                wb_bench_invalid(&r, "the timing gave no figure (see above)");
                bad++;
            }
            wb_bench_emit(&r);
            sps[prec] = r.invalid ? NAN : r.value * 1e6;
            us[prec] = r.t.median * 1e3;
            if (batch == HEADLINE_BATCH) head[prec] = sps[prec];
        }
        fprintf(f, "%d,%.6g,%.6g,%.6g,%.4g,%.4g,%.4g\n", batch, sps[0], sps[1], sps[2], us[0], us[1], us[2]);
    }
    fclose(f);
    char plot[200];
    char gp[300];
    snprintf(gp, sizeof gp, "%s/throughput.gp", wk);
    int drawn = wb_gnuplot(gp, csv, png);
    g_no_gnuplot = drawn == 0;
    if (drawn < 0) bad += 1000;
    snprintf(plot, sizeof plot, drawn > 0 ? "plot %s" : drawn == 0 ? "no plot (gnuplot not found): %s not drawn"
                                                                   : "gnuplot FAILED to draw %s", png);
    printf("  throughput: %s; %s\n", csv, plot);
    snprintf(fig, figlen, "at batch %d: FP32 %.1f, FP16 %.1f, INT8 %.1f Msamples/s; %s", HEADLINE_BATCH,
             head[0] / 1e6, head[1] / 1e6, head[2] / 1e6, plot);
out:
    wb_dfree(dx), wb_dfree(dl), wb_dfree(dp), wb_dfree(dw);
    dev_model_free(&g);
    free(ref);
    model_io_mlp_free(&m), model_io_digits_free(&d);
    return bad;
}

START_TEST(throughput)
{
    char fig[400];
    int bad = throughput_sweep(fig, sizeof fig);
    ck_assert_msg(bad == 0, "%s%s", bad >= 1000 ? "the plot was not drawn: " : bad > 0 ? "some timed outputs were "
                  "wrong (rows marked WRONG above): " : "", fig);
    wb_report(fig);
    if (g_no_gnuplot) wb_skip_test_no_gnuplot("build/phase4/week18/throughput.csv");
}
END_TEST

static double bench_sweep(void)
{
    char fig[400];
    int bad = throughput_sweep(fig, sizeof fig);
    printf("  %s\n", fig);
    return bad == 0 ? 1 : NAN;
}

/* ---------------------------------------------------------------- layer speed */

/* One wide layer at a large batch, 32768 x 1024 -> 1024 with ReLU: 68.7
 * GFLOP, x and y 128 MiB each (far past L2), a GEMM long enough (a few
 * milliseconds) to time honestly and compute-bound for both sides (256
 * flops a byte of x, W and y). Your fp32_linear against cuBLASLt's FP32
 * matmul with the same bias and ReLU fused in its epilogue
 * (CUBLASLT_EPILOGUE_RELU_BIAS, support/yard_lt_layer.cu), same data, same
 * run. W is scaled by 1/sqrt(in) so the sums stay near 1 and an FP32 bound
 * holds for either order of summation. */
enum { LS_BATCH = 32768, LS_IN = 1024, LS_OUT = 1024 };
enum { SEED_LX = 1811, SEED_LW = 1812, SEED_LB = 1813 };
#define LS_WMAX 0.03125f /* 1 / sqrt(LS_IN) */

/* The same layer serves w18.bf16-speed with x and W as bfloat16 (the same
 * draws, rounded: wb_dfill_uniform_bf16), y FP32: bf16_linear against
 * cuBLASLt's BF16 matmul with FP32 accumulation and output and the same
 * epilogue. The BF16 check is against double on the rounded inputs, at
 * bf16_atol's tolerance for K = 1024. */
typedef struct {
    int           bf16;       /* 0: FP32 x, W (fp32_linear); 1: BF16 (bf16_linear) */
    const float  *W, *b;
    float        *x, *y;
    const uint16_t *W16;
    uint16_t     *x16;
    unsigned long long xseed; /* the inputs now in x (or x16) */
    double        atol, rtol; /* the check's tolerance */
    yard_lt_layer *lt;        /* NULL: time yours */
    char          why[200];
    int           failed;
} layer_ctx;

static void layer_work(void *p)
{
    layer_ctx *c = p;
    if (c->lt) {
        if (yard_lt_layer_run(c->lt, c->why, sizeof c->why)) c->failed = 1;
    } else if (c->bf16) {
        WB_CUDA(bf16_linear(c->x16, c->W16, c->b, c->y, LS_BATCH, LS_IN, LS_OUT, 1));
    } else {
        WB_CUDA(fp32_linear(c->x, c->W, c->b, c->y, LS_BATCH, LS_IN, LS_OUT, 1));
    }
}

/* an input as the layer sees it: the draw, rounded to bfloat16 on the BF16 side */
static double layer_in(const layer_ctx *c, unsigned long long seed, size_t i, float lo, float hi)
{
    float v = wb_hash_uniform_f32(seed, i, lo, hi);
    return c->bf16 ? wb_bf16_to_f32(wb_f32_to_bf16(v)) : v;
}

static double layer_expect(size_t i, const void *p)
{
    const layer_ctx *c = p;
    size_t r = i / LS_OUT, o = i % LS_OUT;
    double s = wb_hash_uniform_f32(SEED_LB, o, -0.5f, 0.5f);
    for (size_t k = 0; k < LS_IN; k++)
        s += layer_in(c, c->xseed, r * LS_IN + k, -1, 1) * layer_in(c, SEED_LW, o * LS_IN + k, -LS_WMAX, LS_WMAX);
    return s < 0 ? 0 : s;
}

/* The spot check: new x drawn with the salt, y poisoned; salt 0 puts the
 * first x back. */
static void layer_fresh(void *p, unsigned long long salt)
{
    layer_ctx *c = p;
    c->xseed = salt ? SEED_LX + 7919 * salt : SEED_LX;
    if (c->bf16) wb_dfill_uniform_bf16(c->x16, (size_t)LS_BATCH * LS_IN, c->xseed, -1, 1);
    else wb_dfill_uniform_f32(c->x, (size_t)LS_BATCH * LS_IN, c->xseed, -1, 1);
    if (salt) wb_dpoison(c->y, (size_t)LS_BATCH * LS_OUT * 4);
}

static int layer_check(void *p, char *why, size_t size)
{
    layer_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("y", c->y, (size_t)LS_BATCH * LS_OUT, layer_expect, c, 1024, c->atol, c->rtol, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* Time one side into r (TFLOP/s) and check its last output. */
static void layer_row(layer_ctx *c, wb_bench_row *r)
{
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = layer_fresh, o.check = layer_check;
    c->failed = 0;
    wb_dpoison(c->y, (size_t)LS_BATCH * LS_OUT * 4);
    wb_time(layer_work, c, &o, &r->t);
    r->value = r->flops / (r->t.median * 1e-3) / 1e12;
    wb_cmp cmp;
    if (c->failed) wb_bench_invalid(r, c->why);
    else if (wb_dverify_f32("y", c->y, (size_t)LS_BATCH * LS_OUT, layer_expect, c, 4096, c->atol, c->rtol, &cmp))
        wb_bench_invalid(r, cmp.msg);
}

/* cuBLASLt, then yours, on the same data: the headline row. */
static double layer_bench(int bf16, wb_headline *h)
{
    size_t nx = (size_t)LS_BATCH * LS_IN, ny = (size_t)LS_BATCH * LS_OUT, nw = (size_t)LS_OUT * LS_IN;
    size_t es = bf16 ? 2 : 4;
    layer_ctx c = { .bf16 = bf16, .b = wb_dmalloc(LS_OUT * 4), .y = wb_dmalloc(ny * 4), .xseed = SEED_LX };
    void *x, *W;
    if (bf16) {
        c.W16 = W = wb_dmalloc(nw * 2), c.x16 = x = wb_dmalloc(nx * 2);
        wb_dfill_uniform_bf16(c.x16, nx, SEED_LX, -1, 1);
        wb_dfill_uniform_bf16((uint16_t *)c.W16, nw, SEED_LW, -LS_WMAX, LS_WMAX);
        c.atol = bf16_atol(LS_IN, 1, LS_WMAX), c.rtol = BF16_RTOL;
    } else {
        c.W = W = wb_dmalloc(nw * 4), c.x = x = wb_dmalloc(nx * 4);
        wb_dfill_uniform_f32(c.x, nx, SEED_LX, -1, 1);
        wb_dfill_uniform_f32((float *)c.W, nw, SEED_LW, -LS_WMAX, LS_WMAX);
        c.atol = 1e-4, c.rtol = 1e-4;
    }
    wb_dfill_uniform_f32((float *)c.b, LS_OUT, SEED_LB, -0.5f, 0.5f);
    double flops = 2.0 * LS_BATCH * LS_IN * LS_OUT;
    double bytes = es * (nx + nw) + 4.0 * (ny + LS_OUT);

    wb_bench_row y = { .exercise = "layer 1024->1024", .variant = bf16 ? "cuBLASLt BF16, RELU_BIAS epilogue"
                                                                        : "cuBLASLt, RELU_BIAS epilogue",
                       .n = LS_BATCH, .bytes = bytes, .flops = flops, .unit = "TFLOP/s" };
    char why[200] = "";
    c.lt = yard_lt_layer_open_as(bf16 ? YARD_LT_BF16 : YARD_LT_F32, x, W, c.b, c.y, LS_BATCH, LS_IN, LS_OUT, why,
                                 sizeof why);
    if (c.lt) layer_row(&c, &y);
    else wb_bench_invalid(&y, why);
    yard_lt_layer_close(c.lt);
    c.lt = NULL;
    wb_bench_emit(&y);

    wb_bench_row r = { .exercise = "layer 1024->1024", .variant = bf16 ? "yours: bf16_linear, ReLU"
                                                                        : "yours: fp32_linear, ReLU",
                       .n = LS_BATCH, .bytes = bytes, .flops = flops, .unit = "TFLOP/s", .yard_name = "cuBLASLt",
                       .yard = y.value };
    layer_row(&c, &r);
    if (y.invalid && !r.invalid) wb_bench_invalid(&r, "the cuBLASLt yardstick gave no valid figure");
    wb_dfree(W), wb_dfree((void *)c.b), wb_dfree(x), wb_dfree(c.y);
    return wb_bench_headline(&r, h);
}

static double bench_layer(wb_headline *h) { return layer_bench(0, h); }
static double bench_layer_bf16(wb_headline *h) { return layer_bench(1, h); }

static const wb_test TESTS[] = {
    { "w18.load", WB_T(load_shipped), WB_CPU, 0 },
    { "w18.load", WB_T(load_checks), WB_CPU, 4 },
    { "w18.model", WB_T(model_accuracy_cpu), WB_CPU, 0 },
    { "w18.fp32", WB_T(fp32_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w18.fp32", WB_T(fp32_nan_inf), WB_GPU, 2 },
    { "w18.fp32", WB_T(softmax_rows), WB_GPU, WB_COUNT(SOFTMAX_SHAPES) },
    { "w18.fp32", WB_T(bad_sizes), WB_GPU, 0 },
    { "w18.fp32-model", WB_T(fp32_model), WB_GPU, 0 },
    { "w18.fp16", WB_T(f16_convert), WB_GPU, 4 },
    { "w18.fp16", WB_T(fp16_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w18.fp16-model", WB_T(fp16_model), WB_GPU, 0 },
    { "w18.int8", WB_T(i8_quantize), WB_GPU, WB_COUNT(QROWS) },
    { "w18.int8", WB_T(i8_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w18.int8-model", WB_T(int8_model), WB_GPU, 0 },
    { "w18.plan", WB_T(plan_formula), WB_CPU, 0 },
    { "w18.plan", WB_T(plan_forward), WB_GPU, 4 },
    { "w18.throughput", WB_T(throughput), WB_GPU, 0 },
    WB_SPEED("w18.layer-speed", bench_layer),
    { "w18.bf16", WB_T(bf16_convert), WB_GPU, 4 },
    { "w18.bf16", WB_T(bf16_shapes), WB_GPU, WB_COUNT(BF16_SHAPES) },
    { "w18.bf16", WB_T(bf16_nan_inf), WB_GPU, 2 },
    { "w18.bf16", WB_T(bf16_refusals), WB_GPU, 0 },
    { "w18.bf16-model", WB_T(bf16_model), WB_GPU, 0 },
    WB_SPEED("w18.bf16-speed", bench_layer_bf16),
};

/* ---------------------------------------------------------------- fusion (a benchmark, no checkpoint) */

/* The shipped model's first layer (64 -> 128, ReLU) at a batch of 262144,
 * whose 128 MiB output is far past L2: your fused fp32_linear, against the
 * same GEMM with a zero bias and no ReLU followed by the given separate
 * pass (support/yard_bias_relu.cu), which reads the output back and writes it
 * again. Both outputs are checked on sampled rows. */
enum { FUSION_BATCH = 262144, SEED_FX = 1801 };
typedef struct { const float *x, *W, *b, *zero; float *y; int batch, in, out, fused; } fusion_ctx;

static void fusion_work(void *p)
{
    fusion_ctx *c = p;
    if (c->fused) {
        WB_CUDA(fp32_linear(c->x, c->W, c->b, c->y, c->batch, c->in, c->out, 1));
    } else {
        WB_CUDA(fp32_linear(c->x, c->W, c->zero, c->y, c->batch, c->in, c->out, 0));
        WB_CUDA(yard_bias_relu_pass(c->y, c->b, c->batch, c->out, 1));
    }
}

typedef struct { const mlp_model *m; } fusion_ref;
static double fusion_expect(size_t i, const void *p)
{
    const mlp_model *m = ((const fusion_ref *)p)->m;
    size_t r = i / 128, o = i % 128;
    double s = m->b[0][o];
    for (int k = 0; k < 64; k++) s += (double)wb_hash_uniform_f32(SEED_FX, r * 64 + k, 0, 1) * m->W[0][o * 64 + k];
    return s < 0 ? 0 : s;
}

static double bench_fusion(void)
{
    mlp_model m;
    digits_set d;
    load_shipped(&m, &d);
    size_t n_in = (size_t)FUSION_BATCH * 64, n_out = (size_t)FUSION_BATCH * 128;
    float *x = wb_dmalloc(n_in * 4), *y = wb_dmalloc(n_out * 4), *zero = wb_dmalloc(128 * 4);
    float *W = wb_dcopy(m.W[0], 64 * 128 * 4), *b = wb_dcopy(m.b[0], 128 * 4);
    wb_dfill_uniform_f32(x, n_in, SEED_FX, 0, 1);
    WB_CUDA(cudaMemset(zero, 0, 128 * 4));
    fusion_ref fr = { &m };
    double tf[2] = { NAN, NAN };
    wb_bench_row rows[2];
    for (int fused = 0; fused < 2; fused++) {
        fusion_ctx c = { x, W, b, zero, y, FUSION_BATCH, 64, 128, fused };
        wb_dpoison(y, n_out * 4);
        wb_bench_row r = { .exercise = "layer 64->128", .variant = fused ? "fused (bias+ReLU in epilogue)"
                                                                         : "GEMM, then bias_relu_pass",
                           .n = FUSION_BATCH, .bytes = 4.0 * (n_in + (fused ? 1 : 3) * n_out),
                           .flops = 2.0 * FUSION_BATCH * 64 * 128, .unit = "TFLOP/s" };
        wb_time(fusion_work, &c, NULL, &r.t);
        r.value = r.flops / (r.t.median * 1e-3) / 1e12;
        wb_cmp cmp;
        if (wb_dverify_f32("y", y, n_out, fusion_expect, &fr, 4096, 1e-4, 1e-4, &cmp)) wb_bench_invalid(&r, cmp.msg);
        tf[fused] = r.invalid ? NAN : r.value;
        rows[fused] = r;
    }
    rows[1].yard_name = "UNFUSED", rows[1].yard = tf[0];
    wb_bench_emit(&rows[0]);
    wb_bench_emit(&rows[1]);
    wb_dfree(x), wb_dfree(y), wb_dfree(zero), wb_dfree(W), wb_dfree(b);
    model_io_mlp_free(&m), model_io_digits_free(&d);
    return tf[1] / tf[0];
}

/* ---------------------------------------------------------------- int8 against the tensor cores (a benchmark) */

/* Does __dp4a earn its place? The wide layer of w18.layer-speed (batch
 * 32768, 1024 -> 1024) four ways, on the same draws, each output checked:
 *   cuBLASLt's INT8 GEMM on the tensor cores (IMMA: int8 x and W, int32 y,
 *     CUBLAS_COMPUTE_32I), the integer products alone: no quantisation of x,
 *     no scales, no bias, no ReLU (x is quantised on the host beforehand);
 *   your int8_linear (__dp4a), which does all of those, from FP32 x;
 *   cuBLASLt's BF16 layer (RELU_BIAS epilogue) and your bf16_linear.
 * Figures in TOP/s, two operations a multiply-add whatever the type; ratios
 * to the IMMA row. */
enum { I8B_IMMA, I8B_DP4A, I8B_LT_BF16, I8B_BF16 };
static const char *I8B_NAME[] = { "cuBLASLt INT8 GEMM alone (IMMA, int32 out)", "yours: int8_linear (__dp4a), ReLU",
                                  "cuBLASLt BF16, RELU_BIAS epilogue", "yours: bf16_linear, ReLU" };

typedef struct {
    int            kind;
    float         *x, *y;     /* FP32 x (int8_linear), FP32 y */
    uint16_t      *x16;       /* BF16 x */
    int8_t        *qx;        /* int8 x (IMMA), row r quantised as int8.h says */
    int32_t       *yi;        /* IMMA's y */
    const int8_t  *qw;        /* W quantised per row, on the device ... */
    const float   *sw, *b;
    const uint16_t *W16;
    int8_t        *hqx, *hqw; /* ... and on the host (qx: IMMA's input) */
    float         *hsw;
    unsigned long long xseed;
    yard_lt_layer *lt;
    char           why[200];
    int            failed;
} i8b_ctx;

static void i8b_work(void *p)
{
    i8b_ctx *c = p;
    if (c->lt) {
        if (yard_lt_layer_run(c->lt, c->why, sizeof c->why)) c->failed = 1;
    } else if (c->kind == I8B_DP4A) {
        WB_CUDA(int8_linear(c->x, c->qw, c->sw, c->b, c->y, LS_BATCH, LS_IN, LS_OUT, 1));
    } else {
        WB_CUDA(bf16_linear(c->x16, c->W16, c->b, c->y, LS_BATCH, LS_IN, LS_OUT, 1));
    }
}

/* x drawn with seed, in the form the row's kind reads. */
static void i8b_inputs(i8b_ctx *c, unsigned long long seed)
{
    size_t nx = (size_t)LS_BATCH * LS_IN;
    c->xseed = seed;
    if (c->kind == I8B_DP4A) wb_dfill_uniform_f32(c->x, nx, seed, -1, 1);
    else if (c->kind != I8B_IMMA) wb_dfill_uniform_bf16(c->x16, nx, seed, -1, 1);
    else {
        float *row = wb_hmalloc(LS_IN * 4);
        for (size_t r = 0; r < LS_BATCH; r++) {
            for (size_t k = 0; k < LS_IN; k++) row[k] = wb_hash_uniform_f32(seed, r * LS_IN + k, -1, 1);
            quant_ref(row, LS_IN, c->hqx + r * LS_IN);
        }
        free(row);
        wb_h2d(c->qx, c->hqx, nx);
    }
}

/* Element i of the row's output, on the CPU. */
static double i8b_expect(size_t i, const void *p)
{
    const i8b_ctx *c = p;
    size_t r = i / LS_OUT, o = i % LS_OUT;
    if (c->kind == I8B_IMMA) {
        int64_t acc = 0;
        for (size_t k = 0; k < LS_IN; k++) acc += (int)c->hqx[r * LS_IN + k] * c->hqw[o * LS_IN + k];
        return (double)acc;
    }
    float b = wb_hash_uniform_f32(SEED_LB, o, -0.5f, 0.5f);
    if (c->kind == I8B_DP4A) { /* int8.h step by step, as layer_ref_i8 */
        float row[LS_IN];
        int8_t q[LS_IN];
        for (size_t k = 0; k < LS_IN; k++) row[k] = wb_hash_uniform_f32(c->xseed, r * LS_IN + k, -1, 1);
        float sx = quant_ref(row, LS_IN, q);
        int32_t acc = 0;
        for (size_t k = 0; k < LS_IN; k++) acc += (int32_t)q[k] * c->hqw[o * LS_IN + k];
        float v = (float)acc * (sx * c->hsw[o]) + b;
        return v < 0 ? 0 : v;
    }
    double s = b;
    for (size_t k = 0; k < LS_IN; k++)
        s += (double)wb_bf16_to_f32(wb_f32_to_bf16(wb_hash_uniform_f32(c->xseed, r * LS_IN + k, -1, 1))) *
             wb_bf16_to_f32(wb_f32_to_bf16(wb_hash_uniform_f32(SEED_LW, o * LS_IN + k, -LS_WMAX, LS_WMAX)));
    return s < 0 ? 0 : s;
}

/* samples elements of the row's output against i8b_expect: 0, or 1 with why */
static int i8b_verify(i8b_ctx *c, size_t samples, char *why, size_t size)
{
    size_t n = (size_t)LS_BATCH * LS_OUT;
    if (c->kind != I8B_IMMA) {
        wb_cmp cmp;
        double atol = c->kind == I8B_DP4A ? 1e-5 : bf16_atol(LS_IN, 1, LS_WMAX);
        double rtol = c->kind == I8B_DP4A ? 1e-5 : BF16_RTOL;
        if (!wb_dverify_f32("y", c->y, n, i8b_expect, c, samples, atol, rtol, &cmp)) return 0;
        snprintf(why, size, "%s", cmp.msg);
        return 1;
    }
    wb_rng rng;
    wb_rng_seed(&rng, c->xseed);
    for (size_t s = 0; s < samples; s++) {
        size_t i = s < 2 ? (s ? n - 1 : 0) : (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
        int32_t got;
        wb_d2h(&got, c->yi + i, 4);
        if ((double)got != i8b_expect(i, c)) {
            snprintf(why, size, "IMMA y[%zu] = %d, expected %.0f", i, got, i8b_expect(i, c));
            return 1;
        }
    }
    return 0;
}

static void i8b_poison(i8b_ctx *c)
{
    if (c->kind == I8B_IMMA) wb_dpoison(c->yi, (size_t)LS_BATCH * LS_OUT * 4);
    else wb_dpoison(c->y, (size_t)LS_BATCH * LS_OUT * 4);
}

static void i8b_fresh(void *p, unsigned long long salt)
{
    i8b_ctx *c = p;
    i8b_inputs(c, salt ? SEED_LX + 7919 * salt : SEED_LX);
    if (salt) i8b_poison(c);
}

static int i8b_check(void *p, char *why, size_t size) { return i8b_verify(p, 256, why, size); }

static double bench_int8(void)
{
    size_t nx = (size_t)LS_BATCH * LS_IN, ny = (size_t)LS_BATCH * LS_OUT, nw = (size_t)LS_OUT * LS_IN;
    i8b_ctx c = { .x = wb_dmalloc(nx * 4), .y = wb_dmalloc(ny * 4), .x16 = wb_dmalloc(nx * 2), .qx = wb_dmalloc(nx),
                  .yi = wb_dmalloc(ny * 4), .hqx = wb_hmalloc(nx), .hqw = wb_hmalloc(nw),
                  .hsw = wb_hmalloc(LS_OUT * 4) };
    /* W: the same draws as w18.layer-speed's, quantised per row on the host, and as bfloat16 */
    float *hw = wb_hmalloc(nw * 4);
    for (size_t i = 0; i < nw; i++) hw[i] = wb_hash_uniform_f32(SEED_LW, i, -LS_WMAX, LS_WMAX);
    quantize_weights_ref(hw, LS_OUT, LS_IN, c.hqw, c.hsw); /* I8_LD(1024) = 1024: no padding */
    free(hw);
    int8_t *qw = wb_dcopy(c.hqw, nw);
    float *sw = wb_dcopy(c.hsw, LS_OUT * 4), *b = wb_dmalloc(LS_OUT * 4);
    uint16_t *W16 = wb_dmalloc(nw * 2);
    wb_dfill_uniform_f32(b, LS_OUT, SEED_LB, -0.5f, 0.5f);
    wb_dfill_uniform_bf16(W16, nw, SEED_LW, -LS_WMAX, LS_WMAX);
    c.qw = qw, c.sw = sw, c.b = b, c.W16 = W16;

    double ops = 2.0 * LS_BATCH * LS_IN * LS_OUT, tops[4] = { NAN, NAN, NAN, NAN };
    const double bytes[4] = { (double)nx + nw + 4.0 * ny, 4.0 * nx + nw + 4.0 * (ny + LS_OUT),
                              2.0 * (nx + nw) + 4.0 * (ny + LS_OUT), 2.0 * (nx + nw) + 4.0 * (ny + LS_OUT) };
    for (int k = 0; k < 4; k++) {
        c.kind = k, c.failed = 0, c.lt = NULL;
        i8b_inputs(&c, SEED_LX);
        wb_bench_row r = { .exercise = "layer 1024->1024", .variant = I8B_NAME[k], .n = LS_BATCH, .bytes = bytes[k],
                           .flops = ops, .unit = "TOP/s" };
        if (k == I8B_DP4A || k == I8B_BF16) r.yard_name = "IMMA", r.yard = tops[I8B_IMMA];
        char why[200] = "";
        if (k == I8B_IMMA || k == I8B_LT_BF16) {
            c.lt = k == I8B_IMMA ? yard_lt_layer_open_as(YARD_LT_I8, c.qx, qw, NULL, c.yi, LS_BATCH, LS_IN, LS_OUT,
                                                         why, sizeof why)
                                 : yard_lt_layer_open_as(YARD_LT_BF16, c.x16, W16, b, c.y, LS_BATCH, LS_IN, LS_OUT,
                                                         why, sizeof why);
            if (!c.lt) {
                wb_bench_invalid(&r, why);
                wb_bench_emit(&r);
                continue;
            }
        }
        i8b_poison(&c);
        wb_bench_opts o = WB_BENCH_DEFAULTS;
        o.fresh = i8b_fresh, o.check = i8b_check;
        wb_time(i8b_work, &c, &o, &r.t);
        r.value = ops / (r.t.median * 1e-3) / 1e12;
        if (c.failed) wb_bench_invalid(&r, c.why);
        else if (i8b_verify(&c, 2048, why, sizeof why)) wb_bench_invalid(&r, why);
        yard_lt_layer_close(c.lt);
        c.lt = NULL;
        tops[k] = r.invalid ? NAN : r.value;
        wb_bench_emit(&r);
    }
    printf("  __dp4a layer / IMMA GEMM %.3f; bf16_linear / __dp4a layer %.3f; bf16_linear / cuBLASLt BF16 %.3f\n",
           tops[I8B_DP4A] / tops[I8B_IMMA], tops[I8B_BF16] / tops[I8B_DP4A], tops[I8B_BF16] / tops[I8B_LT_BF16]);
    wb_dfree(c.x), wb_dfree(c.y), wb_dfree(c.x16), wb_dfree(c.qx), wb_dfree(c.yi);
    wb_dfree(qw), wb_dfree(sw), wb_dfree(b), wb_dfree(W16);
    free(c.hqx), free(c.hqw), free(c.hsw);
    return tops[I8B_DP4A] / tops[I8B_IMMA];
}

/* `make phase4/week18 bench NAME=sweep` (the samples/s table, CSV and plot
 * of w18.throughput), NAME=fusion (what the fused epilogue saves) and
 * NAME=int8 (__dp4a against the tensor cores). */
static const wb_benchmark BENCHES[] = {
    { "sweep", bench_sweep },
    { "fusion", bench_fusion },
    { "int8", bench_int8 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
