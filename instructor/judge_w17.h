/* judge_w17.h — week 17's judge and its runner agree on the exercise
 * numbers and on each call's arguments. (i64[0] is the judge's: a checked
 * case's output length; the sizes travel in i64[1..].) A buffer argument
 * the judge leaves out (-1) is NULL. */
#ifndef JUDGE_W17_H
#define JUDGE_W17_H

/* The PGM calls (CPU functions: every buffer is host memory both processes
 * map, a memfd):
 * W17_FN_DECODE: p[0] the file's bytes, i64[1] their number; p[1] room for
 *                i64[2] samples (uint16). pgm_decode on a pgm_image filled
 *                with 0x5A bytes first; the samples copied to p[1] when
 *                they fit, then pgm_free. out: w17_pgm_rep.
 * W17_FN_READ:   the same bytes written by the runner (plain stdio) to a
 *                file of its own in $TMPDIR, then pgm_read of that file.
 * W17_FN_ENCODE: p[0] the samples, i64[1..4] width, height, channels,
 *                maxval, i64[5] 1: the comment "round trip", 0: NULL;
 *                p[1] (NULL allowed) room for i64[6] bytes, the cap
 *                pgm_encode is given. out: its return value (a size_t).
 * W17_FN_FILE:   p[0] the samples, i64[1..4] as W17_FN_ENCODE: pgm_write
 *                to a file of the runner's in $TMPDIR with the comment
 *                "made by test_week17", then pgm_read of it, the samples
 *                to p[1] (room for i64[6] samples). out: w17_pgm_rep
 *                (write_rc pgm_write's return). */
enum { W17_FN_DECODE = 1, W17_FN_READ, W17_FN_ENCODE, W17_FN_FILE };

/* The kernels (device buffers):
 * W17_FN_CONV_NAIVE: p[0] in, p[1] the k x k weights, p[2] out; i64[1]
 *                    width, i64[2] height, i64[3] k: conv2d_naive.
 * W17_FN_CONV_TILED: the same arguments: the weights copied to the
 *                    runner's host array, conv2d_set_weights from it, the
 *                    host array set to NaN, then conv2d_tiled (the first
 *                    error of the two).
 * W17_FN_CONV_SET:   p[0] the weights in host memory (a memfd), i64[1] k:
 *                    conv2d_set_weights (before the timed calls).
 * W17_FN_CONV_RUN:   p[0] in, p[1] out, i64[1] width, i64[2] height:
 *                    conv2d_tiled alone (the timed call).
 * W17_FN_CONV_BAD:   p[0] 64 device floats: for each k of W17_BAD_K,
 *                    conv2d_set_weights(zeros, k) and conv2d_naive(p[0],
 *                    p[0] + 32, 4, 4, p[0], k); out: the 2 x 6 statuses
 *                    (ints, set then naive for each k).
 * W17_FN_SEP_ROWS, W17_FN_SEP_COLS, W17_FN_SEP_BOTH: p[0] in, p[1] the
 *                    2r + 1 weights, p[2] out; i64[1] width, i64[2]
 *                    height, i64[3] r: the weights copied to the host,
 *                    sep_set_weights, the host copy set to NaN, then
 *                    sep_rows, sep_cols, or sep_rows into a buffer of the
 *                    runner's (width * height + 1 floats) then sep_cols.
 * W17_FN_SEP_BAD:    out: the statuses of sep_set_weights(w, -1) and
 *                    sep_set_weights(w, SEP_MAX_R + 1) (two ints).
 * W17_FN_EQ_HIST:    p[0] in (bytes), p[1] hist; i64[1] n.
 * W17_FN_EQ_LUT:     p[0] hist, p[1] lut.
 * W17_FN_EQ_APPLY:   p[0] in, p[1] out, p[2] lut; i64[1] n.
 * W17_FN_RESIZE:     p[0] in, p[1] out; i64[1..4] iw, ih, ow, oh.
 * W17_FN_RESIZE_BAD: p[0] in, p[1] out; i64[2] ih: out: the status of
 *                    resize_bilinear(in, 0, ih, out, 3, 3) (an int).
 * W17_FN_SOBEL:      p[0] in, p[1] out; i64[1] width, i64[2] height.
 * W17_FN_PIPE_WS:    i64[1] width, i64[2] height: out:
 *                    pipeline_workspace_bytes (a size_t).
 * W17_FN_PIPE:       p[0] in, p[1] out, p[2] work; i64[1] width, i64[2]
 *                    height: pipeline_apply.
 * W17_FN_PIPE_PREP:  i64[1] width, i64[2] height: a workspace of
 *                    pipeline_workspace_bytes(width, height) bytes the
 *                    runner allocates and keeps (before the timed calls;
 *                    the calls run one after another on stream 0, so one
 *                    workspace serves them all); status, or -1.
 * W17_FN_PIPE_RUN:   p[0] in, p[1] out; i64[1] width, i64[2] height:
 *                    pipeline_apply on that workspace (the timed call).
 * W17_FN_PIPE_FREE:  the workspace freed. */
enum {
    W17_FN_CONV_NAIVE = 11, W17_FN_CONV_TILED, W17_FN_CONV_SET, W17_FN_CONV_RUN, W17_FN_CONV_BAD,
    W17_FN_SEP_ROWS = 21, W17_FN_SEP_COLS, W17_FN_SEP_BOTH, W17_FN_SEP_BAD,
    W17_FN_EQ_HIST = 31, W17_FN_EQ_LUT, W17_FN_EQ_APPLY,
    W17_FN_RESIZE = 41, W17_FN_RESIZE_BAD, W17_FN_SOBEL,
    W17_FN_PIPE_WS = 51, W17_FN_PIPE, W17_FN_PIPE_PREP, W17_FN_PIPE_RUN, W17_FN_PIPE_FREE
};

/* test_week17.c's conv2d_bad_k: the k every call must refuse */
#define W17_BAD_K { 0, -1, 2, 4, 16, 17 }
enum { W17_N_BAD_K = 6 };

/* What the runner saw of a pgm_decode / pgm_read (and pgm_write). */
typedef struct {
    int rc;                               /* pgm_decode's or pgm_read's return */
    int width, height, channels, maxval;  /* *img after the call */
    int err_set;                          /* err[0] != 0 after the call */
    int data_null;                        /* img->data == NULL after the call */
    int copied;                           /* the samples went to p[1] (they fit, rc 0) */
    int freed_null;                       /* pgm_free left data NULL, width and height 0 */
    int write_rc;                         /* W17_FN_FILE: pgm_write's return */
    int io_failed;                        /* the runner's own file work failed */
} w17_pgm_rep;

/* The yard runner's (judge_w17_yard_runner.c: the week's given
 * support/yard_cudnn_conv.o, no student object), the same numbers as the
 * student's runner, so one timed set-up serves both:
 * W17_FN_CONV_SET: p[0] the k x k weights (host memory), i64[1] k, i64[2]
 *                  width, i64[3] height, i64[4] a: cuDNN opened and the
 *                  convolution planned (yard_cudnn_conv_plan: its own
 *                  search), the a-th of the algorithms it offers that are
 *                  not marked too slow taken and its workspace allocated.
 *                  out: w17_yard_plan; status 0, or -1 (why says why).
 * W17_FN_CONV_RUN: p[0] in, p[1] out: yard_cudnn_conv with that
 *                  algorithm (N = C = K = 1, FP32, zero padding). */
typedef struct {
    int   usable;   /* algorithms the search offers, not too slow */
    float find_ms;  /* the one taken: the time cuDNN's search measured */
    char  name[32]; /* its name ("" when none was taken) */
    char  why[200]; /* a failure: why */
} w17_yard_plan;
#define W17_YARD_RUNNER "judge-w17-yard-runner"

#endif
