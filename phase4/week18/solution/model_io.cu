/* model_io.cu — week 18, exercise 1: read the model and the held-out set,
 * and refuse a file that is not what model_io.h says.
 *
 * Host code only. A loader is the first place an inference engine meets
 * data it did not make: read the whole file, check the header, compute the
 * size the header implies (in 64 bits: nothing may overflow) and compare it
 * with the real size before touching a single weight, decode every integer
 * and float as little-endian bytes (never cast the buffer to a struct: that
 * depends on the machine's byte order and padding), and check every value
 * the rest of the program will trust. On any failure, free what was taken
 * and leave the output empty. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model_io.h"

//@solution
/* One-line reason into err; returns -1 so callers can `return fail(...)`. */
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* The whole file in a malloc'd buffer; NULL if it cannot be read. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 65536;
            unsigned char *nb = (unsigned char *)realloc(buf, ncap);
            if (!nb) {
                free(buf), fclose(f);
                return NULL;
            }
            buf = nb, cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static uint32_t rd_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float rd_f32(const unsigned char *p)
{
    uint32_t u = rd_u32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
//@end

int model_io_mlp_load(const char *path, mlp_model *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    //@solution
    size_t len = 0;
    unsigned char *buf = slurp(path, &len);
    if (!buf) return fail(err, errlen, "%s: cannot read the file", path);
    int rc = -1;
    uint64_t need = 0, params = 0;
    uint32_t L = 0;
    if (len < 16 || memcmp(buf, "WB18MLP", 8) != 0) {
        fail(err, errlen, "%s: not a week-18 model file (bad magic)", path);
        goto out;
    }
    if (rd_u32(buf + 8) != 1) {
        fail(err, errlen, "%s: version %u, this loader reads version 1", path, rd_u32(buf + 8));
        goto out;
    }
    L = rd_u32(buf + 12);
    if (L < 1 || L > MLP_MAX_LAYERS) {
        fail(err, errlen, "%s: %u layers, expected 1..%d", path, L, MLP_MAX_LAYERS);
        goto out;
    }
    need = 16 + 4 * ((uint64_t)L + 1);
    if (len < need) {
        fail(err, errlen, "%s: %zu bytes, too short for the header of %u layers", path, len, L);
        goto out;
    }
    for (uint32_t l = 0; l <= L; l++) {
        uint32_t d = rd_u32(buf + 16 + 4 * l);
        if (d < 1 || d > MLP_MAX_DIM) {
            fail(err, errlen, "%s: dims[%u] = %u, expected 1..%d", path, l, d, MLP_MAX_DIM);
            goto out;
        }
        m->dims[l] = (int)d;
    }
    for (uint32_t l = 0; l < L; l++) params += (uint64_t)m->dims[l + 1] * ((uint64_t)m->dims[l] + 1);
    if (len != need + 4 * params) {
        fail(err, errlen, "%s: %zu bytes, but its header implies %llu", path, len,
             (unsigned long long)(need + 4 * params));
        goto out;
    }
    {
        float *store = (float *)malloc(params * sizeof(float));
        if (!store) {
            fail(err, errlen, "%s: out of memory", path);
            goto out;
        }
        const unsigned char *p = buf + need;
        for (uint64_t i = 0; i < params; i++, p += 4) {
            store[i] = rd_f32(p);
            if (!isfinite(store[i])) {
                free(store);
                fail(err, errlen, "%s: parameter %llu is not finite", path, (unsigned long long)i);
                goto out;
            }
        }
        m->storage = store;
        m->n_layers = (int)L;
        float *q = store;
        for (uint32_t l = 0; l < L; l++) {
            m->W[l] = q, q += (size_t)m->dims[l + 1] * m->dims[l];
            m->b[l] = q, q += m->dims[l + 1];
        }
        rc = 0;
    }
out:
    free(buf);
    if (rc != 0) memset(m, 0, sizeof *m);
    return rc;
    //@starter
    //| /* TODO: read the whole file (fopen "rb", fread), then check, in this
    //|  * order: the 8-byte magic "WB18MLP\0", version 1, L in 1..MLP_MAX_LAYERS,
    //|  * every dims[l] in 1..MLP_MAX_DIM, and the file's size equal to what the
    //|  * header implies (compute it in uint64_t). Decode each uint32 from 4
    //|  * little-endian bytes and each float with memcpy from that uint32. Put
    //|  * W and b in one malloc (m->storage) and point m->W[l], m->b[l] into it;
    //|  * refuse a NaN or Inf. On any failure write a reason into err, free
    //|  * everything, leave *m zeroed and return -1. model_io.h has the layout. */
    //| (void)path;
    //| if (err && errlen) snprintf(err, errlen, "model_io_mlp_load is not written yet");
    //| return -1;
    //@end
}

void model_io_mlp_free(mlp_model *m)
{
    free(m->storage);
    memset(m, 0, sizeof *m);
}

int model_io_digits_load(const char *path, digits_set *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    //@solution
    size_t len = 0;
    unsigned char *buf = slurp(path, &len);
    if (!buf) return fail(err, errlen, "%s: cannot read the file", path);
    int rc = -1;
    if (len < 24 || memcmp(buf, "WB18DIG", 8) != 0) {
        fail(err, errlen, "%s: not a week-18 digits file (bad magic)", path);
    } else if (rd_u32(buf + 8) != 1) {
        fail(err, errlen, "%s: version %u, this loader reads version 1", path, rd_u32(buf + 8));
    } else {
        uint32_t n = rd_u32(buf + 12), rows = rd_u32(buf + 16), cols = rd_u32(buf + 20);
        uint64_t feat = (uint64_t)rows * cols;
        if (n < 1 || n > DIGITS_MAX_N || rows < 1 || rows > 64 || cols < 1 || cols > 64) {
            fail(err, errlen, "%s: n = %u, %u x %u images: out of range", path, n, rows, cols);
        } else if ((uint64_t)len != 24 + (uint64_t)n * (feat + 1)) {
            fail(err, errlen, "%s: %zu bytes, but its header implies %llu", path, len,
                 (unsigned long long)(24 + (uint64_t)n * (feat + 1)));
        } else {
            const unsigned char *pix = buf + 24, *lab = pix + (size_t)n * feat;
            uint32_t i = 0;
            while (i < n && lab[i] <= 9) i++;
            if (i < n) {
                fail(err, errlen, "%s: label %u of sample %u is not a digit", path, lab[i], i);
            } else {
                d->x = (float *)malloc((size_t)n * feat * sizeof(float));
                d->label = (uint8_t *)malloc(n);
                if (!d->x || !d->label) {
                    free(d->x), free(d->label);
                    fail(err, errlen, "%s: out of memory", path);
                } else {
                    for (size_t k = 0; k < (size_t)n * feat; k++) d->x[k] = pix[k] / 255.0f;
                    memcpy(d->label, lab, n);
                    d->n = (int)n, d->features = (int)feat;
                    rc = 0;
                }
            }
        }
    }
    free(buf);
    if (rc != 0) memset(d, 0, sizeof *d);
    return rc;
    //@starter
    //| /* TODO: as model_io_mlp_load: magic "WB18DIG\0", version 1, n in 1..DIGITS_MAX_N,
    //|  * rows and cols in 1..64, the size exactly 24 + n (rows cols + 1), every
    //|  * label 0..9. Then x[i] = pixel / 255.0f (n x rows*cols floats) and the
    //|  * labels, each in its own malloc. On failure: reason, nothing kept, -1. */
    //| (void)path;
    //| if (err && errlen) snprintf(err, errlen, "model_io_digits_load is not written yet");
    //| return -1;
    //@end
}

void model_io_digits_free(digits_set *d)
{
    free(d->x);
    free(d->label);
    memset(d, 0, sizeof *d);
}
