/* sandbox.h — run one command of one student inside bubblewrap (bwrap).
 *
 * The grader builds and runs code it does not trust. sb_run() starts argv in
 * a fresh set of namespaces (user, mount, PID, network, IPC, UTS, cgroup)
 * where the process sees only:
 *
 *   - the student's scratch folder, read-write, at its own path (the only
 *     writable place besides a private, size-capped tmpfs /tmp);
 *   - /usr, /lib, /lib64, /bin, /sbin as they exist on the host, read-only,
 *     and a minimal /etc (passwd, group, ld.so.cache, ld.so.conf[.d],
 *     alternatives), read-only;
 *   - the caller's extra read-only paths (the CUDA toolkit; a symlink such as
 *     /usr/local/cuda is recreated as the same symlink);
 *   - /dev/null, zero, urandom, ... (bwrap --dev), the GPU nodes /dev/nvidia*
 *     that exist (when o->gpu), /usr/local/nvidia read-only if it exists;
 *   - its own /proc (its own PID namespace: only the sandbox's processes).
 *
 * Nothing else is mounted: the parents of the scratch folder are empty
 * folders made by bwrap, so siblings (other students, the instructor's tree,
 * the gradebook) are absent, not just unreadable. Paths in o->hide are
 * checked: sb_run refuses to start if one of them would be visible.
 *
 * Descriptors: the command gets stdin from /dev/null, stdout and stderr
 * into the log, and o->keep_fd if set (a socket through which a process
 * outside talks to it; what comes through it, descriptors passed with
 * SCM_RIGHTS included, is not limited by the namespaces); nothing else.
 *
 * The environment is exactly PATH, HOME=scratch, LD_LIBRARY_PATH (if given),
 * WB_SANDBOXED=1 (so wb_cudnn.h searches nothing under HOME) and o->env.
 * The command runs as an unprivileged uid: when the grader is root, bwrap
 * itself is started as o->uid (65534 unless set) and the scratch tree is
 * chowned to it, because RLIMIT_NPROC does not bind uid 0.
 *
 * Limits (0 = none): wall clock (the whole sandbox is killed: its PID 1 dies,
 * the kernel kills every process of the namespace), RLIMIT_CPU (per process),
 * memory (a memory cgroup when one is writable, else RLIMIT_DATA), RLIMIT_FSIZE,
 * processes (RLIMIT_NPROC, counted in the sandbox's own user namespace, so
 * parallel sandboxes of the same uid do not share one count), output
 * (stdout+stderr go to log_path; past out_bytes the grader stops reading and
 * kills the sandbox), the scratch folder's disk use (disk_bytes: RLIMIT_FSIZE
 * caps one file, not how many; sb_run adds up the folder's blocks twice a
 * second and kills the sandbox past the quota, so a run can overshoot by what
 * it writes in half a second, at most). Core dumps are off.
 *
 * Memory, measured on an H100 (CUDA 13, a 1 GiB cudaMalloc, a kernel, 256 MiB
 * of cudaMallocHost): RLIMIT_AS of 4 GiB makes cudaMalloc fail ("out of
 * memory": the runtime reserves virtual address space in proportion to the
 * GPU's memory), 16 GiB happens to pass; so RLIMIT_AS is never used.
 * RLIMIT_DATA of 128 MiB lets the program run, and bounds malloc/new/brk, but
 * not pinned host memory (the driver maps it shared): a weaker cap, hence the
 * memory cgroup first, which charges every page the sandbox touches (tmpfs
 * /tmp included).
 *
 * System calls (o->seccomp, sb_seccomp): a seccomp filter, classic BPF made
 * in sandbox.c and handed to bwrap --seccomp in a memfd, which bwrap loads
 * after it has set up the namespaces and mounts, just before it starts the
 * command (and in its PID 1): everything the command starts inherits it.
 * Every mode but off kills a call of a foreign architecture or an x32 call,
 * a socket of another family than AF_UNIX, clone with a namespace flag (and
 * answers clone3 with ENOSYS), and a personality other than the harmless
 * ones. deny (the default) then kills a list of calls no test or build needs
 * that serve escapes, kernel exploits or tampering with another process
 * (ptrace, process_vm_*, bpf, perf_event_open, userfaultfd, io_uring, mount
 * and namespace calls, keyrings, modules, kexec, ...; sandbox.c gives each a
 * reason) and allows the rest. allow allows only a list of what the CUDA
 * runtime and driver, the test harness, Python and the build tools call and
 * kills the rest; log is allow with a call outside the list logged by the
 * kernel instead. The allow-list was checked without a GPU (make, gcc, nvcc
 * -c, python3): it is to be confirmed on the GPU machine, and deny is the
 * default until it is. A command the filter killed died of SIGSYS, with
 * r->why = SB_SECCOMP_KILLED; under Check's fork mode only the test's
 * process dies, and its message says "(Bad system call)".
 *
 * Limits of the design: under deny, every call not on the kill-list is
 * reachable, and under either policy so is the GPU driver's whole ioctl
 * interface through /dev/nvidia*; RLIMIT_CPU is per process (the wall clock
 * bounds the rest); a process-count or RLIMIT_DATA hit makes fork/malloc
 * fail inside, which sb_run cannot name.
 */
#ifndef SANDBOX_H
#define SANDBOX_H

#include <sys/types.h>

typedef struct {
    const char *scratch;             /* absolute folder: read-write, HOME, default cwd */
    const char *cwd;                 /* absolute, inside scratch; NULL: scratch */
    const char *const *ro_binds;     /* NULL-terminated absolute paths shown read-only */
    const char *const *hide;         /* NULL-terminated paths that must be absent inside */
    const char *const *env;          /* NULL-terminated "KEY=VALUE" added to the environment */
    const char *path;                /* PATH; NULL: /usr/local/cuda/bin:/usr/bin:/bin */
    const char *ld_library_path;     /* NULL: not set */
    double      wall_s, cpu_s;       /* 0: no limit */
    long long   mem_bytes;           /* memory cgroup, else RLIMIT_DATA; 0: no limit */
    long long   file_bytes;          /* RLIMIT_FSIZE; 0: no limit */
    long long   disk_bytes;          /* disk quota of the scratch folder: the blocks of everything under
                                        it, measured every half second and at the end; past it (or a
                                        folder there the grader cannot read) the run is stopped; 0: none */
    long        disk_entries;        /* and its files and folders, counted by the same walk: empty files
                                        take no blocks but each takes an inode of the host's file
                                        system; past it the run is stopped as past disk_bytes, with or
                                        without a disk_bytes; 0: none */
    long long   out_bytes;           /* log cap; 0: 16 MiB */
    long long   tmp_bytes;           /* size of the tmpfs /tmp; 0: 1 GiB */
    int         max_procs;           /* RLIMIT_NPROC in the sandbox; 0: 512 */
    const char *log_path;            /* stdout+stderr, truncated first; NULL: discarded */
    const char *cgroup;              /* memory cgroup parent folder (v1 or v2); NULL: this
                                        process's v1 memory cgroup if writable; "none": never */
    int         gpu;                 /* bind /dev/nvidia* and /usr/local/nvidia */
    uid_t       uid;                 /* uid bwrap runs as when the grader is root; 0: 65534 */
    gid_t       gid;                 /* its gid; 0: 65534 */
    const char *bwrap;               /* NULL: /usr/bin/bwrap or /usr/local/bin/bwrap */
    int         keep_fd;             /* > 2: this descriptor of the caller reaches the command open, under
                                        the same number (e.g. one end of a socketpair); every other one
                                        but 0-2 is closed; 0: none */
    int         seccomp;             /* sb_seccomp: the system-call filter; 0 (SB_SECCOMP_DENY) by default */
} sb_opts;

/* The seccomp filter bwrap loads just before it starts the command (and in
 * its own PID 1), so the namespaces are set up first and the command and
 * everything it starts live under it; sandbox.c holds the lists. */
typedef enum {
    SB_SECCOMP_DENY = 0, /* everything but a kill-list (escapes, kernel attack surface, forging) */
    SB_SECCOMP_ALLOW,    /* only an allow-list (the CUDA runtime and driver, the build tools); the rest kills */
    SB_SECCOMP_LOG,      /* the allow-list, but a call outside it is only logged by the kernel (audit type
                            1326, syscall=N, in dmesg): how the allow-list is confirmed on a GPU machine */
    SB_SECCOMP_OFF,      /* no filter */
} sb_seccomp;

/* How sb_result.why names a run the filter killed (its signal is SIGSYS). */
#define SB_SECCOMP_KILLED "killed by the seccomp filter (a forbidden system call)"

typedef enum {
    SB_LIMIT_NONE = 0,
    SB_LIMIT_WALL,      /* killed by sb_run at wall_s */
    SB_LIMIT_CPU,       /* SIGXCPU / SIGKILL from RLIMIT_CPU */
    SB_LIMIT_MEM,       /* the memory cgroup's OOM killer fired */
    SB_LIMIT_FILE,      /* SIGXFSZ from RLIMIT_FSIZE */
    SB_LIMIT_OUTPUT,    /* killed by sb_run past out_bytes */
    SB_LIMIT_DISK,      /* the scratch folder passed disk_bytes (killed, or found so at the end) */
} sb_limit;

typedef struct {
    int       exit_code;    /* the command's exit status; -1 if it died of a signal or was killed */
    int       signal;       /* the signal that ended it, 0 if none */
    sb_limit  limit;        /* the limit that fired, if one did */
    long long out_bytes;    /* bytes written to the log (at most out_bytes) */
    double    seconds;      /* wall time */
    int       mem_cgroup;   /* 1: memory was capped by a cgroup, 0: by RLIMIT_DATA or not at all */
    char      why[512];     /* why sb_run could not run the command (return -1); when it ran (return 0):
                               "" or, for a command that died of SIGSYS under a filter, SB_SECCOMP_KILLED */
} sb_result;

/* Run argv (argv[0] is looked up in the sandbox's PATH) under o. Returns 0
 * when the command ran (whatever its outcome, in r), -1 when the sandbox
 * could not be set up (r->why says why). */
int sb_run(const sb_opts *o, char *const argv[], sb_result *r);

/* 1 if bwrap can make a sandbox on this host, else 0 and why (512 bytes). */
int sb_available(const sb_opts *o, char *why);

/* 1 if the sandbox's user can reach `path` (every folder on the way lets it
 * pass), else 0 and why with the command that fixes it (512 bytes). A root
 * grader runs student code as uid 65534, which cannot pass a folder only its
 * owner may enter (mode 0700, as mktemp -d makes, or root's home); a grader
 * that is not root runs it as its own user, who can. */
int sb_reachable(const char *path, char *why);

/* A program copied to `to` (0755) for a sandbox to run: the sandbox shows
 * its scratch folder and nothing of the tree the program was built in.
 * 0, or -1 (errno as the failing call left it). */
int sb_copy_exe(const char *from, const char *to);

const char *sb_limit_name(sb_limit l);

/* "deny", "allow", "log", "off"; and back (-1 for another word). */
const char *sb_seccomp_name(sb_seccomp m);
int sb_seccomp_parse(const char *word);

#endif
