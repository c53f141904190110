/* regress.c — `make regress`'s verbs. */

#include <stdio.h>
#include <string.h>

#include "wb_regress.h"
#include "wb_tool.h"

/* `wb regress-baseline OUT RESULTS...` and `wb regress-check BASELINE
 * RESULTS...` (make regress-baseline, make regress; tools/include/wb_regress.h). */
int cmd_regress(int argc, char **argv)
{
    char err[700];
    const char *const *recs = (const char *const *)argv + 3;
    if (strcmp(argv[1], "regress-baseline") == 0) {
        int n = wb_regress_baseline(argv[2], recs, argc - 3, err, sizeof err);
        if (n < 0) { fprintf(stderr, ">>> %s\n", err); return 2; }
        printf("baseline of %d checkpoints written to %s\n", n, argv[2]);
        return 0;
    }
    int bad = wb_regress_check(argv[2], recs, argc - 3, stdout, err, sizeof err);
    if (bad < 0) { fprintf(stderr, ">>> %s\n", err); return 2; }
    printf("%s\n", bad ? "regressions found (the lines marked REGRESSION above)" : "no regression against the baseline");
    return bad ? 1 : 0;
}
