/* grade_report.c — part of grade.c (included by it, one compilation unit): the gradebook (CSV, quiz columns kept) and each student's feedback. */

/* --------------------------------------------------------------- output */

static const char *st_name(int s) { return s == ST_PASS ? "PASS" : s == ST_FAIL ? "FAIL" : s == ST_SKIP ? "SKIP" : "-"; }

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else fputs(s, f);
}

static double max_points(const grader *G)
{
    double m = 0;
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) m += G->weeks[w].points[c];
    return m;
}

/* One CSV row at *p (a quoted field may hold commas, "" and newlines): its
 * fields, malloc'd, in *out; returns how many. */
static int csv_parse_row(const char **p, char ***out)
{
    const char *s = *p;
    char **f = NULL;
    int n = 0;
    for (;;) {
        char *v = malloc(strlen(s) + 1);
        size_t k = 0;
        if (*s == '"') {
            for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
                if (*s == '"') s++; /* "" is one quote */
                v[k++] = *s;
            }
            if (*s == '"') s++;
        } else
            while (*s && *s != ',' && *s != '\n' && *s != '\r') v[k++] = *s++;
        v[k] = 0;
        f = realloc(f, sizeof *f * (size_t)(n + 1));
        f[n++] = v;
        if (*s != ',') break;
        s++;
    }
    while (*s == '\r') s++;
    if (*s == '\n') s++;
    *p = s;
    *out = f;
    return n;
}

/* The quiz columns of a gradebook: `quiz grade` (quizzes/quiz.c) adds its
 * columns, headed "quiz.ID ...", to the gradebook this file writes. */
typedef struct {
    int    ncol, nrow, nhead;
    int   *col;   /* their indexes in the old file */
    char **head;  /* the old file's header row, nhead cells */
    char ***row;  /* the old file's other rows; row[r][0] is the student */
    int   *len;
} quiz_cols;

static void quiz_cols_load(const char *path, quiz_cols *q)
{
    memset(q, 0, sizeof *q);
    char *text = wb_read_file(path, NULL);
    if (!text) return;
    for (const char *p = text; *p;) {
        if (*p == '\n' || *p == '\r') { /* a blank line is no row */
            p++;
            continue;
        }
        char **r;
        int n = csv_parse_row(&p, &r);
        if (!q->head) {
            q->head = r, q->nhead = n;
            continue;
        }
        q->row = realloc(q->row, sizeof *q->row * (size_t)(q->nrow + 1));
        q->len = realloc(q->len, sizeof *q->len * (size_t)(q->nrow + 1));
        q->row[q->nrow] = r, q->len[q->nrow++] = n;
    }
    free(text);
    for (int c = 0; c < q->nhead; c++)
        if (strncmp(q->head[c], "quiz.", 5) == 0) {
            q->col = realloc(q->col, sizeof *q->col * (size_t)(q->ncol + 1));
            q->col[q->ncol++] = c;
        }
}

/* Row r's quiz cells, each after a comma (empty ones for r < 0). Returns
 * whether any is non-empty. */
static int quiz_cols_put(FILE *f, const quiz_cols *q, int r)
{
    int any = 0;
    for (int k = 0; k < q->ncol; k++) {
        const char *v = r >= 0 && q->col[k] < q->len[r] ? q->row[r][q->col[k]] : "";
        any |= *v != 0;
        if (f) fputc(',', f), csv_field(f, v);
    }
    return any;
}

static int write_gradebook(const grader *G, const char *path)
{
    /* The gradebook is rewritten from this grading; its quiz columns (and the
     * rows of students who only have quiz scores) are kept, after ours, so
     * grading the weeks again does not lose `make grade-quiz`'s work. */
    quiz_cols q;
    quiz_cols_load(path, &q);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("student", f);
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) {
            char h[800];
            snprintf(h, sizeof h, "%s %s (%g)", G->weeks[w].dir, G->weeks[w].meta.checkpoints[c].id,
                     G->weeks[w].points[c]);
            fputc(',', f);
            csv_field(f, h);
        }
    fputs(",total,out_of,skipped,seed", f);
    for (int k = 0; k < q.ncol; k++) fputc(',', f), csv_field(f, q.head[q.col[k]]);
    fputc('\n', f);
    double mx = max_points(G);
    int week_cols = 4; /* total, out_of, skipped, seed */
    for (int w = 0; w < G->n_weeks; w++) week_cols += G->weeks[w].meta.n_checkpoints;
    for (int i = 0; i < G->n_students; i++) {
        const student *s = &G->st[i];
        csv_field(f, s->id);
        double tot = 0;
        int skipped = 0;
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
        int r = 0;
        while (r < q.nrow && strcmp(q.row[r][0], s->id) != 0) r++;
        quiz_cols_put(f, &q, r < q.nrow ? r : -1);
        fputc('\n', f);
    }
    for (int r = 0; r < q.nrow; r++) { /* students with quiz scores only */
        int graded = 0;
        for (int i = 0; i < G->n_students && !graded; i++) graded = strcmp(q.row[r][0], G->st[i].id) == 0;
        if (graded || !quiz_cols_put(NULL, &q, r)) continue;
        csv_field(f, q.row[r][0]);
        for (int c = 0; c < week_cols; c++) fputc(',', f);
        quiz_cols_put(f, &q, r);
        fputc('\n', f);
    }
    for (int r = 0; r < q.nrow; r++) {
        for (int c = 0; c < q.len[r]; c++) free(q.row[r][c]);
        free(q.row[r]);
    }
    for (int c = 0; c < q.nhead; c++) free(q.head[c]);
    free(q.row), free(q.len), free(q.col), free(q.head);
    return fclose(f);
}

static int write_feedback(const grader *G, const student *s, const char *path)
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
    for (int w = 0; w < G->n_weeks; w++) {
        const week_cfg *W = &G->weeks[w];
        fprintf(f, "\n## %s — %s\n\n", W->dir, W->meta.title);
        if (W->n_seeds)
            fprintf(f, "Correctness checkpoints were also run with %d hidden seed%s.\n\n", W->n_seeds,
                    W->n_seeds == 1 ? "" : "s");
        fprintf(f, "| checkpoint | result | points | measured | target |\n|---|---|---|---|---|\n");
        for (int c = 0; c < W->meta.n_checkpoints; c++) {
            const wb_checkpoint *cp = &W->meta.checkpoints[c];
            const cp_grade *g = &s->g[w][c];
            char target[64] = "-";
            if (cp->target > 0) snprintf(target, sizeof target, ">= %.2f %s", cp->target, cp->yard);
            fprintf(f, "| %s | %s | %.2f / %g | %s | %s |\n", cp->id, st_name(g->status), g->points, W->points[c],
                    g->figure[0] ? g->figure : "-", target);
        }
        fprintf(f, "\n");
        for (int c = 0; c < W->meta.n_checkpoints; c++) {
            const wb_checkpoint *cp = &W->meta.checkpoints[c];
            const cp_grade *g = &s->g[w][c];
            if (g->status == ST_PASS) fprintf(f, "- **%s** (%s): passed.\n", cp->id, cp->desc);
            else fprintf(f, "- **%s** (%s): %s — %s\n", cp->id, cp->desc, st_name(g->status), g->why);
        }
        if (s->note[w][0]) fprintf(f, "\nNotes:\n\n%s", s->note[w]);
    }
    return fclose(f);
}
