/* judge_w04.h — week 04's judge and runner agree on the exercise numbers,
 * on how text travels (host buffers both map) and on how the runner's
 * SAXPY asks the judge for its result (mt_check_saxpy's w04.mytest). */
#ifndef JUDGE_W04_H
#define JUDGE_W04_H

#include <stddef.h>

enum { W04_FN_SAXPY = 1, W04_FN_DOT, W04_FN_CLI, W04_FN_CSV, W04_FN_MT_CHECK, W04_FN_MT_LIB };

/* W04_FN_SAXPY: p[0] x, p[1] y, i64[0] n, f64[0] a.
 * W04_FN_DOT:   p[0] x, p[1] y, p[2] the result, i64[1] n (i64[0] is the one float written).
 * W04_FN_CLI:   p[0] a host buffer of W04_CLI_OUT bytes for the printed text (NUL-terminated),
 *               p[1] one of W04_TEXT bytes holding the arguments ("saxpy 10 2"); out: the exit code (int).
 * W04_FN_CSV:   p[0] a host buffer of W04_CSV_TEXT bytes for the text, p[1] the row's name (W04_TEXT bytes),
 *               i64[0] n, f64[0] ms: mt_csv_header and mt_csv_row's text.
 * W04_FN_MT_CHECK: p[0], p[1] host buffers of W04_MT_CAP floats (x, y); i64[0] mt_check_saxpy's seed. The
 *               SAXPY it hands mt_check_saxpy copies x and y in, asks the judge (jr_back, a w04_back in out[])
 *               to compute y there, and copies y back: which SAXPY that is (correct or with a planted bug)
 *               only the judge knows. out: a w04_mt_reply.
 * W04_FN_MT_LIB: i64[0] the seed; mt_check_saxpy on the student's sl_saxpy (copied to the GPU and back, as
 *               the test does). out: a w04_mt_reply. */
#define W04_TEXT   128
#define W04_MT_CAP ((size_t)1 << 25) /* floats of one call the judge's SAXPYs take */
/* What the judge computes for one mt_check_saxpy (one request): its SAXPYs
 * and their floats in all. The test's checks need a few dozen (the
 * reference: 15 SAXPYs, 1.4e6 floats; README.md's edge sizes and a random
 * one), and a student's may run many more draws; past either bound the
 * request ends and the checkpoint fails, so a runner cannot make the judge
 * work until the wall clock (JD_MAX_BACKS SAXPYs of 2^25 floats each). */
#define W04_MT_MAX_SAXPYS 1024
#define W04_MT_MAX_FLOATS ((unsigned long long)1 << 28) /* 8 SAXPYs of W04_MT_CAP; 1 GiB of y read and written */

typedef struct {
    float              a;
    unsigned long long n;
} w04_back;

typedef struct {
    int  failed;     /* mt_check_saxpy's return */
    int  refused;    /* a call of more than W04_MT_CAP floats was refused (returned nonzero) */
    char first[256]; /* the first line it logged */
} w04_mt_reply;

#endif
