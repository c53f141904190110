/* judge_msg.h — the judge's and the runner's one way of talking: a record
 * on a SOCK_SEQPACKET socket, a descriptor riding along (SCM_RIGHTS). */
#ifndef JUDGE_MSG_H
#define JUDGE_MSG_H

#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* Send len bytes of m, with pass_fd (-1: none). 0 or -1. */
static inline int jd_send_msg(int s, const void *m, size_t len, int pass_fd)
{
    struct iovec iov = { (void *)m, len };
    union {
        char           buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    struct msghdr h;
    memset(&h, 0, sizeof h);
    h.msg_iov = &iov, h.msg_iovlen = 1;
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
    return sendmsg(s, &h, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

/* Receive one record of exactly len bytes into m and the descriptor that
 * came with it (*fd, -1: none; extra descriptors are closed). Waits at most
 * timeout_ms (< 0: for ever). 1: a record; 0: the other end closed; -1: a
 * record of another size, a timeout or an error. */
static inline int jd_recv_msg(int s, void *m, size_t len, int *fd, int timeout_ms)
{
    if (fd) *fd = -1;
    if (timeout_ms >= 0) {
        struct pollfd p = { .fd = s, .events = POLLIN };
        if (poll(&p, 1, timeout_ms) <= 0) return -1;
    }
    struct iovec iov = { m, len };
    union {
        char           buf[CMSG_SPACE(4 * sizeof(int))];
        struct cmsghdr align;
    } u;
    struct msghdr h;
    memset(&h, 0, sizeof h);
    h.msg_iov = &iov, h.msg_iovlen = 1, h.msg_control = u.buf, h.msg_controllen = sizeof u.buf;
    ssize_t n = recvmsg(s, &h, MSG_CMSG_CLOEXEC);
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&h); n >= 0 && c; c = CMSG_NXTHDR(&h, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < k; i++) {
                int f;
                memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof f);
                if (fd && *fd < 0) *fd = f;
                else close(f);
            }
        }
    if (n == 0) return 0;
    if (n != (ssize_t)len || (h.msg_flags & MSG_TRUNC)) {
        if (fd && *fd >= 0) close(*fd), *fd = -1;
        return -1;
    }
    return 1;
}

#endif
