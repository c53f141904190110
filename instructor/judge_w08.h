/* judge_w08.h — week 08's judge and runner agree on the exercise numbers
 * and on what each call's buffers and scalars are. */
#ifndef JUDGE_W08_H
#define JUDGE_W08_H

enum {
    W08_FN_TMP = 1, /* out: a w08_tmp (the workspaces' sizes, the student's given functions) */
    W08_FN_LASTBLOCK,
    W08_FN_CENTER,
    W08_FN_COMPACT,
    W08_FN_PUSH,
    W08_FN_POP,
    W08_FN_MP_ROUND,
    W08_FN_TALLY_DEVICE,
    W08_FN_TALLY_BLOCK
};

/* W08_FN_LASTBLOCK:    p[0] x, p[1] out (one float), p[2] tmp; i64[0] n.
 * W08_FN_CENTER:       p[0] x, p[1] y, p[2] tmp; i64[0] n.
 * W08_FN_COMPACT:      p[0] x, p[1] out, p[2] count (one unsigned); i64[0] n.
 * W08_FN_PUSH:         p[0] head, p[1] next; i64[0] n.
 * W08_FN_POP:          p[0] head, p[1] next, p[2] popped; i64[0] m.
 * W08_FN_MP_ROUND:     p[0] data, p[1] flag, p[2] seen; i64[0] npairs, i64[1] round, i64[2] kind.
 * W08_FN_TALLY_*:      p[0] keys, p[1] counts; i64[0] n, i64[1] nbins. */
typedef struct {
    unsigned long long lastblock, center; /* lastblock_tmp_bytes(), gridsync_center_tmp_bytes() */
} w08_tmp;

#endif
