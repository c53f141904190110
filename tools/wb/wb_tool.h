/* wb_tool.h — what the files of the wb tool share: the curriculum map, a
 * week's folder and week.txt (weeks.c), the week states `wb status` and
 * `wb help` both read (status.c), and the verbs main.c dispatches to. */
#ifndef WB_TOOL_H
#define WB_TOOL_H

#include <stddef.h>

#include "wb_meta.h"
#include "wb_progress.h"

/* ---------------- the curriculum map and the weeks (weeks.c) ---------------- */

/* common/curriculum.txt, loaded by main before any verb runs. */
extern wb_curriculum CUR;
void load_curriculum(void);

void week_dir(int week, char *buf, size_t n);
int  exists(const char *path);
/* WEEKDIR/week.txt into *w: 0, or -1 with what is wrong on stderr. */
int  load_week(const char *wdir, wb_week *w);

/* A week's exercise files: its CUDA exercises (EX.cu), then its Python ones
 * (EX.py, Phase 7). Index k runs over both; the name and extension of k. */
int         n_ex_files(const wb_week *w);
const char *ex_name(const wb_week *w, int k);
const char *ex_ext(const wb_week *w, int k);
/* report.c: the exercise files a checkpoint is about (named[i]); how many, 0 for "every file" */
int         checkpoint_files(const wb_week *w, const char *id, int *named);

/* ---------------- where the learner stands (status.c) ---------------- */

typedef struct {
    int present, total, done;
    wb_week meta;
} week_state;

int load_states(week_state *ws, wb_progress *prog, int *prog_ok, char *perr, size_t perrsz);
/* The first unfinished core week; once every core week is done, the first
 * unfinished track week (a track is optional: it never comes first). */
int next_week(const week_state *ws);

/* ---------------- the verbs ----------------
 * Each gets main's argc and argv (argv[1] is the verb, its arguments follow,
 * as many as main's table allows) and returns the exit status. */

int cmd_help(int argc, char **argv);               /* help.c */
int cmd_status(int argc, char **argv);             /* status.c */
int cmd_strip(int argc, char **argv);              /* starters.c */
int cmd_drift(int argc, char **argv);
int cmd_write_starters(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_hint(int argc, char **argv);               /* hint.c */
int cmd_ledger(int argc, char **argv);             /* ledger.c */
int cmd_ledger_add(int argc, char **argv);
int cmd_ledger_results(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_margins(int argc, char **argv);
int cmd_report(int argc, char **argv);             /* report.c */
int cmd_progress_check(int argc, char **argv);
int cmd_make_vars(int argc, char **argv);          /* makevars.c */
int cmd_week_info(int argc, char **argv);
int cmd_regress(int argc, char **argv);            /* regress.c */

#endif
