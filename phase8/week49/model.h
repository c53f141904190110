/* model.h — week 49, exercise 1: how long a pipeline takes (CPU only).
 *
 * A chunk of work passes through m stages in order (copy in, compute, copy
 * out; or compute, all-reduce, apply). Each stage is one resource (a copy
 * engine, the SMs, the link) that handles one chunk at a time, chunks in
 * order. Stage times are in t[j * m + s]: chunk j (0 <= j < k), stage s
 * (0 <= s < m); every time is >= 0. */
#ifndef MODEL_H
#define MODEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Yours: one stage at a time, nothing overlapping: the sum of every t.
 * 0 when k or m is 0. */
double model_serial(const double *t, int k, int m);

/* Yours: the time at which the last chunk leaves the last stage when every
 * stage starts a chunk as soon as both (a) the chunk has left the stage
 * before and (b) the stage has finished the chunk before. Time starts at 0.
 * 0 when k or m is 0. */
double model_pipelined(const double *t, int k, int m);

/* Yours: the same when every chunk has the same stage times stage[0..m-1]:
 * the closed form, fill and drain once plus the slowest stage for every
 * other chunk. 0 when k or m is 0. */
double model_uniform(const double *stage, int m, int k);

#ifdef __cplusplus
}
#endif
#endif
