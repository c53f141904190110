/* sandbox.c — one command in a bubblewrap sandbox with limits (see sandbox.h).
 *
 * How a run goes: the grader forks; the child sets the per-process limits,
 * joins the run's memory cgroup, drops to an unprivileged uid if it is root
 * and execs bwrap with --block-fd (and --seccomp: a memfd holding the
 * filter, unless o->seccomp is off). bwrap reports its PID-namespace init on
 * --info-fd; the grader opens a pidfd on it, sets RLIMIT_NPROC on it (set
 * there, after the user namespaces exist, the count is per sandbox, not per
 * uid), and releases the block. The grader then copies output to the log
 * until the cap, the wall clock or the end. Killing the namespace's init
 * kills every process in it, daemons included.
 *
 * Side effect: the calling process becomes a child subreaper (prctl), so the
 * sandbox's init, orphaned when bwrap exits, is reaped here; other orphans of
 * the caller's descendants come to it too (grade.c waits for pids by name,
 * so they only linger as zombies until it exits).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define MAX_ARGS 512
#define DEFAULT_OUT (16LL << 20)
#define DEFAULT_TMP (1LL << 30)
#define DEFAULT_PROCS 512

const char *sb_limit_name(sb_limit l)
{
    static const char *n[] = { "none", "wall-clock time", "CPU time", "memory", "file size", "output size", "disk quota" };
    return (unsigned)l < sizeof n / sizeof *n ? n[l] : "?";
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int fail(sb_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *bwrap_path(const sb_opts *o)
{
    if (o && o->bwrap) return o->bwrap;
    return access("/usr/bin/bwrap", X_OK) == 0 ? "/usr/bin/bwrap" : "/usr/local/bin/bwrap";
}

/* ------------------------------------------------------------ seccomp filter */

/* A classic BPF program for bwrap --seccomp (sandbox.h, sb_seccomp), built
 * here from the lists below, for the architecture the grader is built for
 * (its system-call numbers are this build's <sys/syscall.h>): x86-64, or
 * aarch64. A call from another architecture's table (a 32-bit int 0x80 on
 * x86-64) or an x32 call kills the process, whatever the mode.
 *
 * Common to deny and allow, checked on the arguments:
 *   socket, socketpair: AF_UNIX only (the CUDA runtime's and the tools' own
 *     IPC); any other family kills. The network namespace already holds only
 *     loopback; this closes the kernel's protocol code (AF_PACKET, AF_NETLINK,
 *     AF_INET's stack...) too. A week whose tests use NCCL or MPI between
 *     processes (Phase 8) needs AF_INET on loopback: widen this rule before
 *     such a week is graded.
 *   clone: a new namespace flag kills (the namespaces are bwrap's, made
 *     before the filter); clone3 fails with ENOSYS (its flags sit in memory a
 *     filter cannot read; glibc then falls back to clone).
 *   personality: only the harmless values (query, PER_LINUX, PER_LINUX32,
 *     UNAME26) - not READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE, MMAP_PAGE_ZERO. */

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#ifndef SECCOMP_RET_LOG
#define SECCOMP_RET_LOG 0x7ffc0000U
#endif
#if defined(__x86_64__)
#define SB_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* Calls an architecture or older headers lack: -1, skipped. */
#define SB_ABSENT (-1)
#ifndef __NR_open
#define __NR_open SB_ABSENT
#endif
#ifndef __NR_stat
#define __NR_stat SB_ABSENT
#endif
#ifndef __NR_lstat
#define __NR_lstat SB_ABSENT
#endif
#ifndef __NR_access
#define __NR_access SB_ABSENT
#endif
#ifndef __NR_pipe
#define __NR_pipe SB_ABSENT
#endif
#ifndef __NR_dup2
#define __NR_dup2 SB_ABSENT
#endif
#ifndef __NR_poll
#define __NR_poll SB_ABSENT
#endif
#ifndef __NR_select
#define __NR_select SB_ABSENT
#endif
#ifndef __NR_fork
#define __NR_fork SB_ABSENT
#endif
#ifndef __NR_vfork
#define __NR_vfork SB_ABSENT
#endif
#ifndef __NR_getdents
#define __NR_getdents SB_ABSENT
#endif
#ifndef __NR_readlink
#define __NR_readlink SB_ABSENT
#endif
#ifndef __NR_rename
#define __NR_rename SB_ABSENT
#endif
#ifndef __NR_mkdir
#define __NR_mkdir SB_ABSENT
#endif
#ifndef __NR_rmdir
#define __NR_rmdir SB_ABSENT
#endif
#ifndef __NR_creat
#define __NR_creat SB_ABSENT
#endif
#ifndef __NR_link
#define __NR_link SB_ABSENT
#endif
#ifndef __NR_unlink
#define __NR_unlink SB_ABSENT
#endif
#ifndef __NR_symlink
#define __NR_symlink SB_ABSENT
#endif
#ifndef __NR_chmod
#define __NR_chmod SB_ABSENT
#endif
#ifndef __NR_chown
#define __NR_chown SB_ABSENT
#endif
#ifndef __NR_lchown
#define __NR_lchown SB_ABSENT
#endif
#ifndef __NR_utime
#define __NR_utime SB_ABSENT
#endif
#ifndef __NR_utimes
#define __NR_utimes SB_ABSENT
#endif
#ifndef __NR_futimesat
#define __NR_futimesat SB_ABSENT
#endif
#ifndef __NR_epoll_create
#define __NR_epoll_create SB_ABSENT
#endif
#ifndef __NR_epoll_wait
#define __NR_epoll_wait SB_ABSENT
#endif
#ifndef __NR_eventfd
#define __NR_eventfd SB_ABSENT
#endif
#ifndef __NR_signalfd
#define __NR_signalfd SB_ABSENT
#endif
#ifndef __NR_time
#define __NR_time SB_ABSENT
#endif
#ifndef __NR_alarm
#define __NR_alarm SB_ABSENT
#endif
#ifndef __NR_pause
#define __NR_pause SB_ABSENT
#endif
#ifndef __NR_getpgrp
#define __NR_getpgrp SB_ABSENT
#endif
#ifndef __NR_arch_prctl
#define __NR_arch_prctl SB_ABSENT
#endif
#ifndef __NR_iopl
#define __NR_iopl SB_ABSENT
#endif
#ifndef __NR_ioperm
#define __NR_ioperm SB_ABSENT
#endif
#ifndef __NR_modify_ldt
#define __NR_modify_ldt SB_ABSENT
#endif
#ifndef __NR_uselib
#define __NR_uselib SB_ABSENT
#endif
#ifndef __NR_lookup_dcookie
#define __NR_lookup_dcookie SB_ABSENT
#endif
#ifndef __NR_rseq
#define __NR_rseq SB_ABSENT
#endif
#ifndef __NR_statx
#define __NR_statx SB_ABSENT
#endif
#ifndef __NR_clone3
#define __NR_clone3 SB_ABSENT
#endif
#ifndef __NR_close_range
#define __NR_close_range SB_ABSENT
#endif
#ifndef __NR_openat2
#define __NR_openat2 SB_ABSENT
#endif
#ifndef __NR_faccessat2
#define __NR_faccessat2 SB_ABSENT
#endif
#ifndef __NR_epoll_pwait2
#define __NR_epoll_pwait2 SB_ABSENT
#endif
#ifndef __NR_futex_waitv
#define __NR_futex_waitv SB_ABSENT
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open SB_ABSENT
#endif
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal SB_ABSENT
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd SB_ABSENT
#endif
#ifndef __NR_process_madvise
#define __NR_process_madvise SB_ABSENT
#endif
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup SB_ABSENT
#endif
#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter SB_ABSENT
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register SB_ABSENT
#endif
#ifndef __NR_open_tree
#define __NR_open_tree SB_ABSENT
#endif
#ifndef __NR_move_mount
#define __NR_move_mount SB_ABSENT
#endif
#ifndef __NR_fsopen
#define __NR_fsopen SB_ABSENT
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig SB_ABSENT
#endif
#ifndef __NR_fsmount
#define __NR_fsmount SB_ABSENT
#endif
#ifndef __NR_fspick
#define __NR_fspick SB_ABSENT
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr SB_ABSENT
#endif
#ifndef __NR_quotactl_fd
#define __NR_quotactl_fd SB_ABSENT
#endif
#ifndef __NR_kexec_file_load
#define __NR_kexec_file_load SB_ABSENT
#endif
#ifndef __NR_userfaultfd
#define __NR_userfaultfd SB_ABSENT
#endif
#ifndef __NR_memfd_create
#define __NR_memfd_create SB_ABSENT
#endif
#ifndef __NR_membarrier
#define __NR_membarrier SB_ABSENT
#endif
#ifndef __NR_copy_file_range
#define __NR_copy_file_range SB_ABSENT
#endif
#ifndef __NR_mlock2
#define __NR_mlock2 SB_ABSENT
#endif
#ifndef __NR_preadv2
#define __NR_preadv2 SB_ABSENT
#endif
#ifndef __NR_pwritev2
#define __NR_pwritev2 SB_ABSENT
#endif
#ifndef __NR_getrandom
#define __NR_getrandom SB_ABSENT
#endif
#ifndef __NR_renameat2
#define __NR_renameat2 SB_ABSENT
#endif
#ifndef __NR_execveat
#define __NR_execveat SB_ABSENT
#endif

/* deny: killed; everything else is allowed. One line, one reason. */
static const int seccomp_deny[] = {
    __NR_ptrace,                                            /* another process's memory and registers; anti-debug tricks */
    __NR_process_vm_readv, __NR_process_vm_writev,          /* the same, without ptrace */
    __NR_process_madvise, __NR_pidfd_getfd,                 /* another process's memory advice; its file descriptors */
    __NR_kcmp,                                              /* compares two processes' kernel objects: a kernel-pointer oracle */
    __NR_bpf,                                               /* eBPF: its verifier is a classic local-root surface */
    __NR_perf_event_open,                                   /* hardware counters: side channels and a long bug history */
    __NR_userfaultfd,                                       /* stalls the kernel mid-copy: how kernel races are won */
    __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register, /* io_uring: many bugs, and calls no filter sees */
    __NR_keyctl, __NR_add_key, __NR_request_key,            /* kernel keyrings: per uid, not per namespace */
    __NR_init_module, __NR_finit_module, __NR_delete_module, /* kernel modules */
    __NR_kexec_load, __NR_kexec_file_load, __NR_reboot,     /* another kernel; a reboot */
    __NR_swapon, __NR_swapoff, __NR_acct,                   /* swap files; process accounting to a file */
    __NR_quotactl, __NR_quotactl_fd,                        /* disk quotas (the grader keeps its own) */
    __NR_mount, __NR_umount2, __NR_pivot_root, __NR_chroot, /* the mount tree is bwrap's, made before the filter */
    __NR_open_tree, __NR_move_mount, __NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick,
    __NR_mount_setattr,                                     /* (the new mount API: the same) */
    __NR_unshare, __NR_setns,                               /* new or other namespaces: a user namespace gives capabilities back */
    __NR_lookup_dcookie,                                    /* profiling's path lookups */
    __NR_name_to_handle_at, __NR_open_by_handle_at,         /* files by handle, around the mount tree (the "shocker" escape) */
    __NR_syslog,                                            /* the kernel log: kernel addresses, the host's events */
    __NR_iopl, __NR_ioperm, __NR_modify_ldt, __NR_uselib,   /* x86 port I/O, 16-bit segments, a.out loading */
};

/* allow: the only calls allowed (with the argument checks above); any other
 * kills (log: is logged). What a test program of the workbook (C, C++, the
 * CUDA runtime and driver, Check's forks, Python with torch and Triton),
 * make, sh, nvcc and its tools (cicc, ptxas, fatbinary, nvlink), gcc, as and
 * ld call, as far as they are known: TO BE CONFIRMED ON THE GPU MACHINE
 * (grade the fixture classes with SECCOMP=log and read `dmesg | grep
 * type=1326` for every syscall=N outside it, or run them under strace -f -c)
 * before SECCOMP=allow grades a class; deny stays the default until then.
 * Checked without a GPU (SECCOMP=log, x86-64): make and gcc building and
 * running a threaded program, nvcc -c of week 01's vecadd.cu, python3 with
 * json, subprocess, multiprocessing and tempfile, ls -l. */
static const int seccomp_allow[] = {
    /* files */
    __NR_read, __NR_write, __NR_open, __NR_openat, __NR_openat2, __NR_close, __NR_close_range, __NR_creat,
    __NR_stat, __NR_fstat, __NR_lstat, __NR_newfstatat, __NR_statx, __NR_statfs, __NR_fstatfs, __NR_lseek,
    __NR_pread64, __NR_pwrite64, __NR_readv, __NR_writev, __NR_preadv, __NR_pwritev, __NR_preadv2, __NR_pwritev2,
    __NR_access, __NR_faccessat, __NR_faccessat2, __NR_pipe, __NR_pipe2, __NR_dup, __NR_dup2, __NR_dup3, __NR_fcntl,
    __NR_flock, __NR_fsync, __NR_fdatasync, __NR_truncate, __NR_ftruncate, __NR_fallocate, __NR_fadvise64,
    __NR_getdents, __NR_getdents64, __NR_getcwd, __NR_chdir, __NR_fchdir, __NR_rename, __NR_renameat,
    __NR_renameat2, __NR_mkdir, __NR_mkdirat, __NR_rmdir, __NR_link, __NR_linkat, __NR_unlink, __NR_unlinkat,
    __NR_symlink, __NR_symlinkat, __NR_readlink, __NR_readlinkat, __NR_chmod, __NR_fchmod, __NR_fchmodat,
    __NR_chown, __NR_fchown, __NR_lchown, __NR_fchownat, __NR_umask, __NR_utime, __NR_utimes, __NR_utimensat,
    __NR_futimesat, __NR_sendfile, __NR_copy_file_range, __NR_splice, __NR_tee, __NR_ioctl, /* the GPU driver */
    __NR_memfd_create, __NR_getxattr, __NR_lgetxattr, __NR_fgetxattr, __NR_listxattr, __NR_llistxattr,
    __NR_flistxattr, __NR_setxattr, __NR_lsetxattr, __NR_fsetxattr, __NR_removexattr, __NR_lremovexattr,
    __NR_fremovexattr, /* ls -l, cp -a */
    /* waiting on descriptors */
    __NR_poll, __NR_ppoll, __NR_select, __NR_pselect6, __NR_epoll_create, __NR_epoll_create1, __NR_epoll_ctl,
    __NR_epoll_wait, __NR_epoll_pwait, __NR_epoll_pwait2, __NR_eventfd, __NR_eventfd2, __NR_signalfd,
    __NR_signalfd4, __NR_timerfd_create, __NR_timerfd_settime, __NR_timerfd_gettime,
    /* memory (the driver maps device and pinned memory; NUMA placement) */
    __NR_brk, __NR_mmap, __NR_munmap, __NR_mprotect, __NR_mremap, __NR_madvise, __NR_msync, __NR_mincore,
    __NR_mlock, __NR_mlock2, __NR_munlock, __NR_mlockall, __NR_munlockall, __NR_get_mempolicy,
    __NR_set_mempolicy, __NR_mbind, __NR_membarrier, __NR_shmget, __NR_shmat, __NR_shmdt, __NR_shmctl,
    /* processes and threads (clone is checked above) */
    __NR_clone, __NR_fork, __NR_vfork, __NR_execve, __NR_execveat, __NR_exit, __NR_exit_group, __NR_wait4,
    __NR_waitid, __NR_kill, __NR_tkill, __NR_tgkill, __NR_pidfd_open, __NR_pidfd_send_signal, __NR_getpid,
    __NR_getppid, __NR_gettid, __NR_getuid, __NR_geteuid, __NR_getgid, __NR_getegid, __NR_getgroups,
    __NR_getresuid, __NR_getresgid, __NR_setuid, __NR_setgid, __NR_setreuid, __NR_setregid, __NR_setresuid,
    __NR_setresgid, __NR_setfsuid, __NR_setfsgid, /* make sets its own ids (no capability: only to its own) */
    __NR_setsid, __NR_getsid, __NR_setpgid, __NR_getpgid, __NR_getpgrp,
    __NR_prctl, __NR_arch_prctl, __NR_set_tid_address, __NR_set_robust_list, __NR_get_robust_list, __NR_rseq,
    __NR_futex, __NR_futex_waitv, __NR_sched_yield, __NR_sched_getaffinity, __NR_sched_setaffinity,
    __NR_sched_getparam, __NR_sched_getscheduler, __NR_sched_get_priority_max, __NR_sched_get_priority_min,
    __NR_getpriority, __NR_setpriority, __NR_capget, __NR_personality, /* checked above */
    /* signals and time */
    __NR_rt_sigaction, __NR_rt_sigprocmask, __NR_rt_sigreturn, __NR_rt_sigsuspend, __NR_rt_sigpending,
    __NR_rt_sigtimedwait, __NR_rt_sigqueueinfo, __NR_rt_tgsigqueueinfo, __NR_sigaltstack, __NR_pause,
    __NR_alarm, __NR_setitimer, __NR_getitimer, __NR_timer_create, __NR_timer_settime, __NR_timer_gettime,
    __NR_timer_getoverrun, __NR_timer_delete, __NR_nanosleep, __NR_clock_nanosleep, __NR_clock_gettime,
    __NR_clock_getres, __NR_gettimeofday, __NR_time, __NR_times,
    /* limits and the system */
    __NR_getrusage, __NR_getrlimit, __NR_setrlimit, __NR_prlimit64, __NR_uname, __NR_sysinfo, __NR_getrandom,
    __NR_getcpu,
    /* AF_UNIX sockets (socket and socketpair are checked above) */
    __NR_socket, __NR_socketpair, __NR_connect, __NR_bind, __NR_listen, __NR_accept, __NR_accept4, __NR_sendto,
    __NR_recvfrom, __NR_sendmsg, __NR_recvmsg, __NR_sendmmsg, __NR_recvmmsg, __NR_shutdown, __NR_getsockname,
    __NR_getpeername, __NR_setsockopt, __NR_getsockopt,
};

enum { SB_FILTER_MAX = 1024 };
typedef struct {
    struct sock_filter f[SB_FILTER_MAX];
    unsigned n;
} bpf_prog;

static void op(bpf_prog *p, unsigned short code, unsigned char jt, unsigned char jf, unsigned k)
{
    if (p->n < SB_FILTER_MAX) p->f[p->n] = (struct sock_filter)BPF_JUMP(code, k, jt, jf);
    p->n++;
}
static void ret(bpf_prog *p, unsigned k) { op(p, BPF_RET | BPF_K, 0, 0, k); }
static void load(bpf_prog *p, unsigned off) { op(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, off); }

/* The low 32 bits of argument i (both architectures are little-endian;
 * every argument checked is an int). */
#define SB_ARG(i) ((unsigned)offsetof(struct seccomp_data, args[i]))
#define SB_NR     ((unsigned)offsetof(struct seccomp_data, nr))
#define SB_ARCH   ((unsigned)offsetof(struct seccomp_data, arch))

/* The program for mode m into p; 0, or -1 (no filter for this architecture). */
static int seccomp_build(sb_seccomp m, bpf_prog *p)
{
    p->n = 0;
#ifndef SB_AUDIT_ARCH
    (void)m, (void)ret, (void)load;
    return -1;
#else
    const unsigned KILL = SECCOMP_RET_KILL_PROCESS, ALLOW = SECCOMP_RET_ALLOW;
    load(p, SB_ARCH);
    op(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, SB_AUDIT_ARCH);
    ret(p, KILL);
    load(p, SB_NR);
#if defined(__x86_64__)
    op(p, BPF_JMP | BPF_JSET | BPF_K, 0, 1, 0x40000000U /* __X32_SYSCALL_BIT */);
    ret(p, KILL);
#endif
    /* socket and socketpair: AF_UNIX only */
    const int fam[] = { __NR_socket, __NR_socketpair };
    for (int i = 0; i < 2; i++) {
        op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 4, (unsigned)fam[i]);
        load(p, SB_ARG(0));
        op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, AF_UNIX);
        ret(p, ALLOW);
        ret(p, KILL);
    }
    /* clone: no new namespace */
    op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 4, __NR_clone);
    load(p, SB_ARG(0));
    op(p, BPF_JMP | BPF_JSET | BPF_K, 0, 1,
       CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET);
    ret(p, KILL);
    ret(p, ALLOW);
    if (__NR_clone3 != SB_ABSENT) {
        op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, (unsigned)__NR_clone3);
        ret(p, SECCOMP_RET_ERRNO | ENOSYS);
    }
    /* personality: the query and the harmless personas only */
    const unsigned persona[] = { 0xffffffffU, PER_LINUX, PER_LINUX32, UNAME26, UNAME26 | PER_LINUX32 };
    const unsigned np = sizeof persona / sizeof *persona;
    op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, (unsigned char)(np + 3), __NR_personality);
    load(p, SB_ARG(0));
    for (unsigned i = 0; i < np; i++) op(p, BPF_JMP | BPF_JEQ | BPF_K, (unsigned char)(np - i), 0, persona[i]);
    ret(p, KILL);
    ret(p, ALLOW);
    /* the list, then everything else */
    const int *list = m == SB_SECCOMP_DENY ? seccomp_deny : seccomp_allow;
    size_t n = m == SB_SECCOMP_DENY ? sizeof seccomp_deny / sizeof *seccomp_deny
                                    : sizeof seccomp_allow / sizeof *seccomp_allow;
    for (size_t i = 0; i < n; i++) {
        if (list[i] == SB_ABSENT) continue;
        op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, (unsigned)list[i]);
        ret(p, m == SB_SECCOMP_DENY ? KILL : ALLOW);
    }
    ret(p, m == SB_SECCOMP_DENY ? ALLOW : m == SB_SECCOMP_LOG ? SECCOMP_RET_LOG : KILL);
    return p->n <= SB_FILTER_MAX ? 0 : -1;
#endif
}

/* The filter in a memfd bwrap reads (close-on-exec: child() clears that on
 * its copy); the fd, or -1 with r->why. */
static int seccomp_fd(sb_seccomp m, sb_result *r)
{
    static bpf_prog p;
    if (seccomp_build(m, &p) != 0)
        return fail(r, "sandbox: no seccomp filter for this architecture (SECCOMP=off grades without one)");
    int fd = memfd_create("sb-seccomp", MFD_CLOEXEC);
    if (fd < 0) return fail(r, "sandbox: memfd_create: %s", strerror(errno));
    size_t len = p.n * sizeof *p.f;
    if (write(fd, p.f, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return fail(r, "sandbox: cannot write the seccomp filter: %s", strerror(errno));
    }
    return fd;
}

const char *sb_seccomp_name(sb_seccomp m)
{
    static const char *n[] = { "deny", "allow", "log", "off" };
    return (unsigned)m < sizeof n / sizeof *n ? n[m] : "?";
}

int sb_seccomp_parse(const char *word)
{
    for (int m = SB_SECCOMP_DENY; m <= SB_SECCOMP_OFF; m++)
        if (word && strcmp(word, sb_seccomp_name((sb_seccomp)m)) == 0) return m;
    return -1;
}

/* ------------------------------------------------------- the argument list */

typedef struct {
    char *v[MAX_ARGS];
    int   n;
    char  store[32768];   /* strings made here (symlink targets, --setenv values) */
    size_t used;
} args;

static int add(args *a, const char *s)
{
    if (a->n >= MAX_ARGS - 1) return -1;
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
    return 0;
}

static const char *keep(args *a, const char *s)
{
    size_t len = strlen(s) + 1;
    if (a->used + len > sizeof a->store) return NULL;
    char *p = memcpy(a->store + a->used, s, len);
    a->used += len;
    return p;
}

/* A host path shown read-only (or device-bound) at the same place: a symlink
 * is recreated as the same symlink (its target must be shown separately). */
static int show(args *a, const char *path, const char *how)
{
    struct stat st;
    if (lstat(path, &st) != 0) return 0; /* absent on this host: nothing to show */
    if (S_ISLNK(st.st_mode)) {
        char t[PATH_MAX];
        ssize_t n = readlink(path, t, sizeof t - 1);
        if (n < 0) return 0;
        t[n] = 0;
        const char *k = keep(a, t);
        return k && add(a, "--symlink") == 0 && add(a, k) == 0 && add(a, path) == 0 ? 0 : -1;
    }
    return add(a, how) == 0 && add(a, path) == 0 && add(a, path) == 0 ? 0 : -1;
}

static const char *const system_paths[] = { "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", NULL };
static const char *const etc_paths[] = { "/etc/passwd", "/etc/group", "/etc/ld.so.cache", "/etc/ld.so.conf",
                                         "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/nsswitch.conf", NULL };

/* Is `inner` the same as `outer` or below it? Both canonical. */
static int under(const char *inner, const char *outer)
{
    size_t n = strlen(outer);
    if (n == 1 && outer[0] == '/') return 1;
    return strncmp(inner, outer, n) == 0 && (inner[n] == 0 || inner[n] == '/');
}

/* Refuse if a path that must stay hidden lies at or under something shown. */
static int check_hidden(const sb_opts *o, const char *const *shown, int nshown, sb_result *r)
{
    for (int i = 0; o->hide && o->hide[i]; i++) {
        char h[PATH_MAX];
        if (!realpath(o->hide[i], h)) continue; /* absent on the host: absent inside */
        for (int k = 0; k < nshown; k++) {
            char s[PATH_MAX];
            if (!realpath(shown[k], s)) continue;
            if (under(h, s)) return fail(r, "sandbox: %s would be visible inside (it is under %s)", o->hide[i], shown[k]);
        }
    }
    return 0;
}

static int build_args(const sb_opts *o, args *a, int info_fd, int block_fd, int filter_fd, char *const argv[],
                      sb_result *r)
{
    char num[3][16];
    const char *shown[64];
    int nshown = 0;
    snprintf(num[0], sizeof num[0], "%d", info_fd);
    snprintf(num[1], sizeof num[1], "%d", block_fd);
    snprintf(num[2], sizeof num[2], "%d", filter_fd);
    long long tmp = o->tmp_bytes > 0 ? o->tmp_bytes : DEFAULT_TMP;
    char tmps[32];
    snprintf(tmps, sizeof tmps, "%lld", tmp);

    const char *head[] = { bwrap_path(o), "--unshare-all", "--die-with-parent", "--new-session", "--uid", "1000",
                           "--gid", "1000", "--info-fd", num[0], "--block-fd", num[1], "--proc", "/proc",
                           "--dev", "/dev", "--size", tmps, "--tmpfs", "/tmp", "--clearenv", NULL };
    for (int i = 0; head[i]; i++)
        if (add(a, keep(a, head[i])) != 0) return fail(r, "sandbox: too many arguments");
    int err = 0;
    if (filter_fd >= 0) err |= add(a, "--seccomp") | add(a, keep(a, num[2]));
    for (int i = 0; system_paths[i]; i++) err |= show(a, system_paths[i], "--ro-bind"), shown[nshown++] = system_paths[i];
    for (int i = 0; etc_paths[i]; i++) err |= show(a, etc_paths[i], "--ro-bind"), shown[nshown++] = etc_paths[i];
    for (int i = 0; o->ro_binds && o->ro_binds[i] && nshown < 60; i++) {
        if (o->ro_binds[i][0] != '/') return fail(r, "sandbox: read-only path %s is not absolute", o->ro_binds[i]);
        int covered = 0; /* e.g. /usr/local/cuda: already shown with /usr */
        for (int k = 0; system_paths[k]; k++) covered |= under(o->ro_binds[i], system_paths[k]);
        if (!covered) err |= show(a, o->ro_binds[i], "--ro-bind");
        shown[nshown++] = o->ro_binds[i];
    }
    if (o->gpu) {
        err |= show(a, "/usr/local/nvidia", "--ro-bind");
        glob_t g;
        if (glob("/dev/nvidia*", 0, NULL, &g) == 0) {
            for (size_t i = 0; i < g.gl_pathc; i++) err |= show(a, keep(a, g.gl_pathv[i]), "--dev-bind");
            globfree(&g);
        }
    }
    /* Last, so nothing above can cover it. */
    err |= add(a, "--bind") | add(a, o->scratch) | add(a, o->scratch);
    shown[nshown++] = o->scratch;
    err |= add(a, "--remount-ro") | add(a, "/"); /* bwrap's root tmpfs: only scratch and /tmp stay writable */
    err |= add(a, "--chdir") | add(a, o->cwd ? o->cwd : o->scratch);
    const char *path = o->path ? o->path : "/usr/local/cuda/bin:/usr/bin:/bin";
    err |= add(a, "--setenv") | add(a, "PATH") | add(a, path);
    err |= add(a, "--setenv") | add(a, "HOME") | add(a, o->scratch);
    err |= add(a, "--setenv") | add(a, "TMPDIR") | add(a, "/tmp");
    /* what runs here knows it: HOME is the scratch tree an earlier run wrote (wb_cudnn.h searches nothing under it) */
    err |= add(a, "--setenv") | add(a, "WB_SANDBOXED") | add(a, "1");
    if (o->ld_library_path) err |= add(a, "--setenv") | add(a, "LD_LIBRARY_PATH") | add(a, o->ld_library_path);
    for (int i = 0; o->env && o->env[i]; i++) {
        const char *eq = strchr(o->env[i], '=');
        if (!eq || eq == o->env[i]) return fail(r, "sandbox: environment entry '%s' is not KEY=VALUE", o->env[i]);
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(eq - o->env[i]), o->env[i]);
        err |= add(a, "--setenv") | add(a, keep(a, key)) | add(a, eq + 1);
    }
    err |= add(a, "--");
    for (int i = 0; argv[i]; i++) err |= add(a, argv[i]);
    if (err) return fail(r, "sandbox: too many arguments");
    return check_hidden(o, shown, nshown, r);
}

/* ------------------------------------------------------------ memory cgroup */

typedef struct {
    char dir[PATH_MAX];   /* the run's own cgroup, "" if none */
    int  v2;
} cgroup;

static int write_file(const char *dir, const char *name, const char *text)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    int fd = open(p, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* This process's cgroup-v1 memory folder, if the hierarchy is mounted. */
static int v1_memory_parent(char *out, size_t sz)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f) return -1;
    char line[1024];
    int found = -1;
    while (fgets(line, sizeof line, f)) {
        char *c = strchr(line, ':');
        if (!c || strncmp(c + 1, "memory:", 7) != 0) continue;
        c[8 + strcspn(c + 8, "\n")] = 0;
        snprintf(out, sz, "/sys/fs/cgroup/memory%s", c + 8);
        found = 0;
    }
    fclose(f);
    return found;
}

/* A fresh cgroup under the parent with the memory limit; 0 on success. */
static int cgroup_make(const sb_opts *o, cgroup *cg)
{
    char parent[PATH_MAX];
    cg->dir[0] = 0;
    if (o->cgroup && strcmp(o->cgroup, "none") == 0) return -1;
    if (o->cgroup) snprintf(parent, sizeof parent, "%s", o->cgroup);
    else if (v1_memory_parent(parent, sizeof parent) != 0) return -1;
    char probe[PATH_MAX + 32];
    snprintf(probe, sizeof probe, "%s/memory.max", parent);
    cg->v2 = access(probe, F_OK) == 0 || (snprintf(probe, sizeof probe, "%s/cgroup.subtree_control", parent),
                                           access(probe, F_OK) == 0);
    static unsigned seq;
    snprintf(cg->dir, sizeof cg->dir, "%s/sb-%d-%u", parent, (int)getpid(), seq++);
    if (mkdir(cg->dir, 0755) != 0) return cg->dir[0] = 0, -1;
    char lim[32];
    snprintf(lim, sizeof lim, "%lld", o->mem_bytes);
    int ok;
    if (cg->v2) {
        ok = write_file(cg->dir, "memory.max", lim) == 0;
        write_file(cg->dir, "memory.swap.max", "0");
    } else {
        ok = write_file(cg->dir, "memory.limit_in_bytes", lim) == 0;
        write_file(cg->dir, "memory.memsw.limit_in_bytes", lim); /* absent without swap accounting */
    }
    if (!ok) {
        rmdir(cg->dir);
        cg->dir[0] = 0;
        return -1;
    }
    return 0;
}

/* Did the OOM killer fire in it? */
static int cgroup_oom(const cgroup *cg)
{
    char p[PATH_MAX + 32], line[256];
    snprintf(p, sizeof p, "%s/%s", cg->dir, cg->v2 ? "memory.events" : "memory.oom_control");
    FILE *f = fopen(p, "r");
    if (!f) return 0;
    long long n = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "oom_kill %lld", &n) == 1 && n > 0) break;
    fclose(f);
    return n > 0;
}

static void cgroup_remove(cgroup *cg)
{
    if (!cg->dir[0]) return;
    for (int i = 0; i < 100 && rmdir(cg->dir) != 0 && errno == EBUSY; i++) usleep(20000);
    cg->dir[0] = 0;
}

/* ------------------------------------------------------------------ the run */

static uid_t run_uid;
static gid_t run_gid;

/* Give the scratch tree to the sandbox's uid. Only folders and regular files
 * with one link are changed, never through a symlink: a hard link a student
 * made to a file outside must not change hands. */
static int chown_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)flag, (void)f;
    if (S_ISDIR(st->st_mode) || (S_ISREG(st->st_mode) && st->st_nlink == 1))
        if ((st->st_uid != run_uid || st->st_gid != run_gid) && lchown(p, run_uid, run_gid) != 0) {
            /* left with its owner: the run then cannot write it, and its
             * test fails on that, which is what it should do */
        }
    return 0;
}

static int pidfd_open_(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }
static int pidfd_kill(int fd) { return (int)syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0); }

/* The namespace's init from bwrap's --info-fd JSON; 0 if none came. */
static pid_t read_child_pid(int fd, double deadline)
{
    char buf[2048];
    size_t used = 0;
    while (used < sizeof buf - 1) {
        int ms = (int)((deadline - now_s()) * 1000);
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (ms <= 0 || poll(&p, 1, ms) <= 0) break;
        ssize_t n = read(fd, buf + used, sizeof buf - 1 - used);
        if (n <= 0) break;
        used += (size_t)n;
        buf[used] = 0;
        if (strchr(buf, '}')) break;
    }
    buf[used] = 0;
    const char *k = strstr(buf, "\"child-pid\":");
    return k ? (pid_t)atol(k + 12) : 0;
}

/* RLIMIT_NPROC on the namespace's init. prlimit(2) on another process needs
 * the same uids or CAP_SYS_RESOURCE (which a container's root may lack): a
 * root grader does it from a child that has become the sandbox's uid. */
static int set_nproc(pid_t init, const struct rlimit *rl)
{
    if (geteuid() != 0) return prlimit(init, RLIMIT_NPROC, rl, NULL);
    pid_t p = fork();
    if (p < 0) return -1;
    if (p == 0) {
        if (setgroups(0, NULL) != 0 || setgid(run_gid) != 0 || setuid(run_uid) != 0) _exit(1);
        _exit(prlimit(init, RLIMIT_NPROC, rl, NULL) == 0 ? 0 : 1);
    }
    int st;
    if (waitpid(p, &st, 0) != p) return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static void child(const sb_opts *o, args *a, int out_w, int info_w, int block_r, int filter_fd, const cgroup *cg)
{
    int nul = open("/dev/null", O_RDONLY);
    if (nul < 0 || dup2(nul, 0) < 0 || dup2(out_w, 1) < 0 || dup2(out_w, 2) < 0) _exit(125);
    /* bwrap gets only 0-2, its two pipes (made without CLOEXEC), the filter
     * and the caller's keep_fd, which bwrap passes on to the command. */
    if (filter_fd >= 0 && fcntl(filter_fd, F_SETFD, 0) != 0) _exit(125);
    int pass = o->keep_fd > 2 ? o->keep_fd : -1;
    if (pass >= 0 && fcntl(pass, F_SETFD, 0) != 0) {
        dprintf(2, "sandbox: descriptor %d to pass is not open: %s\n", pass, strerror(errno));
        _exit(125);
    }
    DIR *d = opendir("/proc/self/fd");
    if (d) {
        struct dirent *e;
        int keepfd = dirfd(d);
        while ((e = readdir(d)))
            if (e->d_name[0] != '.') {
                int fd = atoi(e->d_name);
                if (fd > 2 && fd != info_w && fd != block_r && fd != filter_fd && fd != keepfd && fd != pass) close(fd);
            }
        closedir(d);
    }
    struct rlimit rl;
    rl = (struct rlimit){ 0, 0 };
    setrlimit(RLIMIT_CORE, &rl);
    if (o->cpu_s > 0) {
        rl.rlim_cur = (rlim_t)(o->cpu_s + 0.999);
        rl.rlim_max = rl.rlim_cur + 1;
        setrlimit(RLIMIT_CPU, &rl);
    }
    if (o->file_bytes > 0) {
        rl.rlim_cur = rl.rlim_max = (rlim_t)o->file_bytes;
        setrlimit(RLIMIT_FSIZE, &rl);
    }
    if (o->mem_bytes > 0 && !cg->dir[0]) {
        rl.rlim_cur = rl.rlim_max = (rlim_t)o->mem_bytes;
        setrlimit(RLIMIT_DATA, &rl);
    }
    if (cg->dir[0] && write_file(cg->dir, "cgroup.procs", "0") != 0) {
        dprintf(2, "sandbox: cannot join %s: %s\n", cg->dir, strerror(errno));
        _exit(125);
    }
    if (geteuid() == 0) {
        if (setgroups(0, NULL) != 0 || setgid(run_gid) != 0 || setuid(run_uid) != 0) {
            dprintf(2, "sandbox: cannot drop to uid %d: %s\n", (int)run_uid, strerror(errno));
            _exit(125);
        }
    }
    char *envp[] = { "PATH=/usr/bin:/bin", NULL };
    execve(a->v[0], a->v, envp);
    dprintf(2, "sandbox: cannot run %s: %s\n", a->v[0], strerror(errno));
    _exit(127);
}

/* The disk use of a folder: the allocated blocks of everything under it
 * (hard links counted each time: an overcount only a trick pays for), not
 * following links. A folder the walk cannot read counts as over any quota
 * (a student's chmod 000 must not hide what is inside). An entry that
 * vanished between the folder's listing and its stat (a record written to a
 * temporary name and renamed, a test's scratch file removed) is no sign of
 * hiding: the walk is made again, and after three walks that each met one
 * the last total stands. Counted unreadable only when the entry is still
 * there and cannot be read. */
static long long du_total, du_entries;
static int du_unreadable, du_vanished;
static int du_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)f;
    du_entries++;
    if (flag == FTW_DNR || flag == FTW_NS) {
        struct stat now;
        if (lstat(p, &now) != 0) {
            if (errno == ENOENT) du_vanished = 1;
            else du_unreadable = 1;
        } else if (flag == FTW_DNR) {
            du_unreadable = 1; /* there, and not readable */
        } else {
            du_total += (long long)now.st_blocks * 512; /* replaced while the walk passed: count it now */
        }
        return 0;
    }
    du_total += (long long)st->st_blocks * 512;
    return 0;
}
static long long disk_use(const char *dir)
{
    for (int walk = 0; walk < 3; walk++) {
        du_total = 0, du_entries = 0, du_unreadable = 0, du_vanished = 0;
        errno = 0;
        if (nftw(dir, du_one, 32, FTW_PHYS) != 0) {
            if (errno == ENOENT) du_vanished = 1;
            else du_unreadable = 1;
        }
        if (du_unreadable) return LLONG_MAX;
        if (!du_vanished) break;
    }
    return du_total;
}
/* Past the scratch folder's quota: its blocks, or its entries (du_entries of
 * the same walk); each limit only when it is set (> 0). */
static int over_quota(const sb_opts *o)
{
    long long used = disk_use(o->scratch);
    if (used == LLONG_MAX) return 1; /* not readable to the end: counted as past any limit set */
    return (o->disk_bytes > 0 && used > o->disk_bytes) || (o->disk_entries > 0 && du_entries > o->disk_entries);
}

int sb_run(const sb_opts *o, char *const argv[], sb_result *r)
{
    memset(r, 0, sizeof *r);
    r->exit_code = -1;
    struct stat st;
    if (!o->scratch || o->scratch[0] != '/' || stat(o->scratch, &st) != 0 || !S_ISDIR(st.st_mode))
        return fail(r, "sandbox: scratch folder %s is not an absolute folder", o->scratch ? o->scratch : "(none)");
    if (!argv || !argv[0]) return fail(r, "sandbox: no command");
    run_uid = o->uid ? o->uid : 65534;
    run_gid = o->gid ? o->gid : 65534;

    int info[2] = { -1, -1 }, block[2] = { -1, -1 }, out[2] = { -1, -1 };
    if (pipe2(out, O_CLOEXEC) != 0 || pipe(info) != 0 || pipe(block) != 0)
        return fail(r, "sandbox: pipe: %s", strerror(errno));
    /* The grader's ends must not leak into bwrap. */
    fcntl(info[0], F_SETFD, FD_CLOEXEC);
    fcntl(block[1], F_SETFD, FD_CLOEXEC);

    static args a; /* large; sb_run is not reentrant */
    memset(&a, 0, sizeof a);
    int filter = -1, rc = 0;
    if (o->seccomp != SB_SECCOMP_OFF) {
        if ((unsigned)o->seccomp > SB_SECCOMP_OFF) rc = fail(r, "sandbox: unknown seccomp mode %d", o->seccomp);
        else if ((filter = seccomp_fd((sb_seccomp)o->seccomp, r)) < 0) rc = -1;
    }
    if (rc == 0) rc = build_args(o, &a, info[1], block[0], filter, argv, r);
    cgroup cg = { "", 0 };
    if (rc == 0 && o->mem_bytes > 0 && cgroup_make(o, &cg) == 0) r->mem_cgroup = 1;
    if (rc == 0 && geteuid() == 0) nftw(o->scratch, chown_one, 32, FTW_PHYS);

    int logfd = -1;
    if (rc == 0) {
        logfd = open(o->log_path ? o->log_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (logfd < 0) rc = fail(r, "sandbox: cannot write %s: %s", o->log_path, strerror(errno));
    }
    pid_t pid = -1;
    if (rc == 0) {
        fflush(NULL);
        pid = fork();
        if (pid < 0) rc = fail(r, "sandbox: fork: %s", strerror(errno));
        if (pid == 0) child(o, &a, out[1], info[1], block[0], filter, &cg);
    }
    close(out[1]), close(info[1]), close(block[0]);
    if (filter >= 0) close(filter);
    if (rc != 0) {
        close(out[0]), close(info[0]), close(block[1]);
        if (logfd >= 0) close(logfd);
        cgroup_remove(&cg);
        return rc;
    }

    /* bwrap exits once its init reports the command's status, leaving init to
     * be reaped by whoever adopts it: let that be us, not the host's init. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    double t0 = now_s();
    double deadline = o->wall_s > 0 ? t0 + o->wall_s : 1e300;
    pid_t init = read_child_pid(info[0], t0 + (o->wall_s > 0 && o->wall_s < 30 ? o->wall_s : 30));
    close(info[0]);
    int pfd = init > 0 ? pidfd_open_(init) : -1;
    if (init > 0) {
        struct rlimit rl = { .rlim_cur = o->max_procs > 0 ? (rlim_t)o->max_procs : DEFAULT_PROCS };
        rl.rlim_max = rl.rlim_cur;
        if (pfd < 0 || set_nproc(init, &rl) != 0) {
            /* No process limit, no run. */
            if (pfd >= 0) pidfd_kill(pfd);
            kill(pid, SIGKILL);
            init = 0;
        }
    }
    if (init > 0 && write(block[1], "g", 1) != 1) kill(pid, SIGKILL);
    close(block[1]);

    /* Copy output to the log up to the cap; stop at EOF, the cap or the clock. */
    long long cap = o->out_bytes > 0 ? o->out_bytes : DEFAULT_OUT;
    char buf[65536];
    int open_out = 1, status = 0, reaped = 0;
    sb_limit fired = SB_LIMIT_NONE;
    double next_du = o->disk_bytes > 0 || o->disk_entries > 0 ? now_s() + 0.5 : 1e300;
    while (!reaped || open_out) {
        if (fired == SB_LIMIT_NONE && now_s() >= deadline) fired = SB_LIMIT_WALL;
        if (fired == SB_LIMIT_NONE && !reaped && now_s() >= next_du) {
            if (over_quota(o)) fired = SB_LIMIT_DISK;
            next_du = now_s() + 0.5;
        }
        if (fired != SB_LIMIT_NONE && !reaped) {
            if (pfd >= 0) pidfd_kill(pfd);
            kill(pid, SIGKILL); /* bwrap; --die-with-parent takes its child along */
        }
        if (open_out) {
            double left = deadline - now_s();
            int ms = fired || reaped ? 50 : left > 0.25 ? 250 : (int)(left * 1000) + 1;
            struct pollfd p = { .fd = out[0], .events = POLLIN };
            if (poll(&p, 1, ms) > 0) {
                ssize_t n = read(out[0], buf, sizeof buf);
                if (n <= 0) open_out = 0;
                else if (fired == SB_LIMIT_NONE) {
                    long long room = cap - r->out_bytes;
                    size_t w = (long long)n < room ? (size_t)n : (size_t)room;
                    if (w > 0 && write(logfd, buf, w) == (ssize_t)w) r->out_bytes += (long long)w;
                    if ((long long)n > room) fired = SB_LIMIT_OUTPUT;
                }
            } else if (reaped && pfd >= 0) {
                pidfd_kill(pfd); /* bwrap is gone but a writer is not: end the namespace */
            }
        } else {
            usleep(10000);
        }
        if (!reaped && waitpid(pid, &status, WNOHANG) == pid) reaped = 1;
    }
    /* bwrap is gone; make sure its namespace is too (pidfd: never a reused pid). */
    if (pfd >= 0) {
        pidfd_kill(pfd);
        struct pollfd p = { .fd = pfd, .events = POLLIN };
        poll(&p, 1, 5000); /* readable once init is dead, which is after the kernel killed the namespace */
        siginfo_t si;
        waitid((idtype_t)3 /* P_PIDFD */, (id_t)pfd, &si, WEXITED | WNOHANG); /* ours as subreaper */
        close(pfd);
    }
    close(out[0]);
    close(logfd);
    r->seconds = now_s() - t0;

    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        if (code > 128 && code < 128 + 65 && init > 0) r->signal = code - 128; /* bwrap's 128+signal */
        else r->exit_code = code;
    } else if (WIFSIGNALED(status)) {
        r->signal = WTERMSIG(status);
    }
    if (cg.dir[0] && cgroup_oom(&cg) && fired == SB_LIMIT_NONE) fired = SB_LIMIT_MEM;
    if (fired == SB_LIMIT_NONE && (r->signal == SIGXCPU || (r->signal == SIGKILL && o->cpu_s > 0 &&
                                                            r->seconds >= o->cpu_s)))
        fired = SB_LIMIT_CPU;
    if (fired == SB_LIMIT_NONE && r->signal == SIGXFSZ) fired = SB_LIMIT_FILE;
    if (fired == SB_LIMIT_WALL || fired == SB_LIMIT_OUTPUT || fired == SB_LIMIT_DISK) r->signal = SIGKILL, r->exit_code = -1;
    /* what the run left, whatever its end: between two looks it can have written more */
    if ((o->disk_bytes > 0 || o->disk_entries > 0) && (fired == SB_LIMIT_NONE || fired == SB_LIMIT_FILE) &&
        over_quota(o))
        fired = SB_LIMIT_DISK;
    r->limit = fired;
    if (fired == SB_LIMIT_NONE && r->signal == SIGSYS && o->seccomp != SB_SECCOMP_OFF)
        snprintf(r->why, sizeof r->why, "%s", SB_SECCOMP_KILLED);
    cgroup_remove(&cg);
    if (init <= 0 && fired == SB_LIMIT_NONE) {
        snprintf(r->why, sizeof r->why, "sandbox: bwrap did not start the command (exit %d; see the log)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -1;
    }
    return 0;
}

int sb_copy_exe(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_CLOEXEC), out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
    char buf[1 << 16];
    ssize_t n = 0;
    while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) n = -1;
    int ok = in >= 0 && out >= 0 && n == 0 && fchmod(out, 0755) == 0;
    if (in >= 0) close(in);
    if (out >= 0 && close(out) != 0) ok = 0;
    return ok ? 0 : -1;
}

int sb_reachable(const char *path, char *why)
{
    if (geteuid() != 0) return 1;
    char *real = realpath(path, NULL);
    if (!real) {
        snprintf(why, 512, "%s: %s", path, strerror(errno));
        return 0;
    }
    const uid_t uid = 65534;
    const gid_t gid = 65534;
    char dir[PATH_MAX];
    size_t n = strlen(real);
    for (size_t k = 1; k <= n; k++) {
        if (k < n && real[k] != '/') continue;
        snprintf(dir, sizeof dir, "%.*s", (int)(k == 0 ? 1 : k), real);
        struct stat st;
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        mode_t need = st.st_uid == uid ? S_IXUSR : st.st_gid == gid ? S_IXGRP : S_IXOTH;
        if (!(st.st_mode & need)) {
            snprintf(why, 512,
                     "the sandbox runs student code as uid %d, which cannot enter %s (mode %04o) on the way to %s. "
                     "Fix: chmod o+x %s (others may pass through it, not list it), or keep the workbook under a "
                     "folder others can enter",
                     (int)uid, dir, (unsigned)(st.st_mode & 07777), real, dir);
            free(real);
            return 0;
        }
    }
    free(real);
    return 1;
}

int sb_available(const sb_opts *o, char *why)
{
    const char *bw = bwrap_path(o);
    if (access(bw, X_OK) != 0) {
        snprintf(why, 512, "%s not found: install bubblewrap 0.8 or later", bw);
        return 0;
    }
    char dir[] = "/tmp/sb-probe-XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(why, 512, "cannot make a probe folder: %s", strerror(errno));
        return 0;
    }
    sb_opts p = o ? *o : (sb_opts){ 0 };
    p.scratch = dir, p.cwd = NULL, p.wall_s = 20, p.log_path = NULL, p.hide = NULL, p.cgroup = "none";
    p.mem_bytes = 0;
    char log[sizeof dir + 8];
    snprintf(log, sizeof log, "%s.log", dir);
    p.log_path = log;
    if (geteuid() == 0) chmod(dir, 0755);
    char *argv[] = { "/bin/sh", "-c", "echo ok", NULL };
    sb_result r;
    int rc = sb_run(&p, argv, &r);
    char got[600] = "";
    FILE *f = fopen(log, "r");
    if (f) {
        size_t n = fread(got, 1, sizeof got - 1, f);
        got[n] = 0;
        fclose(f);
    }
    unlink(log);
    rmdir(dir);
    if (rc == 0 && r.exit_code == 0 && strcmp(got, "ok\n") == 0) {
        snprintf(why, 512, "bwrap works");
        return 1;
    }
    got[strcspn(got, "\n")] = 0;
    snprintf(why, 512, "bwrap cannot make a sandbox here (%s%s%s): unprivileged user namespaces may be off "
             "(kernel.unprivileged_userns_clone, user.max_user_namespaces, AppArmor's restrict_unprivileged_userns)",
             rc ? r.why : "", rc ? "; " : "", got);
    return 0;
}
