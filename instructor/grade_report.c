/* grade_report.c — part of the grader (grade.h): the gradebook (gradebook.h; quiz columns kept), each student's feedback, and
 * what a grading says at its end (finish: every student's line, the exit status). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gradebook.h"
#include "grade.h"

/* --------------------------------------------------------------- output */

const char *st_name(int s) { return s == ST_PASS ? "PASS" : s == ST_FAIL ? "FAIL" : s == ST_SKIP ? "SKIP" : "-"; }

double max_points(const grader *G)
{
    double m = 0;
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) m += G->weeks[w].points[c];
    return m;
}

int write_gradebook(const grader *G, const char *path)
{
    /* The gradebook is rewritten from this grading; its quiz columns (and the
     * rows of students who only have quiz scores) are kept, after ours, so
     * grading the weeks again does not lose `make grade-quiz`'s work. */
    gb_table old;
    gb_load(path, &old);
    int nq = 0, *qcol = malloc(sizeof *qcol * (size_t)old.cols);
    for (int c = 0; c < old.cols; c++)
        if (gb_is_quiz_col(GB_CELL(&old, 0, c))) qcol[nq++] = c;
    char tmp[1200];
    FILE *f = gb_create(path, tmp, sizeof tmp);
    if (!f) return free(qcol), gb_free(&old), -1;
    fputs("student", f);
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) {
            char h[800];
            snprintf(h, sizeof h, "%s %s (%g)", G->weeks[w].dir, G->weeks[w].meta.checkpoints[c].id,
                     G->weeks[w].points[c]);
            fputc(',', f);
            gb_put(f, h);
        }
    fputs(",total,out_of,skipped,seed", f);
    /* a Slurm grading's column, where Slurm has something to say of a student
     * (still pending, killed, re-queued); a local grading never has it */
    int slurm_col = 0;
    for (int i = 0; i < G->n_students; i++) slurm_col |= G->st[i].sched != SCHED_GRADED || G->st[i].sched_note[0];
    if (slurm_col) fputs(",slurm", f);
    /* why a student was refused by the class listing (two submissions of one id, a name that is no id) */
    int ref_col = 0;
    for (int i = 0; i < G->n_students; i++) ref_col |= G->st[i].refusal[0] != 0;
    if (ref_col) fputs(",refused", f);
    for (int k = 0; k < nq; k++) fputc(',', f), gb_put(f, GB_CELL(&old, 0, qcol[k]));
    fputc('\n', f);
    double mx = max_points(G);
    int week_cols = 4; /* total, out_of, skipped, seed */
    for (int w = 0; w < G->n_weeks; w++) week_cols += G->weeks[w].meta.n_checkpoints;
    for (int i = 0; i < G->n_students; i++) {
        const student *s = &G->st[i];
        gb_put(f, s->id);
        double tot = 0;
        int skipped = 0;
        if (s->sched != SCHED_GRADED) { /* not graded yet, or killed: never a 0 */
            const char *w = s->sched == SCHED_PENDING ? "PENDING" : "KILLED";
            for (int k = 0; k < week_cols - 4; k++) fprintf(f, ",%s", w);
            fprintf(f, ",%s,%g,,%llu,", w, mx, G->seed);
            gb_put(f, s->sched_note);
            if (ref_col) fputc(',', f), gb_put(f, s->refusal);
            int r = gb_find(&old, s->id);
            for (int k = 0; k < nq; k++) fputc(',', f), gb_put(f, r > 0 ? GB_CELL(&old, r, qcol[k]) : "");
            fputc('\n', f);
            continue;
        }
        for (int w = 0; w < G->n_weeks; w++)
            for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) {
                const cp_grade *g = &s->g[w][c];
                if (g->status == ST_SKIP) {
                    fputs(",SKIP", f);
                    skipped++;
                } else fprintf(f, ",%.2f", g->points);
                tot += g->points;
            }
        fprintf(f, ",%.2f,%g,%d,%llu", tot, mx, skipped, G->seed);
        if (slurm_col) fputc(',', f), gb_put(f, s->sched_note);
        if (ref_col) fputc(',', f), gb_put(f, s->refusal);
        int r = gb_find(&old, s->id);
        for (int k = 0; k < nq; k++) fputc(',', f), gb_put(f, r > 0 ? GB_CELL(&old, r, qcol[k]) : "");
        fputc('\n', f);
    }
    for (int r = 1; r < old.rows; r++) { /* students with quiz scores only */
        int graded = 0, any = 0;
        for (int i = 0; i < G->n_students && !graded; i++) graded = strcmp(GB_CELL(&old, r, 0), G->st[i].id) == 0;
        for (int k = 0; k < nq; k++) any |= GB_CELL(&old, r, qcol[k])[0] != 0;
        if (graded || !any) continue;
        gb_put(f, GB_CELL(&old, r, 0));
        for (int c = 0; c < week_cols + slurm_col + ref_col; c++) fputc(',', f);
        for (int k = 0; k < nq; k++) fputc(',', f), gb_put(f, GB_CELL(&old, r, qcol[k]));
        fputc('\n', f);
    }
    free(qcol);
    gb_free(&old);
    return gb_commit(f, tmp, path);
}

/* Text that came from a run, a build or a submission into the feedback: a
 * Markdown code span (md_code_text), so nothing in it is markup (no HTML,
 * link, image, emphasis, heading or a fence of its own) and in a table cell
 * (`cell`) nothing ends the cell; control characters as \xNN. A
 * checkpoint's reason comes through put_why: only its pieces from outside. */
static void put_code(FILE *f, const char *t, int cell)
{
    if (!t[0]) return;
    size_t sz = strlen(t) * 6 + 64;
    char *out = malloc(sz);
    if (!out) return;
    md_code_text(t, 0, cell, out, sz);
    fputs(out, f);
    free(out);
}

/* The grader's own words (a span of a why that why_own wrote) as Markdown
 * text: what Markdown would read as markup escaped with a backslash ('_'
 * only where it could start or end emphasis, so names keep theirs), then
 * control characters as \xNN by md_escape, as everywhere in the feedback. */
static void put_plain(FILE *f, const char *t, size_t n)
{
    char *m = malloc(2 * n + 1), *out = malloc(8 * n + 1); /* a byte: 2 with its backslash; 4, a C1 pair 8 */
    if (!m || !out) {
        free(m), free(out);
        return;
    }
    const unsigned char *c = (const unsigned char *)t;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int word_ = c[i] == '_' && i > 0 && i + 1 < n && isalnum(c[i - 1]) && isalnum(c[i + 1]);
        if (strchr("\\`*[]<&~", c[i]) || (c[i] == '_' && !word_)) m[k++] = '\\';
        m[k++] = (char)c[i];
    }
    m[k] = 0;
    md_escape(m, out, 8 * n + 1, 0, 0);
    fputs(out, f);
    free(m), free(out);
}

/* A checkpoint's why as its pieces came: the grader's own words (g->own)
 * as text, every other piece (a run's message, a compiler's line, a name
 * from the record) in a code span (put_code). */
static void put_why(FILE *f, const cp_grade *g)
{
    size_t len = strnlen(g->why, sizeof g->why), at = 0;
    char piece[sizeof g->why];
    for (int i = 0; i <= g->n_own && i <= WHY_OWN_MAX; i++) {
        size_t a = i < g->n_own ? g->own[i][0] : len, e = i < g->n_own ? g->own[i][1] : len;
        if (a > len) a = len; /* spans from a record of another run of the grader: never past the text */
        if (a < at) a = at;
        if (e > len) e = len;
        if (e < a) e = a;
        if (a > at) {
            snprintf(piece, sizeof piece, "%.*s", (int)(a - at), g->why + at);
            put_code(f, piece, 0);
        }
        put_plain(f, g->why + a, e - a);
        at = e;
    }
}

/* The notes (s->note: the grader's own Markdown, the student's text in it
 * already in code spans and fenced blocks, md_code and md_fence): control
 * characters but newlines as \xNN, never raw (md_escape, multiline). */
static void put_notes(FILE *f, const char *t)
{
    size_t sz = strlen(t) * 8 + 1; /* a byte becomes at most 4, a C1 pair 8 */
    char *out = malloc(sz);
    if (!out) return;
    md_escape(t, out, sz, 0, 1);
    fputs(out, f);
    free(out);
}

int write_feedback(const grader *G, const student *s, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    double tot = 0;
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) tot += s->g[w][c].points;
    time_t t = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&t));
    fprintf(f, "# Feedback for %s\n\nGraded %s with the class seed %llu (fresh inputs, the same for everyone); "
               "%.0f s.\n\n**Total: %.2f of %g points.**\n", s->id, date, G->seed, s->seconds, tot, max_points(G));
    if (s->sched_note[0]) fputs("\nOn the cluster (Slurm): ", f), put_code(f, s->sched_note, 0), fputs(".\n", f);
    for (int w = 0; w < G->n_weeks; w++) {
        const week_cfg *W = &G->weeks[w];
        fprintf(f, "\n## %s — %s\n\n", W->dir, W->meta.title);
        if (W->n_seeds)
            fprintf(f, "Each correctness checkpoint that passed was also run with %d hidden seed%s.\n\n", W->n_seeds,
                    W->n_seeds == 1 ? "" : "s");
        fprintf(f, "| checkpoint | result | points | measured | target |\n|---|---|---|---|---|\n");
        for (int c = 0; c < W->meta.n_checkpoints; c++) {
            const wb_checkpoint *cp = &W->meta.checkpoints[c];
            const cp_grade *g = &s->g[w][c];
            char target[160] = "-";
            /* the target for the GPU the run names (`| H200 >= 0.64`), every one of the line without a run */
            if (cp->target > 0 && g->gpu[0]) wb_target_text(cp, g->gpu, target, sizeof target);
            else if (cp->target > 0) wb_targets_all(cp, target, sizeof target);
            fprintf(f, "| %s | %s | %.2f / %g | ", cp->id, st_name(g->status), g->points, W->points[c]);
            if (g->figure[0]) put_code(f, g->figure, 1);
            else fputc('-', f);
            fprintf(f, " | %s |\n", target);
        }
        fprintf(f, "\n");
        for (int c = 0; c < W->meta.n_checkpoints; c++) {
            const wb_checkpoint *cp = &W->meta.checkpoints[c];
            const cp_grade *g = &s->g[w][c];
            if (g->status == ST_PASS) fprintf(f, "- **%s** (%s): passed.\n", cp->id, cp->desc);
            else {
                fprintf(f, "- **%s** (%s): %s — ", cp->id, cp->desc, st_name(g->status));
                put_why(f, g);
                fputc('\n', f);
            }
        }
        if (s->note[w][0]) fputs("\nNotes:\n\n", f), put_notes(f, s->note[w]);
    }
    return fclose(f);
}

/* ------------------------------------------------------- the end */

/* Each student's line, the feedback files, the gradebook, and the exit
 * status: 0; 1 when the sandbox failed the host; 3 when the gradebook is
 * incomplete (SKIP, Triton's interpreter, or students still with Slurm); 4
 * when it is complete but the class listing refused some students (two
 * submissions of one id, a name that is no id: 0 each, the reason in the
 * gradebook's refused column). */
int finish(grader *G, double t0)
{
    int pending = 0, killed = 0;
    for (int i = 0; i < G->n_students; i++) {
        student *s = &G->st[i];
        double tot = 0;
        printf("  %-24s", s->id);
        if (s->sched != SCHED_GRADED) {
            printf(" %s  %s\n", s->sched == SCHED_PENDING ? "PENDING" : "KILLED", s->sched_note);
            pending += s->sched == SCHED_PENDING, killed += s->sched == SCHED_KILLED;
            continue;
        }
        for (int w = 0; w < G->n_weeks; w++)
            for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) {
                printf(" %s", st_name(s->g[w][c].status));
                tot += s->g[w][c].points;
            }
        printf("  %6.2f / %g  (%.0f s)\n", tot, max_points(G), s->seconds);
        for (int w = 0; w < G->n_weeks && G->interpret; w++)
            if (G->weeks[w].has_py && !strstr(s->note[w], "Graded with TRITON_INTERPRET=1"))
                appendf(s->note[w], sizeof s->note[w], "- Graded with TRITON_INTERPRET=1: the Python checkpoints ran in "
                        "Triton's interpreter (on the CPU where torch sees no GPU), speed checkpoints SKIP. A pass there "
                        "is not a pass on a GPU: grade again without it.\n");
        char fb[1400], tmp[1500];
        snprintf(fb, sizeof fb, "%s/%s.md", G->feedback, s->id);
        /* on a cluster, written whole or not at all: a task may be writing it too */
        snprintf(tmp, sizeof tmp, "%s.tmp-%d", fb, (int)getpid());
        if (!G->slurm && write_feedback(G, s, fb) != 0) fprintf(stderr, "cannot write %s\n", fb);
        if (G->slurm && (write_feedback(G, s, tmp) != 0 || rename(tmp, fb) != 0))
            fprintf(stderr, "cannot write %s\n", fb), unlink(tmp);
    }
    if (write_gradebook(G, G->gradebook) != 0) return fprintf(stderr, "cannot write %s\n", G->gradebook), 1;
    printf("Gradebook: %s; feedback: %s/ID.md; %.0f s in all.\n", G->gradebook, G->feedback, now_s() - t0);
    int skipped = 0, refused = 0;
    for (int i = 0; i < G->n_students; i++) refused += G->st[i].refusal[0] != 0;
    if (refused)
        fprintf(stderr, "grade: %d submission%s refused by the class listing (0 points; the reason in the gradebook's "
                "refused column and %s feedback): fix %s and grade again; the rest of the class is graded\n", refused,
                refused == 1 ? "" : "s", refused == 1 ? "its" : "their", refused == 1 ? "it" : "them");
    for (int i = 0; i < G->n_students; i++)
        for (int w = 0; w < G->n_weeks; w++)
            for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++)
                skipped += G->st[i].sched == SCHED_GRADED && G->st[i].g[w][c].status == ST_SKIP;
    if (G->sandbox_errors) {
        fprintf(stderr, "grade: INCOMPLETE: the sandbox could not start %d build%s or run%s (above); those are not "
                "the students' doing: fix the host and grade again\n", G->sandbox_errors, G->sandbox_errors == 1 ? "" : "s",
                G->sandbox_errors == 1 ? "" : "s");
        return 1;
    }
    if (pending || killed) {
        fprintf(stderr, "grade: INCOMPLETE: %d student%s still with Slurm (PENDING in the gradebook) and %d whose task "
                "was killed twice (KILLED; the slurm column says why): make grade-collect GRADEBOOK=%s when the "
                "array has run; grade again with SCHEDULER=slurm for the killed ones\n", pending, pending == 1 ? "" : "s",
                killed, G->gradebook);
        return 3;
    }
    if (G->interpret) {
        fprintf(stderr, "grade: INCOMPLETE: TRITON_INTERPRET=1 is set: the Python checkpoints were judged by Triton's "
                "interpreter, not compiled on a GPU, and speed checkpoints could not run (%d SKIP): not marks; grade "
                "again without TRITON_INTERPRET\n", skipped);
        return 3;
    }
    if (skipped) {
        if (g_host_gpus > 0)
            fprintf(stderr, "grade: INCOMPLETE: %d checkpoint%s could not run on this host for a reason that is not the "
                    "student's (each one's feedback says why, a missing gnuplot for instance) and %s SKIP in the "
                    "gradebook, earning nothing: fix the host and grade again before using these totals\n", skipped,
                    skipped == 1 ? "" : "s", skipped == 1 ? "is" : "are");
        else
            fprintf(stderr, "grade: INCOMPLETE: %d checkpoint%s could not run (no GPU here%s) and %s SKIP in the gradebook, "
                    "earning nothing: grade again on a GPU host before using these totals\n", skipped,
                    skipped == 1 ? "" : "s", G->no_gpu_env ? ": WB_NO_GPU=1 is set" : "", skipped == 1 ? "is" : "are");
        return 3;
    }
    return refused ? 4 : 0;
}
