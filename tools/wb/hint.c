/* hint.c — `wb hint`: a week's next hint, one at a time. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_tool.h"

int cmd_hint(int argc, char **argv)
{
    (void)argc;
    const char *wdir = argv[2];
    wb_week w;
    if (load_week(wdir, &w)) return 2;
    if (!w.n_hints) {
        printf("%s has no hints; its README's Hints section is the place to look.\n", wdir);
        return 0;
    }
    const char *state = getenv("WB_STATE");
    char dir[512], path[700];
    snprintf(dir, sizeof dir, "%s", state && *state ? state : "build/.wb-state");
    char mk[600];
    snprintf(mk, sizeof mk, "mkdir -p '%s'", dir);
    if (system(mk) != 0) return 2;
    char key[128];
    snprintf(key, sizeof key, "%s", wdir);
    for (char *p = key; *p; p++)
        if (*p == '/') *p = '-';
    snprintf(path, sizeof path, "%s/hints-%s", dir, key);
    int shown = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%d", &shown) != 1) shown = 0;
        fclose(f);
    }
    if (shown >= w.n_hints) {
        printf("All %d hints of %s were shown. Again, all of them:\n", w.n_hints, wdir);
        for (int i = 0; i < w.n_hints; i++) printf("  %d. [%s] %s\n", i + 1, w.hint_exercise[i], w.hints[i]);
        return 0;
    }
    const char *hext = ".cu";
    for (int i = 0; i < w.n_pyexercises; i++)
        if (strcmp(w.pyexercises[i], w.hint_exercise[shown]) == 0) hext = ".py";
    printf("Hint %d of %d for %s (%s%s):\n  %s\n", shown + 1, w.n_hints, wdir, w.hint_exercise[shown], hext,
           w.hints[shown]);
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "%d\n", shown + 1);
        fclose(f);
    }
    return 0;
}
