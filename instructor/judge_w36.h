/* judge_w36.h — week 36's judge, its runner and its yard runner agree on
 * the exercise numbers and on what each call's arguments are. */
#ifndef JUDGE_W36_H
#define JUDGE_W36_H

enum { W36_FN_TRAFFIC = 1, W36_FN_TMP_BYTES, W36_FN_SMX, W36_FN_SPLIT, W36_FN_SPLIT_TIMED };

/* Every call: i64[1] batch, i64[2] rows, i64[3] cols, i64[4] causal, f64[0] scale.
 * W36_FN_TRAFFIC:   no buffer; i64[5] the variant; out: the double traffic_variant_bytes returned.
 * W36_FN_TMP_BYTES: no buffer; out: split_smx_tmp_bytes as an unsigned long long.
 * W36_FN_SMX:       smx_fused: p[0] S (NULL: none), p[1] P.
 * W36_FN_SPLIT:     split_smx: p[0] S, p[1] P, p[2] tmp (NULL where the judge leaves it out).
 * W36_FN_SPLIT_TIMED: split_smx with the timed protocol's one input and one output: p[0] S
 *                   with tmp i64[5] bytes into the same buffer (none where i64[6] is 0: NULL),
 *                   p[1] P.
 * (i64[0] is the judge's: a timed request's input length.) */

/* The yard runner's (judge_w36_yard_runner.c), numbered apart from the
 * student's: W36_YARD_UNFUSED: p[0] S with T after it (i64[0] floats each),
 * p[1] P; the sizes and scale as above: the week's given yard_smx_unfused. */
enum { W36_YARD_UNFUSED = 101 };
#define W36_YARD_RUNNER "judge-w36-yard-runner"

#endif
