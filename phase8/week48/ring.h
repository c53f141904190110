/* ring.h — week 48, exercise 3: a ring all-reduce written by hand.
 *
 * n ranks, rank r a (device, buffer) pair: dev[r] holds send[r] and recv[r],
 * `count` floats each. After ring_allreduce, recv[r][i] on every rank is
 * the sum over all ranks of send[*][i], the same bits on every rank. send[r]
 * may equal recv[r] (in place); otherwise send is left as it was.
 *
 * The buffer is cut into n chunks; rank r receives from rank r - 1 (mod n)
 * only. Reduce-scatter, n - 1 steps: at step g rank r pulls chunk
 * (r - 1 - g) mod n of its left neighbour (a peer copy) and adds its own
 * part of that chunk; after n - 1 steps rank r holds chunk (r + 1) mod n
 * summed over every rank. All-gather, n - 1 steps: at step t rank r pulls
 * the finished chunk (r - t) mod n of its left neighbour. Every rank sends
 * and receives 2 (n - 1) / n of the buffer, whatever n: the bus bandwidth
 * factor of an all-reduce (busbw.h).
 *
 * Several ranks may share a device (dev[r] == dev[s]): n buffers on one GPU
 * run the same schedule with device-to-device copies, a ring simulated on
 * one GPU. With n = 1 the all-reduce is a copy (or nothing, in place).
 *
 * ring_create makes what the steps need once (streams, events, receive
 * buffers of a chunk on each rank's device, peer access between
 * neighbours on different devices), so ring_allreduce allocates nothing.
 * ring_allreduce is asynchronous: it starts after the work already on
 * stream s and makes s wait for all of it, s being a stream of dev[0]
 * (0: dev[0]'s legacy default stream). It leaves the calling thread's
 * current device as it found it. */
#ifndef RING_H
#define RING_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { RING_MAX = 16 }; /* ranks at most */

typedef struct ring ring; /* yours: whatever the steps need */

/* A ring of n ranks (1 <= n <= RING_MAX) on devices dev[0..n-1], for
 * all-reduces of at most max_count floats. *out is NULL on any error. */
cudaError_t ring_create(int n, const int *dev, size_t max_count, ring **out);
/* The all-reduce (sum) of count <= max_count floats, send[r] and recv[r]
 * on dev[r]; asynchronous, ordered after and before stream s (on dev[0]). */
cudaError_t ring_allreduce(ring *rg, const float *const *send, float *const *recv, size_t count, cudaStream_t s);
void ring_destroy(ring *rg);

#ifdef __cplusplus
}
#endif
#endif
