/* wb_meta.h — a week's metadata file, phaseP/weekNN/week.txt, and the map
 * of the 52 core weeks and the optional track weeks, common/curriculum.txt.
 *
 * One place for what the Makefile (through `wb make-vars`), the tests,
 * `make status`, `make hint`, `make release` and the grader need to know
 * about a week. This is the only reader of week.txt. Lines are
 * `key: value`; '#' starts a comment.
 *
 *   exercise: vecadd                      (one line per starter .cu)
 *   pyexercise: softmax                   (one line per starter .py: Phase 7's Python exercises)
 *   libs: -lcublas                        (extra link flags, optional)
 *   nvflags: -gencode=arch=compute_90a,code=sm_90a   (extra nvcc flags, optional)
 *   uses: phase5/week21 phase5/week22     (earlier weeks whose kernels this one runs)
 *   pyuses: phase6/week38 phase8/week63   (weeks whose exercise files this week's Python part builds or imports)
 *   needs: cutlass                        (third-party headers, mk/needs-NAME.mk)
 *   fileio: pgm                           (exercises whose contract reads or writes files)
 *   checkpoint: w01.vecadd | vector add correct for any n
 *   checkpoint: w01.vecadd-bw | vector add bandwidth | >= 0.85 COPY
 *   belongs: w18.load w18.model | model_io   (the exercises a checkpoint's tests exercise, optional)
 *   hint: vecadd | One thread per element: i = blockIdx.x * blockDim.x + threadIdx.x.
 *
 * `belongs: ID ... | EX ...` says which exercise files the checkpoints
 * named are about, for the line after a failed check that says which files
 * to fix (`wb report`). Without it a checkpoint is about the exercise its
 * first word names (w22.tiled-speed: tiled; w61.gemm: sp24_gemm, a word of
 * the name), and one no name gives away about every exercise file. Each ID
 * a checkpoint of the week, each EX an exercise of it, a checkpoint named
 * on one line at most.
 *
 * A checkpoint's optional third field is its target: `>= NUMBER YARDSTICK`,
 * a ratio to the yardstick measured in the same run. Further fields, each
 * `MODEL >= NUMBER` (or `MODEL >= NUMBER YARDSTICK`, the same yardstick: a
 * line whose yardsticks differ is refused), give a GPU model its own target:
 *
 *   checkpoint: w41.forward-speed | forward at speed | >= 0.89 COPY | H200 >= 0.64
 *   checkpoint: w99.x | x | >= 0.85 COPY | H200 >= 0.64 | B200 >= 0.70
 *
 * MODEL (letters, digits, '-', '_'; at least one letter) is matched against
 * the CUDA device name (cudaDeviceProp.name, "NVIDIA H200", "NVIDIA H100
 * 80GB HBM3") as a whole word, ignoring case: "H200" matches "NVIDIA H200"
 * and "NVIDIA H200 NVL", not "NVIDIA H2000" or "NVIDIA GH200"; the first
 * model of the line that matches applies, and the default target (the third
 * field) applies to every other GPU and where no GPU is known.
 * wb_target_for() picks it; Phase 7's Python twin is
 * phase7/common/wb_targets.py (same rules, same cases tested). NUMBER is
 * digits with at most one '.', above 0. At most WB_MAX_MODELS models a line.
 * A model's target is set from the reference's ratio measured on that model,
 * less 10 %, only where the default does not leave the reference that margin
 * (AUTHORING.md, "Speed targets"). `pycheckpoint:` (same
 * fields) is a checkpoint of a week that has C tests too (Phase 7's weeks,
 * week 52's capstone), judged by its Python tests only: the C test skips it
 * (AUTHORING.md, Phase 7).
 *
 * `uses: W` means: W's headers are on this week's include path, W's
 * exercises are linked into this week's test (built from W's reference
 * solution where the workbook has it, from the learner's own files in a
 * student copy), and this week's support files (support/NAME.cu) may include "EX.cu" of
 * W by name to build a variant of it. A week's support files may likewise
 * include the reference of the week's own exercises (a yardstick).
 *
 * `fileio: EX ...` names exercises of this week whose contract is to read
 * or write files (week 17's PGM reader and writer, week 18's model
 * loader): the grader's object check lets those exercises, and no other,
 * call C's stdio file functions (fopen, fread, fwrite, fclose, ...); every
 * name must be an `exercise:` of the week.
 *
 * `pyuses: W` names weeks whose exercise files this week's Python part
 * (its pytest tests and their support/ scripts) builds from or imports:
 * `make release` ships W with this week, built from the learner's own
 * files as a `uses:` week is, and nothing of W reaches the C test (no
 * include path, nothing linked). The same rules as `uses:` apply to the
 * names (phaseP/weekNN, no repeats, not the week itself, a week of the
 * workbook: `wb make-vars` checks that), but not the order: a core week's
 * capstone may build on an optional track week (week 52 on weeks 59 and
 * 63). A week is named in `uses:` or in `pyuses:`, not both.
 *
 * The week's title is not here: common/curriculum.txt holds the titles of
 * all 52 weeks and the phases, `phase: P | name` and `week: N | title` lines
 * in order (a week belongs to the phase above it).
 *
 * Optional track weeks (Phase 5's Hopper track) come after week 52, in
 * order from 53 up to WB_MAX_WEEK, one line each naming the phase they
 * belong to:
 *
 *   track: 53 | 5 | Hopper I: TMA, tensor maps and mbarriers
 *
 * A track week lives in phaseP/weekNN like any other (phase5/week53) and is
 * built, checked, graded and released like any other; it is not one of the
 * 52 weeks the learner counts: `make status` lists it under its phase,
 * marked optional, and counts its checkpoints apart from the core totals. */
#ifndef WB_META_H
#define WB_META_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WB_MAX_CHECKPOINTS 32
#define WB_MAX_EXERCISES   16
#define WB_MAX_HINTS       48
#define WB_MAX_USES        8
#define WB_CORE_WEEKS      52   /* weeks 1..52: the curriculum every learner counts */
#define WB_MAX_WEEK        64   /* track weeks are 53..WB_MAX_WEEK */

#define WB_MAX_MODELS      4    /* per-GPU-model targets on one checkpoint line */

typedef struct {
    char   model[24];  /* "H200": a whole word of the CUDA device name */
    double target;
} wb_model_target;

typedef struct {
    char   id[64];
    char   desc[200];
    double target;     /* the default target; 0 when the checkpoint has no speed target */
    int    py;         /* 1: a `pycheckpoint:` line, judged by the week's Python tests only */
    char   files[200]; /* `belongs:`: the exercises it is about, space-separated; "" where week.txt does not say */
    char   yard[32];   /* "COPY", "cuBLAS", ...: the same for every model */
    int    n_models;   /* per-model targets (`| H200 >= 0.64`), in week.txt's order */
    wb_model_target models[WB_MAX_MODELS];
} wb_checkpoint;

typedef struct {
    int           number;      /* 1..52, or 53..WB_MAX_WEEK for a track week; from the folder name */
    int           phase;       /* 0..8 */
    int           track;       /* 1: an optional track week (a `track:` line of curriculum.txt) */
    char          dir[32];     /* "phase0/week01" */
    char          title[160];  /* from common/curriculum.txt */
    char          libs[256];
    char          nvflags[256];
    int           n_exercises;
    char          exercises[WB_MAX_EXERCISES][64];
    int           n_pyexercises;  /* Phase 7: EX.py files, tested by the week's test_*.py */
    char          pyexercises[WB_MAX_EXERCISES][64];
    int           n_checkpoints;
    wb_checkpoint checkpoints[WB_MAX_CHECKPOINTS];
    int           n_uses;
    char          uses[WB_MAX_USES][32];   /* "phase5/week21" */
    int           n_needs;
    char          needs[WB_MAX_USES][32];  /* "cutlass" */
    int           n_pyuses;
    char          pyuses[WB_MAX_USES][32]; /* "phase8/week63": released with the week, not in its C test */
    int           n_fileio;
    char          fileio[WB_MAX_EXERCISES][64]; /* exercises that read or write files (the grader's object
                                                    check lets them call C's stdio file functions) */
    int           n_hints;
    char          hint_exercise[WB_MAX_HINTS][64];
    char          hints[WB_MAX_HINTS][600];
} wb_week;

/* The curriculum map: phases, the titles of the 52 core weeks and of the
 * optional track weeks. */
typedef struct {
    char phase[9][64];                /* "Foundation" */
    int  first_week[10];              /* first core week of each phase; [9] = 53 */
    int  last_week;                   /* the highest week number: 52, or the last track week */
    char week[WB_MAX_WEEK + 1][96];   /* week[1..last_week]: title */
    int  phase_of[WB_MAX_WEEK + 1];
    int  track[WB_MAX_WEEK + 1];      /* 1 for a track week (53 and up) */
} wb_curriculum;

/* Parse common/curriculum.txt. Returns 0, or -1 with "file:line: ..." in err. */
int wb_curriculum_load(const char *path, wb_curriculum *c, char *err, size_t errsz);

/* Parse `path` (phaseP/weekNN/week.txt, under any top folder); the title
 * comes from common/curriculum.txt in that top folder. Returns 0, or -1 with
 * "file:line: what is wrong" in err. */
int wb_week_load(const char *path, wb_week *w, char *err, size_t errsz);
/* The checkpoint with this id, or NULL (also for a NULL id: no checkpoint). */
const wb_checkpoint *wb_week_checkpoint(const wb_week *w, const char *id);

/* Parse a checkpoint's target fields (everything after its description:
 * ">= 0.89 COPY | H200 >= 0.64") into c's target, yard and models. Returns
 * 0, or -1 with what is wrong in err (no file or line: the caller adds them). */
int wb_target_parse(const char *text, wb_checkpoint *c, char *err, size_t errsz);
/* 1 when `model` is a whole word of the device name (ignoring case). */
int wb_model_matches(const char *device, const char *model);
/* The target that applies to a run on the GPU named `device` (NULL or "":
 * none known): the first model of the line the name matches, else the
 * default. *model (when model is not NULL) is set to that model's token, or
 * to NULL for the default. 0 when the checkpoint has no target. */
double wb_target_for(const wb_checkpoint *c, const char *device, const char **model);
/* The target that applies on `device`, for people: ">= 0.64 COPY (H200)",
 * ">= 0.89 COPY (default)" where the line has per-model targets none of which
 * matched, ">= 0.89 COPY" where it has none; "" without a target. */
char *wb_target_text(const wb_checkpoint *c, const char *device, char *buf, size_t n);
/* Every target of the line, for tables that show no run: ">= 0.89 COPY" or
 * ">= 0.89 COPY; H200 >= 0.64"; "" without a target. */
char *wb_targets_all(const wb_checkpoint *c, char *buf, size_t n);
/* The line's target fields as week.txt writes them (">= 0.89 COPY | H200 >=
 * 0.64"), %.15g numbers: what `wb week-info W checkpoints` hands Python. */
char *wb_target_spec(const wb_checkpoint *c, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
