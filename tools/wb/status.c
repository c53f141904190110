/* status.c — `wb status`: all the weeks, progress bars, quizzes, next step;
 * and the week states it and `wb help` read. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_results.h"
#include "wb_tool.h"

int load_states(week_state *ws, wb_progress *prog, int *prog_ok, char *perr, size_t perrsz)
{
    *prog_ok = wb_progress_load(wb_progress_path(), prog, perr, perrsz) == 0;
    for (int w = 1; w <= CUR.last_week; w++) {
        char dir[64], path[128], err[600];
        week_dir(w, dir, sizeof dir);
        snprintf(path, sizeof path, "%s/week.txt", dir);
        memset(&ws[w], 0, sizeof ws[w]);
        if (!exists(path)) continue;
        if (wb_week_load(path, &ws[w].meta, err, sizeof err) != 0) {
            fprintf(stderr, "warning: %s\n", err);
            continue;
        }
        ws[w].present = 1;
        ws[w].total = ws[w].meta.n_checkpoints;
        for (int c = 0; c < ws[w].total && *prog_ok; c++)
            ws[w].done += wb_progress_find(prog, ws[w].meta.checkpoints[c].id) != NULL;
    }
    return 0;
}

int next_week(const week_state *ws)
{
    for (int w = 1; w <= CUR.last_week; w++)
        if (!CUR.track[w] && ws[w].present && ws[w].done < ws[w].total) return w;
    for (int w = 1; w <= CUR.last_week; w++)
        if (CUR.track[w] && ws[w].present && ws[w].done < ws[w].total) return w;
    return 0;
}

static void bar(char *out, int done, int total, int width)
{
    int fill = total ? (done * width + total / 2) / total : 0;
    for (int i = 0; i < width; i++) out[i] = i < fill ? '#' : '.';
    out[width] = 0;
}

/* The learner's last `make WEEK check` as its results record says (the
 * record `make check` leaves in build/WEEK/results-learner.tsv): "" when
 * there was none. */
static void last_check(const char *dir, const wb_week *meta, char *out, size_t n)
{
    char path[256], err[700];
    snprintf(path, sizeof path, "build/%s/results-learner.tsv", dir);
    out[0] = 0;
    if (!exists(path)) return;
    wb_result *r = NULL;
    int k = wb_results_read(path, &r, err, sizeof err);
    if (k <= 0) return;
    int pass = 0, fail = 0, skip = 0, nogpu = 0, first_fail = -1;
    for (int i = 0; i < k; i++) {
        pass += r[i].status == WB_RES_PASS, skip += r[i].status == WB_RES_SKIP;
        nogpu += r[i].status == WB_RES_SKIP && r[i].reason == WB_WHY_NOGPU;
        if (r[i].status == WB_RES_FAIL && fail++ == 0) first_fail = i;
    }
    /* a check with no GPU records nothing: say so, or 0/N reads as no work done */
    int m = snprintf(out, n, "last check: %d pass, %d fail%s%.0d%s%s", pass, fail, skip ? ", " : "", skip,
                     skip ? " skipped" : "", nogpu ? " (no GPU: nothing recorded)" : "");
    if (first_fail >= 0 && m > 0 && (size_t)m < n) {
        const wb_result *f = &r[first_fail];
        /* the target for the GPU the check ran on, naming its model where week.txt gives it one */
        const wb_checkpoint *cp = wb_week_checkpoint(meta, f->id);
        char tgt[96];
        if (cp && cp->target > 0) wb_target_text(cp, f->gpu, tgt, sizeof tgt);
        else snprintf(tgt, sizeof tgt, ">= %.2f %s", f->target, f->yard);
        if (!isnan(f->ratio))
            snprintf(out + m, n - (size_t)m, "; failing: %s, %.3f of %s, target %s", f->id, f->ratio, f->yard, tgt);
        else snprintf(out + m, n - (size_t)m, "; failing: %s", f->id);
    }
    free(r);
}

/* One line of `wb status` for week w. */
static void status_line(const week_state *ws, int w)
{
    char dir[64], title[48], last[300];
    week_dir(w, dir, sizeof dir);
    /* long titles are cut so the counts stay in one column */
    if (strlen(CUR.week[w]) > 40) snprintf(title, sizeof title, "%.37s...", CUR.week[w]);
    else snprintf(title, sizeof title, "%s", CUR.week[w]);
    const char *opt = CUR.track[w] ? " (optional track)" : "";
    if (!ws[w].present) {
        printf("   -    %-16s %-40s (not in this workbook yet)%s\n", dir, title, opt);
        return;
    }
    const char *mark = ws[w].done == ws[w].total ? "done" : ws[w].done ? "part" : "todo";
    last[0] = 0;
    if (ws[w].done < ws[w].total) last_check(dir, &ws[w].meta, last, sizeof last);
    printf("  %s  %-16s %-40s %2d/%-2d %s%s%s\n", mark, dir, title, ws[w].done, ws[w].total, CUR.track[w] ? "optional" : "",
           CUR.track[w] && *last ? ", " : "", last);
}

int cmd_status(int argc, char **argv)
{
    (void)argc, (void)argv;
    static week_state ws[WB_MAX_WEEK + 1];
    wb_progress prog;
    int ok;
    char perr[700];
    load_states(ws, &prog, &ok, perr, sizeof perr);
    /* what is wrong with the progress file comes first, before 60 lines of
     * weeks: refused (damaged, a directory, unreadable), or readable but
     * nothing can be recorded in it (its folder is missing or read-only) */
    char werr[700];
    int writable = !ok || wb_progress_check(wb_progress_path(), werr, sizeof werr) == 0;
    if (!ok)
        printf("! progress file refused: %s\n"
               "  (it is left exactly as it is; fix or move it, or set WB_PROGRESS to another file.\n"
               "   Until then the counts below show nothing and `make ... check` records nothing.)\n\n",
               perr);
    else if (!writable)
        printf("! progress cannot be recorded: %s\n"
               "  (`make ... check` runs the tests but records nothing until this is fixed)\n\n",
               werr);
    printf("Progress file: %s\n", wb_progress_path());
    const wb_record *pre = ok ? wb_progress_find(&prog, "quiz.preflight") : NULL;
    printf("Preflight quiz: %s\n\n", pre ? pre->figure : "not taken (make quiz PHASE=preflight: what to know before week 1)");
    int all_done = 0, all_total = 0, present_weeks = 0, tr_done = 0, tr_total = 0, tr_weeks = 0;
    for (int p = 0; p < 9; p++) {
        int pd = 0, pt = 0, pw = 0;
        for (int w = CUR.first_week[p]; w < CUR.first_week[p + 1]; w++) {
            pd += ws[w].done;
            pt += ws[w].total;
            pw += ws[w].present;
        }
        char b[32];
        bar(b, pd, pt, 20);
        char quiz[64] = "quiz: not taken";
        char qid[32];
        snprintf(qid, sizeof qid, "quiz.phase%d", p);
        const wb_record *q = ok ? wb_progress_find(&prog, qid) : NULL;
        if (q) snprintf(quiz, sizeof quiz, "quiz: %s", q->figure);
        if (pw) printf("Phase %d  %-26s [%s] %3d/%-3d checkpoints  %s\n", p, CUR.phase[p], b, pd, pt, quiz);
        else {
            int ptr = 0; /* the phase's track weeks present: they are listed below, outside the counts */
            for (int w = WB_CORE_WEEKS + 1; w <= CUR.last_week; w++) ptr += CUR.phase_of[w] == p && ws[w].present;
            printf("Phase %d  %-26s (%s)\n", p, CUR.phase[p],
                   ptr ? "no core weeks in this workbook; optional track weeks below" : "no weeks in this workbook yet");
        }
        for (int w = CUR.first_week[p]; w < CUR.first_week[p + 1]; w++) status_line(ws, w);
        /* the phase's optional track weeks, after its core weeks, outside its counts */
        for (int w = WB_CORE_WEEKS + 1; w <= CUR.last_week; w++) {
            if (CUR.phase_of[w] != p) continue;
            status_line(ws, w);
            tr_done += ws[w].done;
            tr_total += ws[w].total;
            tr_weeks += ws[w].present;
        }
        all_done += pd;
        all_total += pt;
        present_weeks += pw;
    }
    int nw = next_week(ws);
    printf("\n%d of %d checkpoints done across the %d weeks in this workbook (of 52).\n", all_done, all_total,
           present_weeks);
    if (tr_weeks)
        printf("Optional track: %d of %d checkpoints done across %d track week%s (not counted above).\n", tr_done,
               tr_total, tr_weeks, tr_weeks == 1 ? "" : "s");
    if (nw) {
        char dir[64];
        week_dir(nw, dir, sizeof dir);
        printf("Next: %s (%s%s): read %s/README.md, then `make %s check`.\n", dir, CUR.week[nw],
               CUR.track[nw] ? ", optional track" : "", dir, dir);
    } else if (present_weeks) {
        printf("Every week in this workbook is done.\n");
    }
    if (!ok) printf("! (the progress file was refused: see the first lines above)\n");
    else if (!writable) printf("! (progress cannot be recorded: see the first lines above)\n");
    if (ok) wb_progress_free(&prog);
    return 0;
}
