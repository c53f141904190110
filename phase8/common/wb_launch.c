/* wb_launch.c — see wb_launch.h.
 *
 * Each rank has two pipes: "up" (rank to launcher) and "down" (launcher to
 * rank). What travels on them is frames: an 8-byte header (type, payload
 * length) and the payload. Every frame is at most PIPE_BUF bytes and is
 * written with one write(), so it arrives whole and never interleaved. */
#include "wb_launch.h"
#include "wb_cuda.h"
#include "wb_multicast.h"
#include "wb_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { FRAME_BCAST = 1, FRAME_REPORT = 2, HDR = 8, RBUF = 8192 };

_Static_assert(HDR + WB_LAUNCH_MAX_BCAST <= PIPE_BUF, "a broadcast frame must fit one atomic pipe write");
_Static_assert(HDR + 4 + WB_LAUNCH_MSG <= PIPE_BUF, "a report frame must fit one atomic pipe write");


/* One frame in one write. 0, or -1 (errno set). */
static int send_frame(int fd, uint32_t type, const void *payload, uint32_t len)
{
    unsigned char f[PIPE_BUF];
    if (HDR + (size_t)len > sizeof f) {
        errno = EMSGSIZE;
        return -1;
    }
    memcpy(f, &type, 4), memcpy(f + 4, &len, 4);
    if (len) memcpy(f + HDR, payload, len);
    for (;;) {
        ssize_t w = write(fd, f, HDR + (size_t)len);
        if (w == (ssize_t)(HDR + len)) return 0;
        if (w < 0 && errno == EINTR) continue;
        if (w >= 0) errno = EIO;
        return -1;
    }
}

/* Reads exactly n bytes before `end` (monotonic seconds). 0; -1 when time
 * ran out; -2 at end of file or on an error. */
static int read_full(int fd, void *buf, size_t n, double end)
{
    unsigned char *p = buf;
    while (n) {
        double left = end - wb_seconds();
        if (left <= 0) return -1;
        struct pollfd pf = { fd, POLLIN, 0 };
        int k = poll(&pf, 1, (int)(left * 1000) + 1);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -2;
        if (k == 0) continue;
        ssize_t got = read(fd, p, n);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) return -2;
        p += got, n -= (size_t)got;
    }
    return 0;
}

/* ---------------------------------------------------------------- in a rank */

/* ---------------------------------------------------------------- ranks that mpirun started */

static const char *env_nonempty(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* A whole decimal number in [lo, hi], or -1. */
static long env_num(const char *v, long lo, long hi)
{
    if (!v) return -1;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    return errno || end == v || *end || x < lo || x > hi ? -1 : x;
}

int wb_rank_from_env(wb_rank *r, char *msg, size_t n)
{
    memset(r, 0, sizeof *r);
    r->up = r->down = -1;
    wb_multicast_off();
    const char *rk, *nr, *job;
    if (env_nonempty("WB_RANK")) {
        rk = env_nonempty("WB_RANK"), nr = env_nonempty("WB_NRANKS"), job = env_nonempty("WB_JOB_ID");
    } else if (env_nonempty("OMPI_COMM_WORLD_RANK")) {
        rk = env_nonempty("OMPI_COMM_WORLD_RANK"), nr = env_nonempty("OMPI_COMM_WORLD_SIZE");
        job = env_nonempty("PMIX_NAMESPACE") ? env_nonempty("PMIX_NAMESPACE") : env_nonempty("OMPI_MCA_ess_base_jobid");
    } else {
        snprintf(msg, n, "no rank in the environment: start this under Open MPI's mpirun (it sets OMPI_COMM_WORLD_RANK), "
                 "or set WB_RANK, WB_NRANKS and WB_JOB_ID yourself");
        return -1;
    }
    long k = env_num(nr, 1, WB_LAUNCH_MAX_RANKS), q = k > 0 ? env_num(rk, 0, k - 1) : -1;
    if (k < 1 || q < 0) {
        snprintf(msg, n, "rank %s of %s from the environment: need 0 <= rank < ranks <= %d", rk ? rk : "(unset)",
                 nr ? nr : "(unset)", (int)WB_LAUNCH_MAX_RANKS);
        return -1;
    }
    if (!job) {
        snprintf(msg, n, "rank %ld of %ld: no job id in the environment (PMIX_NAMESPACE): set WB_JOB_ID "
                 "to the same value in every rank", q, k);
        return -1;
    }
    if (job[strspn(job, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")]) { /* it names a file */
        snprintf(msg, n, "rank %ld of %ld: the job id \"%.60s\" may hold only letters, digits, '.', '_' and '-'", q, k,
                 job);
        return -1;
    }
    const char *dir = env_nonempty("WB_BCAST_DIR") ? env_nonempty("WB_BCAST_DIR")
                    : env_nonempty("TMPDIR")       ? env_nonempty("TMPDIR")
                                                   : "/tmp";
    if ((size_t)snprintf(r->file, sizeof r->file, "%s/wb-bcast-%s", dir, job) >= sizeof r->file) {
        snprintf(msg, n, "rank %ld of %ld: the broadcast file's path (%s/wb-bcast-%s) is too long", q, k, dir, job);
        return -1;
    }
    r->rank = (int)q, r->nranks = (int)k;
    return 0;
}

/* Rank 0 under mpirun: the bytes to a file beside r->file, then renamed to
 * it, so a reader sees all of them or no file. */
static int bcast_file_write(const wb_rank *r, const void *buf, size_t n, char *msg, size_t n_msg)
{
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", r->file, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    ssize_t w = fd < 0 ? -1 : write(fd, buf, n);
    int ok = fd >= 0 && w == (ssize_t)n && close(fd) == 0 && rename(tmp, r->file) == 0;
    if (!ok) {
        snprintf(msg, n_msg, "rank 0 of %d: could not write %s: %s", r->nranks, r->file, strerror(errno));
        if (fd >= 0) unlink(tmp);
        return -1;
    }
    return 0;
}

/* The other ranks: wait for rank 0's file until end, then read it. */
static int bcast_file_read(const wb_rank *r, void *buf, size_t n, double timeout_s, char *msg, size_t n_msg)
{
    double end = wb_seconds() + timeout_s;
    for (;;) {
        int fd = open(r->file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) {
            unsigned char extra;
            ssize_t got = read(fd, buf, n), more = got == (ssize_t)n ? read(fd, &extra, 1) : 0;
            close(fd);
            if (got == (ssize_t)n && more == 0) return 0;
            snprintf(msg, n_msg, "rank %d of %d: %s holds %s than the %zu bytes expected: do all ranks call "
                     "wb_rank_bcast with the same size?", r->rank, r->nranks, r->file, more > 0 ? "more" : "fewer", n);
            return -1;
        }
        if (errno != ENOENT || wb_seconds() > end) {
            snprintf(msg, n_msg, "rank %d of %d: no data from rank 0 within %g s (%s: %s): rank 0 died, failed before "
                     "sending, or never sent", r->rank, r->nranks, timeout_s, r->file, strerror(errno));
            return -1;
        }
        usleep(10000);
    }
}

int wb_rank_bcast(wb_rank *r, void *buf, size_t n, double timeout_s, char *msg, size_t n_msg)
{
    if (n > WB_LAUNCH_MAX_BCAST) {
        snprintf(msg, n_msg, "rank %d of %d: wb_rank_bcast of %zu bytes: at most %d can be sent", r->rank, r->nranks,
                 n, (int)WB_LAUNCH_MAX_BCAST);
        return -1;
    }
    if (r->up < 0 && r->file[0])
        return r->rank == 0 ? bcast_file_write(r, buf, n, msg, n_msg) : bcast_file_read(r, buf, n, timeout_s, msg, n_msg);
    if (r->rank == 0) {
        if (send_frame(r->up, FRAME_BCAST, buf, (uint32_t)n) != 0) {
            snprintf(msg, n_msg, "rank 0 of %d: could not send %zu bytes to the launcher: %s", r->nranks, n,
                     strerror(errno));
            return -1;
        }
        return 0;
    }
    double end = wb_seconds() + timeout_s;
    uint32_t h[2];
    int e = read_full(r->down, h, HDR, end);
    if (e == -1) {
        snprintf(msg, n_msg, "rank %d of %d: no data from rank 0 within %g s (wb_rank_bcast): rank 0 died, failed "
                 "before sending, or never sent", r->rank, r->nranks, timeout_s);
        return -1;
    }
    if (e == 0 && (h[0] != FRAME_BCAST || h[1] != n)) {
        snprintf(msg, n_msg, "rank %d of %d: expected %zu bytes from rank 0, got a message of %u bytes (type %u): do "
                 "all ranks call wb_rank_bcast with the same size?", r->rank, r->nranks, n, h[1], h[0]);
        return -1;
    }
    if (e == 0) e = read_full(r->down, buf, n, end);
    if (e != 0) {
        snprintf(msg, n_msg, "rank %d of %d: %s before rank 0's %zu bytes came", r->rank, r->nranks,
                 e == -1 ? "time ran out" : "the launcher closed the pipe", n);
        return -1;
    }
    return 0;
}

void wb_rank_report(wb_rank *r, int status, const char *msg)
{
    if (r->reported) return;
    r->reported = 1;
    if (r->up < 0 && r->file[0]) { /* under mpirun: no launcher to tell */
        printf("[rank %d/%d] %s: %s\n", r->rank, r->nranks, status ? "FAILED" : "ok", msg && *msg ? msg : "-");
        fflush(stdout);
        if (r->rank == 0) unlink(r->file);
        return;
    }
    unsigned char p[4 + WB_LAUNCH_MSG];
    int32_t s = status;
    size_t m = msg ? strnlen(msg, WB_LAUNCH_MSG - 1) : 0;
    memcpy(p, &s, 4);
    if (m) memcpy(p + 4, msg, m);
    p[4 + m] = 0;
    if (send_frame(r->up, FRAME_REPORT, p, (uint32_t)(4 + m + 1)) != 0)
        fprintf(stderr, "rank %d of %d: could not report to the launcher: %s\n", r->rank, r->nranks, strerror(errno));
}

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

/* The child side of the fork: never returns. */
static void run_rank(int rank, int nranks, int (*up)[2], int (*down)[2], pid_t launcher, wb_rank_fn fn, void *arg)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* dies with the launcher */
    if (getppid() != launcher) _exit(126);
    for (int q = 0; q < nranks; q++) {
        close_fd(&up[q][0]), close_fd(&down[q][1]);
        if (q != rank) close_fd(&up[q][1]), close_fd(&down[q][0]);
    }
    wb_multicast_off();
    wb_set_error_handler(NULL); /* print and exit: Check's handler belongs to the test's process */
    wb_rank r = { rank, nranks, up[rank][1], down[rank][0], 0 };
    char msg[WB_LAUNCH_MSG];
    msg[0] = 0;
    int status = fn(&r, arg, msg, sizeof msg);
    msg[sizeof msg - 1] = 0;
    wb_rank_report(&r, status, msg);
    fflush(stdout), fflush(stderr);
    _exit(0); /* not exit(): the launcher's atexit handlers and stdio buffers are not this process's */
}

/* ---------------------------------------------------------------- the launching process */

typedef struct {
    pid_t         pid;
    int           up, down;  /* the launcher's ends */
    int           open;      /* up not yet at end of file */
    int           reaped, bad;
    unsigned char buf[RBUF];
    size_t        used;
} rank_state;

/* Handles the whole frames in rank q's buffer. */
static void take_frames(rank_state *st, int nranks, int q, wb_launch_result *res)
{
    rank_state *s = &st[q];
    size_t at = 0;
    while (s->used - at >= HDR) {
        uint32_t type, len;
        memcpy(&type, s->buf + at, 4), memcpy(&len, s->buf + at + 4, 4);
        if (len > PIPE_BUF - HDR || (type != FRAME_BCAST && type != FRAME_REPORT) || (type == FRAME_BCAST && q != 0) ||
            (type == FRAME_REPORT && len < 5)) {
            s->bad = 1, s->used = 0;
            return;
        }
        if (s->used - at < HDR + len) break;
        const unsigned char *p = s->buf + at + HDR;
        if (type == FRAME_BCAST) {
            /* relay to every other rank; one that died or stopped reading
             * fails on its own (its wb_rank_bcast times out) */
            for (int o = 1; o < nranks; o++)
                if (st[o].down >= 0 && write(st[o].down, s->buf + at, HDR + len) < 0) { /* nothing to do */ }
        } else if (!res->reported[q]) {
            int32_t status;
            memcpy(&status, p, 4);
            res->reported[q] = 1, res->status[q] = status;
            size_t m = len - 4 < WB_LAUNCH_MSG - 1 ? len - 4 : WB_LAUNCH_MSG - 1;
            memcpy(res->msg[q], p + 4, m);
            res->msg[q][m] = 0;
        }
        at += HDR + len;
    }
    memmove(s->buf, s->buf + at, s->used - at);
    s->used -= at;
}

static void describe_end(char *out, size_t n, int st)
{
    if (WIFEXITED(st)) snprintf(out, n, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st)) snprintf(out, n, "was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else snprintf(out, n, "ended (wait status %d)", st);
}

static void add_part(wb_launch_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_part(wb_launch_result *res, const char *fmt, ...)
{
    size_t k = strlen(res->summary);
    if (k + 3 >= sizeof res->summary) return;
    if (k) strcpy(res->summary + k, "; "), k += 2;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->summary + k, sizeof res->summary - k, fmt, ap);
    va_end(ap);
}

int wb_launch(int nranks, double timeout_s, wb_rank_fn fn, void *arg, wb_launch_result *res)
{
    memset(res, 0, sizeof *res);
    res->nranks = nranks;
    if (nranks < 1 || nranks > WB_LAUNCH_MAX_RANKS) {
        snprintf(res->summary, sizeof res->summary, "wb_launch: %d ranks asked for; 1 to %d can be launched", nranks,
                 (int)WB_LAUNCH_MAX_RANKS);
        return -1;
    }
    int up[WB_LAUNCH_MAX_RANKS][2], down[WB_LAUNCH_MAX_RANKS][2];
    for (int q = 0; q < nranks; q++) up[q][0] = up[q][1] = down[q][0] = down[q][1] = -1;
    for (int q = 0; q < nranks; q++)
        if (pipe2(up[q], O_CLOEXEC) != 0 || pipe2(down[q], O_CLOEXEC) != 0) {
            snprintf(res->summary, sizeof res->summary, "wb_launch: pipe for rank %d: %s", q, strerror(errno));
            for (int o = 0; o <= q; o++) close_fd(&up[o][0]), close_fd(&up[o][1]), close_fd(&down[o][0]), close_fd(&down[o][1]);
            return -1;
        }

    rank_state *st = calloc((size_t)nranks, sizeof *st);
    if (!st) {
        snprintf(res->summary, sizeof res->summary, "wb_launch: out of memory");
        for (int o = 0; o < nranks; o++) close_fd(&up[o][0]), close_fd(&up[o][1]), close_fd(&down[o][0]), close_fd(&down[o][1]);
        return -1;
    }
    /* a rank that died must not kill the launcher when it relays to it */
    struct sigaction ign = { 0 }, old_pipe;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old_pipe);

    double t0 = wb_seconds(), end = t0 + timeout_s;
    pid_t me = getpid();
    int started = 0, fork_errno = 0;
    fflush(NULL);
    for (int q = 0; q < nranks; q++) {
        pid_t pid = fork();
        if (pid == 0) run_rank(q, nranks, up, down, me, fn, arg);
        if (pid < 0) {
            fork_errno = errno;
            break;
        }
        st[q].pid = pid;
        started++;
    }
    for (int q = 0; q < nranks; q++) {
        st[q].up = up[q][0], st[q].down = down[q][1];
        close_fd(&up[q][1]), close_fd(&down[q][0]);
        st[q].open = q < started;
        if (!st[q].open) close_fd(&st[q].up), close_fd(&st[q].down);
        if (st[q].down >= 0) fcntl(st[q].down, F_SETFL, fcntl(st[q].down, F_GETFL) | O_NONBLOCK);
    }
    if (fork_errno) end = t0; /* kill what started, below */

    /* Read until every rank's pipe is closed (it exited) or time runs out. */
    for (;;) {
        struct pollfd pf[WB_LAUNCH_MAX_RANKS];
        int who[WB_LAUNCH_MAX_RANKS], np = 0;
        for (int q = 0; q < nranks; q++)
            if (st[q].open) pf[np] = (struct pollfd){ st[q].up, POLLIN, 0 }, who[np++] = q;
        double left = end - wb_seconds();
        if (np == 0 || left <= 0) break;
        int k = poll(pf, (nfds_t)np, (int)(left * 1000) + 1);
        if (k < 0 && errno != EINTR) break;
        for (int i = 0; k > 0 && i < np; i++) {
            if (!pf[i].revents) continue;
            rank_state *s = &st[who[i]];
            ssize_t got = read(s->up, s->buf + s->used, sizeof s->buf - s->used);
            if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (got > 0) {
                s->used += (size_t)got;
                take_frames(st, nranks, who[i], res);
                if (s->used == sizeof s->buf) s->bad = 1, s->used = 0;
            } else {
                s->open = 0;
                close_fd(&s->up);
                close_fd(&s->down);
            }
        }
    }
    /* Reap the ranks that exit by the deadline (a closed pipe means exiting);
     * kill the rest. */
    for (int q = 0; q < started; q++) {
        int ws = 0;
        for (;;) {
            pid_t w = waitpid(st[q].pid, &ws, WNOHANG);
            if (w == st[q].pid) {
                res->exited[q] = 1, res->wait_status[q] = ws;
                break;
            }
            if (w < 0 && errno != EINTR) break;
            if (wb_seconds() >= end || st[q].open) {
                kill(st[q].pid, SIGKILL);
                while (waitpid(st[q].pid, &ws, 0) < 0 && errno == EINTR) {}
                break;
            }
            struct timespec ten_ms = { 0, 10000000 };
            nanosleep(&ten_ms, NULL);
        }
        close_fd(&st[q].up), close_fd(&st[q].down);
    }
    sigaction(SIGPIPE, &old_pipe, NULL);
    res->seconds = wb_seconds() - t0;

    /* The summary, rank by rank. */
    int bad_ranks = 0;
    if (fork_errno) {
        add_part(res, "wb_launch: fork of rank %d failed: %s", started, strerror(fork_errno));
        bad_ranks++;
    }
    for (int q = 0; q < started; q++) {
        char how[120] = "";
        if (res->exited[q]) describe_end(how, sizeof how, res->wait_status[q]);
        int clean = res->exited[q] && WIFEXITED(res->wait_status[q]) && WEXITSTATUS(res->wait_status[q]) == 0;
        if (st[q].bad) {
            add_part(res, "rank %d sent the launcher a malformed message", q);
        } else if (!res->reported[q]) {
            if (res->exited[q]) add_part(res, "rank %d %s before reporting", q, how);
            else add_part(res, "rank %d did not report within %g s (killed)", q, timeout_s);
        } else if (res->status[q] != 0) {
            add_part(res, "rank %d: %s%s", q, res->msg[q][0] ? res->msg[q] : "failed, without a message",
                     res->exited[q] ? "" : " (then it did not exit in time: killed)");
        } else if (!clean) {
            if (res->exited[q]) add_part(res, "rank %d reported success, then %s", q, how);
            else add_part(res, "rank %d reported success but had not exited %g s after the launch (killed)", q, timeout_s);
        } else {
            continue;
        }
        bad_ranks++;
    }
    free(st);
    res->ok = bad_ranks == 0;
    if (res->ok)
        snprintf(res->summary, sizeof res->summary, "all %d rank%s reported success in %.1f s", nranks,
                 nranks == 1 ? "" : "s", res->seconds);
    return res->ok ? 0 : -1;
}
