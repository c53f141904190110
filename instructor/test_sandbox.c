/* test_sandbox.c — Check tests of sandbox.c (make -f instructor/Makefile.sandbox test).
 *
 * The probes run inside the sandbox are this same binary, copied into the
 * scratch folder and started as `test_sandbox helper MODE ...`, so the tests
 * need no tool of the host. Most tests also run their probe outside the
 * sandbox first (a control): it shows the probe does see the thing the
 * sandbox must stop, i.e. that the test can fail.
 *
 * Needs bwrap that works here (sb_available); every test fails otherwise:
 * a grader host without a sandbox is not one to grade on.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sandbox.h"

#include <check.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ------------------------------------------------------------ the probes */

static int helper(int argc, char **argv)
{
    const char *m = argv[2];
    if (!strcmp(m, "stat")) {
        for (int i = 3; i < argc; i++) {
            struct stat st;
            printf("%s %s\n", argv[i], stat(argv[i], &st) == 0 ? "present" : strerrorname_np(errno));
        }
    } else if (!strcmp(m, "write")) {
        for (int i = 3; i < argc; i++) {
            int fd = open(argv[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
            printf("%s %s\n", argv[i], fd >= 0 ? "written" : strerrorname_np(errno));
            if (fd >= 0) close(fd);
        }
    } else if (!strcmp(m, "daemon")) { /* argv[3]: pid file, argv[4]: a marker for the host's /proc */
        pid_t p = fork();
        if (p == 0) {
            setsid();
            if (fork() == 0) {
                FILE *f = fopen(argv[3], "w");
                if (f) fprintf(f, "%d\n", (int)getpid()), fclose(f);
                for (int i = 0; i < 1000; i++) sleep(1);
                _exit(0);
            }
            _exit(0);
        }
        waitpid(p, NULL, 0);
        for (int i = 0; i < 500 && access(argv[3], F_OK) != 0; i++) usleep(10000);
        printf("daemon started\n");
    } else if (!strcmp(m, "forkstorm")) {
        int n = atoi(argv[3]), ok = 0;
        for (int i = 0; i < n; i++) {
            pid_t p = fork();
            if (p == 0) {
                sleep(20);
                _exit(0);
            }
            if (p > 0) ok++;
        }
        printf("forked %d\n", ok);
        fflush(stdout);
        if (argc > 4) kill(0, SIGKILL); /* the control run cleans up after itself */
    } else if (!strcmp(m, "print")) {
        static char buf[1 << 20];
        memset(buf, 'x', sizeof buf);
        long long n = atoll(argv[3]);
        for (long long done = 0; done < n; done += sizeof buf)
            if (write(1, buf, sizeof buf) < 0) return 3;
    } else if (!strcmp(m, "connect")) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[3])) };
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        printf("connect %s\n", s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0 ? "ok" : strerrorname_np(errno));
    } else if (!strcmp(m, "procs")) {
        DIR *d = opendir("/proc");
        struct dirent *e;
        int n = 0;
        while (d && (e = readdir(d))) n += e->d_name[0] >= '0' && e->d_name[0] <= '9';
        if (d) closedir(d);
        printf("procs %d\n", n);
    } else if (!strcmp(m, "spin")) {
        for (volatile unsigned long i = 0;; i++) {}
    } else if (!strcmp(m, "alloc")) { /* MiB */
        long n = atol(argv[3]);
        for (long i = 0; i < n; i++) {
            char *p = malloc(1 << 20);
            if (!p) {
                printf("alloc failed at %ld MiB\n", i);
                return 4;
            }
            memset(p, 1, 1 << 20);
        }
        printf("alloc ok\n");
    } else if (!strcmp(m, "bigfile")) {
        FILE *f = fopen(argv[3], "w");
        static char buf[1 << 16];
        for (long long n = atoll(argv[4]); f && n > 0; n -= sizeof buf) fwrite(buf, 1, sizeof buf, f);
        if (f) fclose(f);
        printf("bigfile done\n");
    } else if (!strcmp(m, "env")) {
        for (char **e = environ; *e; e++) printf("%s\n", *e);
    } else if (!strcmp(m, "id")) {
        printf("uid %d\n", (int)getuid());
    } else if (!strcmp(m, "ptrace")) { /* the calls the seccomp filter kills: each prints if it returns */
        long rc = ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        printf("ptrace returned %ld %s\n", rc, rc ? strerrorname_np(errno) : "");
    } else if (!strcmp(m, "inet")) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        printf("socket returned %d %s\n", fd, fd < 0 ? strerrorname_np(errno) : "");
    } else if (!strcmp(m, "unshare")) {
        int rc = unshare(CLONE_NEWUSER);
        printf("unshare returned %d %s\n", rc, rc ? strerrorname_np(errno) : "");
    } else if (!strcmp(m, "ordinary")) { /* what the filter lets through: AF_UNIX, fork, exec */
        int sv[2];
        int ok = socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 && write(sv[0], "x", 1) == 1;
        char c = 0;
        ok = ok && read(sv[1], &c, 1) == 1 && c == 'x';
        fflush(stdout);
        pid_t p = fork();
        if (p == 0) {
            execl("/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        int st = -1;
        ok = ok && p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0;
        printf("ordinary %s\n", ok ? "ok" : "failed");
    }
    return 0;
}

/* ------------------------------------------------------------ the fixture */

static char root[64];           /* /tmp/sbt-XXXXXX */
static char scratch[128];       /* root/students/alice */
static char sibling[160];       /* root/students/bob/secret.txt */
static char probe[192];         /* the helper inside scratch */
static char logp[128];
static char solution[4096];     /* a solution file of the worktree */

static void setup(void)
{
    snprintf(root, sizeof root, "/tmp/sbt-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    chmod(root, 0755);
    char p[160];
    snprintf(p, sizeof p, "%s/students", root);
    mkdir(p, 0755);
    snprintf(scratch, sizeof scratch, "%s/students/alice", root);
    mkdir(scratch, 0755);
    snprintf(p, sizeof p, "%s/students/bob", root);
    mkdir(p, 0755);
    snprintf(sibling, sizeof sibling, "%s/secret.txt", p);
    FILE *f = fopen(sibling, "w");
    fputs("bob's answers\n", f);
    fclose(f);
    snprintf(logp, sizeof logp, "%s/log.txt", root);
    /* the probe: this binary */
    snprintf(probe, sizeof probe, "%s/probe", scratch);
    int in = open("/proc/self/exe", O_RDONLY), out = open(probe, O_WRONLY | O_CREAT, 0755);
    char buf[65536];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0) ck_assert_int_eq(write(out, buf, (size_t)n), n);
    close(in), close(out);
    if (!realpath("phase0/week01/solution/vecadd.cu", solution)) solution[0] = 0;
}

static void rm_rf(const char *p)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", p);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", p);
}

static void teardown(void) { rm_rf(root); }

static sb_opts opts(void)
{
    static const char *cuda[] = { "/usr/local/cuda", "/usr/local/cuda-13.0", NULL };
    sb_opts o = { .scratch = scratch, .ro_binds = cuda, .wall_s = 20, .cpu_s = 20, .mem_bytes = 1LL << 30,
                  .file_bytes = 64LL << 20, .out_bytes = 1 << 20, .max_procs = 64, .log_path = logp };
    return o;
}

static char logtext[1 << 16];

static const char *read_log(void)
{
    FILE *f = fopen(logp, "r");
    size_t n = f ? fread(logtext, 1, sizeof logtext - 1, f) : 0;
    logtext[n] = 0;
    if (f) fclose(f);
    return logtext;
}

/* Run the probe in the sandbox; returns the log. */
static const char *boxed(sb_opts *o, sb_result *r, const char *const *args)
{
    char *argv[16] = { probe, "helper" };
    int n = 2;
    for (int i = 0; args[i] && n < 15; i++) argv[n++] = (char *)args[i];
    argv[n] = NULL;
    int rc = sb_run(o, argv, r);
    ck_assert_msg(rc == 0, "sb_run: %s", r->why);
    return read_log();
}

/* The control: the same probe run plainly, as this process. */
static const char *plain(const char *const *args)
{
    char *argv[16] = { probe, "helper" };
    int n = 2;
    for (int i = 0; args[i] && n < 15; i++) argv[n++] = (char *)args[i];
    argv[n] = NULL;
    fflush(NULL);
    pid_t p = fork();
    if (p == 0) {
        setpgid(0, 0);
        int fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1), dup2(fd, 2);
        execv(probe, argv);
        _exit(127);
    }
    waitpid(p, NULL, 0);
    return read_log();
}

static int available;
static char why[512];

#define NEED_BWRAP() \
    do { \
        if (!available) ck_abort_msg("bwrap does not work here: %s", why); \
    } while (0)

/* ------------------------------------------------------------ the tests */

START_TEST(outside_files_are_absent)
{
    NEED_BWRAP();
    const char *args[] = { "stat", sibling, solution, "/srv", "/root", "/home", scratch, NULL };
    char want[512];
    snprintf(want, sizeof want, "%s present", sibling);
    ck_assert_msg(strstr(plain(args), want), "control: the probe must see the sibling outside");
    sb_opts o = opts();
    sb_result r;
    const char *log = boxed(&o, &r, args);
    ck_assert_int_eq(r.exit_code, 0);
    snprintf(want, sizeof want, "%s ENOENT", sibling);
    ck_assert_msg(strstr(log, want), "sibling visible:\n%s", log);
    if (solution[0]) {
        snprintf(want, sizeof want, "%s ENOENT", solution);
        ck_assert_msg(strstr(log, want), "solution visible:\n%s", log);
    }
    ck_assert_msg(strstr(log, "/srv ENOENT") && strstr(log, "/root ENOENT") && strstr(log, "/home ENOENT"), "%s", log);
    snprintf(want, sizeof want, "%s present", scratch);
    ck_assert_msg(strstr(log, want), "%s", log);
}
END_TEST

START_TEST(hidden_path_under_a_bind_is_refused)
{
    NEED_BWRAP();
    char students[128];
    snprintf(students, sizeof students, "%s/students", root);
    const char *ro[] = { students, NULL };
    const char *hide[] = { sibling, NULL };
    sb_opts o = opts();
    o.ro_binds = ro, o.hide = hide;
    sb_result r;
    char *argv[] = { "/bin/true", NULL };
    ck_assert_int_eq(sb_run(&o, argv, &r), -1);
    ck_assert_msg(strstr(r.why, "would be visible"), "%s", r.why);
    /* Hiding the parent of scratch is fine: only scratch is shown. */
    const char *hide2[] = { students, NULL };
    o.ro_binds = NULL, o.hide = hide2;
    ck_assert_msg(sb_run(&o, argv, &r) == 0 && r.exit_code == 0, "%s", r.why);
}
END_TEST

START_TEST(writes_outside_scratch_fail)
{
    NEED_BWRAP();
    char inside[192], sib[192], rootf[192];
    snprintf(inside, sizeof inside, "%s/ok.txt", scratch);
    snprintf(sib, sizeof sib, "%s/students/bob/planted.txt", root);
    snprintf(rootf, sizeof rootf, "%s/planted.txt", root);
    const char *args[] = { "write", inside, sib, rootf, "/usr/planted", "/etc/planted", "/planted",
                           "/tmp/planted-sbt", NULL };
    const char *ctl[] = { "write", sib, NULL }; /* never the system folders: the control is not sandboxed */
    ck_assert_msg(strstr(plain(ctl), "planted.txt written"), "control: the probe writes outside");
    unlink(sib);
    sb_opts o = opts();
    sb_result r;
    const char *log = boxed(&o, &r, args);
    char want[256];
    snprintf(want, sizeof want, "%s written", inside);
    ck_assert_msg(strstr(log, want), "%s", log);
    ck_assert_msg(access(sib, F_OK) != 0 && access(rootf, F_OK) != 0, "wrote outside:\n%s", log);
    ck_assert_msg(access("/usr/planted", F_OK) != 0 && access("/etc/planted", F_OK) != 0 && access("/planted", F_OK) != 0,
                  "%s", log);
    ck_assert_msg(strstr(log, "/usr/planted EROFS") && strstr(log, "/etc/planted EROFS") && strstr(log, "/planted EROFS"),
                  "the sandbox's root must be read-only:\n%s", log);
    ck_assert_msg(strstr(log, "/tmp/planted-sbt written") && access("/tmp/planted-sbt", F_OK) != 0,
                  "/tmp must be private:\n%s", log);
}
END_TEST

/* Host processes whose command line holds the marker. */
static int count_marked(const char *mark)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char p[300], buf[4096];
        snprintf(p, sizeof p, "/proc/%s/cmdline", e->d_name);
        int fd = open(p, O_RDONLY);
        if (fd < 0) continue;
        ssize_t k = read(fd, buf, sizeof buf - 1);
        close(fd);
        for (ssize_t i = 0; i < k; i++) if (!buf[i]) buf[i] = ' ';
        if (k > 0 && (buf[k] = 0, strstr(buf, mark))) n++;
    }
    closedir(d);
    return n;
}

START_TEST(daemon_dies_with_the_run)
{
    NEED_BWRAP();
    char pidf[192], mark[64];
    snprintf(pidf, sizeof pidf, "%s/daemon.pid", scratch);
    snprintf(mark, sizeof mark, "mark-%d-%ld", (int)getpid(), (long)time(NULL));
    const char *args[] = { "daemon", pidf, mark, NULL };
    /* control: outside, the daemon survives its parent */
    plain(args);
    FILE *f = fopen(pidf, "r");
    int dpid = 0;
    ck_assert(f && fscanf(f, "%d", &dpid) == 1);
    fclose(f);
    ck_assert_msg(kill(dpid, 0) == 0 && count_marked(mark) == 1, "control: the daemon must outlive a plain run");
    kill(dpid, SIGKILL);
    for (int i = 0; i < 100 && count_marked(mark); i++) usleep(10000);
    unlink(pidf);

    sb_opts o = opts();
    sb_result r;
    const char *log = boxed(&o, &r, args);
    ck_assert_msg(strstr(log, "daemon started"), "%s", log);
    f = fopen(pidf, "r");
    ck_assert(f && fscanf(f, "%d", &dpid) == 1);
    fclose(f);
    /* The pid in the file is the sandbox's (its own PID namespace): the host
     * pid is found by the marker on the command line. */
    ck_assert_msg(count_marked(mark) == 0, "a daemon outlived the sandbox");
}
END_TEST

static int host_procs_of(uid_t uid)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char p[300];
        struct stat st;
        snprintf(p, sizeof p, "/proc/%s", e->d_name);
        if (stat(p, &st) == 0 && st.st_uid == uid) n++;
    }
    closedir(d);
    return n;
}

START_TEST(fork_storm_is_contained)
{
    NEED_BWRAP();
    const char *ctl[] = { "forkstorm", "100", "cleanup", NULL };
    ck_assert_msg(strstr(plain(ctl), "forked 100"), "control: outside, 100 forks succeed:\n%s", logtext);
    uid_t u = geteuid() == 0 ? 65534 : geteuid();
    int before = host_procs_of(u);
    sb_opts o = opts();
    o.max_procs = 32;
    o.wall_s = 10;
    sb_result r;
    const char *args[] = { "forkstorm", "5000", NULL };
    const char *log = boxed(&o, &r, args);
    int forked = -1;
    const char *f = strstr(log, "forked ");
    if (f) forked = atoi(f + 7);
    ck_assert_msg(forked >= 0 && forked < 32, "the storm forked %d:\n%s", forked, log);
    ck_assert_msg(r.limit != SB_LIMIT_WALL, "the storm ran into the wall-time limit (%.1f s)", r.seconds);
    /* Nothing of the storm is left on the host (its command line names this
     * test's own probe path); the uid's process count is back to where it was
     * (other users of the uid may come and go: it is a report, not a test). */
    ck_assert_int_eq(count_marked(probe), 0);
    fprintf(stderr, "fork storm: %d forks inside; host processes of uid %d: %d before, %d after\n", forked, (int)u,
            before, host_procs_of(u));
}
END_TEST

START_TEST(huge_print_is_cut)
{
    NEED_BWRAP();
    sb_opts o = opts();
    o.out_bytes = 1 << 20;
    sb_result r;
    const char *args[] = { "print", "1073741824", NULL };
    boxed(&o, &r, args);
    struct stat st;
    ck_assert_int_eq(stat(logp, &st), 0);
    ck_assert_msg(st.st_size <= o.out_bytes, "log is %lld bytes", (long long)st.st_size);
    ck_assert_int_eq(r.out_bytes, o.out_bytes);
    ck_assert_int_eq(r.limit, SB_LIMIT_OUTPUT);
}
END_TEST

START_TEST(wall_timeout_kills)
{
    NEED_BWRAP();
    sb_opts o = opts();
    o.wall_s = 1;
    sb_result r;
    char *argv[] = { "sleep", "100", NULL };
    ck_assert_int_eq(sb_run(&o, argv, &r), 0);
    ck_assert_int_eq(r.limit, SB_LIMIT_WALL);
    ck_assert_int_eq(r.signal, SIGKILL);
    ck_assert_msg(r.seconds < 50, "took %.1f s: not stopped at its 1 s limit (sleep 100 ran on)", r.seconds);
}
END_TEST

START_TEST(no_network)
{
    NEED_BWRAP();
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(listen(s, 4), 0);
    socklen_t len = sizeof a;
    getsockname(s, (struct sockaddr *)&a, &len);
    char port[16];
    snprintf(port, sizeof port, "%d", ntohs(a.sin_port));
    const char *args[] = { "connect", port, NULL };
    ck_assert_msg(strstr(plain(args), "connect ok"), "control: outside, connect works:\n%s", logtext);
    sb_opts o = opts();
    o.seccomp = SB_SECCOMP_OFF; /* the network namespace alone (the filter would kill socket(AF_INET)) */
    sb_result r;
    const char *log = boxed(&o, &r, args);
    ck_assert_msg(strstr(log, "connect ") && !strstr(log, "connect ok"), "%s", log);
    close(s);
}
END_TEST

START_TEST(proc_shows_only_the_sandbox)
{
    NEED_BWRAP();
    const char *args[] = { "procs", NULL };
    const char *f = strstr(plain(args), "procs ");
    ck_assert_msg(f && atoi(f + 6) > 3, "control: the host has more than 3 processes");
    sb_opts o = opts();
    sb_result r;
    const char *log = boxed(&o, &r, args);
    f = strstr(log, "procs ");
    ck_assert_msg(f && atoi(f + 6) <= 2, "%s", log); /* bwrap's init and the probe */
}
END_TEST

START_TEST(environment_is_only_what_is_given)
{
    NEED_BWRAP();
    setenv("SB_SECRET", "leak", 1);
    const char *env[] = { "WB_SEED=42", NULL };
    sb_opts o = opts();
    o.env = env;
    o.ld_library_path = "/usr/local/nvidia/lib64";
    sb_result r;
    const char *args[] = { "env", NULL };
    const char *log = boxed(&o, &r, args);
    ck_assert_msg(!strstr(log, "SB_SECRET"), "%s", log);
    ck_assert_msg(strstr(log, "WB_SEED=42\n") && strstr(log, "LD_LIBRARY_PATH=/usr/local/nvidia/lib64\n"), "%s", log);
    ck_assert_msg(strstr(log, "WB_SANDBOXED=1\n"), "%s", log); /* wb_cudnn.h: nothing under HOME */
    char home[200];
    snprintf(home, sizeof home, "HOME=%s\n", scratch);
    ck_assert_msg(strstr(log, home) && strstr(log, "PATH="), "%s", log);
    const char *id[] = { "id", NULL };
    log = boxed(&o, &r, id);
    ck_assert_msg(strstr(log, "uid 1000"), "%s", log);
}
END_TEST

START_TEST(cpu_limit)
{
    NEED_BWRAP();
    sb_opts o = opts();
    o.cpu_s = 1;
    sb_result r;
    const char *args[] = { "spin", NULL };
    boxed(&o, &r, args);
    ck_assert_int_eq(r.limit, SB_LIMIT_CPU);
    ck_assert_int_eq(r.signal, SIGXCPU);
}
END_TEST

START_TEST(file_size_limit)
{
    NEED_BWRAP();
    sb_opts o = opts();
    o.file_bytes = 1 << 20;
    char big[192];
    snprintf(big, sizeof big, "%s/big.bin", scratch);
    sb_result r;
    const char *args[] = { "bigfile", big, "10000000", NULL };
    boxed(&o, &r, args);
    ck_assert_int_eq(r.limit, SB_LIMIT_FILE);
    struct stat st;
    ck_assert(stat(big, &st) == 0 && st.st_size <= (1 << 20));
}
END_TEST

START_TEST(memory_limit_by_rlimit_data)
{
    NEED_BWRAP();
    sb_opts o = opts();
    o.mem_bytes = 128LL << 20;
    o.cgroup = "none";
    sb_result r;
    const char *args[] = { "alloc", "512", NULL };
    const char *log = boxed(&o, &r, args);
    ck_assert_int_eq(r.mem_cgroup, 0);
    ck_assert_msg(strstr(log, "alloc failed at"), "%s", log);
}
END_TEST

START_TEST(memory_limit_by_cgroup)
{
    NEED_BWRAP();
    sb_opts o = opts();
    o.mem_bytes = 128LL << 20;
    sb_result r;
    const char *args[] = { "alloc", "512", NULL };
    const char *log = boxed(&o, &r, args);
    if (!r.mem_cgroup) {
        fprintf(stderr, "skipped: no writable memory cgroup here\n");
        return;
    }
    ck_assert_msg(r.limit == SB_LIMIT_MEM && r.signal == SIGKILL, "limit %s signal %d:\n%s", sb_limit_name(r.limit),
                  r.signal, log);
}
END_TEST

/* Many files, each under RLIMIT_FSIZE: the disk quota of the scratch folder
 * stops the run, while it writes (a loop without end) or after it (a burst
 * between two looks); a folder the grader cannot read counts as over it. */
START_TEST(disk_quota_stops_many_small_files)
{
    NEED_BWRAP();
    sb_opts o = opts();
    o.file_bytes = 2 << 20;
    o.disk_bytes = 8 << 20;
    o.wall_s = 30;
    sb_result r;
    char *a1[] = { "/bin/sh", "-c", "i=0; while :; do i=$((i+1)); head -c 1048576 /dev/zero > f$i || exit 3; done", NULL };
    ck_assert_int_eq(sb_run(&o, a1, &r), 0);
    ck_assert_int_eq(r.limit, SB_LIMIT_DISK);
    ck_assert_msg(r.seconds < 10, "stopped after %.1f s", r.seconds);
    ck_assert_str_eq(sb_limit_name(r.limit), "disk quota");
    char *a2[] = { "/bin/sh", "-c", "rm -f f*; for i in 1 2 3 4 5 6 7 8 9 10 11 12; do head -c 1048576 /dev/zero > g$i; done", NULL };
    ck_assert_int_eq(sb_run(&o, a2, &r), 0);
    ck_assert_int_eq(r.limit, SB_LIMIT_DISK);
    char *a3[] = { "/bin/sh", "-c", "rm -f g*; mkdir -p hide && head -c 65536 /dev/zero > hide/x && chmod 000 hide", NULL };
    ck_assert_int_eq(sb_run(&o, a3, &r), 0);
    if (geteuid() != 0) ck_assert_int_eq(r.limit, SB_LIMIT_DISK); /* root reads it anyway */
    char *a4[] = { "/bin/sh", "-c", "chmod 755 hide; rm -rf hide; head -c 1048576 /dev/zero > small", NULL };
    ck_assert_int_eq(sb_run(&o, a4, &r), 0);
    ck_assert_int_eq(r.limit, SB_LIMIT_NONE);
    ck_assert_int_eq(r.exit_code, 0);
    /* empty files: no blocks, but each an inode of the host's file system */
    o.disk_entries = 300;
    char *a5[] = { "/bin/sh", "-c", "rm -f small; mkdir e && cd e && i=0; while [ $i -lt 2000 ]; do : > f$i; i=$((i+1)); done", NULL };
    ck_assert_int_eq(sb_run(&o, a5, &r), 0);
    ck_assert_int_eq(r.limit, SB_LIMIT_DISK);
    char *a6[] = { "/bin/sh", "-c", "rm -rf e; i=0; while [ $i -lt 100 ]; do : > f$i; i=$((i+1)); done", NULL };
    ck_assert_int_eq(sb_run(&o, a6, &r), 0);
    ck_assert_int_eq(r.limit, SB_LIMIT_NONE);
    /* the entry limit holds on its own, with no size quota set */
    o.disk_bytes = 0;
    char *a7[] = { "/bin/sh", "-c", "rm -f f*; mkdir e && cd e && i=0; while [ $i -lt 2000 ]; do : > f$i; i=$((i+1)); done", NULL };
    ck_assert_int_eq(sb_run(&o, a7, &r), 0);
    ck_assert_int_eq(r.limit, SB_LIMIT_DISK);
}
END_TEST

START_TEST(exit_status_and_signal)
{
    NEED_BWRAP();
    sb_opts o = opts();
    sb_result r;
    char *a1[] = { "/bin/sh", "-c", "exit 7", NULL };
    ck_assert_int_eq(sb_run(&o, a1, &r), 0);
    ck_assert_int_eq(r.exit_code, 7);
    ck_assert_int_eq(r.signal, 0);
    char *a2[] = { "/bin/sh", "-c", "kill -SEGV $$", NULL };
    ck_assert_int_eq(sb_run(&o, a2, &r), 0);
    ck_assert_int_eq(r.signal, SIGSEGV);
    ck_assert_int_eq(r.limit, SB_LIMIT_NONE);
}
END_TEST

/* keep_fd: that one descriptor reaches the command under its number (a
 * socket to a process outside, in the planned judge and runner design);
 * another the caller has open without CLOEXEC does not. */
START_TEST(keep_fd_is_passed_and_no_other)
{
    NEED_BWRAP();
    int pa[2], pb[2];
    ck_assert_int_eq(pipe(pa), 0);
    ck_assert_int_eq(pipe(pb), 0);
    sb_opts o = opts();
    o.keep_fd = pa[1];
    char cmd[256];
    snprintf(cmd, sizeof cmd, "echo through >&%d; if [ -e /proc/$$/fd/%d ]; then echo leaked; else echo closed; fi",
             pa[1], pb[1]);
    char *a[] = { "/bin/sh", "-c", cmd, NULL };
    sb_result r;
    ck_assert_int_eq(sb_run(&o, a, &r), 0);
    close(pa[1]), close(pb[1]);
    char got[64] = "";
    ssize_t n = read(pa[0], got, sizeof got - 1);
    got[n > 0 ? n : 0] = 0;
    close(pa[0]), close(pb[0]);
    ck_assert_int_eq(r.exit_code, 0);
    ck_assert_str_eq(got, "through\n");
    ck_assert_msg(strstr(read_log(), "closed"), "%s", read_log());
}
END_TEST

/* The seccomp filter: each forbidden call kills its program with SIGSYS,
 * named in why, under deny and allow; with the filter off the same program
 * lives and prints what the call returned (the control: the test can fail). */
START_TEST(seccomp_kills_forbidden_calls)
{
    NEED_BWRAP();
    const char *calls[] = { "ptrace", "inet", "unshare" };
    const sb_seccomp modes[] = { SB_SECCOMP_DENY, SB_SECCOMP_ALLOW, SB_SECCOMP_OFF };
    for (int c = 0; c < 3; c++)
        for (int m = 0; m < 3; m++) {
            sb_opts o = opts();
            o.seccomp = modes[m];
            sb_result r;
            const char *args[] = { calls[c], NULL };
            const char *log = boxed(&o, &r, args);
            if (modes[m] == SB_SECCOMP_OFF) {
                ck_assert_msg(r.signal == 0 && r.exit_code == 0 && strstr(log, "returned"),
                              "control, %s without the filter: signal %d exit %d:\n%s", calls[c], r.signal, r.exit_code,
                              log);
                ck_assert_str_eq(r.why, "");
            } else {
                ck_assert_msg(r.signal == SIGSYS && r.exit_code == -1 && !strstr(log, "returned"),
                              "%s under %s: signal %d exit %d:\n%s", calls[c], sb_seccomp_name(modes[m]), r.signal,
                              r.exit_code, log);
                ck_assert_str_eq(r.why, SB_SECCOMP_KILLED);
                ck_assert_int_eq(r.limit, SB_LIMIT_NONE);
            }
        }
}
END_TEST

/* What a test and a build need still runs under both filters: AF_UNIX
 * sockets, fork and exec; gcc compiling, linking and running a threaded
 * program (where the host has gcc). */
START_TEST(seccomp_lets_ordinary_programs_run)
{
    NEED_BWRAP();
    const sb_seccomp modes[] = { SB_SECCOMP_DENY, SB_SECCOMP_ALLOW };
    char src[192];
    snprintf(src, sizeof src, "%s/t.c", scratch);
    FILE *f = fopen(src, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#include <pthread.h>\n#include <stdio.h>\nstatic void *run(void *a) { return a; }\n"
          "int main(void) { pthread_t t; pthread_create(&t, 0, run, 0); pthread_join(t, 0); puts(\"built ok\"); return 0; }\n",
          f);
    fclose(f);
    for (int m = 0; m < 2; m++) {
        sb_opts o = opts();
        o.seccomp = modes[m];
        sb_result r;
        const char *args[] = { "ordinary", NULL };
        const char *log = boxed(&o, &r, args);
        ck_assert_msg(r.exit_code == 0 && strstr(log, "ordinary ok"), "%s: exit %d signal %d:\n%s",
                      sb_seccomp_name(modes[m]), r.exit_code, r.signal, log);
        if (access("/usr/bin/gcc", X_OK) != 0) {
            fprintf(stderr, "seccomp: no /usr/bin/gcc here, the build inside is not tried\n");
            continue;
        }
        char *build[] = { "/bin/sh", "-c", "rm -f t && gcc -O2 -pthread -o t t.c && ./t", NULL };
        ck_assert_int_eq(sb_run(&o, build, &r), 0);
        log = read_log();
        ck_assert_msg(r.exit_code == 0 && strstr(log, "built ok"), "gcc under %s: exit %d signal %d:\n%s",
                      sb_seccomp_name(modes[m]), r.exit_code, r.signal, log);
    }
    ck_assert_int_eq(sb_seccomp_parse("deny"), SB_SECCOMP_DENY);
    ck_assert_int_eq(sb_seccomp_parse("off"), SB_SECCOMP_OFF);
    ck_assert_int_eq(sb_seccomp_parse("none"), -1);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "helper")) return helper(argc, argv);
    available = sb_available(NULL, why);
    fprintf(stderr, "sb_available: %s\n", why);
    Suite *s = suite_create("sandbox");
    TCase *t = tcase_create("sandbox");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 60);
    tcase_add_test(t, outside_files_are_absent);
    tcase_add_test(t, hidden_path_under_a_bind_is_refused);
    tcase_add_test(t, writes_outside_scratch_fail);
    tcase_add_test(t, daemon_dies_with_the_run);
    tcase_add_test(t, fork_storm_is_contained);
    tcase_add_test(t, huge_print_is_cut);
    tcase_add_test(t, wall_timeout_kills);
    tcase_add_test(t, no_network);
    tcase_add_test(t, proc_shows_only_the_sandbox);
    tcase_add_test(t, environment_is_only_what_is_given);
    tcase_add_test(t, cpu_limit);
    tcase_add_test(t, file_size_limit);
    tcase_add_test(t, memory_limit_by_rlimit_data);
    tcase_add_test(t, memory_limit_by_cgroup);
    tcase_add_test(t, exit_status_and_signal);
    tcase_add_test(t, keep_fd_is_passed_and_no_other);
    tcase_add_test(t, disk_quota_stops_many_small_files);
    tcase_add_test(t, seccomp_kills_forbidden_calls);
    tcase_add_test(t, seccomp_lets_ordinary_programs_run);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
