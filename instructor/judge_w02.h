/* judge_w02.h — week 02's judge and runner agree on the exercise numbers
 * and on how bug_check_launch's answer travels back. */
#ifndef JUDGE_W02_H
#define JUDGE_W02_H

enum { W02_FN_SCALE = 1, W02_FN_HISTOGRAM, W02_FN_REVERSE, W02_FN_NORMALISE, W02_FN_AFFINE, W02_FN_REPORT };

/* W02_FN_REPORT: the runner clears any error left from an earlier call,
 * makes the launch asked for (support/launcher.h), then calls
 * bug_check_launch(label, sync, msg, msgsz) on a buffer of W02_MSG_CAP
 * bytes filled with 'X' and answers with a w02_report. Its scalars:
 *   i64[0] the fill's n, i64[1] the launch (W02_LAUNCH_*), i64[2] its
 *   threads per block, i64[3] its bytes of dynamic shared memory, i64[4]
 *   sync, i64[5] msgsz (-1: msg NULL and msgsz 0), i64[6..7] the label
 *   (at most W02_LABEL_MAX bytes and a NUL); f64[0] the fill's value;
 *   buffer argument 0 the fill's output. */
enum { W02_LAUNCH_NONE = 0, W02_LAUNCH_FILL, W02_LAUNCH_FAULT };
#define W02_MSG_CAP   256
#define W02_LABEL_MAX 15

typedef struct {
    int  rc;               /* bug_check_launch's return (a cudaError_t) */
    int  after;            /* cudaGetLastError() right after it: a launch error it left uncleared */
    char msg[W02_MSG_CAP]; /* the message buffer as it left it */
} w02_report;

#endif
