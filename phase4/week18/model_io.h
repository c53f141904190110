/* model_io.h — week 18: the model and the held-out digits, read from the
 * files the week ships (data/), checked before anything trusts them.
 *
 * Both files are little-endian; every integer is a uint32, every float an
 * IEEE float32. tools/mkdigits.c writes them.
 *
 * data/mlp_digits.bin, the model (an MLP: ReLU after every layer but the
 * last, whose outputs are the logits):
 *   offset 0   magic, 8 bytes: "WB18MLP" and a NUL
 *   offset 8   version = 1
 *   offset 12  L, the number of weight layers, 1..MLP_MAX_LAYERS
 *   offset 16  dims[0..L]: inputs, the width of each layer, classes; each 1..MLP_MAX_DIM
 *   then, for each layer l = 0..L-1:
 *              W[l]: dims[l+1] x dims[l] floats, row-major (row o = output o's weights)
 *              b[l]: dims[l+1] floats
 *   nothing after: the size is exactly 16 + 4 (L + 1) + 4 sum(dims[l+1] (dims[l] + 1)).
 *   Every weight and bias finite.
 * The shipped one: L = 3, dims = 64, 128, 64, 10 (17,226 parameters, 68,936 bytes).
 *
 * data/digits_test.bin, the held-out samples (never trained on):
 *   offset 0   magic, 8 bytes: "WB18DIG" and a NUL
 *   offset 8   version = 1
 *   offset 12  n, the number of samples, 1..DIGITS_MAX_N
 *   offset 16  rows, offset 20 cols: the image size, 1..64 each (8 x 8 here)
 *   offset 24  n images of rows * cols bytes, row-major, 0 (paper) .. 255 (ink)
 *   then       n labels, one byte each, 0..9
 *   nothing after: the size is exactly 24 + n (rows cols + 1).
 */
#ifndef MODEL_IO_H
#define MODEL_IO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MLP_MAX_LAYERS 8
#define MLP_MAX_DIM    4096
#define DIGITS_MAX_N   (1 << 24)

typedef struct {
    int    n_layers;                    /* L */
    int    dims[MLP_MAX_LAYERS + 1];    /* dims[0] inputs ... dims[L] classes */
    float *W[MLP_MAX_LAYERS];           /* W[l]: dims[l+1] x dims[l], row-major (host memory) */
    float *b[MLP_MAX_LAYERS];           /* b[l]: dims[l+1] */
    void  *storage;                     /* the one allocation W and b point into (NULL when empty) */
} mlp_model;

typedef struct {
    int      n, features;   /* samples; features = rows * cols */
    float   *x;             /* n x features, pixel / 255.0f (host memory) */
    uint8_t *label;         /* n labels, 0..9 */
} digits_set;

/* Read the model file at `path` into *m. Returns 0, or -1 with a one-line
 * reason in err (errlen bytes; err may be NULL) for a file that cannot be
 * read or breaks any rule above: wrong magic or version, L or a dimension out
 * of range, a size that is not exactly the one the header implies (short or
 * with bytes left over), a weight that is NaN or infinite. On failure *m is
 * left empty (every pointer NULL, n_layers 0) and nothing stays allocated. */
int  model_io_mlp_load(const char *path, mlp_model *m, char *err, size_t errlen);
void model_io_mlp_free(mlp_model *m);     /* frees and empties; an empty model is fine */

/* Read the held-out set at `path` into *d, same rules: wrong magic or
 * version, n, rows or cols out of range, a wrong size, a label above 9 are
 * refused with -1 and a reason, *d left empty (NULL pointers, n 0). */
int  model_io_digits_load(const char *path, digits_set *d, char *err, size_t errlen);
void model_io_digits_free(digits_set *d);

#ifdef __cplusplus
}
#endif
#endif
