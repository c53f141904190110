/* probe_ipc.c — build/instructor/probe-ipc: how device memory crosses into
 * the grader's sandbox, measured before the judge and the runner are built
 * (instructor/README.md, "The judge and the runner").
 *
 *   build/instructor/probe-ipc                the runner in the grader's sandbox
 *   build/instructor/probe-ipc --no-sandbox   the runner as a plain child: the baseline
 *   options: --device N (0), --iters N (1000 timed calls), --keep (leave the scratch folder),
 *            --plumbing (below)
 *
 * This process is the judge: it holds device memory and starts the runner
 * (this same program, copied into a scratch folder, `probe-ipc --runner FD`)
 * with sb_run and the options a checkpoint run of the grader has (GPU nodes,
 * 16 GiB, the process, file and disk limits, the multicast settings; read
 * grade_run.c), one end of a socketpair passed in (sb_opts.keep_fd). Over
 * that socket, in order:
 *
 *   hello    the runner says which namespaces it shares with the judge and
 *            opens the judge's GPU (by PCI bus id);
 *   fd-*     64 MiB from cuMemCreate, exportable as a POSIX file descriptor,
 *            filled by the judge, exported (cuMemExportToShareableHandle) and
 *            sent with SCM_RIGHTS; the runner imports, reserves, maps, sets
 *            access, checks the judge's pattern, writes its own, synchronises
 *            and unmaps; the judge checks the runner's pattern in its mapping;
 *   event-*  a cudaEventInterprocess event (cudaIpcGetEventHandle): the
 *            runner records it after a 200 ms kernel, the judge queries and
 *            waits on it;
 *   timing   the round trip of a call (a message, the runner's empty kernel
 *            and stream sync, the reply), of a bare message, and of the same
 *            empty kernel in the judge alone: medians of --iters;
 *   legacy-* last, the fd-* exchange through cudaIpcGetMemHandle /
 *            cudaIpcOpenMemHandle on cudaMalloc memory (documented to need
 *            shared PID and IPC namespaces).
 *
 * --plumbing makes no CUDA call: the runner's start, the socket and a
 * memfd passed with SCM_RIGHTS only (a check of the probe itself on a
 * machine without a GPU; it says nothing about device memory).
 *
 * Output: one line a step, "SIDE STEP STATUS detail" (SIDE judge, runner or
 * sandbox; STATUS PASS, FAIL, SKIP, INFO or TIME), the CUDA result names in
 * the detail, then a verdict line. Exit 0: the file-descriptor path worked
 * both ways; 1: it did not (the lines say where); 2: no GPU (said, nothing
 * tried), or the sandbox or the runner could not be started.
 *
 * Driver API functions come through the runtime's entry point
 * (cudaGetDriverEntryPointByVersion), as everywhere in the workbook: no
 * -lcuda. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade.h" /* the limits of a checkpoint run: RUN_MEM, FILE_LIMIT, DISK_QUOTA, MAX_PROCS */
#include "probe_ipc.h"
#include "sandbox.h"
#include "wb_multicast.h"

#define BYTES      (64u << 20)
#define WALL_S     120.0   /* the sandbox's clock; the grader's is LIMIT + 10 */
#define REPLY_S    60      /* the longest the judge waits for one answer */
#define SPIN_NS    200000000ull

/* Seeds of the four patterns: the judge's and the runner's, for each path. */
enum { SEED_FD_J = 0x1111a5a5u, SEED_FD_R = 0x2222c3c3u, SEED_LG_J = 0x33335a5au, SEED_LG_R = 0x44443c3cu };

/* ------------------------------------------------------------ messages */

enum { OP_HELLO = 1, OP_FD, OP_LEGACY, OP_EVENT, OP_PING, OP_CALL, OP_QUIT, OP_MEMFD };

/* Judge to runner, one SOCK_SEQPACKET record (a descriptor may ride along). */
typedef struct {
    int                op;
    uint32_t           seed_in, seed_out;   /* the pattern to find, the one to write */
    unsigned long long bytes, granularity;
    unsigned char      handle[64];          /* cudaIpcMemHandle_t or cudaIpcEventHandle_t */
    char               text[384];           /* hello: the judge's bus id, then its namespaces */
} request;

/* Runner to judge: text records "STEP STATUS detail", each op ended by "end". */
#define REPLY_MAX 600

static int send_request(int s, const request *m, int pass_fd)
{
    struct iovec iov = { (void *)m, sizeof *m };
    union {
        char           buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (pass_fd >= 0) {
        memset(&u, 0, sizeof u);
        h.msg_control = u.buf;
        h.msg_controllen = sizeof u.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&h);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
    }
    return sendmsg(s, &h, MSG_NOSIGNAL) == (ssize_t)sizeof *m ? 0 : -1;
}

/* The next request, and the descriptor that came with it (-1: none); 0 at
 * the judge's end of the socket. */
static int recv_request(int s, request *m, int *fd)
{
    struct iovec iov = { m, sizeof *m };
    union {
        char           buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
    *fd = -1;
    ssize_t n = recvmsg(s, &h, MSG_CMSG_CLOEXEC);
    if (n <= 0) return 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) memcpy(fd, CMSG_DATA(c), sizeof(int));
    return n == (ssize_t)sizeof *m;
}

static void reply(int s, const char *fmt, ...)
{
    char line[REPLY_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof line) n = (int)sizeof line - 1;
    if (send(s, line, (size_t)n + 1, MSG_NOSIGNAL) < 0) _exit(3); /* the judge is gone */
}

/* One reply into line (NUL-terminated); 1, or 0 when none came in REPLY_S
 * seconds or the socket closed (why says which). */
static int recv_reply(int s, char *line, const char **why)
{
    struct pollfd p = { .fd = s, .events = POLLIN };
    int r = poll(&p, 1, REPLY_S * 1000);
    if (r <= 0) return *why = "no answer in 60 s", 0;
    ssize_t n = recv(s, line, REPLY_MAX - 1, 0);
    if (n <= 0) return *why = "the runner closed the socket (it exited or was stopped)", 0;
    line[n] = 0;
    return 1;
}

/* ------------------------------------------------------- the driver API */

typedef struct {
    CUresult (*GetErrorName)(CUresult, const char **);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*MemGetAllocationGranularity)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags);
    CUresult (*MemCreate)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long);
    CUresult (*MemExportToShareableHandle)(void *, CUmemGenericAllocationHandle, CUmemAllocationHandleType,
                                           unsigned long long);
    CUresult (*MemImportFromShareableHandle)(CUmemGenericAllocationHandle *, void *, CUmemAllocationHandleType);
    CUresult (*MemAddressReserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*MemMap)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    CUresult (*MemSetAccess)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*MemUnmap)(CUdeviceptr, size_t);
    CUresult (*MemAddressFree)(CUdeviceptr, size_t);
    CUresult (*MemRelease)(CUmemGenericAllocationHandle);
} driver;

static driver drv;

/* Every function of drv through the runtime (the 12.0 prototypes); NULL or
 * the name of the first one missing. */
static const char *load_driver(void)
{
    static const struct {
        const char *name;
        size_t      off;
    } fns[] = {
        { "cuGetErrorName", offsetof(driver, GetErrorName) },
        { "cuDeviceGet", offsetof(driver, DeviceGet) },
        { "cuDeviceGetAttribute", offsetof(driver, DeviceGetAttribute) },
        { "cuMemGetAllocationGranularity", offsetof(driver, MemGetAllocationGranularity) },
        { "cuMemCreate", offsetof(driver, MemCreate) },
        { "cuMemExportToShareableHandle", offsetof(driver, MemExportToShareableHandle) },
        { "cuMemImportFromShareableHandle", offsetof(driver, MemImportFromShareableHandle) },
        { "cuMemAddressReserve", offsetof(driver, MemAddressReserve) },
        { "cuMemMap", offsetof(driver, MemMap) },
        { "cuMemSetAccess", offsetof(driver, MemSetAccess) },
        { "cuMemUnmap", offsetof(driver, MemUnmap) },
        { "cuMemAddressFree", offsetof(driver, MemAddressFree) },
        { "cuMemRelease", offsetof(driver, MemRelease) },
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        void *p = NULL;
        enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion(fns[i].name, &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess || !p)
            return fns[i].name;
        memcpy((char *)&drv + fns[i].off, &p, sizeof p);
    }
    return NULL;
}

static const char *cu_name(CUresult r)
{
    static char buf[8][48];
    static int k;
    const char *s = NULL;
    if (drv.GetErrorName && drv.GetErrorName(r, &s) == CUDA_SUCCESS && s) return s;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "CUresult %d", (int)r);
    return buf[k];
}

static const char *rt_name(cudaError_t e) { return cudaGetErrorName(e); }

/* ------------------------------------------------------------- patterns */

static uint32_t *host_words; /* BYTES of host memory, for the checks */

/* Compare device memory with the pattern of seed; 0 when equal, else
 * what differs (and the copy's error) in why. */
static int check_pattern(const void *dev, size_t bytes, uint32_t seed, char *why, size_t n)
{
    size_t words = bytes / 4, bad = 0, first = 0;
    cudaError_t e = cudaMemcpy(host_words, dev, bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return snprintf(why, n, "cudaMemcpy to the host: %s", rt_name(e)), -1;
    for (size_t i = 0; i < words; i++)
        if (host_words[i] != probe_word(i, seed) && bad++ == 0) first = i;
    if (!bad) return snprintf(why, n, "all %zu words as written (cudaMemcpy cudaSuccess)", words), 0;
    snprintf(why, n, "%zu of %zu words differ, the first at word %zu: 0x%08x, not 0x%08x", bad, words, first,
             host_words[first], probe_word(first, seed));
    return -1;
}

/* Fill and wait; cudaSuccess or the first error, named in what. */
static cudaError_t write_pattern(void *dev, size_t bytes, uint32_t seed, cudaStream_t s, char *what, size_t n)
{
    cudaError_t e = probe_fill(dev, bytes / 4, seed, s), f = cudaSuccess;
    if (e == cudaSuccess) f = cudaStreamSynchronize(s);
    snprintf(what, n, "fill kernel %s, cudaStreamSynchronize %s", rt_name(e), e == cudaSuccess ? rt_name(f) : "-");
    return e != cudaSuccess ? e : f;
}

/* ------------------------------------------------------------ namespaces */

static const char *const ns_kinds[] = { "user", "pid", "ipc", "net", "mnt", NULL };

/* "user:[N] pid:[N] ..." for this process. */
static void my_namespaces(char *out, size_t n)
{
    out[0] = 0;
    for (int i = 0; ns_kinds[i]; i++) {
        char p[64], t[128] = "?";
        snprintf(p, sizeof p, "/proc/self/ns/%s", ns_kinds[i]);
        ssize_t k = readlink(p, t, sizeof t - 1);
        if (k > 0) t[k] = 0;
        size_t used = strlen(out);
        snprintf(out + used, n - used, "%s%s", used ? " " : "", k > 0 ? t : "?");
    }
}

/* ---------------------------------------------------------------- runner */

static int runner_main(int s)
{
    request m;
    int fd, dev = -1, spinning = 0;
    cudaStream_t stream = NULL;
    cudaEvent_t shared_ev = NULL;
    char what[300], why[300];
    host_words = malloc(BYTES);
    const char *missing = NULL;
    while (recv_request(s, &m, &fd)) {
        if (spinning) cudaStreamSynchronize(stream), spinning = 0; /* the event test's kernel */
        switch (m.op) {
        case OP_HELLO: {
            char mine[384], same[200] = "";
            my_namespaces(mine, sizeof mine);
            const char *theirs = strchr(m.text, ' ');
            theirs = theirs ? theirs + 1 : "";
            /* one word a namespace: "shared" with the judge or its "own" */
            const char *a = mine, *b = theirs;
            for (int i = 0; ns_kinds[i]; i++) {
                size_t la = strcspn(a, " "), lb = strcspn(b, " ");
                size_t used = strlen(same);
                snprintf(same + used, sizeof same - used, "%s%s %s", i ? ", " : "", ns_kinds[i],
                         la == lb && strncmp(a, b, la) == 0 ? "shared" : "own");
                a += la + (a[la] == ' '), b += lb + (b[lb] == ' ');
            }
            char bus[64];
            snprintf(bus, sizeof bus, "%.*s", (int)strcspn(m.text, " "), m.text);
            if (!strcmp(bus, "none")) { /* --plumbing: no CUDA at all */
                reply(s, "hello %s pid %d, uid %d; namespaces (vs the judge's): %s; no GPU asked for (--plumbing)",
                      host_words ? "PASS" : "FAIL", (int)getpid(), (int)getuid(), same);
                break;
            }
            missing = load_driver();
            cudaError_t e = cudaDeviceGetByPCIBusId(&dev, bus), f = cudaErrorUnknown, g = cudaErrorUnknown;
            if (e == cudaSuccess) f = cudaSetDevice(dev);
            if (e == cudaSuccess && f == cudaSuccess) g = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
            int ok = e == cudaSuccess && f == cudaSuccess && g == cudaSuccess && host_words && !missing;
            reply(s, "hello %s pid %d, uid %d; namespaces (vs the judge's): %s; cudaDeviceGetByPCIBusId(%s) %s, "
                  "cudaSetDevice %s, cudaStreamCreate %s%s%s",
                  ok ? "PASS" : "FAIL", (int)getpid(), (int)getuid(), same, bus, rt_name(e),
                  e == cudaSuccess ? rt_name(f) : "-", e == cudaSuccess && f == cudaSuccess ? rt_name(g) : "-",
                  missing ? "; driver entry point missing: " : "", missing ? missing : "");
            if (!ok) dev = -1;
            break;
        }
        case OP_FD: {
            if (dev < 0) {
                if (fd >= 0) close(fd);
                reply(s, "fd-receive SKIP no device (see hello)");
                break;
            }
            if (fd < 0) {
                reply(s, "fd-receive FAIL no descriptor came with the message (SCM_RIGHTS)");
                break;
            }
            char p[64], t[200] = "?";
            snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
            ssize_t k = readlink(p, t, sizeof t - 1);
            if (k > 0) t[k] = 0;
            reply(s, "fd-receive PASS descriptor %d, a link to %s", fd, t);
            CUmemGenericAllocationHandle h;
            CUresult r = drv.MemImportFromShareableHandle(&h, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
            close(fd);
            reply(s, "fd-import %s cuMemImportFromShareableHandle %s", r == CUDA_SUCCESS ? "PASS" : "FAIL", cu_name(r));
            if (r != CUDA_SUCCESS) break;
            CUdeviceptr ptr = 0;
            CUresult r1 = drv.MemAddressReserve(&ptr, m.bytes, m.granularity, 0, 0), r2 = CUDA_ERROR_UNKNOWN,
                     r3 = CUDA_ERROR_UNKNOWN;
            if (r1 == CUDA_SUCCESS) r2 = drv.MemMap(ptr, m.bytes, 0, h, 0);
            CUmemAccessDesc acc = { .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev },
                                    .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
            if (r2 == CUDA_SUCCESS) r3 = drv.MemSetAccess(ptr, m.bytes, &acc, 1);
            int mapped = r3 == CUDA_SUCCESS;
            reply(s, "fd-map %s cuMemAddressReserve %s, cuMemMap %s, cuMemSetAccess %s", mapped ? "PASS" : "FAIL",
                  cu_name(r1), r1 == CUDA_SUCCESS ? cu_name(r2) : "-", r2 == CUDA_SUCCESS ? cu_name(r3) : "-");
            if (mapped) {
                int rd = check_pattern((void *)ptr, m.bytes, m.seed_in, why, sizeof why);
                reply(s, "fd-read %s the judge's pattern: %s", rd == 0 ? "PASS" : "FAIL", why);
                cudaError_t e = write_pattern((void *)ptr, m.bytes, m.seed_out, stream, what, sizeof what);
                reply(s, "fd-write %s the runner's pattern: %s", e == cudaSuccess ? "PASS" : "FAIL", what);
            }
            CUresult u1 = r2 == CUDA_SUCCESS ? drv.MemUnmap(ptr, m.bytes) : CUDA_SUCCESS;
            CUresult u2 = r1 == CUDA_SUCCESS ? drv.MemAddressFree(ptr, m.bytes) : CUDA_SUCCESS;
            CUresult u3 = drv.MemRelease(h);
            reply(s, "fd-release %s cuMemUnmap %s, cuMemAddressFree %s, cuMemRelease %s (the judge's allocation "
                  "must outlive this)",
                  u1 == CUDA_SUCCESS && u2 == CUDA_SUCCESS && u3 == CUDA_SUCCESS ? "PASS" : "FAIL", cu_name(u1),
                  cu_name(u2), cu_name(u3));
            break;
        }
        case OP_LEGACY: {
            if (fd >= 0) close(fd);
            if (dev < 0) {
                reply(s, "legacy-open SKIP no device (see hello)");
                break;
            }
            cudaIpcMemHandle_t h;
            memcpy(&h, m.handle, sizeof h);
            void *p = NULL;
            cudaError_t e = cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess);
            reply(s, "legacy-open %s cudaIpcOpenMemHandle %s (%s)", e == cudaSuccess ? "PASS" : "FAIL", rt_name(e),
                  cudaGetErrorString(e));
            if (e != cudaSuccess) {
                cudaGetLastError(); /* not sticky: clear it for what follows */
                break;
            }
            int rd = check_pattern(p, m.bytes, m.seed_in, why, sizeof why);
            reply(s, "legacy-read %s the judge's pattern: %s", rd == 0 ? "PASS" : "FAIL", why);
            cudaError_t w = write_pattern(p, m.bytes, m.seed_out, stream, what, sizeof what);
            cudaError_t c = cudaIpcCloseMemHandle(p);
            reply(s, "legacy-write %s the runner's pattern: %s; cudaIpcCloseMemHandle %s",
                  w == cudaSuccess && c == cudaSuccess ? "PASS" : "FAIL", what, rt_name(c));
            break;
        }
        case OP_EVENT: {
            if (fd >= 0) close(fd);
            if (dev < 0) {
                reply(s, "event-open SKIP no device (see hello)");
                break;
            }
            cudaIpcEventHandle_t h;
            memcpy(&h, m.handle, sizeof h);
            if (shared_ev) cudaEventDestroy(shared_ev), shared_ev = NULL;
            cudaError_t e = cudaIpcOpenEventHandle(&shared_ev, h);
            reply(s, "event-open %s cudaIpcOpenEventHandle %s", e == cudaSuccess ? "PASS" : "FAIL", rt_name(e));
            if (e != cudaSuccess) {
                cudaGetLastError();
                shared_ev = NULL;
                break;
            }
            cudaError_t k = probe_spin(SPIN_NS, stream), r = cudaErrorUnknown;
            if (k == cudaSuccess) r = cudaEventRecord(shared_ev, stream), spinning = 1;
            reply(s, "event-record %s a %llu ms kernel %s, then cudaEventRecord %s on the runner's stream (not waited for)",
                  k == cudaSuccess && r == cudaSuccess ? "PASS" : "FAIL", SPIN_NS / 1000000, rt_name(k),
                  k == cudaSuccess ? rt_name(r) : "-");
            break;
        }
        case OP_MEMFD: { /* --plumbing: host memory behind a descriptor, as fd-* passes device memory */
            if (fd < 0) {
                reply(s, "memfd-receive FAIL no descriptor came with the message (SCM_RIGHTS)");
                break;
            }
            char p[64], t[200] = "?";
            snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
            ssize_t k = readlink(p, t, sizeof t - 1);
            if (k > 0) t[k] = 0;
            reply(s, "memfd-receive PASS descriptor %d, a link to %s", fd, t);
            uint32_t *w = mmap(NULL, m.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            close(fd);
            if (w == MAP_FAILED) {
                reply(s, "memfd-map FAIL mmap: %s", strerror(errno));
                break;
            }
            size_t bad = 0, words = m.bytes / 4;
            for (size_t i = 0; i < words; i++) bad += w[i] != probe_word(i, m.seed_in);
            reply(s, "memfd-read %s %zu of %zu words differ from the judge's pattern", bad ? "FAIL" : "PASS", bad, words);
            for (size_t i = 0; i < words; i++) w[i] = probe_word(i, m.seed_out);
            munmap(w, m.bytes);
            reply(s, "memfd-write PASS the runner's pattern written, unmapped");
            break;
        }
        case OP_PING:
            if (fd >= 0) close(fd);
            reply(s, "pong");
            continue; /* no "end": one reply */
        case OP_CALL: {
            if (fd >= 0) close(fd);
            cudaError_t e = dev < 0 ? cudaErrorNoDevice : probe_empty(stream);
            if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
            reply(s, "%s", rt_name(e));
            continue;
        }
        case OP_QUIT:
            if (shared_ev) cudaEventDestroy(shared_ev);
            reply(s, "end");
            return 0;
        default:
            if (fd >= 0) close(fd);
            reply(s, "op FAIL unknown request %d", m.op);
        }
        reply(s, "end");
    }
    return 0; /* the judge closed its end */
}

/* ----------------------------------------------------------------- judge */

static int g_sock = -1;
static int g_runner_lost;

static void line(const char *side, const char *step, const char *status, const char *fmt, ...)
{
    char detail[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    printf("%-7s %-14s %-4s %s\n", side, step, status, detail);
    fflush(stdout);
}

/* Send a request, print the runner's replies up to "end"; returns 1 when a
 * reply "<want> PASS ..." came (want NULL: 1 when every reply came). */
static int exchange(const request *m, int pass_fd, const char *want)
{
    if (g_runner_lost) return 0;
    if (send_request(g_sock, m, pass_fd) != 0) {
        line("judge", "send", "FAIL", "sendmsg to the runner: %s", strerror(errno));
        g_runner_lost = 1;
        return 0;
    }
    int got = want ? 0 : 1;
    char r[REPLY_MAX];
    const char *why;
    for (;;) {
        if (!recv_reply(g_sock, r, &why)) {
            line("judge", "runner", "FAIL", "%s", why);
            g_runner_lost = 1;
            return 0;
        }
        if (!strcmp(r, "end")) return got;
        char step[32] = "", status[8] = "";
        int off = 0;
        if (sscanf(r, "%31s %7s %n", step, status, &off) < 2) {
            line("runner", "?", "INFO", "%s", r);
            continue;
        }
        line("runner", step, status, "%s", r + off);
        if (want && !strcmp(step, want) && !strcmp(status, "PASS")) got = 1;
    }
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* "median M us (p10 A, p90 B, min C) over N" of t[0..n), sorted here. */
static void summary(double *t, int n, char *out, size_t sz)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    snprintf(out, sz, "median %.1f us (p10 %.1f, p90 %.1f, min %.1f) over %d", t[n / 2], t[n / 10], t[n * 9 / 10],
             t[0], n);
}

/* One round trip of a one-reply op; <0 when the runner did not answer as it should. */
static double round_trip(int op)
{
    request m = { .op = op };
    char r[REPLY_MAX];
    const char *why;
    double t0 = now_us();
    if (send_request(g_sock, &m, -1) != 0) return -1;
    if (!recv_reply(g_sock, r, &why)) return -1;
    double t = now_us() - t0;
    if (op == OP_PING ? strcmp(r, "pong") != 0 : strcmp(r, "cudaSuccess") != 0) {
        line("runner", op == OP_PING ? "ping" : "call", "FAIL", "%s", r);
        return -2;
    }
    return t;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)f;
    if (flag == FTW_DP) rmdir(p);
    else unlink(p);
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: probe-ipc [--no-sandbox] [--plumbing] [--device N] [--iters N] [--keep]\n");
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--runner")) return runner_main(atoi(argv[2]));
    int sandbox = 1, device = 0, iters = 1000, keep = 0, plumbing = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--no-sandbox")) sandbox = 0;
        else if (!strcmp(argv[i], "--plumbing")) plumbing = 1;
        else if (!strcmp(argv[i], "--keep")) keep = 1;
        else if (!strcmp(argv[i], "--device") && i + 1 < argc) device = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
        else return usage(), 2;
    }
    if (iters < 10) iters = 10;
    request m;
    int fd_ok = 0, legacy_ok = 0, event_ok = 0, started = 0;
    cudaStream_t js = NULL;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("probe-ipc: the runner %s\n",
           sandbox ? "in the grader's sandbox (bubblewrap: own user, PID, IPC, network and mount namespaces; "
                     "the options of a checkpoint run)"
                   : "as a plain child process (--no-sandbox: the baseline, every namespace shared)");

    if (plumbing)
        printf("probe-ipc: --plumbing: no CUDA call is made; the runner's start, the socket and a descriptor passed with "
               "SCM_RIGHTS (host memory, memfd) are checked; nothing is learnt about device memory\n");
    /* 1. a GPU, or nothing is tried */
    const char *ng = plumbing ? NULL : getenv("WB_NO_GPU");
    if (ng && !strcmp(ng, "1")) {
        line("judge", "gpu", "SKIP", "WB_NO_GPU=1 is set: nothing was tried");
        return 2;
    }
    int count = 0;
    cudaError_t e = plumbing ? cudaSuccess : cudaGetDeviceCount(&count);
    if (plumbing) count = device + 1;
    if (e != cudaSuccess || count == 0) {
        line("judge", "gpu", "SKIP", "no GPU here (cudaGetDeviceCount: %s, %d devices): nothing was tried",
             rt_name(e), count);
        return 2;
    }
    if (device < 0 || device >= count) {
        line("judge", "gpu", "FAIL", "--device %d: this host has %d", device, count);
        return 2;
    }

    /* 2. the scratch folder, the runner in it, the socket */
    char base[] = "/tmp/wb-probe-ipc-XXXXXX", scratch[64], runner[96], logp[64], why[512];
    if (!mkdtemp(base)) return line("judge", "scratch", "FAIL", "mkdtemp: %s", strerror(errno)), 2;
    chmod(base, 0755); /* a root grader's sandbox user (65534) must pass it */
    snprintf(scratch, sizeof scratch, "%s/scratch", base);
    snprintf(runner, sizeof runner, "%s/probe-ipc", scratch);
    snprintf(logp, sizeof logp, "%s/runner.log", base);
    int rc = 2;
    pid_t child = -1;
    int sv[2] = { -1, -1 };
    if (mkdir(scratch, 0755) != 0 || sb_copy_exe("/proc/self/exe", runner) != 0) {
        line("judge", "scratch", "FAIL", "cannot copy this program into %s: %s", scratch, strerror(errno));
        goto out;
    }
    sb_opts o;
    memset(&o, 0, sizeof o);
    static const char *env[16];
    static char cvd[600];
    static const char *ro[3];
    static const char *hide[2];
    static char cuda_real[PATH_MAX], root_real[PATH_MAX];
    if (sandbox) {
        if (!sb_available(NULL, why)) {
            line("judge", "sandbox", "FAIL", "%s", why);
            goto out;
        }
        if (!sb_reachable(scratch, why)) {
            line("judge", "sandbox", "FAIL", "%s", why);
            goto out;
        }
        /* as run_checkpoint (grade_run.c) and sandbox_opts (grade_build.c) set them */
        int k = 0, r = 0;
        for (; wb_multicast_off_env[k]; k++) env[k] = wb_multicast_off_env[k];
        if (getenv("CUDA_VISIBLE_DEVICES")) {
            snprintf(cvd, sizeof cvd, "CUDA_VISIBLE_DEVICES=%s", getenv("CUDA_VISIBLE_DEVICES"));
            env[k++] = cvd;
        }
        env[k] = NULL;
        if (realpath("/usr/local/cuda", cuda_real)) ro[r++] = cuda_real; /* the toolkit, as the grader shows it */
        ro[r] = NULL;
        if (getcwd(root_real, sizeof root_real)) hide[0] = root_real; /* the workbook this runs from */
        o.scratch = scratch;
        o.ro_binds = ro;
        o.hide = hide;
        o.env = env;
        o.max_procs = MAX_PROCS;
        o.file_bytes = FILE_LIMIT;
        o.disk_bytes = DISK_QUOTA;
        o.gpu = 1;
        o.wall_s = WALL_S;
        o.mem_bytes = RUN_MEM;
        o.log_path = logp;
        struct stat st;
        if (stat("/usr/local/nvidia/lib64", &st) == 0 && S_ISDIR(st.st_mode)) o.ld_library_path = "/usr/local/nvidia/lib64";
    }
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        line("judge", "socket", "FAIL", "socketpair: %s", strerror(errno));
        goto out;
    }
    host_words = malloc(BYTES);
    if (!host_words) {
        line("judge", "memory", "FAIL", "no 64 MiB of host memory");
        goto out;
    }

    /* 3. start the runner (before this process makes a CUDA context: the
     *    child never uses CUDA, it only starts the sandbox or the runner) */
    fflush(NULL);
    child = fork();
    if (child < 0) {
        line("judge", "fork", "FAIL", "%s", strerror(errno));
        goto out;
    }
    if (child == 0) {
        close(sv[0]);
        char num[16];
        snprintf(num, sizeof num, "%d", sv[1]);
        char *rargv[] = { runner, "--runner", num, NULL };
        if (sandbox) {
            o.keep_fd = sv[1];
            sb_result r;
            if (sb_run(&o, rargv, &r) != 0) {
                line("sandbox", "start", "FAIL", "%s", r.why);
                _exit(2);
            }
            line("sandbox", "end", r.exit_code == 0 ? "PASS" : "FAIL",
                 "the runner's sandbox ended: exit %d, signal %d, limit %s, %.2f s, memory capped by %s", r.exit_code,
                 r.signal, sb_limit_name(r.limit), r.seconds, r.mem_cgroup ? "a cgroup" : "RLIMIT_DATA or nothing");
            _exit(r.exit_code == 0 ? 0 : 1);
        }
        int log = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (log < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0 || fcntl(sv[1], F_SETFD, 0) != 0) _exit(125);
        for (int fd = 3; fd < 1024; fd++)
            if (fd != sv[1]) close(fd);
        execv(runner, rargv);
        _exit(127);
    }
    close(sv[1]);
    sv[1] = -1;
    g_sock = sv[0];

    if (plumbing) {
        memset(&m, 0, sizeof m);
        m.op = OP_HELLO;
        char ns[300];
        my_namespaces(ns, sizeof ns);
        snprintf(m.text, sizeof m.text, "none %s", ns);
        started = exchange(&m, -1, "hello");
        if (!started) goto stop;
        int mfd = memfd_create("probe-ipc", MFD_CLOEXEC);
        const size_t mb = 1u << 20;
        uint32_t *w = mfd >= 0 && ftruncate(mfd, (off_t)mb) == 0
                          ? mmap(NULL, mb, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0) : MAP_FAILED;
        if (w == MAP_FAILED) {
            line("judge", "memfd", "FAIL", "memfd_create, ftruncate or mmap: %s", strerror(errno));
            goto stop;
        }
        for (size_t i = 0; i < mb / 4; i++) w[i] = probe_word(i, SEED_FD_J);
        memset(&m, 0, sizeof m);
        m.op = OP_MEMFD, m.seed_in = SEED_FD_J, m.seed_out = SEED_FD_R, m.bytes = mb;
        if (exchange(&m, mfd, "memfd-write")) {
            size_t bad = 0;
            for (size_t i = 0; i < mb / 4; i++) bad += w[i] != probe_word(i, SEED_FD_R);
            fd_ok = bad == 0;
            line("judge", "memfd-verify", fd_ok ? "PASS" : "FAIL", "%zu of %zu words differ from the runner's pattern",
                 bad, mb / 4);
        }
        munmap(w, mb);
        close(mfd);
        double *t = malloc(sizeof *t * (size_t)iters);
        int ok = t && !g_runner_lost;
        for (int i = 0; ok && i < 50; i++) ok = round_trip(OP_PING) >= 0;
        for (int i = 0; ok && i < iters; i++) ok = (t[i] = round_trip(OP_PING)) >= 0;
        char sm[200];
        if (ok) summary(t, iters, sm, sizeof sm), line("judge", "ping-rtt", "TIME", "%s: a message to the runner and its reply", sm);
        free(t);
        line("judge", "verdict", fd_ok ? "PASS" : "FAIL", "plumbing %s: a descriptor %s; no GPU was used",
             sandbox ? "in the sandbox" : "without the sandbox", fd_ok ? "crossed and both sides saw the other's writes" : "did not cross");
        goto stop;
    }

    /* 4. the judge's device */
    e = cudaSetDevice(device);
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&js, cudaStreamNonBlocking);
    char bus[32] = "";
    if (e == cudaSuccess) e = cudaDeviceGetPCIBusId(bus, sizeof bus, device);
    struct cudaDeviceProp prop;
    memset(&prop, 0, sizeof prop);
    cudaGetDeviceProperties(&prop, device);
    int dv = 0, rv = 0;
    cudaDriverGetVersion(&dv);
    cudaRuntimeGetVersion(&rv);
    const char *missing = load_driver();
    if (e != cudaSuccess || missing) {
        line("judge", "gpu", "FAIL", "device %d: %s%s%s", device, rt_name(e), missing ? "; driver entry point missing: " : "",
             missing ? missing : "");
        goto stop;
    }
    line("judge", "gpu", "INFO", "device %d: %s, sm_%d%d, bus %s; driver API %d.%d, runtime %d.%d", device, prop.name,
         prop.major, prop.minor, bus, dv / 1000, dv % 1000 / 10, rv / 1000, rv % 1000 / 10);

    memset(&m, 0, sizeof m);
    m.op = OP_HELLO;
    char ns[300];
    my_namespaces(ns, sizeof ns);
    snprintf(m.text, sizeof m.text, "%s %s", bus, ns);
    started = exchange(&m, -1, "hello");
    if (!started) goto stop;

    /* 5. the file-descriptor path */
    {
        CUmemAllocationProp p;
        memset(&p, 0, sizeof p);
        p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        p.location.id = device;
        p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
        /* what the device says it supports (the programming guide's query first) */
        CUdevice cd = 0;
        int vmm = -1, posix = -1;
        CUresult a0 = drv.DeviceGet(&cd, device);
        if (a0 == CUDA_SUCCESS) a0 = drv.DeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, cd);
        if (a0 == CUDA_SUCCESS)
            a0 = drv.DeviceGetAttribute(&posix, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, cd);
        line("judge", "fd-support", vmm == 1 && posix == 1 ? "PASS" : "FAIL",
             "cuDeviceGetAttribute %s: virtual memory management %d, POSIX file descriptor handles %d", cu_name(a0),
             vmm, posix);
        size_t gmin = 0, grec = 0;
        CUresult g1 = drv.MemGetAllocationGranularity(&gmin, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
        CUresult g2 = drv.MemGetAllocationGranularity(&grec, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
        size_t gran = g1 == CUDA_SUCCESS && gmin ? gmin : 2u << 20;
        size_t bytes = (BYTES + gran - 1) / gran * gran;
        CUmemGenericAllocationHandle h = 0;
        CUresult c = g1 == CUDA_SUCCESS ? drv.MemCreate(&h, bytes, &p, 0) : CUDA_ERROR_UNKNOWN;
        CUdeviceptr ptr = 0;
        CUresult r1 = CUDA_ERROR_UNKNOWN, r2 = CUDA_ERROR_UNKNOWN, r3 = CUDA_ERROR_UNKNOWN;
        if (c == CUDA_SUCCESS) r1 = drv.MemAddressReserve(&ptr, bytes, gran, 0, 0);
        if (r1 == CUDA_SUCCESS) r2 = drv.MemMap(ptr, bytes, 0, h, 0);
        CUmemAccessDesc acc = { .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = device },
                                .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
        if (r2 == CUDA_SUCCESS) r3 = drv.MemSetAccess(ptr, bytes, &acc, 1);
        int alloc_ok = r3 == CUDA_SUCCESS;
        line("judge", "fd-alloc", alloc_ok ? "PASS" : "FAIL",
             "cuMemGetAllocationGranularity %s (minimum %zu KiB; recommended %zu KiB, %s); cuMemCreate(%zu MiB, "
             "POSIX fd handle) %s; cuMemAddressReserve %s, cuMemMap %s, cuMemSetAccess %s",
             cu_name(g1), gmin >> 10, grec >> 10, cu_name(g2), bytes >> 20, g1 == CUDA_SUCCESS ? cu_name(c) : "-",
             c == CUDA_SUCCESS ? cu_name(r1) : "-", r1 == CUDA_SUCCESS ? cu_name(r2) : "-",
             r2 == CUDA_SUCCESS ? cu_name(r3) : "-");
        int xfd = -1;
        if (alloc_ok) {
            char what[300];
            cudaError_t w = write_pattern((void *)ptr, bytes, SEED_FD_J, js, what, sizeof what);
            int chk = w == cudaSuccess ? check_pattern((void *)ptr, bytes, SEED_FD_J, why, sizeof why) : -1;
            line("judge", "fd-fill", w == cudaSuccess && chk == 0 ? "PASS" : "FAIL", "the judge's pattern: %s; %s",
                 what, w == cudaSuccess ? why : "-");
            CUresult x = drv.MemExportToShareableHandle(&xfd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
            char pth[64], t[200] = "?";
            snprintf(pth, sizeof pth, "/proc/self/fd/%d", xfd);
            ssize_t k = x == CUDA_SUCCESS ? readlink(pth, t, sizeof t - 1) : -1;
            if (k > 0) t[k] = 0;
            line("judge", "fd-export", x == CUDA_SUCCESS ? "PASS" : "FAIL",
                 "cuMemExportToShareableHandle %s: descriptor %d, a link to %s", cu_name(x), xfd, t);
            if (x != CUDA_SUCCESS) xfd = -1;
        }
        if (xfd >= 0) {
            memset(&m, 0, sizeof m);
            m.op = OP_FD, m.seed_in = SEED_FD_J, m.seed_out = SEED_FD_R, m.bytes = bytes, m.granularity = gran;
            int wrote = exchange(&m, xfd, "fd-write");
            close(xfd);
            if (wrote) {
                int chk = check_pattern((void *)ptr, bytes, SEED_FD_R, why, sizeof why);
                line("judge", "fd-verify", chk == 0 ? "PASS" : "FAIL", "the runner's pattern in the judge's mapping: %s", why);
                fd_ok = chk == 0;
            } else {
                line("judge", "fd-verify", "SKIP", "the runner did not write (its lines above say why)");
            }
        } else {
            line("judge", "fd-send", "SKIP", "nothing to send (fd-alloc or fd-export failed)");
        }
        if (r2 == CUDA_SUCCESS) drv.MemUnmap(ptr, bytes);
        if (r1 == CUDA_SUCCESS) drv.MemAddressFree(ptr, bytes);
        if (c == CUDA_SUCCESS) drv.MemRelease(h);
    }

    /* 6. a shared event */
    {
        cudaEvent_t ev = NULL;
        cudaIpcEventHandle_t h;
        cudaError_t c = cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming), g = cudaErrorUnknown;
        if (c == cudaSuccess) g = cudaIpcGetEventHandle(&h, ev);
        line("judge", "event-get", g == cudaSuccess ? "PASS" : "FAIL",
             "cudaEventCreateWithFlags(interprocess, no timing) %s; cudaIpcGetEventHandle %s", rt_name(c),
             c == cudaSuccess ? rt_name(g) : "-");
        if (g == cudaSuccess) {
            memset(&m, 0, sizeof m);
            m.op = OP_EVENT;
            memcpy(m.handle, &h, sizeof h);
            if (exchange(&m, -1, "event-record")) {
                cudaError_t q = cudaEventQuery(ev);
                double t0 = now_us();
                cudaError_t s = cudaEventSynchronize(ev);
                double ms = (now_us() - t0) / 1000;
                /* the runner's kernel was still running when it answered: a
                 * shared event is not ready yet, a merely local one would be */
                event_ok = q == cudaErrorNotReady && s == cudaSuccess;
                line("judge", "event-wait", event_ok ? "PASS" : "FAIL",
                     "cudaEventQuery right after the runner recorded: %s (cudaErrorNotReady: it waits for the "
                     "runner's kernel); cudaEventSynchronize %s after %.1f ms",
                     rt_name(q), rt_name(s), ms);
            } else {
                line("judge", "event-wait", "SKIP", "the runner did not record the event");
            }
        }
        cudaGetLastError();
        if (ev) cudaEventDestroy(ev);
    }

    /* 7. the cost of a call */
    {
        double *t = malloc(sizeof *t * (size_t)iters);
        char s[200];
        int ok = t != NULL && !g_runner_lost;
        for (int i = 0; ok && i < 50; i++) ok = round_trip(OP_PING) >= 0 && round_trip(OP_CALL) >= 0; /* warm-up */
        for (int i = 0; ok && i < iters; i++) ok = (t[i] = round_trip(OP_PING)) >= 0;
        if (ok) summary(t, iters, s, sizeof s), line("judge", "ping-rtt", "TIME", "%s: a message to the runner and its reply", s);
        for (int i = 0; ok && i < iters; i++) ok = (t[i] = round_trip(OP_CALL)) >= 0;
        double call_med = 0, local_med = 0;
        if (ok) {
            summary(t, iters, s, sizeof s);
            call_med = t[iters / 2];
            line("judge", "call-rtt", "TIME", "%s: a message, the runner's empty kernel and stream sync, the reply", s);
        } else {
            line("judge", "call-rtt", "FAIL", "the runner stopped answering the calls");
            g_runner_lost = 1;
        }
        cudaError_t le = cudaSuccess;
        for (int i = 0; t && le == cudaSuccess && i < 50 + iters; i++) {
            double t0 = now_us();
            le = probe_empty(js);
            if (le == cudaSuccess) le = cudaStreamSynchronize(js);
            if (i >= 50) t[i - 50] = now_us() - t0;
        }
        if (t && le == cudaSuccess) {
            summary(t, iters, s, sizeof s);
            local_med = t[iters / 2];
            line("judge", "call-local", "TIME", "%s: the same empty kernel and sync in the judge alone", s);
            if (ok) line("judge", "call-cost", "TIME", "%.1f us a call: what the runner adds to a launch (medians)",
                         call_med - local_med);
        } else if (t) {
            line("judge", "call-local", "FAIL", "the judge's own empty kernel: %s", rt_name(le));
        }
        free(t);
    }

    /* 8. legacy IPC, last: what it does across namespaces is the unknown,
     *    and the steps above must not depend on it */
    {
        void *p = NULL;
        cudaError_t a = cudaMalloc(&p, BYTES), g = cudaErrorUnknown;
        cudaIpcMemHandle_t h;
        char what[300] = "-";
        if (a == cudaSuccess) a = write_pattern(p, BYTES, SEED_LG_J, js, what, sizeof what);
        if (a == cudaSuccess) g = cudaIpcGetMemHandle(&h, p);
        line("judge", "legacy-get", g == cudaSuccess ? "PASS" : "FAIL", "cudaMalloc(64 MiB) and the judge's pattern: %s; "
             "cudaIpcGetMemHandle %s", what, a == cudaSuccess ? rt_name(g) : "-");
        if (g == cudaSuccess) {
            memset(&m, 0, sizeof m);
            m.op = OP_LEGACY, m.seed_in = SEED_LG_J, m.seed_out = SEED_LG_R, m.bytes = BYTES;
            memcpy(m.handle, &h, sizeof h);
            if (exchange(&m, -1, "legacy-write")) {
                int chk = check_pattern(p, BYTES, SEED_LG_R, why, sizeof why);
                line("judge", "legacy-verify", chk == 0 ? "PASS" : "FAIL", "the runner's pattern: %s", why);
                legacy_ok = chk == 0;
            } else {
                line("judge", "legacy-verify", "SKIP", "the runner did not write through the handle");
            }
        }
        cudaGetLastError();
        if (p) cudaFree(p);
    }

    /* 9. the verdict */
    line("judge", "verdict", fd_ok ? "PASS" : "FAIL",
         "%s: POSIX-fd memory %s; legacy IPC %s; shared event %s",
         sandbox ? "in the sandbox" : "without the sandbox (baseline)",
         fd_ok ? "crossed both ways" : "did not cross (see the fd-* lines)",
         legacy_ok ? "worked" : "did not work (see the legacy-* lines)",
         event_ok ? "worked" : "did not work (see the event-* lines)");

stop:
    /* 2: the runner never answered hello (no sandbox, no runner, no device) */
    rc = !started ? 2 : fd_ok ? 0 : 1;
    if (!g_runner_lost) {
        memset(&m, 0, sizeof m);
        m.op = OP_QUIT;
        exchange(&m, -1, NULL);
    }
    close(sv[0]);
    sv[0] = -1;
    {
        /* the runner ends on its own once the socket closes; the sandbox's
         * clock (or this) ends it otherwise */
        int st = 0;
        pid_t w = 0;
        for (int i = 0; i < 300 && (w = waitpid(child, &st, WNOHANG)) == 0; i++) usleep(100000);
        if (w == 0) {
            kill(child, SIGKILL);
            waitpid(child, &st, 0);
            line(sandbox ? "sandbox" : "runner", "end", "FAIL", "still running 30 s after the judge closed the socket: killed");
        } else if (!sandbox) {
            line("runner", "end", WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "PASS" : "FAIL", "the runner ended: %s %d",
                 WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        }
    }
    {
        FILE *f = fopen(logp, "r");
        char l[1000];
        for (int n = 0; f && fgets(l, sizeof l, f); n++) {
            if (n == 0) printf("the runner's output (%s):\n", logp);
            if (n < 40) printf("  %s", l);
        }
        if (f) fclose(f);
    }
out:
    if (sv[0] >= 0) close(sv[0]);
    if (sv[1] >= 0) close(sv[1]);
    if (keep) printf("probe-ipc: kept %s\n", base);
    else nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}
