/* judge_w38.h — week 38's judge, its runner and its yard runner agree on
 * the exercise numbers and on each call's arguments. */
#ifndef JUDGE_W38_H
#define JUDGE_W38_H

enum { W38_FN_FWD = 1, W38_FN_FWD_TIMED };

/* W38_FN_FWD:       flash_attn_fwd: p[0] Q, p[1] K, p[2] V, p[3] O, p[4] lse (each
 *                   NULL where the judge sends none, each at the byte offset the
 *                   judge chose: a misaligned pointer is a case); i64[1] B,
 *                   i64[2] H, i64[3] S, i64[4] D, i64[5] causal; f64[0] scale.
 * W38_FN_FWD_TIMED: the timed protocol's one input and one output: p[0] Q, K
 *                   and V one after another (B H S D bf16 each), p[1] O
 *                   (B H S D bf16) with lse (B H S floats) right after it;
 *                   i64[1..5] and f64[0] as for W38_FN_FWD.
 * (i64[0] is the judge's: a timed request's output length in 4-byte words.) */

/* The yard runner's (judge_w38_yard_runner.c), numbered apart from the
 * student's: W38_YARD_CUDNN: p[0] Q, K, V as for W38_FN_FWD_TIMED, p[1] O
 * (cuDNN's inference graph writes no lse); i64[1..5], f64[0] as above:
 * cuDNN's fused attention (SDPA) through the week's given
 * phase6/common/cudnn-frontend/yard_sdpa_cudnn.cu. */
enum { W38_YARD_CUDNN = 101 };
#define W38_YARD_RUNNER "judge-w38-yard-runner"

#endif
