/* wb_meta.h — a week's metadata file, phaseP/weekNN/week.txt.
 *
 * One place for what the Makefile, the tests, `make status` and `make hint`
 * need to know about a week. Lines are `key: value`; '#' starts a comment.
 *
 *   title: Build system, first kernel
 *   exercise: vecadd                      (one line per starter .cu)
 *   libs: -lcublas                        (extra link flags, optional)
 *   nvflags: -gencode=arch=compute_90a,code=sm_90a   (extra nvcc flags, optional)
 *   checkpoint: w01.vecadd | vector add correct for any n
 *   checkpoint: w01.vecadd-bw | vector add bandwidth | >= 0.85 COPY
 *   hint: vecadd | One thread per element: i = blockIdx.x * blockDim.x + threadIdx.x.
 *
 * A checkpoint's optional third field is its target: `>= NUMBER YARDSTICK`,
 * a ratio to the yardstick measured in the same run. */
#ifndef WB_META_H
#define WB_META_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WB_MAX_CHECKPOINTS 32
#define WB_MAX_EXERCISES   16
#define WB_MAX_HINTS       48

typedef struct {
    char   id[64];
    char   desc[200];
    double target;     /* 0 when the checkpoint has no speed target */
    char   yard[32];   /* "COPY", "cuBLAS", ... */
} wb_checkpoint;

typedef struct {
    char          title[160];
    char          libs[256];
    char          nvflags[256];
    int           n_exercises;
    char          exercises[WB_MAX_EXERCISES][64];
    int           n_checkpoints;
    wb_checkpoint checkpoints[WB_MAX_CHECKPOINTS];
    int           n_hints;
    char          hint_exercise[WB_MAX_HINTS][64];
    char          hints[WB_MAX_HINTS][600];
} wb_week;

/* Parse `path`. Returns 0, or -1 with "file:line: what is wrong" in err. */
int wb_week_load(const char *path, wb_week *w, char *err, size_t errsz);
/* The checkpoint with this id, or NULL (also for a NULL id: no checkpoint). */
const wb_checkpoint *wb_week_checkpoint(const wb_week *w, const char *id);

#ifdef __cplusplus
}
#endif
#endif
