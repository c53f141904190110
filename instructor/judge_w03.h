/* judge_w03.h — week 03's judge and runner agree on the exercise numbers
 * and on how rl_analyse's answer travels back. */
#ifndef JUDGE_W03_H
#define JUDGE_W03_H

enum { W03_FN_COPY = 1, W03_FN_FMA, W03_FN_RL_COST, W03_FN_RL_ANALYSE };
/* W03_FN_RL_COST's i64[0]: which cost function (its arguments in i64[1..3]) */
enum { W03_RL_VECADD = 0, W03_RL_SAXPY, W03_RL_DOT, W03_RL_GEMM, W03_RL_STENCIL5 };

/* W03_FN_RL_ANALYSE: the cost, ms and peak GB/s in f64[0..3], the peak
 * GFLOP/s's bits in i64[0]; the runner calls rl_analyse on an rl_point
 * filled with 0x5A bytes and answers with this. */
typedef struct {
    int    rc;         /* rl_analyse's return */
    int    touched;    /* the point is no longer all 0x5A */
    double gbps, gflops, intensity, ridge, roof_gflops, fraction;
    int    bound_null; /* bound was NULL, or not written (still the filler: not read) */
    char   bound[32];  /* else its text (cut at 31 bytes) */
} w03_rl_reply;

#endif
