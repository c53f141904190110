/* judge_tma_copy.h — what the judges of Phase 5's TMA copies share (week
 * 53's tma_copy_f32, week 56's tma_multicast_f32, which writes `copies`
 * stacked copies): their runners' common call (p[0] src, p[1] dst; i64[1]
 * ld_src, i64[2] ld_dst, i64[3] rows, i64[4] cols; where p[0] or p[1] is
 * NULL, the address in i64[5] or i64[6] instead, never dereferenced by a
 * correct function), the guarded buffers of the GPU cases, a copy checked
 * at every element of dst with its padding, the empty shapes and a refusal
 * on real buffers, and the empty shapes on NULL pointers. The copy's values,
 * special bits and empty shapes are phase5/common/tma_copy_check.h's, which
 * the weeks' tests include too. judge_tma_copy.c; linked into judge-w53 and
 * judge-w56. */
#ifndef JUDGE_TMA_COPY_H
#define JUDGE_TMA_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "judge.h"
#include "judge_week.h"
#include "tma_copy_check.h" /* phase5/common */
#include "wb_rand.h"

/* One copy function as its runner calls it. */
typedef struct {
    int         fn;      /* the runner's exercise */
    int         copies;  /* stacked copies it writes (week 53's: 1) */
    long long   i64_7;   /* i64[7] of every call (week 56: copies) */
    double      f64_0;   /* f64[0] of every call (week 56: multicast) */
    const char *fn_name; /* "tma_copy_f32", for a runner lost */
    const char *label;   /* the words before a case's shape: "tma_copy_f32", "4 copies, multicast" */
} jt_call;

/* The GPU cases' buffers: src and dst guarded (jd_gbuf), with host room. */
typedef struct {
    jd_gbuf   src, dst;
    size_t    src_cap, dst_cap; /* bytes */
    uint32_t *hs, *hd;
} jt_room;

const char *jt_status(int s); /* a status as cudaGetErrorName names it */
/* Grow *src and *dst (bytes) to hold shape s with `copies` stacked copies. */
void jt_fit(tma_copy_shape s, int copies, size_t *src, size_t *dst);
/* R's buffers at its caps: 0, or -1 (t says why). jt_room_close frees what there is. */
int  jt_room_open(jd *J, jt_room *R, jd_tally *t);
void jt_room_close(jd *J, jt_room *R);

/* The copy on NULL-or-address arguments (no buffer sent): 0 and *status,
 * or -1 (t failed: lost). */
int jt_raw(jd *J, const jt_call *c, uint64_t src, size_t ld_src, uint64_t dst, size_t ld_dst, size_t rows, size_t cols,
           int *status, jd_tally *t);
/* The empty shapes on NULL pointers (ld_src 3, ld_dst 5): cudaSuccess. */
void jt_empty_host(jd *J, const jt_call *c, jd_tally *t);
/* dst read back (bytes from its start) and all still the poison. 0 (checked), -1 lost. */
int jt_untouched(jt_room *R, size_t bytes, const char *what, jd_tally *t);
/* The source and dst poisoned, bytes of each. 0, or -1 (t says why). */
int jt_poison(jt_room *R, size_t bytes, const char *what, jd_tally *t);
/* tma_check_copies for one shape: src uniform in [-1000, 1000], with
 * `specials` about a quarter TMA_SPECIAL_BITS; dst poisoned; every element
 * of the stacked copies, padding included, the source's bits or the poison,
 * nothing written outside dst. 0 (checked), -1 (lost or the judge's copy failed). */
int jt_case(jd *J, jt_room *R, const jt_call *c, wb_rng *rng, tma_copy_shape s, int specials, jd_tally *t);
/* The empty shapes on real buffers: cudaSuccess, nothing written. 0, or -1 (lost). */
int jt_empty(jd *J, jt_room *R, const jt_call *c, jd_tally *t);
/* One call that must be refused, on R's buffers (src and dst off_* floats in): 0
 * (refused), 1 (not: t failed, saying why), or -1 (lost). */
int jt_refused(jd *J, jt_room *R, const jt_call *c, size_t rows, size_t cols, size_t ld_src, size_t ld_dst,
               size_t off_src, size_t off_dst, const char *why, jd_tally *t);

#endif
