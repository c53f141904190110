/* judge_w20.h — week 20's judge and its runner agree on the exercise
 * numbers and on each call's arguments. Every array of the library's API is
 * host memory: the judge's buffers here are host buffers both processes map
 * (JD_MEM_HOST, a memfd), in a run with a GPU too. A buffer argument the
 * judge leaves out (-1) is NULL.
 *
 * A context handle cannot cross a process: the runner keeps its own, in
 * W20_SLOTS slots the judge names by number (i64[1]; -1: a NULL context, or
 * for the creators a NULL ctx pointer). Every entry returns 0 and hands back
 * what the library said in a w20_rep (out[]); a reply status other than 0
 * is the runner's own failure or a CUDA error still pending after the call.
 *
 * W20_FN_INFO:      i64[2] a status: wbk_version, wbk_status_name and
 *                   wbk_status_string of it (text: name '\n' string).
 * W20_FN_CREATE:    i64[2] max_devices: wbk_create(slot's &ctx or NULL).
 * W20_FN_CREATE_ON: p[0] devices (ints) or NULL, i64[2] ndev: wbk_create_on.
 *                   Both start from a sentinel handle; ctx_null says whether
 *                   the call left it NULL. A context made goes into the slot
 *                   (the slot's earlier one destroyed first).
 * W20_FN_DESTROY:   wbk_destroy(the slot's context, or NULL for -1).
 * W20_FN_COUNT:     i64[4] 1: a NULL count: wbk_device_count; count.
 * W20_FN_SAXPY:     f64[0] a, p[0] x, i64[2] nx, p[1] y, i64[3] ny.
 * W20_FN_DOT:       p[0] x, i64[2] nx, p[1] y, i64[3] ny, i64[4] 1: a NULL
 *                   result; result starts at W20_UNSET.
 * W20_FN_SUM:       p[0] x, i64[2] n, i64[4] 1: a NULL result.
 * W20_FN_TRANSPOSE: p[0] in, i64[2] n_in, p[1] out, i64[3] n_out, i64[4]
 *                   rows, i64[5] cols.
 * W20_FN_STANDARDIZE: p[0] x, i64[2] nx, p[1] y, i64[3] ny, i64[4] 1: NULL
 *                   stats; stats start as NaN.
 * W20_FN_THREAD:    wbk_last_error() read on a new thread of the runner's.
 * W20_FN_APP_COLS:  p[0] data, p[1] out, p[2] means, p[3] stds (doubles),
 *                   i64[4] rows, i64[5] cols: app_standardize_columns.
 * W20_FN_APP_MAIN:  p[0] the arguments (words separated by spaces, a NUL
 *                   at the end), p[1] room for i64[2] bytes: app_main's
 *                   output, its stream the runner's (open_memstream), copied
 *                   there NUL-terminated; rc its exit code, count the bytes
 *                   it printed.
 * W20_FN_DEVICE:    i64[2] -1: count and current device of the runner's
 *                   process (cudaGetDeviceCount, cudaGetDevice); else
 *                   cudaSetDevice(i64[2]) first. rc: the CUDA error.
 * W20_FN_PIN:       p[0], i64[2] bytes: cudaHostRegister of a host buffer
 *                   (the test's timed arrays are pinned, cudaMallocHost);
 * W20_FN_UNPIN:     p[0], i64[2] 0: cudaHostUnregister; rc: the CUDA error.
 * W20_FN_TIMED:     the timed call: wbk_standardize(slot, p[0] x, i64[2] n,
 *                   p[1] y, n, &stats); stats to st[rep] of a w20_timed_rep. */
#ifndef JUDGE_W20_H
#define JUDGE_W20_H

enum {
    W20_FN_INFO = 1, W20_FN_CREATE, W20_FN_CREATE_ON, W20_FN_DESTROY, W20_FN_COUNT, W20_FN_SAXPY, W20_FN_DOT,
    W20_FN_SUM, W20_FN_TRANSPOSE, W20_FN_STANDARDIZE, W20_FN_THREAD, W20_FN_APP_COLS, W20_FN_APP_MAIN,
    W20_FN_DEVICE, W20_FN_PIN, W20_FN_UNPIN, W20_FN_TIMED
};

#define W20_SLOTS 8
#define W20_UNSET (-7.0) /* a result or count the call must not write when it fails */
#define W20_MSG   400    /* bytes of a message or text handed back */

/* What the runner saw of one call (out[]). */
typedef struct {
    int    status;   /* the function's return (a wbk_status, app_main's exit code) */
    int    ctx_null; /* the creators: the handle NULL after the call */
    int    count;    /* W20_FN_COUNT, W20_FN_DEVICE (devices), W20_FN_APP_MAIN (bytes printed) */
    int    cur;      /* W20_FN_DEVICE: the current device */
    int    rc;       /* W20_FN_DEVICE, W20_FN_PIN, W20_FN_UNPIN: the CUDA error; W20_FN_INFO: wbk_version */
    int    null_text;/* W20_FN_INFO: a NULL name or string; elsewhere wbk_last_error() NULL */
    double result;   /* W20_FN_DOT, W20_FN_SUM */
    double mean, std; /* W20_FN_STANDARDIZE */
    char   msg[W20_MSG]; /* wbk_last_error() after the call (W20_FN_INFO: name '\n' string) */
} w20_rep;
_Static_assert(sizeof(w20_rep) <= 512, "a reply carries at most JD_OUT_MAX bytes");

/* The timed call's reply: each rep's statistics and status. */
#define W20_TIMED_MAX_K 16
typedef struct {
    int    status[W20_TIMED_MAX_K];
    double mean[W20_TIMED_MAX_K], std[W20_TIMED_MAX_K];
} w20_timed_rep;
_Static_assert(sizeof(w20_timed_rep) <= 512, "a reply carries at most JD_OUT_MAX bytes");

/* The yard runner's (judge_w20_yard_runner.c, no student object): the
 * transfers a host-to-host call cannot avoid (XFER): p[0] x up into the
 * device buffer p[2], then down into p[1], i64[2] bytes, the same request
 * shape as W20_FN_TIMED; W20_FN_PIN and W20_FN_UNPIN as above. */
#define W20_YARD_RUNNER "judge-w20-yard-runner"
#define W20_YARD_FN_XFER 1

#endif
