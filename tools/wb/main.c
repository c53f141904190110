/* wb — the workbook's command-line tool, called by the Makefile.
 *
 *   wb help                     what to type, and the next week to do
 *   wb status                   all 52 weeks (and the optional track weeks), progress bars, quizzes, next step
 *   wb strip SOLUTION.cu        print the starter derived from a solution
 *   wb drift WEEKDIR            check committed starters equal the derived ones
 *   wb hint WEEKDIR             show the next hint of a week (one at a time)
 *   wb reset WEEKDIR [EX]       restore starters, keeping a backup of yours
 *   wb ledger FILE              sum a test ledger: "N passed, N failed, N skipped"
 *   wb ledger-add FILE STATUS LABEL [DETAIL]
 *   wb progress-check           parse the progress file, report problems
 *   wb report RESULTS WEEK [--record] [--status N]
 *                               after a check: record what passed, say what next
 *   wb ledger-results LEDGER RESULTS LABEL pass|fail
 *                               make test's ledger lines from a results record
 *   wb results RESULTS [PREFIX] one short line a checkpoint, for logs
 *   wb margins RESULTS...       every checkpoint as a Markdown table, speed margins against the targets
 *   wb make-vars                every week.txt as make variables (build/weeks.mk)
 *   wb week-info WEEK exercises|uses|pyuses|needs|title|speed|pyspeed
 *   wb regress-baseline OUT RESULTS...   a baseline from several runs' records
 *   wb regress-check BASELINE RESULTS... this run against it; exit 1 on a regression
 *
 * One file a verb or a group of verbs: help.c, status.c, starters.c (strip,
 * drift, write-starters, reset), hint.c, ledger.c (ledger, ledger-add,
 * ledger-results, results, margins), report.c (report, progress-check), makevars.c
 * (make-vars, week-info), regress.c; what they share is in wb_tool.h. */

#include <stdio.h>
#include <string.h>

#include "wb_tool.h"

/* A verb: its name, how many arguments it takes after the name (max -1: any
 * number), its usage and the function that runs it. */
typedef struct {
    const char *name;
    int         min, max;
    const char *usage;
    int (*run)(int argc, char **argv);
} verb;

static const verb VERBS[] = {
    {"help", 0, -1, "help", cmd_help},
    {"status", 0, -1, "status", cmd_status},
    {"strip", 1, 1, "strip F", cmd_strip},
    {"drift", 1, 1, "drift W", cmd_drift},
    {"write-starters", 1, 1, "write-starters W", cmd_write_starters},
    {"reset", 1, -1, "reset W [EX]", cmd_reset},
    {"hint", 1, 1, "hint W", cmd_hint},
    {"ledger", 1, 1, "ledger F", cmd_ledger},
    {"ledger-add", 3, -1, "ledger-add F ST LABEL [DETAIL]", cmd_ledger_add},
    {"ledger-results", 4, 4, "ledger-results F RESULTS LABEL pass|fail", cmd_ledger_results},
    {"results", 1, -1, "results RESULTS [PREFIX]", cmd_results},
    {"margins", 1, -1, "margins RESULTS...", cmd_margins},
    {"report", 2, -1, "report RESULTS W [--record] [--status N] [--impl IMPL] [--bin TEST]", cmd_report},
    {"make-vars", 0, -1, "make-vars", cmd_make_vars},
    {"week-info", 2, 2, "week-info W exercises|pyexercises|uses|pyuses|needs|title|speed|pyspeed|checkpoints|files", cmd_week_info},
    {"regress-baseline", 2, -1, "regress-baseline OUT RESULTS...", cmd_regress},
    {"regress-check", 2, -1, "regress-check BASELINE RESULTS...", cmd_regress},
    {"progress-check", 0, -1, "progress-check", cmd_progress_check},
};
#define N_VERBS (int)(sizeof VERBS / sizeof VERBS[0])

int main(int argc, char **argv)
{
    /* no verb at all is `wb help` */
    const char *cmd = argc > 1 ? argv[1] : "help";
    int nargs = argc > 1 ? argc - 2 : 0;
    load_curriculum();
    for (int i = 0; i < N_VERBS; i++)
        if (strcmp(cmd, VERBS[i].name) == 0 && nargs >= VERBS[i].min && (VERBS[i].max < 0 || nargs <= VERBS[i].max))
            return VERBS[i].run(argc, argv);
    fprintf(stderr, "usage: wb ");
    for (int i = 0; i < N_VERBS; i++) fprintf(stderr, "%s%s", i ? "|" : "", VERBS[i].usage);
    fprintf(stderr, "\n");
    return 2;
}
