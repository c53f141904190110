/* judge_plumb_runner.c — build/sandbox/judge-plumb-runner: judge-plumb's
 * runner, the "student" of the plumbing mode (judge_plumb.c). Its vector add
 * is a CPU function on host buffers; the first argument picks how it
 * behaves, and every way but `honest` is an attack instructor/test_judge.c
 * expects the judge to turn into a FAIL:
 *
 *   honest     c = a + b, return 0
 *   early      return 0 at once; a thread writes c 20 ms later (a reply before the work is done)
 *   exit0      exit with status 0 in the middle of the first call
 *   garbage    c = 42, return 0
 *   forge      write a passing results record wherever one might be read (its folder,
 *              $WB_RESULTS, the judge's usual names), compute nothing, return 0
 *   skipreps   the work for the first call of a request only (k repeats timed as one)
 *   status     c = a + b but return 1 (an error code): the output is right, the call is not
 *   back       c = a + b, but first asks the judge for work of its own (jr_back), which this
 *              judge never offers: a message it takes for an answer to the wrong request
 *   spare      c = a + b, but first, in the first call, sends the judge a spare reply of its own
 *              (on the socket it finds among its descriptors): without the requests' nonces
 *              every later request would be answered at once by the reply before it
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge.h"

static const char *mode = "honest";

static void add(const float *a, const float *b, float *c, size_t n)
{
    for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

typedef struct { const float *a, *b; float *c; size_t n; } job;

static void *later(void *p)
{
    job *j = p;
    usleep(20000);
    add(j->a, j->b, j->c, j->n);
    free(j);
    return NULL;
}

static void forge(void)
{
    const char *rec = "#wb-results 2\nweek\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\t"
                      "seed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage\n"
                      "instructor/plumbing\tplumb.vecadd\tpass\t-\t-\t-\t-\t-\t-\t-\t1\t-\t1\t0\t0\t-\t-\n"
                      "instructor/plumbing\tplumb.vecadd-speed\tpass\t-\t99\tGB/s\tCOPY\t1\t99\t-\t1\t-\t1\t0\t0\t-\t-\n";
    const char *names[] = { "results.tsv", "record.tsv", "forged.tsv", getenv("WB_RESULTS") };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (!names[i]) continue;
        FILE *f = fopen(names[i], "w");
        if (f) fputs(rec, f), fclose(f);
    }
}

static int vecadd(const jr_args *x)
{
    const float *a = x->p[0], *b = x->p[1];
    float *c = x->p[2];
    size_t n = (size_t)x->i64[0];
    if (!strcmp(mode, "honest")) add(a, b, c, n);
    else if (!strcmp(mode, "early")) {
        job *j = malloc(sizeof *j);
        *j = (job){ a, b, c, n };
        pthread_t t;
        if (pthread_create(&t, NULL, later, j) == 0) pthread_detach(t);
    } else if (!strcmp(mode, "exit0")) _exit(0);
    else if (!strcmp(mode, "garbage")) for (size_t i = 0; i < n; i++) c[i] = 42;
    else if (!strcmp(mode, "forge")) forge();
    else if (!strcmp(mode, "skipreps")) { if (x->rep == 0) add(a, b, c, n); }
    else if (!strcmp(mode, "status")) return add(a, b, c, n), 1;
    else if (!strcmp(mode, "spare")) {
        static int sent;
        for (int fd = 3; fd < 256 && !sent; fd++) {
            int type = 0;
            socklen_t len = sizeof type;
            if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_SEQPACKET) continue;
            jd_rep spare;
            memset(&spare, 0, sizeof spare);
            spare.op = JD_OP_CALL, spare.reps_done = 1; /* status 0; the nonce it cannot know */
            sent = send(fd, &spare, sizeof spare, 0) == (ssize_t)sizeof spare;
        }
        add(a, b, c, n);
    } else if (!strcmp(mode, "back")) {
        jd_rep ask;
        jd_req answer;
        memset(&ask, 0, sizeof ask);
        jr_back(&ask, &answer);
        add(a, b, c, n);
    }
    return 0;
}

static const jr_entry TABLE[] = { { 1, "vecadd", vecadd } };

int main(int argc, char **argv)
{
    if (argc >= 3) mode = argv[1];
    return jr_main(argc, argv, TABLE, 1);
}
