/* grade_objcheck.c — part of the grader (grade.h): the static checks on what was built (objcheck.c): each exercise object
 * against the week's policy. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"
#include "names.h"

/* ------------------------------------------------------------ object check */

/* Harness functions an exercise file may call (wb_cuda.h's WB_CUDA and
 * WB_LAUNCH, the device facts, the input generator week 04's CLI uses). */
/* The workbook's functions an exercise may call: error checks, the device query, the random numbers
 * (week 04's and week 20's applications draw their inputs) and week 47's rank broadcast (its exercise's
 * contract). Until 2026-11-29 the list lacked wb_rng_unit and wb_rank_bcast, and every correct
 * submission of weeks 20 and 47 scored 0. */
static const char *const HARNESS_ALLOW[] = { "wb_cuda_check_", "wb_launch_status_", "wb_fp32_lanes_per_sm",
                                             "wb_rng_seed", "wb_rng_for", "wb_rng_for_seed", "wb_rng_u64",
                                             "wb_rng_int", "wb_rng_unit", "wb_fill_uniform_f32", "wb_rank_bcast",
                                             NULL };

/* The exercise API of week w: the C functions the instructor's own build of
 * the starters defines (build/WEEK/starter/EX.o, made by `make grade`). */
int load_week_api(const char *root, week_cfg *W, char *err, size_t errsz)
{
    for (int e = 0; e < W->meta.n_exercises; e++) {
        char obj[1400];
        snprintf(obj, sizeof obj, "%s/build/%s/starter/%s.o", root, W->dir, W->meta.exercises[e]);
        if (oc_api_symbols(obj, W->api, &W->n_api, MAX_API - 1) < 0)
            return snprintf(err, errsz, "%s: cannot read the exercise API from %s (make grade builds it)", W->dir, obj), -1;
    }
    W->api[W->n_api] = NULL;
    /* the week's given support code, which an exercise may call as its test program links it (week 05's
     * pipeline calls w05_mix of support/spin.cu): built beside the starters' test program */
    char pat[1400];
    glob_t g;
    W->n_given = 0;
    snprintf(pat, sizeof pat, "%s/build/%s/support/*.o", root, W->dir);
    if (glob(pat, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            if (oc_api_symbols(g.gl_pathv[i], W->given, &W->n_given, MAX_API - 1) < 0) {
                snprintf(err, errsz, "%s: cannot read the given functions from %s", W->dir, g.gl_pathv[i]);
                globfree(&g);
                return -1;
            }
        globfree(&g);
    }
    /* the exercises of the weeks it uses (week.txt's uses:; week 34's attention calls week 33's
     * qkt_scores), linked into its test program from the reference's objects (the Makefile's used_objs) */
    for (int u = 0; u < W->meta.n_uses; u++) {
        int found = 0;
        for (int impl = 0; impl < 2 && !found; impl++) {
            snprintf(pat, sizeof pat, "%s/build/%s/%s/*.o", root, W->meta.uses[u], impl ? "starter" : "solution");
            if (glob(pat, 0, NULL, &g) != 0) continue;
            found = 1;
            for (size_t i = 0; i < g.gl_pathc; i++)
                if (oc_api_symbols(g.gl_pathv[i], W->given, &W->n_given, MAX_API - 1) < 0) {
                    snprintf(err, errsz, "%s: cannot read the functions of %s from %s", W->dir, W->meta.uses[u],
                             g.gl_pathv[i]);
                    globfree(&g);
                    return -1;
                }
            globfree(&g);
        }
    }
    W->given[W->n_given] = NULL;
    int r = 0;
    for (int k = 0; k < W->n_api; k++) W->refs[r++] = W->api[k];
    for (int k = 0; k < W->n_given; k++) W->refs[r++] = W->given[k];
    W->refs[r] = NULL;
    return 0;
}

/* The policy for exercise e of week w in student s's tree (objcheck.h):
 * headers from the week, the weeks it uses, common/include, the phase's
 * common/, the toolkit, the system, .deps/ for a week that needs it. */
void exercise_policy(const grader *G, const student *s, int w, int e, oc_policy *p, const char **forbid,
                     char inc[][1400], const char **incp)
{
    const week_cfg *W = &G->weeks[w];
    int nf = 0, ni = 0;
    char pad[80];
    snprintf(pad, sizeof pad, " %s ", W->meta.exercises[e]);
    for (int f = 0; f < W->n_forbid; f++)
        if (!strstr(W->forbid_except[f], pad)) forbid[nf++] = W->forbid[f];
    forbid[nf] = NULL;
    char ph[16];
    snprintf(ph, sizeof ph, "%.*s", (int)strcspn(W->dir, "/"), W->dir);
    snprintf(inc[ni++], 1400, "%s/%s", s->tree, W->dir);
    snprintf(inc[ni++], 1400, "%s/common/include", s->tree);
    snprintf(inc[ni++], 1400, "%s/%s/common", s->tree, ph);
    for (int u = 0; u < W->meta.n_uses && ni < 12; u++) snprintf(inc[ni++], 1400, "%s/%s", s->tree, W->meta.uses[u]);
    if (G->cuda_home[0]) snprintf(inc[ni++], 1400, "%s", G->cuda_home);
    snprintf(inc[ni++], 1400, "/usr/include");
    snprintf(inc[ni++], 1400, "/usr/lib/gcc");
    if (W->meta.n_needs && G->deps_real[0]) snprintf(inc[ni++], 1400, "%s", G->deps_real);
    for (int i = 0; i < ni; i++) incp[i] = inc[i];
    incp[ni] = NULL;
    memset(p, 0, sizeof *p);
    p->api = (const char *const *)W->api;
    p->harness_allow = HARNESS_ALLOW;
    p->allow_refs = W->refs; /* one exercise may call another of its week (week 04's cli), and its given code */
    for (int k = 0; k < W->meta.n_fileio; k++)
        if (!strcmp(W->meta.fileio[k], W->meta.exercises[e])) p->allow_fileio = 1;
    p->forbid = forbid;
    p->include_dirs = incp;
}

/* The Python side of week w in student s's tree, hashed: the phase's
 * phase7/common/ *.py files (the runner wb_pyrun.py, the plugin wb_pytest.py and what they
 * import), the week's test_*.py and build/wb. A run's Python could rewrite
 * them for the next run (the scratch tree is writable); run_checkpoint
 * refuses to run a Python checkpoint once they changed. 0: none found. */
unsigned long long runner_hash(const grader *G, const student *s, int w)
{
    const week_cfg *W = &G->weeks[w];
    char pat[3][1500];
    snprintf(pat[0], sizeof pat[0], "%s/phase7/common/*.py", s->tree); /* the runner every Python week uses */
    snprintf(pat[1], sizeof pat[1], "%s/%s/test_*.py", s->tree, W->dir);
    snprintf(pat[2], sizeof pat[2], "%s/build/wb", s->tree);
    unsigned long long h = 1469598103934665603ULL;
    int n = 0;
    for (int k = 0; k < 3; k++) {
        glob_t g;
        memset(&g, 0, sizeof g);
        if (glob(pat[k], 0, NULL, &g) == 0)
            for (size_t i = 0; i < g.gl_pathc; i++) {
                h = (h ^ file_hash(g.gl_pathv[i])) * 1099511628211ULL;
                n++;
            }
        globfree(&g);
    }
    return n ? (h ? h : 1) : 0;
}

/* The next line of a report's text (*l, advanced past it and its newline)
 * into line, cut to its size, with every mention of the scratch tree (the
 * grader's business) shown relative to it; 0 at the end. */
static int next_line(const char **l, char *line, size_t sz, const char *tree)
{
    if (!*l || !**l) return 0;
    size_t n = strcspn(*l, "\n"), tl = strlen(tree);
    snprintf(line, sz, "%.*s", (int)(n < sz - 1 ? n : sz - 1), *l);
    *l += n + ((*l)[n] == '\n');
    char *t;
    while (tl && (t = strstr(line, tree))) memmove(t, t + tl + (t[tl] == '/'), strlen(t + tl + (t[tl] == '/')) + 1);
    return 1;
}

/* The object check of every built week of student s: each exercise object
 * and its full dependency list. Runs after the build and before any of the
 * student's code has run (a run could change the files). A violation scores
 * the week 0, its lines in the notes. Also notes the test program's hash
 * and keeps the judge's runner (keep_judge_runner). */
void check_objects(grader *G, student *s, int w)
{
    const week_cfg *W = &G->weeks[w];
    if (s->built[w] < 0) return;
    oc_report rep;
    memset(&rep, 0, sizeof rep);
    for (int e = 0; e < W->meta.n_exercises; e++) {
        char obj[1500], deps[1500], inc[16][1400];
        const char *forbid[MAX_FORBID + 1], *incp[17];
        oc_policy p;
        exercise_policy(G, s, w, e, &p, forbid, inc, incp);
        snprintf(obj, sizeof obj, "%s/build/%s/learner/%s.o", s->tree, W->dir, W->meta.exercises[e]);
        snprintf(deps, sizeof deps, "%s/build/%s/learner/%s.fulldeps", s->tree, W->dir, W->meta.exercises[e]);
        if (!is_file(obj)) continue; /* it did not compile: the build failure says so */
        oc_check_object(obj, &p, &rep);
        oc_check_deps(deps, s->tree, &p, &rep);
    }
    /* Defence in depth: the linked test program's start-up code (.init,
     * .fini, the .preinit_array, .init_array and .fini_array entries, ifunc
     * resolutions) must be the starter build's, but for static initialisers
     * the object check let through. A route into start-up code the object
     * check does not know still shows here. */
    if (s->built[w] == 1) {
        char bin[1500], ref[1500];
        snprintf(bin, sizeof bin, "%s/build/%s/learner/test", s->tree, W->dir);
        snprintf(ref, sizeof ref, "%s/build/%s/starter/test", G->root, W->dir);
        if (is_file(bin) && is_file(ref)) oc_check_startup(bin, ref, rep.benign_inits, &rep);
    }
    if (rep.violations) {
        s->forbidden[w] = 1;
        char why[300];
        snprintf(why, sizeof why, "the compiled exercise code breaks the week's rules (%d finding%s, see the notes): "
                 "every checkpoint of the week scores 0", rep.violations, rep.violations == 1 ? "" : "s");
        set_all(G, s, w, ST_FAIL, why, strlen(why));
        appendf(s->note[w], sizeof s->note[w], "- The object check refused the compiled exercise code:\n\n");
        printf("  %-24s %s: object check: %d finding%s\n", s->id, W->dir, rep.violations, rep.violations == 1 ? "" : "s");
        char line[400], shown[1600], found[sizeof s->note[w]] = "";
        for (const char *l = rep.text; next_line(&l, line, sizeof line, s->tree);) {
            appendf(found, sizeof found, "%s\n", line);
            /* a finding quotes the student's symbol names: escaped for the instructor's terminal */
            up_escape(line, shown, sizeof shown);
            printf("      %s\n", shown);
        }
        /* and fenced for the feedback by a fence no backtick run of a name can close */
        md_fence(s->note[w], sizeof s->note[w], found);
        s->built[w] = -1;
    } else if (s->built[w] == 1) {
        if (W->has_py) s->py_hash[w] = runner_hash(G, s, w);
        char bin[1500];
        snprintf(bin, sizeof bin, "%s/build/%s/learner/test", s->tree, W->dir);
        s->bin_hash[w] = file_hash(bin);
        /* --judge 1: the runner as linked, before any run could rewrite it (keep_judge_runner) */
        if (W->judge[0] && keep_judge_runner(G, s, w) != 0) G->sandbox_errors++;
    }
    /* findings that cost nothing (a forbidden library's header included, never called): the feedback says so */
    char line[500], shown[2000];
    for (const char *l = rep.wtext; next_line(&l, line, sizeof line, s->tree);) {
        appendf(s->note[w], sizeof s->note[w], "- Warning: ");
        md_code(s->note[w], sizeof s->note[w], line);
        appendf(s->note[w], sizeof s->note[w], ".\n");
        up_escape(line, shown, sizeof shown);
        printf("  %-24s %s: object check warning: %s\n", s->id, W->dir, shown);
    }
    oc_report_free(&rep);
}
