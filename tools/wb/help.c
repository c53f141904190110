/* help.c — `wb help`: what to type, and the next week to do. */

#include <stdio.h>

#include "wb_tool.h"

int cmd_help(int argc, char **argv)
{
    (void)argc, (void)argv;
    static week_state ws[WB_MAX_WEEK + 1];
    wb_progress prog;
    int ok;
    char perr[700];
    load_states(ws, &prog, &ok, perr, sizeof perr);
    int nw = next_week(ws);
    char dir[64] = "phase0/week01";
    if (nw) week_dir(nw, dir, sizeof dir);
    /* A student copy (make release) has no solution/ folders: IMPL=solution
     * and the instructors' tools are not offered there. */
    int solutions = 0;
    for (int k = 1; k <= CUR.last_week && !solutions; k++) {
        char d[64], p[96];
        week_dir(k, d, sizeof d);
        snprintf(p, sizeof p, "%s/solution", d);
        solutions = exists(p);
    }
    int instructor = exists("instructor/grade.c");
    char ex[64] = "EX", cp[80] = "CHECKPOINT-ID";
    static wb_week w;
    char wpath[96], werr[300];
    snprintf(wpath, sizeof wpath, "%s/week.txt", dir);
    if (wb_week_load(wpath, &w, werr, sizeof werr) == 0) {
        if (w.n_exercises) snprintf(ex, sizeof ex, "%s", w.exercises[0]);
        if (w.n_checkpoints) snprintf(cp, sizeof cp, "%s", w.checkpoints[w.n_checkpoints - 1].id);
    }
    char c[32][120];
    const char *what[32];
    int n = 0;
#define ROW(desc, ...) (snprintf(c[n], sizeof c[n], __VA_ARGS__), what[n++] = (desc))
    ROW("build your code for that week", "make %s", dir);
    ROW("build and test it; passed checkpoints go to progress.md", "make %s check", dir);
    ROW("check again at every save of an exercise file (Ctrl-C stops)", "make %s watch", dir);
    ROW("benchmark table (+ CSV in build/bench/); NAME= one of its rows", "make %s bench [NAME=name]", dir);
    ROW("the next hint, one at a time", "make %s hint", dir);
    ROW("restore the starters (yours kept as .bak files); EX= one file", "make %s reset [EX=%s]", dir, ex);
    ROW("compute-sanitizer: memcheck, racecheck, initcheck, synccheck", "make %s sanitize", dir);
    ROW("Nsight Compute on the week's benchmarks (NAME= one)", "make %s profile [NAME=name]", dir);
    ROW("the PTX or SASS of your kernels", "make %s ptx | sass", dir);
    ROW("the same with the untouched starter (never recorded)", "make %s check IMPL=starter", dir);
    if (solutions) ROW("the same with the reference solution (never recorded)", "make %s check IMPL=solution", dir);
    ROW("where you stand: the 52 weeks, optional track weeks apart", "make status");
    ROW("take a phase's checkpoint quiz (0-8, or preflight)", "make quiz PHASE=%c [ANSWERS=file]", dir[5]);
    ROW("make a lab-notebook entry for today", "make journal");
    ROW("this GPU's bandwidths and latencies (build/notebook/)", "make microbench");
    ROW("your roofline from the benchmarks you ran (PNG)", "make roofline");
    ROW("every speed checkpoint against this GPU's baseline", "make regress [WEEKS=...] (first: make regress-baseline)");
    if (exists("phase8/week47/week.mk")) ROW("week 47's ranks started by Open MPI's mpirun", "make phase8/week47 mpirun [NP=2]");
    ROW("the workbook's own tests of one week (the harness's too)", "make %s test", dir);
    ROW("all of the workbook's own tests, many minutes (TEST_WEEKS= fewer)", "make test [TEST_WEEKS=...]");
    ROW("remove build/ but benchmark CSVs and hint state", "make clean");
    ROW("remove build/ entirely", "make distclean");
#undef ROW
    printf("The CUDA workbook: one folder a week, phaseP/weekNN (phase0/week1 works too). Type, for example:\n\n");
    for (int i = 0; i < n; i++) printf("  %-46s %s\n", c[i], what[i]);
    printf("\nWith any of them:\n\n");
    printf("  %-46s %s\n", "V=1", "show the full compiler commands");
    printf("  %-46s %s\n", "WB_SEED=1234 (or WB_SEED=random)", "other random inputs (the default seed is fixed)");
    printf("  %-46s %s\n", "ARCH=sm_90", "the GPU to build for (default: this machine's)");
    char ck[120];
    snprintf(ck, sizeof ck, "CK_RUN_CASE=%s", cp);
    printf("  %-46s %s\n", ck, "check one checkpoint only");
    if (instructor)
        printf("\nInstructors: make release OUT=dir, make grade SUBMISSIONS=dir WEEKS=..., make grade-quiz "
               "(instructor/README.md).\n");
    printf("\n");
    if (nw) printf("Next for you: %s (%s).\n", dir, CUR.week[nw]);
    if (!ok) printf("! progress file refused: %s\n", perr);
    if (ok) wb_progress_free(&prog);
    return 0;
}
