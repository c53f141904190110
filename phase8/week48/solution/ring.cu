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

//@solution
enum {
    ALIGN = 64,          /* chunks start at multiples of 64 floats (256 bytes): aligned for float4 */
    PIECES = 8,          /* a chunk goes in 8 pieces: the add of one runs during the copy of the next */
    MIN_PIECE = 1 << 18, /* floats (1 MiB): smaller pieces cost more in calls than they hide */
    THREADS = 256,
};

#define TRY(call)                                \
    do {                                         \
        if (e == cudaSuccess) e = (call);        \
    } while (0)

static int left(int r, int n) { return (r + n - 1) % n; }
static int mod(int a, int n) { return ((a % n) + n) % n; }
static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* Floats in one chunk of a count-float buffer cut n ways: ceil(count / n),
 * rounded up to ALIGN. The last chunks may be shorter, or empty. */
static size_t chunk_floats(size_t count, int n)
{
    size_t q = (count + (size_t)n - 1) / (size_t)n;
    return (q + ALIGN - 1) / ALIGN * ALIGN;
}

/* dst[i] = a[i] + b[i]; dst may be a (in place). Grid-stride, 16 bytes a
 * load where all three pointers allow it. */
__global__ void add_kernel(float *dst, const float *a, const float *b, size_t m)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t done = 0;
    if ((((uintptr_t)dst | (uintptr_t)a | (uintptr_t)b) & 15) == 0) {
        size_t m4 = m / 4;
        float4 *d4 = (float4 *)dst;
        const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
        for (size_t i = i0; i < m4; i += stride) {
            float4 x = a4[i], y = b4[i];
            d4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
        }
        done = 4 * m4;
    }
    for (size_t i = done + i0; i < m; i += stride) dst[i] = a[i] + b[i];
}

/* A copy of `floats` from src on device sd to dst on device dd, on stream
 * st of dd: a peer copy between devices, a plain one within a device. */
static cudaError_t pull(float *dst, int dd, const float *src, int sd, size_t floats, cudaStream_t st)
{
    size_t bytes = floats * sizeof(float);
    if (dd == sd) return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, st);
    return cudaMemcpyPeerAsync(dst, dd, src, sd, bytes, st);
}
//@end

struct ring {
    //@solution
    int          n;
    int          dev[RING_MAX];
    size_t       max_count;
    size_t       cap;                          /* floats of tmp: one chunk at max_count */
    int          grid[RING_MAX];               /* most blocks of add_kernel on dev[r] */
    float       *tmp[RING_MAX];                /* what rank r receives, on dev[r] */
    cudaStream_t cs[RING_MAX], rs[RING_MAX];   /* rank r's copies, rank r's adds */
    cudaEvent_t  piece[RING_MAX];              /* on cs[r]: a copy is done */
    cudaEvent_t  done[RING_MAX];               /* on rs[r]: all of rank r's work so far */
    cudaEvent_t  fork;                         /* on the caller's stream, dev[0] */
    //@starter
    //| /* TODO: what the steps need: n and the devices, a receive buffer of
    //|  * one chunk on each rank's device, streams and events for each rank,
    //|  * an event to start from the caller's stream. */
    //| int unused;
    //@end
};

cudaError_t ring_create(int n, const int *dev, size_t max_count, ring **out)
{
    //@solution
    if (!out) return cudaErrorInvalidValue;
    *out = NULL;
    if (n < 1 || n > RING_MAX || !dev) return cudaErrorInvalidValue;
    int ndev = 0, prev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    TRY(cudaGetDevice(&prev));
    if (e != cudaSuccess) return e;
    for (int r = 0; r < n; r++)
        if (dev[r] < 0 || dev[r] >= ndev) return cudaErrorInvalidDevice;
    ring *g = (ring *)calloc(1, sizeof *g);
    if (!g) return cudaErrorMemoryAllocation;
    g->n = n, g->max_count = max_count;
    g->cap = n > 1 ? chunk_floats(max_count, n) : 0;
    for (int r = 0; r < n; r++) g->dev[r] = dev[r];
    for (int r = 0; r < n && e == cudaSuccess; r++) {
        int sms = 0, p = left(r, n), can = 0;
        TRY(cudaSetDevice(dev[r]));
        TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev[r]));
        g->grid[r] = 8 * (sms > 0 ? sms : 1);
        if (g->cap) TRY(cudaMalloc((void **)&g->tmp[r], g->cap * sizeof(float)));
        TRY(cudaStreamCreateWithFlags(&g->cs[r], cudaStreamNonBlocking));
        TRY(cudaStreamCreateWithFlags(&g->rs[r], cudaStreamNonBlocking));
        TRY(cudaEventCreateWithFlags(&g->piece[r], cudaEventDisableTiming));
        TRY(cudaEventCreateWithFlags(&g->done[r], cudaEventDisableTiming));
        /* rank r pulls from its left neighbour: let dev[r] reach its memory
         * over the link (without peer access a copy goes through the host) */
        if (dev[p] != dev[r]) TRY(cudaDeviceCanAccessPeer(&can, dev[r], dev[p]));
        if (e == cudaSuccess && can) {
            cudaError_t pe = cudaDeviceEnablePeerAccess(dev[p], 0);
            if (pe == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError(); /* an earlier ring did */
            else e = pe;
        }
    }
    TRY(cudaSetDevice(dev[0]));
    TRY(cudaEventCreateWithFlags(&g->fork, cudaEventDisableTiming));
    cudaSetDevice(prev);
    if (e != cudaSuccess) {
        ring_destroy(g);
        return e;
    }
    *out = g;
    return cudaSuccess;
    //@starter
    //| /* TODO: check n (1..RING_MAX) and the devices; allocate your struct;
    //|  * on each rank's device (cudaSetDevice): a receive buffer of one chunk
    //|  * of max_count floats, two non-blocking streams (copies, adds), events
    //|  * made with cudaEventDisableTiming; peer access from dev[r] to its left
    //|  * neighbour's device where they differ (cudaDeviceCanAccessPeer,
    //|  * cudaDeviceEnablePeerAccess; "already enabled" is no error). Put the
    //|  * caller's current device back. */
    //| (void)n, (void)dev, (void)max_count;
    //| *out = NULL;
    //| return cudaSuccess;
    //@end
}

//@solution
/* Rank r's two streams meet: done[r] follows everything rank r enqueued. */
static cudaError_t close_step(ring *g, int r)
{
    cudaError_t e = cudaEventRecord(g->piece[r], g->cs[r]);
    TRY(cudaStreamWaitEvent(g->rs[r], g->piece[r], 0));
    TRY(cudaEventRecord(g->done[r], g->rs[r]));
    return e;
}

/* Piece k of rank r's part of step `step`: m floats from offset off + k of
 * its chunk. Reduce-scatter: into the scratch buffer, then the add;
 * all-gather: straight into recv. */
static cudaError_t rank_piece(ring *g, int r, int step, const float *const *send, float *const *recv, size_t off,
                              size_t k, size_t m)
{
    int n = g->n, p = left(r, n);
    cudaError_t e = cudaSetDevice(g->dev[r]);
    if (step >= n - 1) {
        TRY(pull(recv[r] + off + k, g->dev[r], recv[p] + off + k, g->dev[p], m, g->cs[r]));
        return e;
    }
    /* step 0 pulls the neighbour's own data, later steps its partial sums */
    const float *src = (step == 0 ? send[p] : recv[p]) + off + k;
    TRY(pull(g->tmp[r] + k, g->dev[r], src, g->dev[p], m, g->cs[r]));
    TRY(cudaEventRecord(g->piece[r], g->cs[r]));
    TRY(cudaStreamWaitEvent(g->rs[r], g->piece[r], 0));
    if (e == cudaSuccess) {
        size_t want = (m / 4 + THREADS) / THREADS;
        int blocks = want < (size_t)g->grid[r] ? (int)want : g->grid[r];
        add_kernel<<<blocks, THREADS, 0, g->rs[r]>>>(recv[r] + off + k, send[r] + off + k, g->tmp[r] + k, m);
        e = cudaGetLastError();
    }
    return e;
}

/* Step `step` (0 .. 2n-3) of every rank, chunks of q floats in pieces of
 * pc: piece k of every rank is enqueued before piece k + 1 of any, so no GPU
 * idles while the host enqueues another GPU's whole step. */
static cudaError_t ring_step(ring *g, int step, const float *const *send, float *const *recv, size_t count, size_t q,
                             size_t pc)
{
    int n = g->n;
    size_t off[RING_MAX], len[RING_MAX];
    cudaError_t e = cudaSuccess;
    for (int r = 0; r < n; r++) {
        /* reduce-scatter: chunk r-1-step; all-gather, step t = step-(n-1): chunk r-t */
        int c = step < n - 1 ? mod(r - 1 - step, n) : mod(r - (step - (n - 1)), n);
        off[r] = min_sz(count, (size_t)c * q);
        len[r] = min_sz(count, off[r] + q) - off[r];
    }
    for (size_t k = 0; k < q && e == cudaSuccess; k += pc)
        for (int r = 0; r < n; r++)
            if (k < len[r]) TRY(rank_piece(g, r, step, send, recv, off[r], k, min_sz(pc, len[r] - k)));
    for (int r = 0; r < n; r++) {
        TRY(cudaSetDevice(g->dev[r]));
        TRY(close_step(g, r));
    }
    return e;
}
//@end

cudaError_t ring_allreduce(ring *g, const float *const *send, float *const *recv, size_t count, cudaStream_t s)
{
    //@solution
    if (!g || !send || !recv || count > g->max_count) return cudaErrorInvalidValue;
    int n = g->n, prev = 0;
    cudaError_t e = cudaGetDevice(&prev);
    if (e != cudaSuccess) return e;
    size_t q = chunk_floats(count, n), pc = (q + PIECES - 1) / PIECES;
    pc = (pc + ALIGN - 1) / ALIGN * ALIGN;
    if (pc < MIN_PIECE) pc = MIN_PIECE;
    /* start after the work already on s */
    TRY(cudaSetDevice(g->dev[0]));
    TRY(cudaEventRecord(g->fork, s));
    for (int r = 0; r < n; r++) {
        TRY(cudaSetDevice(g->dev[r]));
        TRY(cudaStreamWaitEvent(g->cs[r], g->fork, 0));
        TRY(cudaStreamWaitEvent(g->rs[r], g->fork, 0));
    }
    /* one rank: the sum is its own data */
    if (n == 1 && count && send[0] != recv[0]) {
        TRY(cudaSetDevice(g->dev[0]));
        TRY(cudaMemcpyAsync(recv[0], send[0], count * sizeof(float), cudaMemcpyDeviceToDevice, g->cs[0]));
    }
    for (int step = 0; n > 1 && count && step < 2 * (n - 1) && e == cudaSuccess; step++) {
        /* every wait on last step's events first, then this step's work
         * (which records them again) */
        for (int r = 0; step > 0 && r < n; r++) {
            TRY(cudaSetDevice(g->dev[r]));
            TRY(cudaStreamWaitEvent(g->cs[r], g->done[left(r, n)], 0));
            TRY(cudaStreamWaitEvent(g->cs[r], g->done[r], 0));
        }
        TRY(ring_step(g, step, send, recv, count, q, pc));
    }
    /* s waits for all of every rank's work */
    for (int r = 0; r < n; r++) {
        TRY(cudaSetDevice(g->dev[r]));
        TRY(close_step(g, r));
    }
    TRY(cudaSetDevice(g->dev[0]));
    for (int r = 0; r < n; r++) TRY(cudaStreamWaitEvent(s, g->done[r], 0));
    cudaError_t back = cudaSetDevice(prev); /* also after an error */
    if (e == cudaSuccess) e = back;
    return e;
    //@starter
    //| /* TODO: the schedule of ring.h, enqueued, never waited for on the host.
    //|  * Record an event on s (current device dev[0]) that every stream of
    //|  * every rank waits on. n == 1: copy send to recv (unless in place).
    //|  * Then 2(n - 1) steps: at step g rank r pulls chunk c of its left
    //|  * neighbour p, c = (r - 1 - g) mod n while g < n - 1 (into your receive
    //|  * buffer; then add: recv[r] = send[r] + received, for that chunk), and
    //|  * c = (r - (g - n + 1)) mod n after (straight into recv[r]). Step 0
    //|  * pulls from send[p], later steps from recv[p]. Before a step, each
    //|  * rank waits for its neighbour's and its own last step (events):
    //|  * enqueue all those waits before recording any event again. At the
    //|  * end, s waits on an event of every rank. cudaSetDevice(dev[r]) before
    //|  * each rank's calls; put the caller's device back. */
    //| (void)g, (void)send, (void)recv, (void)count, (void)s;
    //| return cudaSuccess;
    //@end
}

void ring_destroy(ring *g)
{
    if (!g) return;
    //@solution
    int prev = 0;
    cudaGetDevice(&prev);
    for (int r = 0; r < g->n; r++) {
        cudaSetDevice(g->dev[r]);
        if (g->cs[r]) cudaStreamSynchronize(g->cs[r]), cudaStreamDestroy(g->cs[r]);
        if (g->rs[r]) cudaStreamSynchronize(g->rs[r]), cudaStreamDestroy(g->rs[r]);
        if (g->piece[r]) cudaEventDestroy(g->piece[r]);
        if (g->done[r]) cudaEventDestroy(g->done[r]);
        if (g->tmp[r]) cudaFree(g->tmp[r]);
    }
    if (g->fork) {
        cudaSetDevice(g->dev[0]);
        cudaEventDestroy(g->fork);
    }
    cudaSetDevice(prev);
    //@starter
    //| /* TODO: on each rank's device: destroy the streams and events, free
    //|  * the receive buffer. */
    //@end
    free(g);
}
