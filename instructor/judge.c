/* judge.c — the judge's side of judge.h: buffers, the runner's start, calls
 * and their wall clock. Built with -DJD_CUDA for device buffers (driver
 * functions through the runtime's entry point, no -lcuda) or without (host
 * buffers only: the plumbing mode). Holds no student code and loads none. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "judge.h"
#include "judge_msg.h"
#include "wb_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef JD_CUDA
#include <cuda.h>
#include <cuda_runtime_api.h>
#endif

double jd_now_us(void) { return wb_seconds() * 1e6; } /* the workbook's one clock (wb_stats.h) */

static int fail(jd *J, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(J->why, sizeof J->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* A request's nonce: splitmix64 of a count under a key the runner never
 * sees (its process holds the student's code); from the replies it has seen
 * it cannot tell the next one. */
static unsigned long long next_nonce(jd *J)
{
    unsigned long long x = J->nonce_key ^ (++J->nonce_n * 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x ? x : 1;
}

static void init(jd *J)
{
    memset(J, 0, sizeof *J);
    J->sock = -1, J->pid = -1, J->device = -1;
    J->reply_s = 60;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &J->nonce_key, sizeof J->nonce_key) != (ssize_t)sizeof J->nonce_key)
        J->nonce_key = (unsigned long long)jd_now_us() ^ ((unsigned long long)getpid() << 32);
    if (fd >= 0) close(fd);
    for (int i = 0; i < JD_MAX_BUFS; i++) J->bufs[i].id = -1, J->bufs[i].fd = -1;
}

void jd_adopt(jd *J, int sock, pid_t pid)
{
    init(J);
    J->sock = sock, J->pid = pid;
}

int jd_start_plain(jd *J, char *const argv[], const char *log_path)
{
    init(J);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) return fail(J, "socketpair: %s", strerror(errno));
    int n = 0;
    while (argv[n]) n++;
    char num[16], **av = calloc((size_t)n + 2, sizeof *av);
    if (!av) return close(sv[0]), close(sv[1]), fail(J, "out of memory");
    snprintf(num, sizeof num, "%d", sv[1]);
    for (int i = 0; i < n; i++) av[i] = argv[i];
    av[n] = num;
    fflush(NULL);
    pid_t p = fork();
    if (p < 0) return free(av), close(sv[0]), close(sv[1]), fail(J, "fork: %s", strerror(errno));
    if (p == 0) {
        int log = open(log_path ? log_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int nul = open("/dev/null", O_RDONLY);
        if (log < 0 || nul < 0 || dup2(nul, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0 || fcntl(sv[1], F_SETFD, 0) != 0)
            _exit(125);
        for (int fd = 3; fd < 1024; fd++)
            if (fd != sv[1]) close(fd);
        execv(av[0], av);
        _exit(127);
    }
    free(av);
    close(sv[1]);
    J->sock = sv[0], J->pid = p;
    return 0;
}

/* Wait for a reply: in slices, so that a runner (or the sandbox around it)
 * that has ended is noticed even where something else still holds the
 * socket's other end. 1: readable; 0: the runner ended; -1: timeout. */
static int wait_reply(jd *J)
{
    double end = jd_now_us() + J->reply_s * 1e6;
    for (;;) {
        struct pollfd p = { .fd = J->sock, .events = POLLIN };
        int r = poll(&p, 1, 100);
        if (r > 0) return 1;
        if (J->pid > 0) {
            siginfo_t si;
            memset(&si, 0, sizeof si);
            if (waitid(P_PID, (id_t)J->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == J->pid) {
                /* it ended: take what it sent before it did */
                p.revents = 0;
                return poll(&p, 1, 0) > 0 ? 1 : 0;
            }
        }
        if (jd_now_us() > end) return -1;
    }
}

int jd_call(jd *J, const jd_req *rq0, jd_rep *rp, double *wall_us)
{
    if (J->lost) return -1;
    memset(rp, 0, sizeof *rp);
    jd_req q = *rq0;
    const jd_req *rq = &q;
    q.nonce = next_nonce(J);
    double t0 = jd_now_us();
    if (jd_send_msg(J->sock, rq, sizeof *rq, -1) != 0) {
        J->lost = 1;
        return fail(J, "the runner is gone (sendmsg: %s)", strerror(errno));
    }
    int fd = -1, w = wait_reply(J), got = w == 1 ? jd_recv_msg(J->sock, rp, sizeof *rp, &fd, 0) : w;
    /* the runner asks for the judge's work inside a call (jr_back): answer, wait again */
    for (int backs = 0; got == 1 && rp->op == JD_OP_BACK && rq->op == JD_OP_CALL && J->back && rp->nonce == q.nonce;
         backs++) {
        if (fd >= 0) close(fd), fd = -1;
        if (backs >= JD_MAX_BACKS) {
            J->lost = 1;
            return fail(J, "the runner asked the judge for work more than %d times in one call", JD_MAX_BACKS);
        }
        jd_req ans;
        memset(&ans, 0, sizeof ans);
        ans.op = JD_OP_BACK;
        ans.nonce = q.nonce;
        rp->text[sizeof rp->text - 1] = 0;
        if (rp->out_len > JD_OUT_MAX) rp->out_len = JD_OUT_MAX;
        J->back(J->back_ctx, rp, &ans);
        if (ans.op != JD_OP_BACK) { /* past what the week's judge does for one request: the call ends here */
            ans.text[sizeof ans.text - 1] = 0;
            J->lost = 1;
            return fail(J, "%s", ans.text[0] ? ans.text : "the runner asked the judge for more work than one call may");
        }
        if (jd_send_msg(J->sock, &ans, sizeof ans, -1) != 0) {
            J->lost = 1;
            return fail(J, "the runner is gone (sendmsg: %s)", strerror(errno));
        }
        memset(rp, 0, sizeof *rp);
        w = wait_reply(J), got = w == 1 ? jd_recv_msg(J->sock, rp, sizeof *rp, &fd, 0) : w;
    }
    double t1 = jd_now_us();
    if (fd >= 0) close(fd);
    if (wall_us) *wall_us = t1 - t0;
    if (got != 1) {
        J->lost = 1;
        return fail(J, got == 0  ? "the runner ended without answering (it exited or was stopped)"
                       : w == -1 ? "no answer from the runner within %.0f s"
                                 : "the runner answered with a message of the wrong size or form", J->reply_s);
    }
    if (rp->nonce != q.nonce) {
        J->lost = 1;
        return fail(J, "the runner's answer does not carry its request's nonce: an answer sent before the request "
                       "(a spare or forged reply), never the runner's own");
    }
    if (rp->op != rq->op) {
        J->lost = 1;
        return fail(J, "the runner answered another request (op %d for %d)", rp->op, rq->op);
    }
    rp->text[sizeof rp->text - 1] = 0;
    if (rp->out_len > JD_OUT_MAX) rp->out_len = JD_OUT_MAX;
    return 0;
}

/* Send a request with a descriptor and take the reply; 0 when its status is 0. */
static int call_fd(jd *J, const jd_req *rq, int fd)
{
    jd_rep rp;
    if (J->lost) return -1;
    if (jd_send_msg(J->sock, rq, sizeof *rq, fd) != 0) {
        J->lost = 1;
        return fail(J, "the runner is gone (sendmsg: %s)", strerror(errno));
    }
    int f = -1, w = wait_reply(J), got = w == 1 ? jd_recv_msg(J->sock, &rp, sizeof rp, &f, 0) : w;
    if (f >= 0) close(f);
    if (got != 1 || rp.op != rq->op) {
        J->lost = 1;
        return fail(J, "the runner did not answer as it should (op %d)", rq->op);
    }
    rp.text[sizeof rp.text - 1] = 0;
    if (rp.status != 0) return fail(J, "the runner: %s", rp.text);
    return 0;
}

#ifdef JD_CUDA
static struct {
    CUresult (*Granularity)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags);
    CUresult (*Create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long);
    CUresult (*Export)(void *, CUmemGenericAllocationHandle, CUmemAllocationHandleType, unsigned long long);
    CUresult (*Reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*Map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    CUresult (*SetAccess)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*Unmap)(CUdeviceptr, size_t);
    CUresult (*AddressFree)(CUdeviceptr, size_t);
    CUresult (*Release)(CUmemGenericAllocationHandle);
} cu;

static int load_cu(void)
{
    const char *names[] = { "cuMemGetAllocationGranularity", "cuMemCreate", "cuMemExportToShareableHandle",
                            "cuMemAddressReserve", "cuMemMap", "cuMemSetAccess", "cuMemUnmap", "cuMemAddressFree",
                            "cuMemRelease" };
    void **slots[] = { (void **)&cu.Granularity, (void **)&cu.Create, (void **)&cu.Export, (void **)&cu.Reserve,
                       (void **)&cu.Map, (void **)&cu.SetAccess, (void **)&cu.Unmap, (void **)&cu.AddressFree,
                       (void **)&cu.Release };
    for (int i = 0; i < 9; i++) {
        enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion(names[i], slots[i], 12000, cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess || !*slots[i])
            return -1;
    }
    return 0;
}
#endif

int jd_hello(jd *J, int kind, int device)
{
    jd_req rq;
    jd_rep rp;
    memset(&rq, 0, sizeof rq);
    rq.op = JD_OP_HELLO;
    J->kind = kind, J->device = device;
    snprintf(rq.text, sizeof rq.text, "none");
    if (kind == JD_MEM_DEVICE) {
#ifdef JD_CUDA
        if (load_cu() != 0) return fail(J, "a driver entry point of the virtual memory API is missing");
        cudaError_t e = cudaDeviceGetPCIBusId(rq.text, (int)sizeof rq.text, device);
        if (e != cudaSuccess) return fail(J, "cudaDeviceGetPCIBusId: %s", cudaGetErrorName(e));
#else
        return fail(J, "device buffers: the judge was built without CUDA");
#endif
    }
    if (jd_call(J, &rq, &rp, NULL) != 0) return -1;
    if (rp.status != 0) return fail(J, "the runner could not start: %s", rp.text);
    return 0;
}

int jd_alloc(jd *J, size_t bytes, void **ptr) { return jd_alloc_kind(J, J->kind, bytes, ptr); }

int jd_alloc_kind(jd *J, int kind, size_t bytes, void **ptr)
{
    int id = -1;
    for (int i = 0; i < JD_MAX_BUFS && id < 0; i++)
        if (J->bufs[i].id < 0) id = i;
    if (id < 0) return fail(J, "more than %d buffers", JD_MAX_BUFS);
    if (bytes == 0) bytes = 1;
    jd_buf *b = &J->bufs[id];
    jd_req rq;
    memset(&rq, 0, sizeof rq);
    rq.op = JD_OP_BUF, rq.buf = id, rq.kind = kind;
    int fd = -1;
    if (kind == JD_MEM_HOST) {
        size_t pg = (size_t)sysconf(_SC_PAGESIZE), m = (bytes + pg - 1) / pg * pg;
        fd = memfd_create("judge-buf", MFD_CLOEXEC);
        void *p = fd >= 0 && ftruncate(fd, (off_t)m) == 0 ? mmap(NULL, m, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
        if (p == MAP_FAILED) {
            if (fd >= 0) close(fd);
            return fail(J, "memfd of %zu bytes: %s", m, strerror(errno));
        }
        b->ptr = p, b->mapped = m, rq.gran = pg;
    } else {
#ifdef JD_CUDA
        CUmemAllocationProp p;
        memset(&p, 0, sizeof p);
        p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        p.location.id = J->device;
        p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
        size_t gran = 0;
        if (cu.Granularity(&gran, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS || !gran) gran = 2u << 20;
        size_t m = (bytes + gran - 1) / gran * gran;
        CUmemGenericAllocationHandle h = 0;
        CUdeviceptr d = 0;
        CUmemAccessDesc acc = { .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = J->device },
                                .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
        CUresult r = cu.Create(&h, m, &p, 0);
        if (r != CUDA_SUCCESS) return fail(J, "cuMemCreate(%zu bytes): CUresult %d", m, (int)r);
        if (cu.Reserve(&d, m, gran, 0, 0) != CUDA_SUCCESS) return cu.Release(h), fail(J, "cuMemAddressReserve failed");
        if (cu.Map(d, m, 0, h, 0) != CUDA_SUCCESS || cu.SetAccess(d, m, &acc, 1) != CUDA_SUCCESS ||
            cu.Export(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) != CUDA_SUCCESS) {
            cu.Unmap(d, m), cu.AddressFree(d, m), cu.Release(h);
            return fail(J, "cuMemMap, cuMemSetAccess or cuMemExportToShareableHandle failed");
        }
        b->ptr = (void *)d, b->mapped = m, b->handle = (unsigned long long)h, rq.gran = gran;
#else
        return fail(J, "device buffers: the judge was built without CUDA");
#endif
    }
    b->id = id, b->kind = kind, b->bytes = bytes;
    rq.bytes = b->mapped;
    int rc = call_fd(J, &rq, fd);
    close(fd);
    if (rc != 0) {
        jd_free(J, id);
        return -1;
    }
    *ptr = b->ptr;
    return id;
}

void jd_free(jd *J, int id)
{
    if (id < 0 || id >= JD_MAX_BUFS || J->bufs[id].id < 0) return;
    jd_buf *b = &J->bufs[id];
    if (!J->lost) {
        jd_req rq;
        memset(&rq, 0, sizeof rq);
        rq.op = JD_OP_FREE, rq.buf = id;
        call_fd(J, &rq, -1);
    }
    if (b->kind == JD_MEM_HOST) munmap(b->ptr, b->mapped);
#ifdef JD_CUDA
    else {
        cu.Unmap((CUdeviceptr)b->ptr, b->mapped);
        cu.AddressFree((CUdeviceptr)b->ptr, b->mapped);
        cu.Release((CUmemGenericAllocationHandle)b->handle);
    }
#endif
    memset(b, 0, sizeof *b);
    b->id = -1, b->fd = -1;
}

int jd_stop(jd *J)
{
    for (int i = 0; i < JD_MAX_BUFS; i++) jd_free(J, J->bufs[i].id);
    if (!J->lost && J->sock >= 0) {
        jd_req rq;
        jd_rep rp;
        memset(&rq, 0, sizeof rq);
        rq.op = JD_OP_QUIT;
        double s = J->reply_s;
        J->reply_s = 5;
        jd_call(J, &rq, &rp, NULL);
        J->reply_s = s;
    }
    if (J->sock >= 0) close(J->sock);
    J->sock = -1;
    int st = -1;
    if (J->pid > 0) {
        pid_t w = 0;
        for (int i = 0; i < 100 && (w = waitpid(J->pid, &st, WNOHANG)) == 0; i++) usleep(50000);
        if (w == 0) kill(J->pid, SIGKILL), waitpid(J->pid, &st, 0);
        J->pid = -1;
    }
    return st;
}

/* The timing's trust model.
 *
 * The runner is the student's process: its reply can come whenever it
 * likes, and its own clock (rp->host_us) is only shown. The judge's clock
 * runs from just before it sends the request to the moment its own check of
 * the outputs has passed: after the reply, `look` reads a sample of hidden
 * positions of every rep's output from the judge's mapping and compares them
 * with the judge's reference. A runner that replies before its work is done
 * (a kernel still running, a thread still writing) is then either caught (a
 * sampled value is still the poison: FAIL) or gains only the time the judge's
 * look takes (look_us, subtracted anyway for everyone, so the gain is the
 * look's jitter; the runner could slow the judge's GPU while the judge
 * measures its look, to have more subtracted, so no more than
 * JD_LOOK_CAP_US is) plus whatever share of the work a sample of that size
 * misses by luck (256 samples from a run that skipped 2% of an output
 * escape with probability 0.98^256 < 0.6%; the full check after the timed
 * runs, untimed, then finds it). What this defends:
 *   - an early reply, an early exit (no reply: FAIL), garbage in the output,
 *     a status that lies (the status is not what passes: the values are);
 *   - doing the work once for k repeats: every rep of a request has its own
 *     input and output buffers with their own fresh inputs, and every rep's
 *     output is sampled and then checked in full;
 *   - timed runs told apart from checked runs: every timed run is a checked
 *     run (fresh inputs from a hidden seed, a poisoned output);
 *   - a figure, ratio or target changed in memory: they live in the judge.
 * What it does not defend:
 *   - work done before the request arrives: the runner has the buffers
 *     mapped between calls and may watch the inputs (a thread, a resident
 *     kernel) and compute as the judge fills them. An output written before
 *     the request is caught when the judge checks, just before sending, that
 *     a sample of every output is still poison (the caller's step, as in
 *     judge_w01.c); a result computed early into the runner's own memory and
 *     copied into the output inside the timed window is not: it costs the
 *     runner a copy instead of the kernel. Closing it needs fresh buffers,
 *     exported and mapped inside the timed window (the map's cost then
 *     counted for every student); not done.
 *   - the GPU shared with work the runner leaves running: its own other
 *     kernels slow the judge's look, never speed a measurement up.
 *   - special-casing the inputs (it must still produce the right values on
 *     fresh random inputs every time). */
int jd_timed_call(jd *J, const jd_req *rq, jd_rep *rp, int (*look)(void *ctx, char *why, size_t n), void *ctx,
                  double look_us, double *us)
{
    double t0 = jd_now_us();
    if (jd_call(J, rq, rp, NULL) != 0) return -1;
    if (rp->status != 0) return 1;
    double tc = jd_now_us();
    int bad = look(ctx, J->why, sizeof J->why);
    double t1 = jd_now_us();
    const double look_cal = look_us;
    if (!(look_us >= 0)) look_us = 0;
    if (look_us > JD_LOOK_CAP_US) look_us = JD_LOOK_CAP_US;
    if (getenv("JD_TRACE")) /* where a request's time goes (instructor/README.md, "Timing a judged call") */
        fprintf(stderr, "jd_timed_call: %d reps: call %.0f us (the runner's clock %.0f us), look %.0f us (alone %.0f us), %.0f us subtracted\n",
                rq->reps, tc - t0, rp->host_us, t1 - tc, look_cal, look_us);
    *us = t1 - t0 - look_us;
    if (*us < 0) *us = 0;
    return bad ? 2 : 0;
}
