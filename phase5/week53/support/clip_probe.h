/* clip_probe.h — week 53, given: how far a TMA store past a tensor's edge
 * writes (make phase5/week53 bench NAME=clip). Not an exercise. */
#ifndef WEEK53_CLIP_PROBE_H
#define WEEK53_CLIP_PROBE_H

#ifdef __cplusplus
extern "C" {
#endif

#define CLIP_PROBE_ROW 8 /* floats of the row a probe's box covers (32 bytes) */

/* One probe: a 1 x `extent` float tensor (1 <= extent <= CLIP_PROBE_ROW)
 * over a row of CLIP_PROBE_ROW floats set to -1, a box of CLIP_PROBE_ROW x 1
 * holding 1, 2, ..., 8 stored at (0, 0) by one TMA store. `row` receives the
 * row as the store left it. Returns 0, or a CUDA error code (the message in
 * `why`, 160 bytes). */
int clip_probe_run(int extent, float row[CLIP_PROBE_ROW], char why[160]);

#ifdef __cplusplus
}
#endif
#endif
