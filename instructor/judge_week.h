/* judge_week.h — what every week's GPU judge shares (judge_week.c; used by
 * judge_w01.c and judge_w03.c): the command line and the runner's start,
 * the checkpoint loop and the results record, a checked correctness case on
 * guarded buffers, the timed-call protocol of a speed checkpoint (K calls a
 * request, each on its own fresh buffers, a poisoned output, the judge's
 * look and full check, the median of the requests), the COPY yardstick
 * timed by the judge and the target for this GPU (wb_target_for).
 *
 * A week's judge is a table of jd_checkpoint and a main that hands it to
 * jd_week_main. Links no student code (instructor/README.md, "The judge and
 * the runner"). */
#ifndef JUDGE_WEEK_H
#define JUDGE_WEEK_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "judge.h"
#include "wb_meta.h"
#include "wb_results.h"

#define JD_SAMPLES     256 /* positions a look reads, per rep */
#define JD_BENCH_MAX_K 64  /* calls a timed request at most (JD_MAX_REPS) */
#define JD_GUARD       64  /* floats of poison on each side of a correctness output */
#define JD_BITWISE     (-1.0) /* as atol: values compared bit for bit, not by wb_close */

/* What a timed run's wrong or unwritten output is called, in the words of
 * the linked harness's timing (common/src/wb_bench.c, its spot check), so
 * the feedback says the same whichever graded it; the detail follows a colon. */
#define JD_TIMED_WRONG "a timed run on fresh inputs gave a wrong output"

/* The run's settings: the seed (--seed), the judge's device (--device) and
 * its stream, for the week's checks to read. */
extern unsigned long long jd_seed;
extern int                jd_dev;
extern cudaStream_t       jd_stream;

uint64_t jd_mix(uint64_t x);
/* A timed checkpoint's scale factor drawn from the hidden value r: |a| in
 * [0.5, 2) of either sign, never 1 (a runner that skips the scaling is
 * wrong at most elements). */
float jd_fresh_factor(uint64_t r);

/* One checkpoint's tally: tests run, failed, skipped, the first message. */
typedef struct {
    int  tests, failed, skipped;
    char msg[600];
} jd_tally;
void jd_failf(jd_tally *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A call request for exercise fn, reps calls of nargs buffer arguments, every argument NULL. */
void jd_call_setup(jd_req *rq, int fn, int reps, int nargs);

/* ------------------------------------------------------------ a checked case */

/* Device buffers for correctness cases: up to 2 inputs of in_cap floats and
 * an output of JD_GUARD + 4 + out_cap + JD_GUARD floats, with host copies. */
typedef struct {
    int    n_in, ib[3];
    float *d[3], *h[3];
    size_t in_cap, out_cap;
} jd_case_bufs;
int  jd_case_bufs_alloc(jd *J, jd_case_bufs *B, int n_in, size_t in_cap, size_t out_cap, jd_tally *t);
void jd_case_bufs_free(jd *J, jd_case_bufs *B);

/* A guarded byte buffer both processes map, for arrays of any type:
 * JD_GBAND bytes of band | lead | the array | JD_GBAND bytes of band, for
 * lead + array up to cap bytes. An output is poisoned whole (0xFF, as the
 * harness's wb_dout_poison does) before a call and read back with the band
 * and lead checked; an input is put at the array's place. Each returns 0,
 * or -1 when the judge's own copy failed. */
#define JD_GBAND (JD_GUARD * 4)
typedef struct {
    int            id;
    unsigned char *d;
    size_t         cap;
} jd_gbuf;
int  jd_gbuf_alloc(jd *J, jd_gbuf *b, size_t cap, jd_tally *t); /* -1: t says why */
void jd_gbuf_free(jd *J, jd_gbuf *b);                           /* an id < 0 is none */
int  jd_gbuf_poison(jd_gbuf *b, size_t lead, size_t bytes);
int  jd_gbuf_put(jd_gbuf *b, size_t lead, const void *host, size_t bytes); /* in device memory on return */
/* Argument k of the request's first rep: b's array (lead bytes past the
 * band), or NULL where b is NULL (an input of no bytes, as wb_dcopy of 0 gives). */
void jd_gbuf_arg(jd_req *rq, int k, const jd_gbuf *b, size_t lead);
/* The array's bytes into host, the band and lead checked: 0, 1 (a byte
 * outside the array changed: t says "WHAT: written outside NAME ..."), or
 * -1 (the judge's copy failed; t says so). */
int jd_gbuf_fetch(jd_gbuf *b, size_t lead, size_t bytes, void *host, const char *name, const char *what, jd_tally *t);

/* One case: the inputs (host, in_n[i] floats each, the call's pointer
 * in_off[i] floats in) copied to the device, the output poisoned with a
 * guard on each side (its n floats then out_init's where that is given: an
 * output that is an input too, SAXPY's y), exercise fn called on
 * (inputs..., output + out_off; an input of no floats is NULL, as the
 * tests' wb_dcopy gives it) with n in i64[0] and the case's other scalars,
 * the output read back: every element against ref[] (or ref64[], a double
 * reference, where given; wb_close(atol, rtol), or JD_BITWISE against ref[]),
 * an element still the poison where NaN is expected counted as not written
 * (as the harness's wb_expect_dout_* count it), and nothing written outside
 * it. Failures are told as "WHAT: NAME[k] expected
 * X got Y" (what: the case, out_name: the output's name, fn_name: the
 * function, for a status). Returns 0 when the case ran (passed or failed),
 * -1 when the runner or the judge's own copies failed. */
typedef struct {
    int          fn;
    const float *in[2];
    size_t       in_n[2], in_off[2];
    size_t       n, out_off;
    const float *ref;
    const double *ref64;   /* optional: a double reference instead of ref */
    const float *out_init; /* optional: the output's n floats before the call */
    double       atol, rtol;
    long long    i64[8]; /* i64[0] is set to n */
    double       f64[4];
    const char  *what, *out_name, *fn_name;
} jd_case;
int jd_case_run(jd *J, jd_case_bufs *B, const jd_case *c, jd_tally *t);
/* n cases on one set of buffers (jd_case_bufs_alloc's sizes): one(J, B, i,
 * t, ctx) draws case i and runs it (jd_case_run's return); stops at the
 * first -1 or when the runner is lost; the buffers freed after. */
void jd_cases(jd *J, jd_tally *t, int n_in, size_t in_cap, size_t out_cap, int n,
              int (*one)(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx), void *ctx);

/* ---------------------------------------------------------- a timed checkpoint */

/* The timed-call protocol (judge.c, jd_timed_call: the trust model). K calls
 * a request (as many as half the free memory holds, at most max_k), each on
 * its own n_in inputs and output of n floats. Before every request: fresh
 * inputs (wb_dfill_uniform_f32 from seeds drawn from the run's seed mixed
 * with 64 random bits of the judge process, in [lo, hi): jd_secret in
 * judge_week.c), the outputs poisoned and a sample of each checked still poison,
 * and the expected values at the next look's hidden positions computed by
 * expect() (an in-out output: filled, not poisoned; jd_bench.inout);
 * the clock stops after the look (JD_SAMPLES of every rep's
 * output); then every element of every output is checked by full_check (a
 * kernel of the judge). One warm-up request (checked, not timed), then
 * `timed` requests; ms: the median, a call. */
typedef struct jd_bench jd_bench;
struct jd_bench {
    int       fn, n_in, max_k;
    size_t    n;
    size_t    out_n;          /* floats (4-byte words) of each output, the look's and the check's range;
                                 0: n (a reduction's output is one float; inout: n) */
    size_t    in_bytes;       /* bytes of each input; 0: n floats */
    /* optional: fills one input (device, on the default stream) from seed,
     * instead of wb_dfill_uniform_f32 with lo and hi: bytes or keys; expect
     * and full_check then know the fill by its seed */
    void (*fill)(const jd_bench *b, void *in, unsigned long long seed);
    float     lo, hi;
    double    atol, rtol;     /* the look's comparison (JD_BITWISE as atol: bit for bit) */
    long long i64[8];         /* the call's scalars; i64[0] is set to n */
    double    f64[4];
    const char *fn_name;      /* for a status: "vecadd returned ..." */
    const char *out_name;     /* the output, for a wrong value: "c[17]" */
    /* optional: new scalars (i64[1..], f64) for each request, drawn from the
     * hidden value r before the inputs are filled: what the runner cannot see
     * until the request arrives (it sees the inputs as the judge fills them) */
    void (*fresh)(jd_bench *b, uint64_t r);
    /* optional: the output is an input too (SAXPY's y): filled as the
     * inputs are, from a seed of its own (seed[n_in]), instead of poisoned,
     * and found still that fill just before the request; then expect and
     * full_check get n_in + 1 seeds. Fresh scalars (fresh) keep the runner
     * from computing the output as the judge fills it. */
    int inout;
    /* output element i of a rep whose inputs were filled from seed[0..n_in) */
    float (*expect)(const jd_bench *b, const unsigned long long *seed, size_t i);
    /* every element of one rep's output (device, on jd_stream): h[0] wrong
     * elements, h[1] the first; 0, or -1 when the check did not run */
    int (*full_check)(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad_dev,
                      unsigned long long h[2]);
    /* optional: untimed work on the reps' buffers once they exist, before
     * the warm-up request (week 12 has the runner build a CUDA graph on each
     * rep's output: the graph is what the timed calls replay): 0, or -1 with
     * why; `release` undoes it before the buffers are freed */
    int (*prepare)(jd *J, jd_bench *b, char *why, size_t why_n);
    void (*release)(jd *J, jd_bench *b);
    /* the engine's */
    int                 k, iin[JD_BENCH_MAX_K][2], iout[JD_BENCH_MAX_K];
    float              *in[JD_BENCH_MAX_K][2], *out[JD_BENCH_MAX_K];
    unsigned long long  seed[JD_BENCH_MAX_K][3];
    unsigned long long *idx_d, idx_h[JD_SAMPLES];
    float             **outs_d;   /* out[] on the device, for the look's one gather */
    float              *got_d, got_h[JD_BENCH_MAX_K * JD_SAMPLES], want[JD_BENCH_MAX_K * JD_SAMPLES];
    uint64_t            pick;
    double              runner_ms; /* the runner's own clock, a call (shown only) */
};
/* 0 and *ms, or -1 with why (a wrong output in JD_TIMED_WRONG's words). */
int jd_bench_run(jd *J, jd_bench *b, int timed, double *ms, char *why, size_t why_n);
/* A full_check's end: e is its kernel's launch; the two words of bad read
 * into h on jd_stream and waited for. 0, or -1 when the check did not run. */
int jd_full_check_done(cudaError_t e, const unsigned long long *bad, unsigned long long h[2]);
/* A full_check for outputs of the FMA replay (jd_fma_check_f32): y[i] is
 * x[i] (x from seed[0] in [lo, hi)) after i64[1] steps of v = fmaf(v, a, b),
 * a and b in f64[0] and f64[1], within atol + rtol |ref| (week 03's chains,
 * week 09's sweep). */
int jd_fma_full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2]);

/* COPY, timed through the same protocol as the student's calls: a runner
 * of the instructor's (judge-yard-runner, beside the judge, a plain child:
 * judge_yard_runner.c, cudaMemcpyAsync device to device) gets the same
 * requests (JD_BENCH_MAX_K calls on fresh, poisoned buffers, every output
 * checked) for as many bytes a call as the student's timed call moves
 * (jd_checkpoint.copy_yard), and the judge's clock times it, so the
 * protocol's cost (the socket, the runner's launches and synchronisation)
 * is in both figures and not in their ratio. GB/s now, or as measured before
 * the student's runner started when that was larger: a runner can only slow
 * the judge's GPU down. NAN when the yard runner failed both times
 * (jd_copy_yard_why says why). */
#define JD_YARD_FN_COPY 1
#define JD_YARD_TIMED   7
double      jd_copy_yard(void);
const char *jd_copy_yard_why(void);

/* Any yardstick of instructor code (COPY's, a week's given kernel), timed
 * through the same protocol as the student's calls: jd_bench_run over a
 * runner of the instructor's, the program `name` beside the judge (built
 * with no student object), started as a plain child for this run alone and
 * stopped after it. With the same jd_bench set-up (sizes, ranges, fresh
 * scalars) and the same seed as the student's run, its requests carry the
 * same inputs. 0 and *ms (a call), or -1 with why. */
int jd_yard_bench(const char *name, jd_bench *x, int timed, double *ms, char *why, size_t why_n);
/* A week's own yardstick timed again after the student's calls (x set up
 * as for the run before the student's runner started, which gave
 * before_ms, or NAN with before_why): jd_yard_bench now, and the faster
 * of the two kept (a runner can only slow the judge's GPU down, which would
 * flatter a ratio to a slowed yardstick), as COPY's larger figure is.
 * *after_ms: this run's figure (NAN when it failed). ms a call, or NAN with
 * why (this run's failure, else before_why). */
double jd_yard_faster(const char *name, jd_bench *x, int timed, double before_ms, const char *before_why,
                      double *after_ms, char *why, size_t why_n);

/* A speed checkpoint's result: the figure against its yardstick and the
 * target for this GPU (week.txt; wb_target_for picks a `| H200 >= ...`
 * field where the line has one). why: a failure before the figure ("" when
 * none): then the record has no figure. Sets R's fields and t. */
void jd_speed_result(wb_result *R, jd_tally *t, const wb_checkpoint *c, const char *gpu, double value,
                     const char *unit, const char *yard, double yard_value, const char *detail, const char *why);

/* ----------------------------------------------------------------- the week */

/* What a checkpoint's judging gets. */
typedef struct {
    jd                  *J;
    jd_tally            *t;
    wb_result           *R;
    const wb_checkpoint *c;
    const char          *gpu; /* this GPU's name */
} jd_ck;

/* A bandwidth checkpoint: x timed (jd_bench_run, `timed` requests) at
 * bytes_per_elem bytes an element a call, against jd_copy_yard (its
 * checkpoint's copy_yard the same bytes), the result into k's record; the
 * figures printed on a line named label. */
void jd_bw_checkpoint(jd_ck *k, jd_bench *x, int timed, double bytes_per_elem, const char *label);

typedef struct {
    const char *id;
    void (*gpu)(jd_ck *k);             /* with a GPU */
    void (*cpu)(jd *J, jd_tally *t);   /* without one, through a runner that opens none (host buffers); NULL: SKIP */
    int         cpu_whole;             /* cpu is the whole checkpoint: its PASS stands (else only its FAIL does) */
    int         copy_yard;             /* timed against COPY (jd_copy_yard): bytes a float of wb_bench_bytes() / 4
                                          the timed call moves (w01's vecadd 12, w03's copy 8); 0: not */
    void (*yard_before)(void);         /* optional: a yardstick of the week's own (week 11's given kernel through
                                          jd_yard_bench, week 09's FMA peak in the judge) timed with a GPU before
                                          the student's runner starts, when this checkpoint is asked for; gpu()
                                          times it again after the student's calls and keeps the better, as
                                          COPY's larger figure is kept */
    /* optional, a copy_yard checkpoint's: the COPY's request shaped as the
     * student's, so that both carry the same share of the protocol's fixed
     * cost a request (the socket's round trip, the look after the GPU turns
     * from the runner's context to the judge's: 0.4-0.5 ms on an H200,
     * instructor/README.md, "Timing a judged call"): bytes a call copies
     * (0: copy_yard's rule) and calls a request (0: as many as memory holds,
     * at most JD_BENCH_MAX_K). Week 58's decode moves 137 MB a call where
     * wb_bench_bytes() is 480 MB on an H200: timed against the larger copy,
     * the same fixed cost was 10 % of a decode call's time and 3 % of a copy's. */
    size_t      copy_bytes;
    int         copy_max_k;
} jd_checkpoint;

/* The judge's main (usage: judge.h's judges, judge_w01.c's header):
 *   PROG --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 * Writes the record of the checkpoints asked for; 0, or 2 when it could not. */
int jd_week_main(int argc, char **argv, const char *prog, const char *week_dir, const jd_checkpoint *cps, int n);

#endif
