/* ring.cu — week 48, exercise 3: the ring all-reduce over peer copies.
 *
 * Each rank works on two streams of its own device: copies (the copy engine
 * pulls from the left neighbour) and adds (a kernel sums what arrived into
 * the rank's own part). Events order them:
 *
 *   - inside a step, a long chunk goes in pieces: piece k's add waits for
 *     piece k's copy only, so it runs while piece k + 1 is on the link;
 *   - between steps, rank r's next copy waits for its left neighbour's last
 *     step (the data it pulls is ready) and for its own last step (its
 *     receive buffer is free again).
 *
 * Chained this way, rank r at step g has waited, through its neighbours,
 * for every rank's earlier steps: nothing a neighbour still reads is
 * overwritten. All work starts after an event recorded on the caller's
 * stream, and that stream waits for every rank's last event: to the caller
 * the all-reduce is one operation on one stream. */
#include <stdint.h>
#include <stdlib.h>
#include "ring.h"


struct ring {
    /* TODO: what the steps need: n and the devices, a receive buffer of
     * one chunk on each rank's device, streams and events for each rank,
     * an event to start from the caller's stream. */
    int unused;
};

cudaError_t ring_create(int n, const int *dev, size_t max_count, ring **out)
{
    /* TODO: check n (1..RING_MAX) and the devices; allocate your struct;
     * on each rank's device (cudaSetDevice): a receive buffer of one chunk
     * of max_count floats, two non-blocking streams (copies, adds), events
     * made with cudaEventDisableTiming; peer access from dev[r] to its left
     * neighbour's device where they differ (cudaDeviceCanAccessPeer,
     * cudaDeviceEnablePeerAccess; "already enabled" is no error). Put the
     * caller's current device back. */
    (void)n, (void)dev, (void)max_count;
    *out = NULL;
    return cudaSuccess;
}


cudaError_t ring_allreduce(ring *g, const float *const *send, float *const *recv, size_t count, cudaStream_t s)
{
    /* TODO: the schedule of ring.h, enqueued, never waited for on the host.
     * Record an event on s (current device dev[0]) that every stream of
     * every rank waits on. n == 1: copy send to recv (unless in place).
     * Then 2(n - 1) steps: at step g rank r pulls chunk c of its left
     * neighbour p, c = (r - 1 - g) mod n while g < n - 1 (into your receive
     * buffer; then add: recv[r] = send[r] + received, for that chunk), and
     * c = (r - (g - n + 1)) mod n after (straight into recv[r]). Step 0
     * pulls from send[p], later steps from recv[p]. Before a step, each
     * rank waits for its neighbour's and its own last step (events):
     * enqueue all those waits before recording any event again. At the
     * end, s waits on an event of every rank. cudaSetDevice(dev[r]) before
     * each rank's calls; put the caller's device back. */
    (void)g, (void)send, (void)recv, (void)count, (void)s;
    return cudaSuccess;
}

void ring_destroy(ring *g)
{
    if (!g) return;
    /* TODO: on each rank's device: destroy the streams and events, free
     * the receive buffer. */
    free(g);
}
