/* busbw.h — week 48, exercise 1: the bandwidth figures of a collective, as
 * nccl-tests reports them (its doc/PERFORMANCE.md).
 *
 * A collective of S bytes that took t seconds has an algorithm bandwidth
 * algbw = S / t (GB/s: 1e9 bytes a second). S is the size nccl-tests prints:
 * the buffer of an all-reduce, broadcast or reduce; the whole gathered (or
 * scattered) buffer of an all-gather or reduce-scatter, n times one rank's
 * part. algbw depends on n: the same link moves less of S as ranks are
 * added. The bus bandwidth busbw = algbw * factor(collective, n) is the
 * rate at which the busiest link must carry data for the operation to take
 * t, whatever n: it is the figure to hold against the hardware's link speed.
 *
 *   all-reduce                   2 (n - 1) / n
 *   reduce-scatter, all-gather   (n - 1) / n
 *   all-to-all                   (n - 1) / n
 *   broadcast, reduce            1
 *   send/receive                 1
 *
 * With n = 1 the factors of the first three rows are 0: nothing crosses a
 * bus. */
#ifndef BUSBW_H
#define BUSBW_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    COLL_ALLREDUCE,
    COLL_REDUCESCATTER,
    COLL_ALLGATHER,
    COLL_ALLTOALL,
    COLL_BROADCAST,
    COLL_REDUCE,
    COLL_SENDRECV,
    COLL_KINDS /* how many there are; not a collective */
} coll_kind;

/* busbw / algbw for collective c over n ranks; NaN when n < 1 or c is not
 * one of the collectives above. */
double busbw_factor(coll_kind c, int n);
/* S bytes in t seconds, in GB/s (1e9 bytes a second); NaN when t <= 0. */
double busbw_algbw_gbps(double bytes, double seconds);
/* busbw_algbw_gbps(bytes, seconds) * busbw_factor(c, n). */
double busbw_gbps(coll_kind c, int n, double bytes, double seconds);

#ifdef __cplusplus
}
#endif
#endif
