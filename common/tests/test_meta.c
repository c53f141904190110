/* test_meta.c — the harness's tests of week metadata and the curriculum map
 * (wb_meta.h). */

#include <check.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wb.h"
#include "test_harness.h"

/* A workbook in tmpdir: the real curriculum map, one week folder. */
static void make_week_tree(char *path, size_t n)
{
    make_tmpdir();
    char *cur = read_file("common/curriculum.txt");
    ck_assert_msg(cur != NULL, "run from the workbook's top folder (common/curriculum.txt)");
    char p[400];
    snprintf(p, sizeof p, "mkdir -p '%s/common' '%s/phase0/week01' '%s/phase1/week05'", tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(p), 0);
    snprintf(p, sizeof p, "%s/common/curriculum.txt", tmpdir);
    write_file(p, cur);
    free(cur);
    snprintf(path, n, "%s/phase0/week01/week.txt", tmpdir);
}

START_TEST(meta_parse_and_errors)
{
    char path[400];
    make_week_tree(path, sizeof path);
    write_file(path, "# comment\nexercise: vecadd\nlibs: -lcublas\n"
                     "checkpoint: w01.a | does a\ncheckpoint: w01.b | does b | >= 0.85 COPY\n"
                     "hint: vecadd | think\n");
    wb_week w;
    char err[600];
    ck_assert_msg(wb_week_load(path, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.n_checkpoints, 2);
    ck_assert_double_eq_tol(w.checkpoints[1].target, 0.85, 1e-12);
    ck_assert_str_eq(w.checkpoints[1].yard, "COPY");
    ck_assert_str_eq(w.libs, "-lcublas");
    ck_assert_int_eq(w.n_hints, 1);
    ck_assert_str_eq(w.title, "Build system, first kernel"); /* from common/curriculum.txt */
    ck_assert_str_eq(w.dir, "phase0/week01");
    ck_assert_int_eq(w.number, 1);
    write_file(path, "checkpoint: w01.b | does b | at least 0.85\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "week.txt:1:") != NULL, "%s", err);
    write_file(path, "bogus: 1\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    write_file(path, "checkpoint: a | x\ncheckpoint: a | y\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    /* a title is refused: titles live in one place */
    write_file(path, "title: Something else\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "curriculum.txt") != NULL, "%s", err);
}
END_TEST

/* belongs: which exercise files checkpoints are about (wb report's Next line).
 * A line is refused rather than cut: before, the checkpoints past its 399th
 * character were cut, so a name at the cut was read as another checkpoint's
 * (w01.xyzzzz as w01.xyzz) and that one was said to be about the files
 * silently; and a line past the read buffer (1023 bytes) was read as two,
 * its tail a key: value line of its own. */
START_TEST(meta_belongs)
{
    char path[400];
    make_week_tree(path, sizeof path);
    wb_week w;
    char err[600];
    write_file(path, "exercise: vecadd\nexercise: devquery\npyexercise: plot\n"
                     "checkpoint: w01.a | a\ncheckpoint: w01.b | b\ncheckpoint: w01.c | c\n"
                     "belongs: w01.a w01.b | devquery plot\n");
    ck_assert_msg(wb_week_load(path, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(w.checkpoints[0].files, "devquery plot");
    ck_assert_str_eq(w.checkpoints[1].files, "devquery plot");
    ck_assert_str_eq(w.checkpoints[2].files, "");
    const char *bad[] = { "exercise: vecadd\ncheckpoint: w01.a | a\nbelongs: w01.a | nosuch\n",
                          "exercise: vecadd\ncheckpoint: w01.a | a\nbelongs: w01.z | vecadd\n",
                          "exercise: vecadd\ncheckpoint: w01.a | a\nbelongs: w01.a | vecadd\nbelongs: w01.a | vecadd\n",
                          "exercise: vecadd\ncheckpoint: w01.a | a\nbelongs: w01.a\n" };
    const char *why[] = { "'nosuch' is not an exercise", "'w01.z' is not a checkpoint", "'w01.a' is named twice",
                          "belongs needs" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i]);
        ck_assert_msg(wb_week_load(path, &w, err, sizeof err) == -1, "accepted: %s", bad[i]);
        ck_assert_msg(strstr(err, why[i]) != NULL, "%s: %s", bad[i], err);
    }
    /* 23 checkpoints of 16 characters and a space (391), then w01.xyzzzz across the 400th: cut, it read w01.xyzz */
    char text[8192] = "exercise: vecadd\ncheckpoint: w01.xyzz | short\ncheckpoint: w01.xyzzzz | long\n", ids[1024] = "";
    for (int i = 0; i < 23; i++) {
        snprintf(text + strlen(text), sizeof text - strlen(text), "checkpoint: w01.longname-%03d | n\n", i);
        snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "w01.longname-%03d ", i);
    }
    ck_assert_int_eq((int)strlen(ids), 391);
    snprintf(text + strlen(text), sizeof text - strlen(text), "belongs: %sw01.xyzzzz | vecadd\n", ids);
    write_file(path, text);
    int rc = wb_week_load(path, &w, err, sizeof err);
    const wb_checkpoint *shrt = rc == 0 ? wb_week_checkpoint(&w, "w01.xyzz") : NULL;
    ck_assert_msg(rc == -1, "a belongs: line of %d characters of checkpoints was accepted (w01.xyzz's files: '%s')",
                  (int)strlen(ids) + 10, shrt ? shrt->files : "?");
    ck_assert_msg(strstr(err, "more than fits") != NULL, "%s", err);
    /* a line past the buffer: refused, not read as two (a hint of 1023 characters, then a checkpoint
     * on the same line: it was read as a checkpoint of the week) */
    char hint[1200] = "exercise: vecadd\nhint: vecadd | ";
    size_t n = strlen(hint);
    memset(hint + n, 'x', 17 + 1023 - n);
    snprintf(hint + 17 + 1023, sizeof hint - 17 - 1023, "checkpoint: w01.smuggled | tail\n");
    write_file(path, hint);
    rc = wb_week_load(path, &w, err, sizeof err);
    ck_assert_msg(rc == -1, "a 1055-character line was accepted as two (%d checkpoint%s)", rc == 0 ? w.n_checkpoints : -1,
                  rc == 0 && w.n_checkpoints == 1 ? ": w01.smuggled" : "s");
    ck_assert_msg(strstr(err, "a line longer than") != NULL, "%s", err);
}
END_TEST

START_TEST(meta_uses_and_needs)
{
    char path[400], p5[400];
    make_week_tree(path, sizeof path);
    snprintf(p5, sizeof p5, "%s/phase1/week05/week.txt", tmpdir);
    wb_week w;
    char err[600];
    write_file(p5, "uses: phase0/week01 phase0/week02\nuses: phase0/week03\nneeds: cutlass\n");
    ck_assert_msg(wb_week_load(p5, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.n_uses, 3);
    ck_assert_str_eq(w.uses[2], "phase0/week03");
    ck_assert_int_eq(w.n_needs, 1);
    ck_assert_str_eq(w.needs[0], "cutlass");
    /* fileio: exercises of the week whose contract reads or writes files */
    write_file(p5, "exercise: pgm\nexercise: conv\nfileio: pgm\n");
    ck_assert_msg(wb_week_load(p5, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.n_fileio, 1);
    ck_assert_str_eq(w.fileio[0], "pgm");
    const char *bad[] = { "uses: week01\n", "uses: phase0/week1\n", "uses: phase0/week01 phase0/week01\n",
                          "uses: phase1/week05\n", "needs: a/b\n", "exercise: pgm\nfileio: other\n",
                          "exercise: pgm\nfileio: pgm pgm\n", "fileio: a/b\n" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(p5, bad[i]);
        ck_assert_msg(wb_week_load(p5, &w, err, sizeof err) == -1, "accepted: %s", bad[i]);
    }
    /* pyuses: the weeks a week's Python part builds from, kept apart from uses: (nothing of them in the C test) */
    write_file(p5, "uses: phase0/week01\npyuses: phase0/week02 phase1/week08\npyuses: phase6/week38\n");
    ck_assert_msg(wb_week_load(p5, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.n_uses, 1);
    ck_assert_int_eq(w.n_pyuses, 3);
    ck_assert_str_eq(w.pyuses[0], "phase0/week02");
    ck_assert_str_eq(w.pyuses[2], "phase6/week38"); /* a later week may be named: the order is not checked */
    const char *badpy[] = { "pyuses: week01\n", "pyuses: phase0/week1\n", "pyuses: phase0/week01x\n",
                            "pyuses: phase0/week02 phase0/week02\n", "pyuses: phase1/week05\n",
                            "uses: phase0/week01\npyuses: phase0/week01\n",
                            "pyuses: phase0/week01 phase0/week02 phase0/week03 phase0/week04 phase1/week06 "
                            "phase1/week07 phase1/week08 phase1/week09 phase1/week10\n" };
    const char *why[] = { "must name a week", "must name a week", "must name a week", "listed twice",
                          "cannot use itself", "in both uses: and pyuses:", "too many 'pyuses'" };
    for (size_t i = 0; i < sizeof badpy / sizeof badpy[0]; i++) {
        write_file(p5, badpy[i]);
        ck_assert_msg(wb_week_load(p5, &w, err, sizeof err) == -1, "accepted: %s", badpy[i]);
        ck_assert_msg(strstr(err, why[i]) != NULL, "%s: %s", badpy[i], err);
    }
    /* a week in the wrong phase's folder */
    snprintf(p5, sizeof p5, "mkdir -p '%s/phase0/week05'", tmpdir);
    ck_assert_int_eq(system(p5), 0);
    snprintf(p5, sizeof p5, "%s/phase0/week05/week.txt", tmpdir);
    write_file(p5, "exercise: x\n");
    ck_assert_int_eq(wb_week_load(p5, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "in phase 1, not phase 0") != NULL, "%s", err);
    /* a checkpoint id of another week (copied with its week.txt) */
    snprintf(p5, sizeof p5, "%s/phase1/week05/week.txt", tmpdir);
    write_file(p5, "exercise: x\ncheckpoint: w01.vecadd | copied\n");
    ck_assert_int_eq(wb_week_load(p5, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "checkpoint 'w01.vecadd' must start with 'w05.'") != NULL, "%s", err);
    write_file(p5, "exercise: x\ncheckpoint: w05.x | its own\n");
    ck_assert_msg(wb_week_load(p5, &w, err, sizeof err) == 0, "%s", err);
}
END_TEST

START_TEST(curriculum_map)
{
    wb_curriculum c;
    char err[600];
    ck_assert_msg(wb_curriculum_load("common/curriculum.txt", &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.first_week[5], 21);
    ck_assert_int_eq(c.phase_of[38], 6);
    ck_assert_int_eq(c.first_week[9], 53);
    for (int w = 1; w <= 52; w++) ck_assert_msg(c.week[w][0], "week %d has no title", w);
    make_tmpdir();
    char p[400];
    snprintf(p, sizeof p, "%s/c.txt", tmpdir);
    write_file(p, "phase: 0 | A\nweek: 1 | x\nweek: 3 | y\n");
    ck_assert_int_eq(wb_curriculum_load(p, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "c.txt:3:") != NULL, "%s", err);
}
END_TEST

/* The 52 core weeks, then `track: N | P | title` lines (53 and up), in
 * order: each belongs to a phase, is marked as a track week, and leaves the
 * core ranges (first_week) as they are. */
static char *core_with(const char *tail)
{
    char *cur = read_file("common/curriculum.txt");
    ck_assert_ptr_nonnull(cur);
    char *t = strstr(cur, "\ntrack:");
    if (t) t[1] = 0; /* the core 52 only */
    size_t n = strlen(cur) + strlen(tail) + 1;
    char *s = malloc(n);
    snprintf(s, n, "%s%s", cur, tail);
    free(cur);
    return s;
}

START_TEST(curriculum_tracks)
{
    wb_curriculum c;
    char err[600], p[400];
    /* the workbook's own map: week 53 is Phase 5's Hopper track */
    ck_assert_msg(wb_curriculum_load("common/curriculum.txt", &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_ge(c.last_week, 53);
    ck_assert_int_eq(c.phase_of[53], 5);
    ck_assert_int_eq(c.track[53], 1);
    ck_assert_int_eq(c.track[52], 0);
    ck_assert_int_eq(c.first_week[9], 53);
    make_tmpdir();
    snprintf(p, sizeof p, "%s/c.txt", tmpdir);
    /* no track line: 52 weeks, as before */
    char *s = core_with("");
    write_file(p, s);
    free(s);
    ck_assert_msg(wb_curriculum_load(p, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.last_week, 52);
    ck_assert_int_eq(c.track[52], 0);
    /* two tracks of two phases; a title with a colon and a bar-free text */
    s = core_with("track: 53 | 5 | Hopper I: TMA\ntrack: 54 | 6 | Attention on Hopper\n");
    write_file(p, s);
    free(s);
    ck_assert_msg(wb_curriculum_load(p, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.last_week, 54);
    ck_assert_int_eq(c.phase_of[53], 5);
    ck_assert_int_eq(c.phase_of[54], 6);
    ck_assert_int_eq(c.track[54], 1);
    ck_assert_str_eq(c.week[53], "Hopper I: TMA");
    ck_assert_int_eq(c.first_week[6], 29); /* the core ranges are untouched */
    ck_assert_int_eq(c.first_week[9], 53);
    /* refused: out of order, a gap, no phase, a bad phase, no title, a core week after a track, past the limit */
    const char *bad[] = {
        "track: 54 | 5 | x\n",          "track: 53 | 5 | x\ntrack: 55 | 5 | y\n", "track: 53 | x\n",
        "track: 53 | 9 | x\n",          "track: 53 | -1 | x\n",                   "track: 53 | five | x\n",
        "track: 53 | 5 |\n",            "track: 53 | 5 | x\nweek: 54 | y\n",      "track: 52 | 5 | x\n",
        "week: 53 | x\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s = core_with(bad[i]);
        write_file(p, s);
        free(s);
        ck_assert_msg(wb_curriculum_load(p, &c, err, sizeof err) == -1, "accepted: %s", bad[i]);
        ck_assert_msg(strstr(err, "c.txt:") != NULL, "%s: %s", bad[i], err);
    }
    /* a track line before week 52 */
    write_file(p, "phase: 0 | A\nweek: 1 | x\ntrack: 2 | 0 | y\n");
    ck_assert_int_eq(wb_curriculum_load(p, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "after week 52") != NULL, "%s", err);
    /* weeks 53..64 fill up; 65 is refused */
    char tail[2048] = "";
    for (int w = 53; w <= WB_MAX_WEEK + 1; w++) {
        size_t k = strlen(tail);
        snprintf(tail + k, sizeof tail - k, "track: %d | 8 | t%d\n", w, w);
    }
    s = core_with(tail);
    write_file(p, s);
    free(s);
    ck_assert_int_eq(wb_curriculum_load(p, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "expected 65") != NULL || strstr(err, "53..64") != NULL, "%s", err);
}
END_TEST

/* A track week's folder: phase5/week53 loads (marked track, its title from
 * the map); the same number in another phase's folder, or a week past the
 * last track line, is refused. */
START_TEST(meta_track_week)
{
    char path[400], p[400];
    make_week_tree(path, sizeof path);
    snprintf(p, sizeof p, "%s/common/curriculum.txt", tmpdir);
    char *s = core_with("track: 53 | 5 | Hopper I: TMA, tensor maps and mbarriers\n");
    write_file(p, s);
    free(s);
    snprintf(p, sizeof p, "mkdir -p '%s/phase5/week53' '%s/phase4/week53' '%s/phase5/week54'", tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(p), 0);
    wb_week w;
    char err[600];
    snprintf(p, sizeof p, "%s/phase5/week53/week.txt", tmpdir);
    write_file(p, "exercise: tma_copy\nuses: phase5/week27\nnvflags: -gencode=arch=compute_90a,code=sm_90a\n"
                  "checkpoint: w53.box | box\n");
    ck_assert_msg(wb_week_load(p, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.number, 53);
    ck_assert_int_eq(w.phase, 5);
    ck_assert_int_eq(w.track, 1);
    ck_assert_str_eq(w.dir, "phase5/week53");
    ck_assert_str_eq(w.title, "Hopper I: TMA, tensor maps and mbarriers");
    write_file(path, "exercise: vecadd\n");
    ck_assert_msg(wb_week_load(path, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.track, 0);
    snprintf(p, sizeof p, "%s/phase4/week53/week.txt", tmpdir);
    write_file(p, "exercise: x\n");
    ck_assert_int_eq(wb_week_load(p, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "in phase 5, not phase 4") != NULL, "%s", err);
    snprintf(p, sizeof p, "%s/phase5/week54/week.txt", tmpdir);
    write_file(p, "exercise: x\n");
    ck_assert_int_eq(wb_week_load(p, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "track:") != NULL, "%s", err);
}
END_TEST

/* The cases of common/tests/target_cases.tsv, which the Python twin
 * (phase7/common/wb_targets.py) is tested on too. */
START_TEST(meta_targets_cases)
{
    FILE *f = fopen("common/tests/target_cases.tsv", "r");
    ck_assert_msg(f != NULL, "run from the workbook's top folder (common/tests/target_cases.tsv)");
    char line[1024];
    int lno = 0, n_parse = 0, n_select = 0;
    while (fgets(line, sizeof line, f)) {
        lno++;
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        char *col[6] = { 0 };
        int n = 0;
        for (char *p = line; p && n < 6; n++) {
            col[n] = p;
            p = strchr(p, '\t');
            if (p) *p++ = 0;
        }
        wb_checkpoint c;
        char err[400] = "", buf[400];
        memset(&c, 0, sizeof c);
        if (strcmp(col[0], "parse") == 0) {
            ck_assert_msg(n == 4, "target_cases.tsv:%d: a parse case has 4 fields", lno);
            int rc = wb_target_parse(col[1], &c, err, sizeof err);
            if (strcmp(col[2], "ok") == 0) {
                ck_assert_msg(rc == 0, "target_cases.tsv:%d: '%s' refused: %s", lno, col[1], err);
                ck_assert_msg(strcmp(wb_target_spec(&c, buf, sizeof buf), col[3]) == 0,
                              "target_cases.tsv:%d: '%s' read as '%s', expected '%s'", lno, col[1], buf, col[3]);
            } else {
                ck_assert_msg(rc == -1, "target_cases.tsv:%d: '%s' accepted", lno, col[1]);
                ck_assert_msg(strstr(err, col[3]) != NULL, "target_cases.tsv:%d: '%s' refused with '%s', expected "
                              "'%s' in it", lno, col[1], err, col[3]);
            }
            n_parse++;
        } else {
            ck_assert_msg(strcmp(col[0], "select") == 0 && n == 5, "target_cases.tsv:%d: unknown case", lno);
            ck_assert_msg(wb_target_parse(col[1], &c, err, sizeof err) == 0, "target_cases.tsv:%d: %s", lno, err);
            const char *dev = strcmp(col[2], "-") == 0 ? NULL : col[2], *model = "unset";
            double t = wb_target_for(&c, dev, &model);
            ck_assert_msg(fabs(t - atof(col[3])) < 1e-12, "target_cases.tsv:%d: on '%s' the target is %g, expected "
                          "%s", lno, col[2], t, col[3]);
            ck_assert_msg(strcmp(model ? model : "-", col[4]) == 0, "target_cases.tsv:%d: on '%s' the target is "
                          "%s's, expected %s's", lno, col[2], model ? model : "the default", col[4]);
            n_select++;
        }
    }
    fclose(f);
    ck_assert_msg(n_parse >= 20 && n_select >= 10, "target_cases.tsv: %d parse and %d select cases", n_parse,
                  n_select);
}
END_TEST

/* Per-model targets through week.txt: the line, the error with file and
 * line, the texts for people; a week without them is unchanged. */
START_TEST(meta_model_targets)
{
    char path[400];
    make_week_tree(path, sizeof path);
    write_file(path, "checkpoint: w01.a | does a | >= 0.89 COPY | H200 >= 0.64\n"
                     "checkpoint: w01.b | does b | >= 0.85 COPY\ncheckpoint: w01.c | does c\n");
    wb_week w;
    char err[600], buf[200];
    ck_assert_msg(wb_week_load(path, &w, err, sizeof err) == 0, "%s", err);
    const wb_checkpoint *a = &w.checkpoints[0], *b = &w.checkpoints[1], *c = &w.checkpoints[2];
    ck_assert_double_eq_tol(a->target, 0.89, 1e-12);
    ck_assert_int_eq(a->n_models, 1);
    ck_assert_str_eq(a->models[0].model, "H200");
    ck_assert_str_eq(a->desc, "does a");
    ck_assert_str_eq(wb_target_text(a, "NVIDIA H200", buf, sizeof buf), ">= 0.64 COPY (H200)");
    ck_assert_str_eq(wb_target_text(a, "NVIDIA H100 80GB HBM3", buf, sizeof buf), ">= 0.89 COPY (default)");
    ck_assert_str_eq(wb_target_text(b, "NVIDIA H200", buf, sizeof buf), ">= 0.85 COPY");
    ck_assert_str_eq(wb_target_text(c, "NVIDIA H200", buf, sizeof buf), "");
    ck_assert_str_eq(wb_targets_all(a, buf, sizeof buf), ">= 0.89 COPY; H200 >= 0.64");
    ck_assert_str_eq(wb_targets_all(b, buf, sizeof buf), ">= 0.85 COPY");
    ck_assert_double_eq(wb_target_for(c, "NVIDIA H200", NULL), 0);
    write_file(path, "checkpoint: w01.a | does a\ncheckpoint: w01.b | does b | >= 0.85 COPY | H200 >= 0.6 cuBLAS\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "week.txt:2: checkpoint 'w01.b': ") && strstr(err, "one yardstick for every GPU"), "%s",
                  err);
    write_file(path, "checkpoint: w01.b | does b | >= 0.85 COPY | H200 >= 0.64 | H2OO\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "week.txt:1:") && strstr(err, "'H2OO' must read 'MODEL >= NUMBER'"), "%s", err);
    /* every week of this workbook still reads */
    glob_t g;
    ck_assert_int_eq(glob("phase[0-9]/week[0-9][0-9]/week.txt", 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++)
        ck_assert_msg(wb_week_load(g.gl_pathv[i], &w, err, sizeof err) == 0, "%s", err);
    globfree(&g);
}
END_TEST

void meta_tests(TCase *t)
{
    tcase_add_test(t, meta_targets_cases);
    tcase_add_test(t, meta_model_targets);
    tcase_add_test(t, meta_parse_and_errors);
    tcase_add_test(t, meta_uses_and_needs);
    tcase_add_test(t, meta_belongs);
    tcase_add_test(t, curriculum_map);
    tcase_add_test(t, curriculum_tracks);
    tcase_add_test(t, meta_track_week);
}
