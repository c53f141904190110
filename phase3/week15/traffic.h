/* traffic.h — week 15: how many bytes each version of a chain moves. */
#ifndef TRAFFIC_H
#define TRAFFIC_H

#ifdef __cplusplus
extern "C" {
#endif

/* The chains of this week (README, "The chains"). */
enum {
    TR_GELU = 0,   /* y = r + s * gelu(x + bias): bias add, GELU, scale, residual add */
    TR_L2NORM,     /* sqrt(sum x^2): square, then sum */
    TR_SOFTMAX,    /* row softmax: row max, row sum of exp, normalise */
    TR_SMOOTH,     /* t = exp(-x^2), then y = 0.25 t[i-1] + 0.5 t[i] + 0.25 t[i+1] */
    TR_NORMALIZE,  /* y = x / ||x||: the norm, then the scale */
    TR_CHAINS
};

/* DRAM bytes per element of x that version `fused` (0: the given chain of
 * separate kernels in support/yard_unfused.cu; 1: your one-kernel version) of
 * chain `chain` moves, for float data, under the week's model: every array a
 * kernel reads or writes crosses DRAM once per kernel (the arrays are far
 * larger than L2, so nothing survives from one kernel to the next); re-reads
 * inside one kernel (a neighbour, a row read again) hit the caches and cost
 * nothing; per-row or per-column vectors (bias, row max, partial sums) are
 * negligible. A CPU function: -1 for a chain or version that does not exist. */
double traffic_bytes(int chain, int fused);

#ifdef __cplusplus
}
#endif
#endif
