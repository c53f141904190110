/* judge_runner.c — the runner's side of judge.h: the loop a runner's main
 * (linked with the student's objects) hands its socket to. It holds no
 * record writer and forms no verdict: it maps what the judge sends, calls,
 * synchronises and says what the function returned.
 *
 * Built twice: with -DJD_CUDA (device buffers through the driver's virtual
 * memory API, reached through the runtime's entry point: no -lcuda) and
 * without (host buffers only: the plumbing mode, no CUDA at all). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "judge.h"
#include "judge_msg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifdef JD_CUDA
#include <cuda.h>
#include <cuda_runtime_api.h>
#endif

typedef struct {
    int    used, kind;
    size_t bytes;
    void  *ptr;
#ifdef JD_CUDA
    CUmemGenericAllocationHandle h;
#endif
} rbuf;

static rbuf bufs[JD_MAX_BUFS];
#ifdef JD_CUDA
static int g_dev = -1;
#endif

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

#ifdef JD_CUDA
static struct {
    CUresult (*Import)(CUmemGenericAllocationHandle *, void *, CUmemAllocationHandleType);
    CUresult (*Reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*Map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    CUresult (*SetAccess)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*Unmap)(CUdeviceptr, size_t);
    CUresult (*AddressFree)(CUdeviceptr, size_t);
    CUresult (*Release)(CUmemGenericAllocationHandle);
} cu;

static int load_cu(void)
{
    const char *names[] = { "cuMemImportFromShareableHandle", "cuMemAddressReserve", "cuMemMap", "cuMemSetAccess",
                            "cuMemUnmap", "cuMemAddressFree", "cuMemRelease" };
    void **slots[] = { (void **)&cu.Import, (void **)&cu.Reserve, (void **)&cu.Map, (void **)&cu.SetAccess,
                       (void **)&cu.Unmap, (void **)&cu.AddressFree, (void **)&cu.Release };
    for (int i = 0; i < 7; i++) {
        enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion(names[i], slots[i], 12000, cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess || !*slots[i])
            return -1;
    }
    return 0;
}
#endif

static void drop(rbuf *b)
{
    if (!b->used) return;
    if (b->kind == JD_MEM_HOST) munmap(b->ptr, b->bytes);
#ifdef JD_CUDA
    else {
        cu.Unmap((CUdeviceptr)b->ptr, b->bytes);
        cu.AddressFree((CUdeviceptr)b->ptr, b->bytes);
        cu.Release(b->h);
    }
#endif
    memset(b, 0, sizeof *b);
}

/* Map the descriptor fd as buffer rq->buf; "" or what went wrong. */
static const char *map_buf(const jd_req *rq, int fd)
{
    if (rq->buf < 0 || rq->buf >= JD_MAX_BUFS || fd < 0 || rq->bytes == 0) return "bad buffer message";
    rbuf *b = &bufs[rq->buf];
    drop(b);
    if (rq->kind == JD_MEM_HOST) {
        void *p = mmap(NULL, rq->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) return "mmap failed";
        b->ptr = p;
    } else {
#ifdef JD_CUDA
        if (g_dev < 0) return "no device";
        CUmemGenericAllocationHandle h;
        if (cu.Import(&h, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) != CUDA_SUCCESS)
            return "cuMemImportFromShareableHandle failed";
        CUdeviceptr ptr = 0;
        CUmemAccessDesc acc = { .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = g_dev },
                                .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
        if (cu.Reserve(&ptr, rq->bytes, rq->gran, 0, 0) != CUDA_SUCCESS) return cu.Release(h), "cuMemAddressReserve failed";
        if (cu.Map(ptr, rq->bytes, 0, h, 0) != CUDA_SUCCESS || cu.SetAccess(ptr, rq->bytes, &acc, 1) != CUDA_SUCCESS) {
            cu.Unmap(ptr, rq->bytes), cu.AddressFree(ptr, rq->bytes), cu.Release(h);
            return "cuMemMap or cuMemSetAccess failed";
        }
        b->ptr = (void *)ptr, b->h = h;
#else
        return "device buffers: this runner was built without CUDA";
#endif
    }
    b->used = 1, b->kind = rq->kind, b->bytes = rq->bytes;
    return "";
}

static void send_rep(int s, jd_rep *r)
{
    if (jd_send_msg(s, r, sizeof *r, -1) != 0) _exit(3); /* the judge is gone */
}

static int g_sock = -1; /* the judge's socket, for jr_back */
static unsigned long long g_nonce; /* the request being served's, for jr_back */

int jr_back(jd_rep *ask, jd_req *answer)
{
    int fd = -1;
    ask->op = JD_OP_BACK;
    ask->nonce = g_nonce;
    if (g_sock < 0 || jd_send_msg(g_sock, ask, sizeof *ask, -1) != 0) return -1;
    int got = jd_recv_msg(g_sock, answer, sizeof *answer, &fd, -1);
    if (fd >= 0) close(fd);
    return got == 1 && answer->op == JD_OP_BACK ? 0 : -1;
}

int jr_serve(int s, const jr_entry *table, int n)
{
    g_sock = s;
    jd_req rq;
    jd_rep rp;
    int fd, got;
    while ((got = jd_recv_msg(s, &rq, sizeof rq, &fd, -1)) != 0) {
        memset(&rp, 0, sizeof rp);
        if (got < 0) {
            rp.status = -1;
            snprintf(rp.text, sizeof rp.text, "a message of the wrong size");
            send_rep(s, &rp);
            continue;
        }
        rp.op = rq.op;
        rp.nonce = g_nonce = rq.nonce;
        switch (rq.op) {
        case JD_OP_HELLO:
            rq.text[sizeof rq.text - 1] = 0;
            if (strcmp(rq.text, "none") != 0) {
#ifdef JD_CUDA
                int dev = -1;
                cudaError_t e = cudaDeviceGetByPCIBusId(&dev, rq.text);
                if (e == cudaSuccess) e = cudaSetDevice(dev);
                if (e == cudaSuccess && load_cu() != 0) e = cudaErrorSymbolNotFound;
                rp.status = e == cudaSuccess ? 0 : -(int)e;
                if (e == cudaSuccess) g_dev = dev;
                snprintf(rp.text, sizeof rp.text, "device %s: %s", rq.text, cudaGetErrorName(e));
#else
                rp.status = -1;
                snprintf(rp.text, sizeof rp.text, "built without CUDA");
#endif
            } else {
                snprintf(rp.text, sizeof rp.text, "host buffers only (plumbing)");
            }
            break;
        case JD_OP_BUF: {
            const char *why = map_buf(&rq, fd);
            rp.status = *why ? -1 : 0;
            snprintf(rp.text, sizeof rp.text, "%s", *why ? why : "mapped");
            break;
        }
        case JD_OP_FREE:
            if (rq.buf >= 0 && rq.buf < JD_MAX_BUFS) drop(&bufs[rq.buf]);
            break;
        case JD_OP_CALL: {
            const jr_entry *e = NULL;
            for (int i = 0; i < n && !e; i++)
                if (table[i].fn == rq.fn) e = &table[i];
            if (!e || rq.reps < 1 || rq.reps > JD_MAX_REPS || rq.nargs < 0 || rq.nargs > JD_MAX_ARGS) {
                rp.status = -1;
                snprintf(rp.text, sizeof rp.text, "bad call (exercise %d, %d reps)", rq.fn, rq.reps);
                break;
            }
            /* every pointer of every rep resolved before the first call */
            jr_args a[JD_MAX_REPS];
            const char *bad = NULL;
            for (int r = 0; r < rq.reps && !bad; r++) {
                memset(&a[r], 0, sizeof a[r]);
                for (int k = 0; k < rq.nargs; k++) {
                    int id = rq.arg_buf[r][k];
                    if (id == -1) continue;
                    if (id < 0 || id >= JD_MAX_BUFS || !bufs[id].used || rq.arg_off[r][k] > bufs[id].bytes) bad = "a buffer argument not mapped";
                    else a[r].p[k] = (char *)bufs[id].ptr + rq.arg_off[r][k];
                }
                memcpy(a[r].i64, rq.i64, sizeof rq.i64);
                memcpy(a[r].f64, rq.f64, sizeof rq.f64);
                a[r].out = rp.out, a[r].out_len = &rp.out_len, a[r].rep = r;
            }
            if (bad) {
                rp.status = -1;
                snprintf(rp.text, sizeof rp.text, "%s", bad);
                break;
            }
            double t0 = now_us();
            int st = 0;
            for (int r = 0; r < rq.reps && st == 0; r++, rp.reps_done++) st = e->call(&a[r]);
#ifdef JD_CUDA
            if (g_dev >= 0) {
                cudaError_t y = cudaDeviceSynchronize();
                if (st == 0) st = (int)y;
            }
#endif
            rp.host_us = now_us() - t0;
            rp.status = st;
            if (rp.out_len > JD_OUT_MAX) rp.out_len = JD_OUT_MAX;
            snprintf(rp.text, sizeof rp.text, "%s x%d", e->name, rp.reps_done);
            break;
        }
        case JD_OP_QUIT:
            send_rep(s, &rp);
            return 0;
        default:
            rp.status = -1;
            snprintf(rp.text, sizeof rp.text, "unknown op %d", rq.op);
        }
        if (fd >= 0) close(fd);
        send_rep(s, &rp);
    }
    return 0;
}

int jr_main(int argc, char **argv, const jr_entry *table, int n)
{
    char *end = NULL;
    long s = argc >= 2 ? strtol(argv[argc - 1], &end, 10) : -1;
    if (argc < 2 || !end || *end || s < 3) {
        fprintf(stderr, "a runner: started by a judge (instructor/judge.h), its socket's number last\n");
        return 2;
    }
    return jr_serve((int)s, table, n);
}
