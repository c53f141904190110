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
 *   needs: cutlass                        (third-party headers, mk/needs-NAME.mk)
 *   checkpoint: w01.vecadd | vector add correct for any n
 *   checkpoint: w01.vecadd-bw | vector add bandwidth | >= 0.85 COPY
 *   hint: vecadd | One thread per element: i = blockIdx.x * blockDim.x + threadIdx.x.
 *
 * A checkpoint's optional third field is its target: `>= NUMBER YARDSTICK`,
 * a ratio to the yardstick measured in the same run. `pycheckpoint:` (same
 * fields) is a checkpoint of a Phase 7 week that has C tests too, judged by
 * its Python tests only: the C test skips it (AUTHORING.md, Phase 7).
 *
 * `uses: W` means: W's headers are on this week's include path, W's
 * exercises are linked into this week's test (built from W's reference
 * solution where the workbook has it, from the learner's own files in a
 * student copy), and this week's support files (support/NAME.cu) may include "EX.cu" of
 * W by name to build a variant of it. A week's support files may likewise
 * include the reference of the week's own exercises (a yardstick).
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

typedef struct {
    char   id[64];
    char   desc[200];
    double target;     /* 0 when the checkpoint has no speed target */
    int    py;         /* 1: a `pycheckpoint:` line, judged by the week's Python tests only */
    char   yard[32];   /* "COPY", "cuBLAS", ... */
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

#ifdef __cplusplus
}
#endif
#endif
