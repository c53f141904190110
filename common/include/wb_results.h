/* wb_results.h — the results record: what a week's test run found, one
 * record per checkpoint, in a file the caller names (WB_RESULTS=path).
 *
 * Everything that needs a checkpoint's outcome reads this file, never the
 * lines printed for people: recording progress (`wb report --record`, run by
 * `make check`), the `make test` ledger, `make status` and the grader.
 *
 * The format is tab-separated text, so a week written in another language
 * writes it with a few lines of code (Phase 7's Python tests:
 * phase7/common/wb_results.py, checked against this reader by make test):
 *
 *   line 1   "#wb-results 2"                       (format and version)
 *   line 2   the column names below, tab-separated (ignored by the reader)
 *   then     one record a line, 17 fields separated by one TAB, in this order:
 *
 *   week        phaseP/weekNN
 *   checkpoint  the id from week.txt ("w01.vecadd-bw")
 *   status      pass | fail | skip
 *   reason      why it did not pass, in a word: "-" for pass; "code" for
 *               fail (the code under test failed or was refused); for skip
 *               "nogpu" (the run found no usable GPU), "notselected"
 *               (CK_RUN_CASE picked another checkpoint) or "env" (this
 *               machine lacks something the test needs: a library, a tool,
 *               GPUs, room on a shared GPU, a compute capability)
 *   value       the figure, a number ("3027.4"), or "-" when there is none
 *   unit        its unit ("GB/s", "TFLOP/s"), or "-"
 *   yardstick   the yardstick's name as week.txt's target names it ("COPY"), or "-"
 *   yard_value  the yardstick's figure in the same unit, measured in the same run, or "-"
 *   ratio       value / yard_value, or "-"
 *   target      the target ratio from week.txt (">= target"), or "-"
 *   seed        the base seed the inputs were drawn from (decimal)
 *   gpu         the device's name, or "-" when no GPU ran the checkpoint
 *   tests       how many tests of the checkpoint ran
 *   failed      how many of them failed
 *   skipped     how many were not run (no GPU, not selected)
 *   detail      the figure for people ("3027 GB/s vs COPY 2957 GB/s"), or "-"
 *   message     why it failed or was skipped (first failure), or "-"
 *
 * Programs decide on status and reason; the message is for people and is
 * never parsed. Numbers are written in the shortest "%g" form that reads back exactly; text fields
 * have TAB, CR and LF replaced by spaces and are never empty ("-" stands for
 * nothing). A checkpoint passes only with status "pass": it ran at least one
 * test, none failed, none was skipped. The reader refuses a reason that does
 * not go with the status. The harness writes the file whole (a temporary
 * file renamed over it), so a reader never sees half of it.
 *
 * A record of format 1 (16 fields, no reason) is refused with a one-line
 * message saying to run the test again: records live in build/ and each run
 * rewrites its own, so none outlives the harness that wrote it for long.
 *
 * The same format carries figures from a test process (Check forks one per
 * test) back to the harness: wb_results_append adds one record with a single
 * write, so lines from several processes never interleave. */
#ifndef WB_RESULTS_H
#define WB_RESULTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WB_RESULTS_MAGIC "#wb-results 2"

enum { WB_RES_PASS = 0, WB_RES_FAIL = 1, WB_RES_SKIP = 2 };
/* The reason field: "-", "nogpu", "notselected", "env", "code". */
enum { WB_WHY_NONE = 0, WB_WHY_NOGPU, WB_WHY_NOTSELECTED, WB_WHY_ENV, WB_WHY_CODE };

typedef struct {
    char               week[64];
    char               id[64];
    int                status;      /* WB_RES_PASS, WB_RES_FAIL, WB_RES_SKIP */
    int                reason;      /* WB_WHY_*: NONE with pass, CODE with fail, another with skip */
    double             value;       /* NaN: none */
    char               unit[24];
    char               yard[32];
    double             yard_value;  /* NaN: none */
    double             ratio;       /* NaN: none */
    double             target;      /* NaN or 0: none */
    unsigned long long seed;
    char               gpu[128];
    int                tests, failed, skipped;
    char               detail[200];
    char               message[600];
} wb_result;

/* A record with every number NaN, every text empty, status skip, reason
 * none (the writer sets both). */
void wb_result_init(wb_result *r);

const char *wb_result_status_name(int status); /* "pass", "fail", "skip" */
const char *wb_result_reason_name(int reason); /* "-", "nogpu", "notselected", "env", "code" */

/* Write n records to `path` whole: a temporary file beside it, renamed over
 * it. Returns 0, or -1 with the reason in err. */
int wb_results_write(const char *path, const wb_result *r, int n, char *err, size_t errsz);
/* Append one record to an existing results file (header already there) in a
 * single write. Returns 0 or -1. */
int wb_results_append(const char *path, const wb_result *r);
/* Create (truncate) `path` with the two header lines. Returns 0 or -1. */
int wb_results_start(const char *path);

/* Read every record of `path` into *out (caller frees). Returns the number
 * of records, or -1 with "path:line: what is wrong" in err. */
int wb_results_read(const char *path, wb_result **out, char *err, size_t errsz);

/* The figure for people and the progress file: "1.024 of COPY (3027 GB/s vs
 * COPY 2957 GB/s)" for a ratio, the detail alone otherwise, "" for none. */
void wb_result_figure(const wb_result *r, char *buf, size_t n);
/* The target for people: ">= 0.85 COPY", or "-". */
void wb_result_target(const wb_result *r, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
