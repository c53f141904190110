/* wb_launch.h — one process per GPU on this host, without MPI (Phase 8);
 * and the same rank code under mpirun (wb_rank_from_env, below).
 *
 * wb_launch(nranks, timeout_s, fn, arg, &res) forks nranks worker processes
 * ("ranks") and runs fn in each. The launching process touches no CUDA and
 * no NCCL, so it may be a Check test's process: everything a GPU does
 * happens in the ranks. What the ranks need to agree on (NCCL's unique id)
 * goes through pipes: rank 0 makes it and calls wb_rank_bcast, the launcher
 * relays it, the other ranks receive it in their own wb_rank_bcast.
 *
 *   static int body(wb_rank *r, void *arg, char *msg, size_t n)
 *   {
 *       ... cudaSetDevice(r->rank), the id through wb_rank_bcast, init ...
 *       return 0;                      // or non-zero, with msg saying why
 *   }
 *   wb_launch_result res;
 *   if (wb_launch(2, 30, body, NULL, &res) != 0) ck_abort_msg("%s", res.summary);
 *
 * Nothing waits for ever:
 *   - the launcher gives every rank until timeout_s (from the launch) to
 *     report and exit; a rank that has not reported by then is killed and
 *     the summary says "rank 1 did not report within 30 s";
 *   - a rank that dies before it reports is named with how it ended
 *     ("rank 1 exited with status 3 before reporting", "... was killed by
 *     signal 11");
 *   - wb_rank_bcast waits at most its own timeout for rank 0's data and
 *     then fails with a message naming rank 0.
 * Every rank starts with NVLink multicast off (wb_multicast_off(), whatever
 * the launcher's environment says: see wb_multicast.h), the CUDA error
 * handler back at its default (print, exit 2), and dies with its launcher.
 * A rank reports through its return value and msg, never through Check's
 * ck_assert (it is not the test's process). */
#ifndef WB_LAUNCH_H
#define WB_LAUNCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    WB_LAUNCH_MAX_RANKS = 64,   /* ranks one launch may start */
    WB_LAUNCH_MSG = 400,        /* bytes of a rank's message, with its NUL */
    WB_LAUNCH_MAX_BCAST = 2048, /* bytes wb_rank_bcast carries */
};

/* What a rank knows about itself (valid inside fn). */
typedef struct {
    int rank, nranks;
    int up;       /* pipe to the launcher (reports, rank 0's broadcast); -1 under mpirun */
    int down;     /* pipe from the launcher (the broadcast); -1 under mpirun */
    int reported; /* wb_rank_report has run */
    char file[256]; /* under mpirun (wb_rank_from_env): the file rank 0's broadcast goes through */
} wb_rank;

/* The body of a rank: 0 when it did its work, non-zero (with msg, n bytes,
 * saying why) when not. Its return value is reported unless the body has
 * already reported with wb_rank_report. */
typedef int (*wb_rank_fn)(wb_rank *r, void *arg, char *msg, size_t n);

/* In a rank: rank 0 sends the n bytes at buf to every other rank, which
 * receive them into buf (all ranks call it with the same n). 0 on success;
 * -1 with msg (n_msg bytes) on failure: in a rank other than 0, no data
 * from rank 0 within timeout_s names rank 0 and the time. */
int wb_rank_bcast(wb_rank *r, void *buf, size_t n, double timeout_s, char *msg, size_t n_msg);

/* In a rank: report status and msg now (before slow clean-up that might
 * hang: the launcher then has the report whatever happens next). Only the
 * first report counts. */
void wb_rank_report(wb_rank *r, int status, const char *msg);

/* The other launch mode: a process that Open MPI's mpirun started
 * becomes a rank by reading its rank and the rank count from the
 * environment, and its job's id: WB_RANK, WB_NRANKS and WB_JOB_ID where
 * set, else Open MPI's OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE and
 * PMIX_NAMESPACE (or OMPI_MCA_ess_base_jobid). There is no launcher: the
 * same wb_rank_bcast goes through a file of this host named after the job
 * ($WB_BCAST_DIR, else $TMPDIR, else /tmp: wb-bcast-JOB), which rank 0
 * writes whole (rename) and the others wait for, each within its timeout;
 * so every rank must be on this host (or the folder shared). wb_rank_report
 * prints "[rank r/n] ok: msg" or "[rank r/n] FAILED: msg" on stdout,
 * and rank 0's report removes the file (by then every rank has joined, or
 * the job has failed). NVLink multicast is turned off here too. Tried with
 * Open MPI 4.1's mpirun. 0, or -1 with msg saying which variable is
 * missing or wrong. */
int wb_rank_from_env(wb_rank *r, char *msg, size_t n);

/* What the launch found. */
typedef struct {
    int    nranks;
    int    ok;                              /* every rank reported 0 and exited */
    int    reported[WB_LAUNCH_MAX_RANKS];   /* the rank sent its report */
    int    status[WB_LAUNCH_MAX_RANKS];     /* what it reported */
    int    exited[WB_LAUNCH_MAX_RANKS];     /* it exited by itself (not killed by the launcher) */
    int    wait_status[WB_LAUNCH_MAX_RANKS];/* waitpid's status (valid when exited) */
    char   msg[WB_LAUNCH_MAX_RANKS][WB_LAUNCH_MSG]; /* its message ("" for none) */
    double seconds;                         /* wall time of the launch */
    char   summary[4096];                   /* "all 2 ranks reported success", or a "rank r: ..." part for each rank that did not */
} wb_launch_result;

/* Forks nranks ranks (1..WB_LAUNCH_MAX_RANKS) running fn(r, arg, ...), and
 * waits for them at most timeout_s seconds in all, killing the ones still
 * running then. Returns 0 when every rank reported 0 and exited; -1
 * otherwise (and for nranks out of range, or a failed fork or pipe), with
 * res->summary saying what went wrong, rank by rank. Call it from a process
 * that has not initialised CUDA. */
int wb_launch(int nranks, double timeout_s, wb_rank_fn fn, void *arg, wb_launch_result *res);

#ifdef __cplusplus
}
#endif
#endif
