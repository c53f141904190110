/* grade.h — the grader's parts (instructor/grade*.c), each its own
 * compilation unit: the types they share and what each part gives the
 * others. Helpers used by one part only stay static in it.
 *
 *   grade_jobs.c      utilities; a command run with a time limit (jobs)
 *   grade_class.c     outcomes and points, forbid lists, week configuration,
 *                     the submissions found
 *   grade_build.c     scratch copies, the sandbox, the builds (steps 1-3)
 *   grade_objcheck.c  the static checks on what was built (step 4)
 *   grade_run.c       checkpoint runs and their results records (5-6)
 *   grade_report.c    the gradebook and the feedback; the end of a grading
 *   grade_slurm.c     grading on a Slurm cluster: a job array, a task a
 *                     student; plans, results, re-queue, collection
 *   grade.c           the command line and the order of the steps
 */
#ifndef GRADE_H
#define GRADE_H

#include <stddef.h>
#include <sys/types.h>

#include "wb_meta.h"
#include "objcheck.h"
#include "sandbox.h"

#define MAX_STUDENTS 512
#define MAX_WEEKS    8
#define MAX_SEEDS    16
#define MAX_FORBID   32
#define MAX_API      128
#define MAX_RECORD   (1L << 20) /* a results record larger than this is refused */
#define DEFAULT_POINTS 10.0
#define MAX_PY_RO    12          /* folders a Python run needs shown read-only */

/* The sandbox's limits (sandbox.h) on builds and runs. */
#define GIB (1LL << 30)
#define BUILD_MEM   (8 * GIB)   /* nvcc on CUTLASS templates needs a few GiB */
#define RUN_MEM     (16 * GIB)  /* host buffers of the largest tests, with room */
#define FILE_LIMIT  (2 * GIB)
#define DISK_QUOTA  (1 * GIB)   /* a student's scratch workbook (a week's build is ~10 MB); --disk-quota MiB */
#define DISK_ENTRIES 20000     /* files and folders in it: a scratch workbook holds a few thousand */
#define MAX_PROCS   256

/* ------------------------------------------ what a checkpoint's run gave */

enum { ST_NONE = 0, ST_PASS, ST_FAIL, ST_SKIP };

/* Where a student's grading stands on a cluster (grade_slurm.c); a local
 * grading leaves every student SCHED_GRADED. */
enum { SCHED_GRADED = 0, SCHED_PENDING, SCHED_KILLED };

/* ------------------------------------------------------------ the class */

typedef struct {
    char   dir[600];           /* the week folder, e.g. phase0/week01 */
    wb_week meta;
    double points[WB_MAX_CHECKPOINTS];
    int    n_seeds;
    unsigned long long seeds[MAX_SEEDS];
    int    n_forbid;
    char   forbid[MAX_FORBID][32];
    char   forbid_except[MAX_FORBID][300]; /* " ex1 ex2 ": exercises allowed this library */
    int    n_api;
    char  *api[MAX_API];       /* the exercises' C functions, from the instructor's starter objects */
    int    n_given;
    char  *given[MAX_API];     /* the week's given functions (the .o files of build/WEEK/support/: week 05's w05_mix) */
    const char *refs[2 * MAX_API]; /* api and given: what an exercise may call of its week (NULL-terminated) */
    int    has_c;              /* WEEK/test_*.c: a C test program (built, object-checked, run) */
    int    has_py;             /* WEEK/test_*.py: Phase 7's Python checkpoints (wb_pyrun.py) */
    /* --judge 1: the week's judge (instructor/README.md, "The judge and the
     * runner"): its program in the instructor's build/instructor/ and the
     * runner's main object there; "" where the week has none or --judge is off */
    char   judge[700], judge_runner_obj[700];
    int    judged[WB_MAX_CHECKPOINTS]; /* 1: the judge forms this checkpoint's verdict (its --list); 0: the
                                          linked test does, where the API cannot cross (the judge's header says why) */
} week_cfg;

#define WHY_OWN_MAX 8 /* spans of the grader's own words in a checkpoint's why */
typedef struct {
    int    status;             /* ST_PASS / ST_FAIL / ST_SKIP */
    double points;
    char   figure[400];        /* for people: wb_result_figure of the record, "" if none */
    char   why[700];
    double ratio, target;      /* from the results record; NAN / 0 when none */
    char   yard[32];
    char   gpu[128];           /* the GPU the record says it ran on ("" none): picks week.txt's target for it */
    /* Where why's text came from: own[] are the [start, end) spans of the
     * grader's own words (why_own), written as text in the feedback; the
     * rest came from a run, a build or a submission (why_text) and is quoted
     * in code spans. A why written any other way is quoted whole. */
    unsigned short own[WHY_OWN_MAX][2];
    int    n_own;
} cp_grade;

typedef struct {
    char     id[128];
    char     source[700];      /* the folder or archive */
    char     sub[700];         /* the extracted submission (scratch) */
    char     tree[700];        /* the scratch workbook */
    char     note[MAX_WEEKS][1200];
    int      built[MAX_WEEKS];
    int      forbidden[MAX_WEEKS];
    int      refused;          /* the submission itself was refused (unpack, or refusal below) */
    char     refusal[600];     /* refused by the class listing (two submissions of one id, a name that is no id): why,
                                * escaped; the student scores 0 and the rest of the class is graded */
    unsigned long long bin_hash[MAX_WEEKS]; /* the test program as built, before any of it ran */
    unsigned long long py_hash[MAX_WEEKS];  /* the Python runner, plugin, tests and wb, before any run */
    /* --judge 1: the judge's runner (build/WEEK/learner/judge-runner) as the build linked it, before any
     * of the student's code ran: its SHA-256, and 1 once the grader kept a copy of it beside the scratch
     * workbook (judge_runner_paths), the copy every judged run starts; -1 when it could not */
    unsigned char runner_sha[MAX_WEEKS][32];
    int      runner_kept[MAX_WEEKS];
    double   seconds;
    cp_grade g[MAX_WEEKS][WB_MAX_CHECKPOINTS];
    int      sched;            /* SCHED_*: graded, or still with Slurm (its cells say PENDING or KILLED) */
    char     sched_note[700];  /* what Slurm did with the student's task (the gradebook's slurm column); "" locally */
} student;

typedef struct {
    char root[600], subs[600], gradebook[600], feedback[600], scratch[600];
    unsigned long long seed;
    double limit, build_limit;
    int jobs;
    int gpu_share;             /* students whose correctness runs share the GPU at once (1: every run alone) */
    int in_shared;             /* set in a shared run's process: its runs get WB_GPU_SHARED=1 */
    int n_make_args;
    char *make_args[32];
    int n_weeks;
    week_cfg weeks[MAX_WEEKS];
    int n_students;
    student *st;
    /* the sandbox (sandbox.h): what it shows read-only besides the system,
     * what must stay absent from it */
    char nvcc[600], cuda_home[600], deps_real[600], check_dir[600], cudnn_inc[600], sb_path[800];
    const char *ro[8 + MAX_PY_RO], *hide[8];
    /* Python checkpoints (weeks with test_*.py): the instructor's python3
     * (sys.executable of the python3 on PATH) and the folders it needs, shown
     * read-only in the sandbox (its prefixes, sys.path, torch's package) */
    char py_exe[600];
    char py_ro[MAX_PY_RO][600];
    int  n_py_ro;
    int  interpret;            /* TRITON_INTERPRET=1 in the grader's environment: passed on, never a GPU grading */
    int no_gpu_env;            /* WB_NO_GPU=1 in the grader's environment: passed on */
    int sandbox_errors;        /* runs the sandbox could not start (the grader's problem, not a student's) */
    long long disk_quota;      /* bytes a student's scratch workbook may hold (sb_opts.disk_bytes) */
    int keep_scratch;          /* --keep-scratch 1 (KEEP_SCRATCH=1): the scratch folders stay after the gradebook */
    int judge;                 /* --judge 1 (JUDGE=1): weeks with a judge are judged outside the student's process
                                  (grade_run.c, run_judged); off by default: not yet run on a GPU */
    int seccomp;               /* --seccomp deny|allow|log|off (SECCOMP=): the sandbox's filter, sb_seccomp */
    unsigned run_seq;
    /* Grading on a Slurm cluster (grade_slurm.c; --scheduler slurm) */
    int  slurm;                /* 1: prepare and build here, run the checkpoints in a job array */
    int  in_task;              /* this process is one array task (--task): one student, its GPU its own */
    char slurm_dir[600];       /* plans, results, job scripts, logs (default GRADEBOOK-slurm) */
    char gres[64];             /* --gres of each task ("" for none); default gpu:1 */
    int  n_sbatch;
    char *sbatch[32];          /* instructor's sbatch options, each an #SBATCH line after the grader's own */
    int  slurm_wait;           /* wait for the array and collect (else submit and return) */
    double slurm_poll;         /* seconds between looks at the queue while waiting */
    int  slurm_max;            /* tasks running at once (the array's %N); 0: as Slurm allows */
    char regrade[2000];        /* students graded again though finished: "all" or ids */
    char slurm_list[700];      /* a task's class list (the array index is a line of it) */
} grader;

/* ------------------------------------------------------- grade_jobs.c */

typedef struct {
    pid_t  pid;
    double deadline;
    int    done;
    int    exit_code;  /* valid when !signaled && !timed_out */
    int    signaled;   /* the signal that ended it, 0 if none */
    int    timed_out;
    double seconds;
    double started;
} job;

double now_s(void);
int is_dir(const char *p);
int is_file(const char *p);
int run_limited(char *const argv[], const char *cwd, const char *log, char *const env[], double limit_s, job *out);
int sh(const char *cmd, const char *log);
const char *q(const char *s);

/* ------------------------------------------------------ grade_class.c */

double speed_points(double points, double ratio, double target);
const char *classify(const char *msg);
int runner_no_gpu(const char *msg);
int cp_is_py(const week_cfg *W, int c);
void appendf(char *buf, size_t sz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Text from a student (a run's message, a build's log, a submission's
 * names) in Markdown that renders it as text (grade_class.c): a code span
 * (md_code) or a fenced code block (md_fence) whose fence no run of
 * backticks in it can close, control characters as \xNN, appended to buf
 * whole or cut with "..." (never left open); md_code_text writes one into
 * out, `cell` escaping '|' and '\' for a table cell. */
size_t md_escape(const char *t, char *out, size_t sz, int cell, int multiline);
size_t md_code_text(const char *t, int block, int cell, char *out, size_t sz);
void md_code(char *buf, size_t sz, const char *t);
void md_fence(char *buf, size_t sz, const char *t);
/* A checkpoint's why, built piece by piece from what each piece is: the
 * grader's own words (why_own: fmt and what it formats from the grader's own
 * values: numbers, week.txt, the sandbox's and the grader's messages) or text
 * from a run, a build or a submission (why_text); why_clear empties it. */
void why_clear(cp_grade *g);
void why_own(cp_grade *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void why_text(cp_grade *g, const char *t);
int load_week_cfg(const char *root, const char *week, week_cfg *w, char *err, size_t errsz);
int split_weeks(const char *text, char out[][64], char *err, size_t errsz);
int list_submissions(const char *dir, student *st, int max, char *err, size_t errsz, char *ignored,
                     size_t ignsz);
int find_week_in_sub(const char *sub, const char *week, char *out, size_t outsz);

/* ------------------------------------------------------ grade_build.c */

int prepare_student(grader *G, student *s, char *err, size_t errsz);
void sandbox_opts(const grader *G, const student *s, sb_opts *o);
unsigned long long file_hash(const char *path);
int file_sha256(const char *path, unsigned char out[32]);
void judge_runner_paths(const student *s, const week_cfg *W, int w, char *built, char *kept, size_t sz);
int keep_judge_runner(grader *G, student *s, int w);
int copy_untrusted(const char *from, const char *to, long max, char *why, size_t whysz);
/* Every checkpoint of week w: status, no points, why; its first `own` bytes
 * the grader's own words (why_own), the rest quoted. */
void set_all(grader *G, student *s, int w, int status, const char *why, size_t own);
void build_all(grader *G);
void prepare_build_check(grader *G);

/* --------------------------------------------------- grade_objcheck.c */

int load_week_api(const char *root, week_cfg *W, char *err, size_t errsz);
void exercise_policy(const grader *G, const student *s, int w, int e, oc_policy *p, const char **forbid,
                     char inc[][1400], const char **incp);
unsigned long long runner_hash(const grader *G, const student *s, int w);
void check_objects(grader *G, student *s, int w);

/* -------------------------------------------------------- grade_run.c */

extern int g_host_gpus;        /* GPUs the grader's host has (0: none, or WB_NO_GPU=1) */
extern char g_host_gpu[256];   /* the name of its first GPU, from the same probe ("" unknown) */
int host_gpu_count(const char *root);
/* must_end: trust a record only from a program that ended with exit 0 or 1
 * (the harness's own end), as a test program holding student code must */
void outcome_from_record(const char *rpath, const char *id, const sb_result *j, double limit, const char *log,
                         int must_end, cp_grade *out);
/* A speed checkpoint's outcome against week.txt's target (cp) for the GPU
 * the record names (wb_target_for: `| H200 >= 0.64`): a record whose target
 * differs, that says PASS under the target, or that names a GPU whose target
 * is not the one of this host's GPU (g_host_gpu, where known), is a FAIL with
 * no points; the target is week.txt's for that GPU afterwards. */
void reconcile_speed(cp_grade *g, const wb_checkpoint *cp);
void score_checkpoint(cp_grade *g, double pts);
int checkpoint_env(const grader *G, const student *s, int w, const char *id, unsigned long long seed,
                   const char *rpath, char store[][1700], const char **env);
/* --judge 1: the judge of week W (its program and runner object in
 * ROOT/build/instructor/) into W->judge; 1 found, 0 the week has none, -1
 * the week has one that is not built (err says what to make). */
int find_judge(const grader *G, week_cfg *W, char *err, size_t errsz);
void run_checkpoint(grader *G, student *s, int w, int c, unsigned long long seed, const char *tag, cp_grade *out);
int phase_has(const grader *G, const student *s, int w, int c, int speed);
void grade_serial(grader *G, student *s, int speed);
int grade_shared(grader *G, int *n_shared);

/* ----------------------------------------------------- grade_report.c */

const char *st_name(int s);
double max_points(const grader *G);
int write_gradebook(const grader *G, const char *path);
int write_feedback(const grader *G, const student *s, const char *path);
int finish(grader *G, double t0);

/* ------------------------------------------------------ grade_slurm.c */

int slurm_submit(grader *G);
int slurm_task(grader *G);
int slurm_collect(grader *G, int requeue, int *n_killed);
int slurm_read_args(const char *dir, char **argv, int max, char *store, size_t storesz);
int slurm_minutes(const grader *G);
void slurm_request_text(const grader *G, char *out, size_t outsz);
int slurm_script(const grader *G, const char *list, char *out, size_t outsz);
int slurm_parse_sacct(const char *text, const char *want, char *reason, size_t rsz);
void slurm_array_spec(const int *idx, int n, int max_running, char *out, size_t outsz);

#endif
