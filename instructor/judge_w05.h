/* judge_w05.h — week 05's judge and runner agree on the exercise numbers
 * and on how the views functions' arrays and the overlap's buffers travel
 * (host buffers both map). */
#ifndef JUDGE_W05_H
#define JUDGE_W05_H

enum { W05_FN_SCALE_RELU = 1, W05_FN_ADD2D, W05_FN_TENSOR3, W05_FN_VIEWS, W05_FN_OVERLAP };

/* W05_FN_SCALE_RELU: p[0] x, p[1] y, i64[0] n, f64[0] alpha.
 * W05_FN_ADD2D:      p[0] a, p[1] b, p[2] c, i64[0..4] rows, cols, lda, ldb, ldc.
 * W05_FN_TENSOR3:    p[0] x, p[1] y, i64[1..3] the strides, i64[4..6] the shape, f64[0] alpha.
 * W05_FN_VIEWS:      p[0] a host buffer holding a w05_view_io, i64[0] which function (W05_VIEWS_*): the
 *                    runner calls it on the arrays there and leaves its outputs and return value there.
 * W05_FN_OVERLAP:    p[0] hx, p[1] hy (host buffers: the runner pins them with cudaHostRegister where it
 *                    can), p[2] dx, p[3] dy (device), p[4] the timeline (a host buffer of chunks
 *                    w05_chunk_times, or NULL), i64[0..3] n, rounds, chunks, nstreams: the runner creates
 *                    nstreams non-blocking streams, calls streams_overlap_pipeline, waits for the device,
 *                    and destroys them. */
enum { W05_VIEWS_CONTIGUOUS = 0, W05_VIEWS_PERMUTE, W05_VIEWS_STRIDES };

typedef struct {
    int       ndim, new_ndim, rc;
    int       perm[8];
    long long shape[8], strides[8];         /* in (contiguous: strides out) */
    long long new_shape[8], new_strides[8]; /* permute: out; strides: new_shape in, new_strides out */
} w05_view_io;

#endif
