/* objcheck_cli.c — oc-check: the object checks, by hand.
 *
 *   oc-check [--object X.o] [--deps X.d [--base DIR]] [--api NAME]... [--forbid WORD]...
 *            [--harness-allow NAME]... [--allow-ref NAME]... [--include DIR]...
 *            [--startup LINKED --reference STARTER_BUILD]
 *
 * Prints one line per violation; exits 0 when there is none, 1 when there
 * are, 2 when a file cannot be read. */
#include "objcheck.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    static const char *api[256], *forbid[64], *hallow[64], *aref[256], *inc[64];
    int na = 0, nf = 0, nh = 0, nr = 0, ni = 0;
    const char *object = NULL, *deps = NULL, *base = ".", *linked = NULL, *ref = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--object")) object = v;
        else if (!strcmp(a, "--deps")) deps = v;
        else if (!strcmp(a, "--base")) base = v;
        else if (!strcmp(a, "--api") && na < 255) api[na++] = v;
        else if (!strcmp(a, "--forbid") && nf < 63) forbid[nf++] = v;
        else if (!strcmp(a, "--harness-allow") && nh < 63) hallow[nh++] = v;
        else if (!strcmp(a, "--allow-ref") && nr < 255) aref[nr++] = v;
        else if (!strcmp(a, "--include") && ni < 63) inc[ni++] = v;
        else if (!strcmp(a, "--startup")) linked = v;
        else if (!strcmp(a, "--reference")) ref = v;
        else {
            fprintf(stderr, "oc-check: unknown option %s\n", a);
            return 2;
        }
    }
    if ((!object && !deps && !linked) || (!linked != !ref)) {
        fprintf(stderr, "usage: oc-check [--object X.o] [--deps X.d [--base DIR]] [--api NAME]... [--forbid WORD]...\n"
                        "                [--harness-allow NAME]... [--allow-ref NAME]... [--include DIR]...\n"
                        "                [--startup LINKED --reference STARTER_BUILD]\n");
        return 2;
    }
    oc_policy p = { .api = api, .forbid = forbid, .harness_allow = hallow, .allow_refs = aref, .include_dirs = inc };
    oc_report r = { 0 };
    int bad = 0;
    if (object && oc_check_object(object, &p, &r) < 0) bad = 1;
    if (deps && oc_check_deps(deps, base, &p, &r) < 0) bad = 1;
    if (linked && oc_check_startup(linked, ref, r.benign_inits, &r) < 0) bad = 1;
    if (r.text) fputs(r.text, stdout);
    if (r.violations > 200) printf("... %d violations in all\n", r.violations);
    int v = r.violations;
    oc_report_free(&r);
    return bad ? 2 : v ? 1 : 0;
}
