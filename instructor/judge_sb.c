/* judge_sb.c — the runner in the grader's sandbox (judge_sb.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "judge_sb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int jd_start_sandboxed(jd *J, const sb_opts *o, char *const argv[])
{
    jd_adopt(J, -1, -1);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(J->why, sizeof J->why, "socketpair: %s", strerror(errno));
        return -1;
    }
    int n = 0;
    while (argv[n]) n++;
    char num[16], **av = calloc((size_t)n + 2, sizeof *av);
    if (!av) return close(sv[0]), close(sv[1]), -1;
    snprintf(num, sizeof num, "%d", sv[1]);
    for (int i = 0; i < n; i++) av[i] = argv[i];
    av[n] = num;
    fflush(NULL);
    pid_t p = fork();
    if (p < 0) {
        snprintf(J->why, sizeof J->why, "fork: %s", strerror(errno));
        return free(av), close(sv[0]), close(sv[1]), -1;
    }
    if (p == 0) {
        close(sv[0]);
        sb_opts mine = *o;
        mine.keep_fd = sv[1];
        sb_result r;
        int rc = sb_run(&mine, av, &r);
        if (o->log_path) {
            char end[1200];
            snprintf(end, sizeof end, "%s.end", o->log_path);
            FILE *f = fopen(end, "w");
            if (f) {
                if (rc != 0) fprintf(f, "not started: %s\n", r.why);
                else fprintf(f, "exit %d signal %d limit %s %s\n", r.exit_code, r.signal, sb_limit_name(r.limit), r.why);
                fclose(f);
            }
        }
        _exit(rc != 0 ? 2 : r.exit_code == 0 ? 0 : 1);
    }
    free(av);
    close(sv[1]);
    J->sock = sv[0], J->pid = p;
    return 0;
}
