/* judge.h — the judge and the runner (instructor/README.md, "The judge and
 * the runner"): the verdict is formed by a process that links no student code.
 *
 *   judge   a trusted program (instructor/judge_*.c): allocates the buffers,
 *           poisons, fills, times, compares and writes the results record.
 *           Links judge.c, never a student object.
 *   runner  a tiny main (instructor/judge_*_runner.c) linked with the
 *           student's objects and judge_runner.c, nothing that writes
 *           records. Started in the sandbox, one end of a socketpair its
 *           only link to the judge. It maps the buffers the judge passes (a
 *           descriptor over SCM_RIGHTS), calls the student's function on them
 *           when asked, synchronises and replies with the function's status
 *           and its own (untrusted) host time.
 *
 * Buffers are of two kinds. JD_MEM_DEVICE: device memory from cuMemCreate,
 * exported as a POSIX file descriptor (cuMemExportToShareableHandle) and
 * imported by the runner (the path the H100 probe measured, probe_ipc.c).
 * JD_MEM_HOST: a memfd, mapped by both sides: the plumbing mode, where the
 * "device" is host memory and the runner's exercise a CPU function; it runs
 * without a GPU and is what instructor/test_judge.c exercises.
 *
 * Nothing the runner says is believed but its status: a reply only tells the
 * judge when to look. Timing's trust model is in judge.c (jd_timed_call). */
#ifndef JUDGE_H
#define JUDGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JD_MAX_BUFS 256 /* buffers a runner holds at once (64 calls of up to 3 buffers, and room) */
#define JD_MAX_ARGS 6   /* buffer arguments of one call */
#define JD_MAX_REPS 64  /* calls in one request (a short kernel repeated, each on its own buffers) */
#define JD_OUT_MAX  512 /* bytes of host output a reply carries (a struct the exercise fills) */
#define JD_LOOK_CAP_US 50.0 /* the most of a look's cost jd_timed_call subtracts (the runner can slow the
                               judge's GPU while the judge measures its look: what it gains is capped) */

enum { JD_MEM_HOST = 0, JD_MEM_DEVICE = 1 };
enum { JD_OP_HELLO = 1, JD_OP_BUF, JD_OP_FREE, JD_OP_CALL, JD_OP_QUIT,
       JD_OP_BACK /* runner to judge inside a call, and the judge's answer (jr_back, jd.back) */ };
#define JD_MAX_BACKS 65536 /* JD_OP_BACK requests one call may make */

/* Judge to runner: one SOCK_SEQPACKET record (JD_OP_BUF carries a descriptor). */
typedef struct {
    int                op;
    int                fn;                               /* JD_OP_CALL: the runner's exercise number */
    int                buf, kind;                        /* JD_OP_BUF / JD_OP_FREE: its id, JD_MEM_* */
    unsigned long long bytes, gran;                      /* JD_OP_BUF: size (rounded to gran) */
    int                reps;                             /* JD_OP_CALL: how many calls, 1..JD_MAX_REPS */
    int                nargs;                            /* buffer arguments a call */
    int                arg_buf[JD_MAX_REPS][JD_MAX_ARGS]; /* rep r, argument a: buffer id (-1: NULL) */
    unsigned long long arg_off[JD_MAX_REPS][JD_MAX_ARGS]; /* byte offset into it */
    long long          i64[8];                           /* scalars, the same for every rep */
    double             f64[4];
    char               text[128];                        /* JD_OP_HELLO: the judge's GPU bus id, or "none" */
    unsigned long long nonce;                            /* fresh and unguessable a request (jd_call); every
                                                            reply to it and every jr_back inside it carries it */
} jd_req;

/* Runner to judge: one record an op. */
typedef struct {
    int           op;       /* the op answered */
    int           status;   /* the exercise's return value (a cudaError_t), or the runner's own failure (< 0) */
    int           reps_done;
    double        host_us;  /* the runner's own clock around the calls: shown, never used for a mark */
    unsigned      out_len;
    unsigned char out[JD_OUT_MAX];
    char          text[200]; /* for people: what the runner says it did */
    unsigned long long nonce; /* the request's: a reply sent before its request (spare, forged) cannot know it */
} jd_rep;

/* -------------------------------------------------------------- the judge */

typedef struct {
    int    id, kind;
    size_t bytes;       /* as asked */
    size_t mapped;      /* rounded to the granularity */
    void  *ptr;         /* the judge's own mapping: host (memfd) or device address */
    int    fd;          /* memfd (host); -1 for device memory once sent */
    unsigned long long handle; /* CUmemGenericAllocationHandle (device) */
} jd_buf;

typedef struct {
    int    sock;        /* the judge's end */
    pid_t  pid;         /* the runner (or the sandbox around it), -1 when not ours to wait for */
    int    kind;        /* JD_MEM_HOST or JD_MEM_DEVICE */
    int    device;      /* the judge's CUDA device (JD_MEM_DEVICE) */
    int    lost;        /* the runner stopped answering: every later call fails */
    double reply_s;     /* the longest the judge waits for one reply */
    char   why[300];    /* the last failure, for the record's message */
    jd_buf bufs[JD_MAX_BUFS];
    /* optional: what the judge does when the runner asks it, inside a call,
     * for work of the judge's (jr_back): `ask` is the runner's message (its
     * out[] the week's parameters, untrusted), `answer` goes back (op set
     * already). A back that sets answer->op to 0 ends the call instead: the
     * runner asked for more than the week's judge does for one request
     * (week 04's SAXPYs); jd_call fails with answer->text as why and the
     * runner is lost. NULL: such a message is an answer to the wrong request. */
    void (*back)(void *ctx, const jd_rep *ask, jd_req *answer);
    void  *back_ctx;
    unsigned long long nonce_key, nonce_n; /* requests' nonces: a keyed mix of a count, the key from /dev/urandom */
} jd;

/* Start `argv` (the runner, its descriptor number is appended as the last
 * argument) as a plain child process with one end of a socketpair and
 * nothing else open, its output to log_path (NULL: /dev/null). For the
 * sandboxed start, see judge_sb.h. Returns 0, or -1 with why. */
int jd_start_plain(jd *J, char *const argv[], const char *log_path);
/* Take over a connected socket whose other end a runner holds (the grader
 * started the runner in the sandbox itself). */
void jd_adopt(jd *J, int sock, pid_t pid);
/* Say hello: the runner opens the same GPU (bus id) or none (plumbing). 0 or -1. */
int jd_hello(jd *J, int kind, int device);
/* A new buffer of `bytes`, mapped here and in the runner; returns its id
 * (>= 0) and the judge's pointer in *ptr, or -1. */
int jd_alloc(jd *J, size_t bytes, void **ptr);
/* The same, of a kind of its own (JD_MEM_HOST in a device run: a memfd both
 * map, for host data such as text or a host function's arrays). */
int jd_alloc_kind(jd *J, int kind, size_t bytes, void **ptr);
/* Unmap and release a buffer on both sides. */
void jd_free(jd *J, int id);
/* One request, its reply and the judge's wall clock around them (us,
 * CLOCK_MONOTONIC, from just before the send to just after the reply).
 * A JD_OP_CALL's runner may ask for J->back's work before it replies
 * (JD_OP_BACK, at most JD_MAX_BACKS times): answered here, in the clock.
 * Returns 0 when a well-formed reply came, -1 when not (J->lost is set, why
 * says what happened). The reply's status is the caller's to judge. */
int jd_call(jd *J, const jd_req *rq, jd_rep *rp, double *wall_us);
/* Ask the runner to quit, close the socket, wait for it (a few seconds,
 * then SIGKILL). Returns the runner's wait status, or -1. */
int jd_stop(jd *J);
/* A clock in microseconds (CLOCK_MONOTONIC). */
double jd_now_us(void);

/* A timed call (the trust model: judge.c, above jd_timed_call). `look` is
 * the judge's quick check of the outputs right after the reply (a sample of
 * hidden positions of every rep's output, read by the judge from its own
 * mapping): 0 when every sampled value is right. *us is the judge's clock
 * from just before the request to just after `look` returned, less
 * `look_us` (the judge's own cost of `look`, measured beforehand on a
 * finished output; the caller's to measure, 0 if unknown), at most
 * JD_LOOK_CAP_US of it. Returns 0 when
 * the reply came with status 0 and `look` passed, 1 when the runner answered
 * with another status (the function failed: rp->status), 2 when `look` found
 * a wrong value (why has look's words), -1 when the runner is lost. */
int jd_timed_call(jd *J, const jd_req *rq, jd_rep *rp, int (*look)(void *ctx, char *why, size_t n), void *ctx,
                  double look_us, double *us);

/* ------------------------------------------------------------- the runner */

/* What the exercise sees: its buffer arguments resolved to the runner's own
 * pointers, the scalars, and room for a host output. */
typedef struct {
    void          *p[JD_MAX_ARGS];
    long long      i64[8];
    double         f64[4];
    unsigned char *out;       /* JD_OUT_MAX bytes */
    unsigned      *out_len;
    int            rep;       /* which call of the request (0..reps-1): the tests' lying runners use it; a
                                 student's code learns as much by reading the request off the socket */
} jr_args;

/* One exercise: `call` returns the student function's status (a
 * cudaError_t as int). */
typedef struct {
    int         fn;
    const char *name;
    int (*call)(const jr_args *a);
} jr_entry;

/* Serve the judge on socket `sock` until it quits or closes: map buffers,
 * run calls from `table` (n entries), synchronise (device: the whole device)
 * and reply. Returns the process's exit status. */
int jr_serve(int sock, const jr_entry *table, int n);
/* Inside an exercise's call: ask the judge for work of its own (its
 * jd.back) with `ask` (out[] the week's parameters; op set here) and wait
 * for its answer. 0, or -1 when the judge did not answer as it should. */
int jr_back(jd_rep *ask, jd_req *answer);
/* The runner's main: argv's last argument is the socket's number. */
int jr_main(int argc, char **argv, const jr_entry *table, int n);
/* A week's runner's main over its entries: JR_MAIN({ FN, "name", call }, ...) */
#define JR_MAIN(...)                                                                                       \
    static const jr_entry jr_table_[] = { __VA_ARGS__ };                                                   \
    int main(int argc, char **argv)                                                                        \
    {                                                                                                      \
        return jr_main(argc, argv, jr_table_, (int)(sizeof jr_table_ / sizeof *jr_table_));                \
    }

#ifdef __cplusplus
}
#endif
#endif
