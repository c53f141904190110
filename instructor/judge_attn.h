/* judge_attn.h — what the judges of the weeks with week 38's attention
 * forward contract share (judge_attn.c, linked into judge-w38 and
 * judge-w62): a case drawn, called through the runner and checked against
 * the double reference of phase6/week38/w38_checks.h; the bad-argument
 * calls; the timed headline shape (B4 H16 S4096 D128, causal or not)
 * against cuDNN's fused attention through judge-w38-yard-runner. The week's
 * function and its runner's numbers come from a ja_week (ja_use). */
#ifndef JUDGE_ATTN_H
#define JUDGE_ATTN_H

#include <stddef.h>

#include "judge.h"
#include "judge_week.h"
#include "wb_rand.h"
/* (fa_case and the tolerances; a judge uses some of its helpers, not all) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "w38_checks.h"
#pragma GCC diagnostic pop

typedef struct {
    int         fn_fwd;   /* the runner's call on the judge's buffers (judge_w38.h's W38_FN_FWD arguments) */
    int         fn_timed; /* and the timed protocol's (W38_FN_FWD_TIMED's arguments) */
    const char *fn_name;  /* the student's function, as messages name it */
} ja_week;

/* The week these calls serve (before any of them). */
void ja_use(const ja_week *w);

/* One case on the rng's fresh inputs (the tests' check_case): O and lse
 * poisoned in guarded buffers, the function called, the bands checked,
 * the rows listed in rows[] (every row when rows == NULL) against the host
 * reference, and with gpu_all every row of every head against the GPU
 * reference too. 0 when the case ran (passed or failed), -1 when the runner
 * or the judge's own copies failed. */
int ja_case_run(jd *J, jd_tally *t, wb_rng *rng, const fa_case *c, const int *rows, int n_rows, int gpu_all);

/* One call of the tests' fwd_args: the sizes, the scale, byte offsets of Q,
 * O and lse from their buffers, K or lse NULL, and whether the call must be
 * refused (cudaErrorInvalidValue) or is nothing to do (cudaSuccess). */
typedef struct {
    int         B, H, S, D, causal;
    float       scale;
    size_t      qoff, ooff, loff;
    int         no_k, no_lse, refused;
    const char *what;
} ja_arg_call;

/* The calls on a poisoned O of 4096 bytes (also the inputs, as the tests')
 * and lse of 1024 bytes, each returning what it must, and none of them
 * writing a byte of O or lse. */
void ja_args(jd *J, jd_tally *t, const ja_arg_call *calls, int n);

/* A week's correctness checkpoint: its cases (every row), then its long
 * cases (the 16 fixed rows of the tests' fwd_long and 16 drawn from the
 * case's rng first, as the tests draw them; every row of every head on the
 * GPU too), then its bad-argument calls. Case i is drawn from
 * wb_rng_for_seed(jd_seed, tag, i), the tags those of the tests' fwd_cases
 * and fwd_long (W38_CASES_TAG, W38_LONG_TAG: week 62's test names its two
 * the same), so for a seed the judge has the test's inputs. */
void ja_fwd(jd_ck *k, const fa_case *cases, int n, const fa_case *longs, int n_long, const ja_arg_call *calls,
            int n_calls);

/* The timed shape (the tests' fwd_speed) */
enum { JA_TB = 4, JA_TH = 16, JA_TS = 4096, JA_TD = 128 };

/* cuDNN's yardstick for the timed shape (causal or not) timed before the
 * student's runner starts (a checkpoint's yard_before). */
void ja_cudnn_before(int causal);

/* The timed shape, causal or not: the student's calls through the timed
 * protocol, then cuDNN's again (the faster of before and after kept).
 * 0 with *value and *yard (TFLOP/s: 4 B H S^2 D, half of it causal, by the
 * median call); 1 with why: FAIL (a wrong output, the student's or
 * cuDNN's, or a runner failure; *value NAN); 2 with why: SKIP (cuDNN
 * cannot be loaded or cannot run the shape: the tests' cudnn_ready). */
int ja_time_shape(jd_ck *k, int causal, double *value, double *yard, char *why, size_t why_n);

#endif
