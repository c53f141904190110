/* wb_file.c — reading a whole file (wb_file.h). */
#include "wb_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

char *wb_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        errno = EISDIR;
        return NULL;
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, n = 0, k;
    char *s = malloc(cap);
    /* read to the end, not to the size stat gave: the file may grow */
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) free(s);
            s = t;
        }
    }
    fclose(f);
    if (!s) {
        errno = ENOMEM;
        return NULL;
    }
    s[n] = 0;
    if (len) *len = n;
    return s;
}
