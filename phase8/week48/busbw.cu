/* busbw.cu — week 48, exercise 1: algorithm and bus bandwidth.
 *
 * Why the factors (n ranks, S bytes, every link running at B):
 * - all-reduce as a ring: every rank sends n - 1 chunks of S / n in the
 *   reduce-scatter and n - 1 again in the all-gather, 2 (n - 1) S / n over
 *   its one outgoing link in time t: the link carried algbw * 2 (n - 1) / n.
 * - reduce-scatter and all-gather are each one of those two halves:
 *   (n - 1) S / n a rank, with S the whole (gathered) buffer.
 * - all-to-all: every rank keeps 1 / n of its data and sends the rest.
 * - broadcast and reduce: a pipelined chain moves all of S over every link.
 * - send/receive: S over one link. */
#include <math.h>
#include "busbw.h"

double busbw_factor(coll_kind c, int n)
{
    /* TODO: the factor of busbw.h's table for collective c over n ranks
     * (nccl-tests' doc/PERFORMANCE.md derives each); NaN for n < 1 or an
     * unknown c. Compute (n - 1) / n in double, not in int. */
    (void)c, (void)n;
    return 0;
}

double busbw_algbw_gbps(double bytes, double seconds)
{
    /* TODO: bytes a second, in GB/s (1e9, not 2^30); NaN when seconds <= 0. */
    (void)bytes, (void)seconds;
    return 0;
}

double busbw_gbps(coll_kind c, int n, double bytes, double seconds)
{
    /* TODO: the algorithm bandwidth times the collective's factor. */
    (void)c, (void)n, (void)bytes, (void)seconds;
    return 0;
}
