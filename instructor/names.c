/* names.c — names.h: escaping a student's names, and which can be an id. */
#include "names.h"

#include <string.h>

void up_escape(const char *in, char *out, size_t outsz)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    if (!outsz) return;
    for (const unsigned char *c = (const unsigned char *)in; in && *c; c++) {
        char e[5] = { (char)*c, 0 };
        if (*c == '\\') e[1] = '\\';
        else if (*c < 0x20 || *c >= 0x7f) e[0] = '\\', e[1] = 'x', e[2] = hex[*c >> 4], e[3] = hex[*c & 15];
        size_t k = strlen(e);
        if (o + k + 1 > outsz) break; /* never half an escape */
        memcpy(out + o, e, k);
        o += k;
    }
    out[o] = 0;
}

int up_id_ok(const char *s, size_t n)
{
    if (!n || strchr(".-+@", s[0])) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c && strchr("._-+@", c))))
            return 0;
    }
    return 1;
}
