/* hint.c — `wb hint`: a week's next hint, one at a time. */

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
    /* kept beside the progress file (wb_hints_path), so a deleted build/ loses nothing */
    char path[PATH_MAX + 8], old[700] = "", err[700];
    int kept = wb_hints_path(path, sizeof path) == 0;
    if (!kept)
        fprintf(stderr, "note: which hints were shown cannot be kept: WB_PROGRESS is too long a path for a file "
                "beside it (%zu characters)\n", strlen(wb_progress_path()));
    int shown = kept ? wb_hints_shown(path, wdir) : -1;
    if (shown < 0) {
        /* where it was kept before, build/.wb-state/hints-phaseP-weekNN: read once, moved on the next write */
        char key[128];
        snprintf(key, sizeof key, "%s", wdir);
        for (char *p = key; *p; p++)
            if (*p == '/') *p = '-';
        snprintf(old, sizeof old, "build/.wb-state/hints-%s", key);
        FILE *f = fopen(old, "r");
        if (!f || fscanf(f, "%d", &shown) != 1 || shown < 0) shown = 0, old[0] = 0;
        if (f) fclose(f);
    }
    int next = shown < w.n_hints ? shown + 1 : shown; /* the count once this hint is shown */
    if (kept && (next != shown || old[0])) {
        if (wb_hints_set(path, wdir, next, err, sizeof err) != 0)
            fprintf(stderr, "note: which hints were shown could not be kept (%s)\n", err);
        else if (old[0])
            unlink(old);
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
    return 0;
}
