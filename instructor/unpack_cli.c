/* unpack_cli.c — up-import: a submission into a fresh folder, by hand.
 *
 *   up-import SRC DEST      SRC a folder or .tar/.tar.gz/.tgz/.zip; DEST must not exist
 *   up-import --list DIR    the class folder's submissions: "id<TAB>path", or the problems
 *
 * Exits 0 on success, 1 when refused (the reason on stderr). */
#include "unpack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char err[8192];
    if (argc == 3 && !strcmp(argv[1], "--list")) {
        up_submission *s;
        int n;
        char ign[4096];
        int rc = up_list(argv[2], &s, &n, err, sizeof err, ign, sizeof ign);
        for (int i = 0; rc == 0 && i < n; i++) printf("%s\t%s\n", s[i].id, s[i].path);
        if (ign[0]) fprintf(stderr, "ignored:\n%s", ign);
        if (rc) fprintf(stderr, "%s", err);
        free(s);
        return rc ? 1 : 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: up-import SRC DEST | up-import --list DIR\n");
        return 2;
    }
    if (up_import(argv[1], argv[2], NULL, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    return 0;
}
