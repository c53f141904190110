/* weeks.c — the curriculum map and a week's folder, week.txt and exercise
 * files, for every verb. */

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "wb_tool.h"

/* ---------------- the curriculum map (common/curriculum.txt) ---------------- */

wb_curriculum CUR;

void load_curriculum(void)
{
    char err[600];
    if (wb_curriculum_load("common/curriculum.txt", &CUR, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n(run from the workbook's top folder)\n", err);
        exit(2);
    }
}

static int phase_of(int week) { return CUR.phase_of[week]; }

void week_dir(int week, char *buf, size_t n) { snprintf(buf, n, "phase%d/week%02d", phase_of(week), week); }

int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int n_ex_files(const wb_week *w) { return w->n_exercises + w->n_pyexercises; }
const char *ex_name(const wb_week *w, int k)
{
    return k < w->n_exercises ? w->exercises[k] : w->pyexercises[k - w->n_exercises];
}
const char *ex_ext(const wb_week *w, int k) { return k < w->n_exercises ? ".cu" : ".py"; }

int load_week(const char *wdir, wb_week *w)
{
    char path[512], err[600];
    snprintf(path, sizeof path, "%s/week.txt", wdir);
    if (wb_week_load(path, w, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}
