/* wb_rand.c — xoshiro256** seeded through splitmix64. */
#include "wb_rand.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t os_random(void)
{
    uint64_t v = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(&v, sizeof v, 1, f) != 1) v = 0;
        fclose(f);
    }
    return v ? v : 0x5EED5EEDull;
}

int wb_seed_parse(const char *s, uint64_t *out, char *err, size_t errsz)
{
    if (s && strcmp(s, "random") == 0) {
        *out = os_random() % 1000000007ull;
        return 0;
    }
    /* Decimal digits only: no sign (strtoull wraps "-5"), no octal ("010"),
     * no hex, no trailing text ("12abc"), nothing past 2^64 - 1. */
    uint64_t v = 0;
    int ok = s && *s && strlen(s) <= 20;
    for (const char *p = s; ok && *p; p++) {
        if (*p < '0' || *p > '9') ok = 0;
        else if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) ok = 0;
        else v = v * 10 + (uint64_t)(*p - '0');
    }
    if (!ok) {
        snprintf(err, errsz, "WB_SEED='%s' is not a seed: give a decimal number (0 to 18446744073709551615) or 'random'",
                 s ? s : "");
        return -1;
    }
    *out = v;
    return 0;
}

uint64_t wb_base_seed(void)
{
    static int have;
    static uint64_t seed;
    if (have) return seed;
    const char *e = getenv("WB_SEED");
    if (e && *e) {
        char err[200];
        if (wb_seed_parse(e, &seed, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            exit(2);
        }
        if (strcmp(e, "random") == 0) {
            char buf[32];
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
            setenv("WB_SEED", buf, 1); /* children and re-reads see the same one */
        }
    } else {
        seed = WB_DEFAULT_SEED;
    }
    have = 1;
    return seed;
}

void wb_rng_seed(wb_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

wb_rng wb_rng_for_seed(uint64_t base, const char *tag, int index)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a of the tag */
    for (const char *p = tag ? tag : ""; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    wb_rng r;
    wb_rng_seed(&r, base ^ h ^ ((uint64_t)(unsigned)index * 0xD1B54A32D192ED03ull));
    return r;
}

wb_rng wb_rng_for(const char *tag, int index) { return wb_rng_for_seed(wb_base_seed(), tag, index); }

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t wb_rng_u64(wb_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double wb_rng_unit(wb_rng *r) { return (double)(wb_rng_u64(r) >> 11) * 0x1.0p-53; }

int64_t wb_rng_int(wb_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return span == 0 ? (int64_t)wb_rng_u64(r) : lo + (int64_t)(wb_rng_u64(r) % span);
}

float wb_plant_nonfinite(wb_rng *r, float *v, size_t n, int k, const char **what)
{
    size_t at = (size_t)wb_rng_int(r, 0, (int64_t)n - 1);
    *what = k == 0 ? "a NaN" : k == 1 ? "+Inf" : "+Inf and -Inf";
    if (k == 0) v[at] = NAN;
    else if (k == 1) v[at] = INFINITY;
    else v[0] = INFINITY, v[n - 1] = -INFINITY;
    return k == 1 ? INFINITY : NAN;
}

void wb_fill_uniform_f32(wb_rng *r, float *v, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++) v[i] = lo + (hi - lo) * (float)wb_rng_unit(r);
}

void wb_fill_uniform_f64(wb_rng *r, double *v, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++) v[i] = lo + (hi - lo) * wb_rng_unit(r);
}

void wb_fill_u32(wb_rng *r, uint32_t *v, size_t n, uint32_t mod)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t x = (uint32_t)(wb_rng_u64(r) >> 32);
        v[i] = mod ? x % mod : x;
    }
}
