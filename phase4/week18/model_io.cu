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


int model_io_mlp_load(const char *path, mlp_model *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    /* TODO: read the whole file (fopen "rb", fread), then check, in this
     * order: the 8-byte magic "WB18MLP\0", version 1, L in 1..MLP_MAX_LAYERS,
     * every dims[l] in 1..MLP_MAX_DIM, and the file's size equal to what the
     * header implies (compute it in uint64_t). Decode each uint32 from 4
     * little-endian bytes and each float with memcpy from that uint32. Put
     * W and b in one malloc (m->storage) and point m->W[l], m->b[l] into it;
     * refuse a NaN or Inf. On any failure write a reason into err, free
     * everything, leave *m zeroed and return -1. model_io.h has the layout. */
    (void)path;
    if (err && errlen) snprintf(err, errlen, "model_io_mlp_load is not written yet");
    return -1;
}

void model_io_mlp_free(mlp_model *m)
{
    free(m->storage);
    memset(m, 0, sizeof *m);
}

int model_io_digits_load(const char *path, digits_set *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    /* TODO: as model_io_mlp_load: magic "WB18DIG\0", version 1, n in 1..DIGITS_MAX_N,
     * rows and cols in 1..64, the size exactly 24 + n (rows cols + 1), every
     * label 0..9. Then x[i] = pixel / 255.0f (n x rows*cols floats) and the
     * labels, each in its own malloc. On failure: reason, nothing kept, -1. */
    (void)path;
    if (err && errlen) snprintf(err, errlen, "model_io_digits_load is not written yet");
    return -1;
}

void model_io_digits_free(digits_set *d)
{
    free(d->x);
    free(d->label);
    memset(d, 0, sizeof *d);
}
