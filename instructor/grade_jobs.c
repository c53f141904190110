/* grade_jobs.c — part of the grader (grade.h): the grader's small utilities, and running a command with a time limit as a
 * process group (jobs). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade.h"

/* ------------------------------------------------------------------ utils */

double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* ------------------------------------------------- running with a limit */

/* Start argv in its own process group, in `cwd`, output to `log` (appended),
 * with the NULL-terminated "KEY=VALUE" list `env` added ("KEY=" unsets). */
static int job_start(job *j, char *const argv[], const char *cwd, const char *log, char *const env[],
                     double limit_s)
{
    memset(j, 0, sizeof *j);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        setpgid(0, 0);
        if (cwd && chdir(cwd) != 0) _exit(126);
        int fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) dup2(nul, 0), close(nul);
        for (int i = 0; env && env[i]; i++) {
            char kv[1024];
            snprintf(kv, sizeof kv, "%s", env[i]);
            char *eq = strchr(kv, '=');
            if (!eq) continue;
            *eq = 0;
            if (eq[1]) setenv(kv, eq + 1, 1);
            else unsetenv(kv);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* both sides, whichever runs first */
    j->pid = pid;
    j->started = now_s();
    j->deadline = j->started + limit_s;
    return 0;
}

static void job_reap(job *j, int status)
{
    j->done = 1;
    j->seconds = now_s() - j->started;
    if (WIFEXITED(status)) j->exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) j->signaled = WTERMSIG(status);
    killpg(j->pid, SIGKILL); /* whatever it left behind (a test's child) goes too */
}

/* Poll: returns 1 when the job has finished (or was stopped for its time). */
static int job_poll(job *j)
{
    if (j->done) return 1;
    int status;
    pid_t r = waitpid(j->pid, &status, WNOHANG);
    if (r == j->pid) {
        job_reap(j, status);
        return 1;
    }
    if (now_s() >= j->deadline) {
        killpg(j->pid, SIGTERM);
        for (int k = 0; k < 40; k++) { /* 2 s to go quietly */
            if (waitpid(j->pid, &status, WNOHANG) == j->pid) goto reaped;
            usleep(50000);
        }
        killpg(j->pid, SIGKILL);
        waitpid(j->pid, &status, 0);
    reaped:
        job_reap(j, status);
        j->timed_out = 1;
        j->signaled = 0;
        return 1;
    }
    return 0;
}

static void job_wait(job *j)
{
    while (!job_poll(j)) usleep(20000);
}

/* Run and wait. Returns 0 when it exited 0 in time. */
int run_limited(char *const argv[], const char *cwd, const char *log, char *const env[], double limit_s,
                job *out)
{
    job j;
    if (job_start(&j, argv, cwd, log, env, limit_s) != 0) return -1;
    job_wait(&j);
    if (out) *out = j;
    return (!j.timed_out && !j.signaled && j.exit_code == 0) ? 0 : 1;
}

int sh(const char *cmd, const char *log)
{
    char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
    return run_limited(argv, NULL, log, NULL, 600, NULL);
}

/* Single-quote a path for /bin/sh. */
const char *q(const char *s)
{
    static char buf[8][1200];
    static int k;
    char *o = buf[k++ & 7];
    size_t n = 0;
    o[n++] = '\'';
    for (; *s && n < sizeof buf[0] - 6; s++) {
        if (*s == '\'') {
            memcpy(o + n, "'\\''", 4);
            n += 4;
        } else o[n++] = *s;
    }
    o[n++] = '\'';
    o[n] = 0;
    return o;
}
