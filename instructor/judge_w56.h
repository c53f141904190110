/* judge_w56.h — week 56's judge and its runner agree on the exercise
 * numbers and on what each call's arguments are. */
#ifndef JUDGE_W56_H
#define JUDGE_W56_H

enum { W56_FN_PLAN = 1, W56_FN_HIST, W56_FN_MC };

/* W56_FN_PLAN: cluster_hist_plan on scalars: i64[1] nbins, i64[2] cluster, i64[3] smem_limit, i64[4] 1: p
 *              NULL; out: the int32 status it returned, then the chist_plan it left over a plan of
 *              W56_PLAN_FILL bytes (W56_PLAN_REPLY bytes in all).
 * W56_FN_HIST: cluster_hist: p[0] keys, p[1] bins; where p[0] or p[1] is NULL, the address in i64[5]
 *              (keys) or i64[6] (bins) instead (0: NULL; the contract's, never dereferenced by a correct
 *              function); i64[1] n, i64[2] nbins, i64[3] cluster.
 * W56_FN_MC:   tma_multicast_f32: p[0] src, p[1] dst; where NULL, the address in i64[5] (src) or i64[6]
 *              (dst) instead, as W56_FN_HIST's; i64[1] ld_src, i64[2] ld_dst, i64[3] rows, i64[4] cols,
 *              i64[7] copies, f64[0] multicast (0 or 1). The timed protocol's one input and one output
 *              are p[0] and p[1] (a timed request's i64[0] is the judge's). */
#define W56_PLAN_FILL  0x5A
#define W56_PLAN_REPLY (4 + (unsigned)sizeof(chist_plan))

#endif
