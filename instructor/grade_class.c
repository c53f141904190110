/* grade_class.c — part of the grader (grade.h): the class: checkpoint outcomes and their points, forbid lists, each
 * week's configuration (points, seeds, forbid), and the submissions found. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wb_file.h"
#include "unpack.h"
#include "grade.h"

/* ------------------------------------------ what a checkpoint's run gave */

/* Points a speed checkpoint earns: proportional to ratio/target, capped. */
double speed_points(double points, double ratio, double target)
{
    if (!(target > 0) || isnan(ratio) || ratio <= 0) return 0;
    double f = ratio / target;
    return points * (f > 1 ? 1 : f);
}

/* A judge's message saying the runner could not open the GPU when the judge
 * said hello (judge.c, jd_hello: "the runner could not start: device BUS:
 * cudaError..."): the runner's own code (cudaDeviceGetByPCIBusId,
 * cudaSetDevice) failed before the judge called any of the student's
 * functions; the sandbox's view of the GPU or the host is at fault. */
int runner_no_gpu(const char *msg) { return msg && strstr(msg, "the runner could not start: device ") != NULL; }

/* A short name for why a test failed, from Check's or WB_CUDA's message. */
const char *classify(const char *msg)
{
    if (!msg || !*msg) return "failed";
    if (strstr(msg, "timeout") || strstr(msg, "Timeout")) return "hang (a test ran past its time limit)";
    /* judge.c's jd_hello: the runner's own code could not open the GPU, before any call into the student's */
    if (runner_no_gpu(msg)) return "not graded (the runner could not open the GPU in its sandbox)";
    /* the runtime's words (cudaGetErrorString: the linked test) or the error's name
     * (cudaGetErrorName: a judge's "vecadd returned cudaErrorIllegalAddress") */
    if (strstr(msg, "out of memory") || strstr(msg, "cudaErrorMemoryAllocation")) return "out of memory";
    if (strstr(msg, "illegal") || strstr(msg, "misaligned") || strstr(msg, "unspecified launch failure") ||
        strstr(msg, "exception") || strstr(msg, "Xid") || strstr(msg, "device-side assert") ||
        strstr(msg, "cudaErrorIllegal") || strstr(msg, "cudaErrorMisaligned") || strstr(msg, "cudaErrorLaunchFailure") ||
        strstr(msg, "cudaErrorAssert") || strstr(msg, "cudaErrorHardwareStackError") || strstr(msg, "cudaErrorInvalidPc") ||
        strstr(msg, "cudaErrorInvalidAddressSpace"))
        return "GPU fault";
    /* Check's fork mode: a test's process the sandbox's seccomp filter killed ("Received signal 31 (Bad system call)") */
    if (strstr(msg, "(Bad system call)")) return "forbidden system call (killed by the sandbox's seccomp filter)";
    if (strstr(msg, "Received signal") || strstr(msg, "signal")) return "crash";
    /* wb_harness.c: a test process that exited with status 0 before its test's end */
    if (strstr(msg, "ended before reaching its end")) return "early exit (a test's process ended mid-test)";
    /* judge.c, jd_call: the runner (the process holding the student's code) closed its end mid-check */
    if (strstr(msg, "the runner ended without answering")) return "early exit (the process running your code ended mid-check)";
    /* wb_pyrun.py: the pytest child died (os._exit, SIGSEGV, SIGKILL) before writing its results */
    if (strstr(msg, "ended without its results")) return "crash (the Python test process died)";
    return "wrong result";
}

/* --------------------------------------------------- forbidden libraries */

/* What forbid.txt may name: a library objcheck knows (by its C prefix, C++
 * namespace and headers), or a raw symbol prefix ending in '*' ("yard_*"). */
static const char *const KNOWN_LIBS[] = { "cublas", "cublaslt", "cufft", "curand", "cusparse", "cusolver",
                                          "cudnn", "nccl", "cub", "thrust", "cutlass", "cute", NULL };

static int forbid_name_ok(const char *name)
{
    for (int i = 0; KNOWN_LIBS[i]; i++)
        if (strcmp(KNOWN_LIBS[i], name) == 0) return 1;
    size_t n = strlen(name);
    if (n < 2 || name[n - 1] != '*') return 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_') return 0;
    return 1;
}

/* ------------------------------------------------------------ the class */

/* Is checkpoint c of W judged by the week's Python tests? A `pycheckpoint:`
 * line, or any checkpoint of a week without a C test (week 43). */
int cp_is_py(const week_cfg *W, int c)
{
    return W->has_py && (W->meta.checkpoints[c].py || !W->has_c);
}

void appendf(char *buf, size_t sz, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= sz) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, sz - n, fmt, ap);
    va_end(ap);
}

/* Text that came from a student (a run, a build, a submission) for a
 * Markdown code span or block: control characters (newlines too, but where
 * `multiline`) and UTF-8's C1 controls as \xNN; in a table cell (`cell`)
 * '|' as "\|" and '\' as \x5c, so nothing can end the cell (GFM splits a
 * row on an unescaped '|' before it reads code spans, and "\\|" is an
 * escaped backslash and then a '|'). Into out (always terminated), whole
 * escapes only; returns how many bytes of t it took (strlen(t): all). */
size_t md_escape(const char *t, char *out, size_t sz, int cell, int multiline)
{
    size_t n = 0;
    const unsigned char *c = (const unsigned char *)t;
    if (!sz) return 0;
    out[0] = 0;
    while (*c) {
        char piece[16];
        size_t took = 1;
        if (*c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) snprintf(piece, sizeof piece, "\\xc2\\x%02x", c[1]), took = 2;
        else if ((*c < 0x20 && !(multiline && *c == '\n')) || *c == 0x7f) snprintf(piece, sizeof piece, "\\x%02x", *c);
        else if (cell && *c == '|') snprintf(piece, sizeof piece, "\\|");
        else if (cell && *c == '\\') snprintf(piece, sizeof piece, "\\x5c");
        else piece[0] = (char)*c, piece[1] = 0;
        size_t k = strlen(piece);
        if (n + k + 1 > sz) break;
        memcpy(out + n, piece, k + 1);
        n += k, c += took;
    }
    if (*c) /* cut: not inside a UTF-8 character */
        while (n > 0 && ((unsigned char)out[n - 1] & 0xc0) == 0x80) c--, out[--n] = 0;
    if (*c && n > 0 && ((unsigned char)out[n - 1] & 0xc0) == 0xc0) c--, out[--n] = 0;
    return (size_t)((const char *)c - t);
}

/* The longest run of backticks in t. */
static size_t md_ticks(const char *t)
{
    size_t best = 0, run = 0;
    for (; *t; t++) {
        run = *t == '`' ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best;
}

/* t as a Markdown code span, or a fenced code block (`block`, its lines
 * kept), escaped (md_escape): the fence one backtick longer than any run of
 * backticks in t (a block's at least 3), so nothing in t can close it, and
 * inside it nothing is markup: no HTML, link, image, emphasis, heading,
 * list or table. A span has a space inside each fence (CommonMark strips
 * one each side), so t may begin or end with a backtick. Into out, whole:
 * where t does not fit it is cut, ending "...", so the closing fence is
 * always there (an unclosed span is no span: its text would be Markdown).
 * "" when not even the fences fit. Returns the length written. */
size_t md_code_text(const char *t, int block, int cell, char *out, size_t sz)
{
    if (!sz) return 0;
    out[0] = 0;
    size_t f = md_ticks(t) + 1; /* escaping only replaces bytes that are no backtick: runs stay as long or shorter */
    if (block && f < 3) f = 3;
    /* around the text: the fences, a space or newline after the first, "..." where cut, a space or
     * newline before the second, a block's newline after it, the terminating NUL */
    size_t frame = 2 * f + 6 + (block ? 1 : 0);
    if (frame >= sz) return 0;
    size_t n = 0;
    for (size_t i = 0; i < f; i++) out[n++] = '`';
    out[n++] = block ? '\n' : ' ';
    size_t took = md_escape(t, out + n, sz - frame + 1, cell, block);
    n += strlen(out + n);
    if (t[took]) memcpy(out + n, "...", 4), n += 3;
    if (block && out[n - 1] != '\n') out[n++] = '\n';
    else if (!block) out[n++] = ' ';
    for (size_t i = 0; i < f; i++) out[n++] = '`';
    if (block) out[n++] = '\n';
    out[n] = 0;
    return n;
}

/* Append t to buf (of sz bytes) as a code span (md_code) or as a fenced code
 * block on lines of its own (md_fence), whole or cut (md_code_text). */
static void md_append(char *buf, size_t sz, const char *t, int block)
{
    size_t n = strlen(buf);
    if (n + 1 >= sz) return;
    if (block && n && buf[n - 1] != '\n') {
        if (n + 2 >= sz) return;
        buf[n++] = '\n', buf[n] = 0;
    }
    md_code_text(t, block, 0, buf + n, sz - n);
}
void md_code(char *buf, size_t sz, const char *t) { md_append(buf, sz, t, 0); }
void md_fence(char *buf, size_t sz, const char *t) { md_append(buf, sz, t, 1); }

void why_clear(cp_grade *g) { g->why[0] = 0, g->n_own = 0; }

void why_own(cp_grade *g, const char *fmt, ...)
{
    size_t n = strlen(g->why);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->why + n, sizeof g->why - n, fmt, ap);
    va_end(ap);
    size_t e = strlen(g->why);
    if (e == n) return;
    if (g->n_own > 0 && g->own[g->n_own - 1][1] == n) g->own[g->n_own - 1][1] = (unsigned short)e;
    else if (g->n_own < WHY_OWN_MAX) /* else no span left: quoted, as text from outside is */
        g->own[g->n_own][0] = (unsigned short)n, g->own[g->n_own][1] = (unsigned short)e, g->n_own++;
}

void why_text(cp_grade *g, const char *t)
{
    size_t n = strlen(g->why);
    snprintf(g->why + n, sizeof g->why - n, "%s", t);
}

/* The instructor-only config file of a week: ROOT/instructor/weeks/WEEK/name,
 * else ROOT/WEEK/instructor/name. */
static char *week_config(const char *root, const char *week, const char *name)
{
    char p[1400];
    snprintf(p, sizeof p, "%s/instructor/weeks/%s/%s", root, week, name);
    char *s = wb_read_file(p, NULL);
    if (s) return s;
    snprintf(p, sizeof p, "%s/%s/instructor/%s", root, week, name);
    return wb_read_file(p, NULL);
}

int load_week_cfg(const char *root, const char *week, week_cfg *w, char *err, size_t errsz)
{
    memset(w, 0, sizeof *w);
    snprintf(w->dir, sizeof w->dir, "%s", week);
    char p[1400];
    snprintf(p, sizeof p, "%s/%s/week.txt", root, week);
    if (wb_week_load(p, &w->meta, err, errsz) != 0) return -1;
    glob_t g;
    memset(&g, 0, sizeof g);
    snprintf(p, sizeof p, "%s/%s/test_*.c", root, week);
    w->has_c = glob(p, 0, NULL, &g) == 0 && g.gl_pathc > 0;
    globfree(&g);
    memset(&g, 0, sizeof g);
    snprintf(p, sizeof p, "%s/%s/test_*.py", root, week);
    w->has_py = glob(p, 0, NULL, &g) == 0 && g.gl_pathc > 0;
    globfree(&g);
    for (int c = 0; c < w->meta.n_checkpoints; c++) w->points[c] = DEFAULT_POINTS;
    char *s = week_config(root, week, "points.txt"), *save = NULL;
    for (char *line = s ? strtok_r(s, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char id[64];
        double pts;
        if (line[0] == '#' || sscanf(line, "%63s %lf", id, &pts) != 2) continue;
        int found = 0;
        for (int c = 0; c < w->meta.n_checkpoints; c++)
            if (strcmp(w->meta.checkpoints[c].id, id) == 0) w->points[c] = pts, found = 1;
        if (!found) {
            snprintf(err, errsz, "%s points.txt: no checkpoint '%s' in week.txt", week, id);
            free(s);
            return -1;
        }
    }
    free(s);
    s = week_config(root, week, "seeds.txt");
    for (char *line = s ? strtok_r(s, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char *e;
        while (*line == ' ') line++;
        if (!*line || *line == '#') continue;
        unsigned long long v = strtoull(line, &e, 0);
        if (e != line && w->n_seeds < MAX_SEEDS) w->seeds[w->n_seeds++] = v;
    }
    free(s);
    s = week_config(root, week, "forbid.txt");
    for (char *line = s ? strtok_r(s, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char name[32];
        int used = 0;
        if (line[0] == '#' || sscanf(line, "%31s%n", name, &used) != 1) continue;
        if (!forbid_name_ok(name)) {
            snprintf(err, errsz, "%s forbid.txt: unknown library '%s' (known: cublas cublaslt cufft curand cusparse "
                     "cusolver cudnn nccl cub thrust cutlass cute, or a symbol prefix such as yard_*)", week, name);
            free(s);
            return -1;
        }
        if (w->n_forbid == MAX_FORBID) continue;
        int f = w->n_forbid++;
        snprintf(w->forbid[f], 32, "%s", name);
        /* "NAME except EX ...": those exercises may use it (week 21's cublas_rm calls cuBLAS) */
        char word[64], *rest = line + used;
        int k;
        snprintf(w->forbid_except[f], sizeof w->forbid_except[f], " ");
        if (sscanf(rest, "%63s%n", word, &k) == 1) {
            if (strcmp(word, "except") != 0) {
                snprintf(err, errsz, "%s forbid.txt: '%s %s': expected 'NAME' or 'NAME except EXERCISE ...'", week,
                         name, word);
                free(s);
                return -1;
            }
            for (rest += k; sscanf(rest, "%63s%n", word, &k) == 1; rest += k) {
                int known = 0;
                for (int e = 0; e < w->meta.n_exercises; e++) known |= strcmp(w->meta.exercises[e], word) == 0;
                if (!known) {
                    snprintf(err, errsz, "%s forbid.txt: '%s except %s': %s is not an exercise of the week", week,
                             name, word, word);
                    free(s);
                    return -1;
                }
                appendf(w->forbid_except[f], sizeof w->forbid_except[f], "%s ", word);
            }
        }
    }
    free(s);
    return 0;
}

/* The --weeks list: names split on blanks, each made canonical
 * (phase0/week1 and phase0/week01/ are phase0/week01), a repeat dropped.
 * Returns how many, or -1 with the reason in err. */
int split_weeks(const char *text, char out[][64], char *err, size_t errsz)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        p += strspn(p, " \t\n");
        if (!*p) break;
        size_t len = strcspn(p, " \t\n");
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)(len < 63 ? len : 63), p);
        p += len;
        size_t k = strlen(w);
        while (k && w[k - 1] == '/') w[--k] = 0;
        int ph, wk, used = 0;
        if (sscanf(w, "phase%1d/week%2d%n", &ph, &wk, &used) == 2 && used == (int)k && wk >= 1 && wk <= WB_MAX_WEEK)
            snprintf(w, sizeof w, "phase%d/week%02d", ph, wk);
        else {
            snprintf(err, errsz, "'%s' is not a week name (phaseP/weekNN, e.g. phase0/week01)", w);
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < n; i++) dup |= strcmp(out[i], w) == 0;
        if (dup) continue;
        if (n == MAX_WEEKS) {
            snprintf(err, errsz, "at most %d weeks at a time", MAX_WEEKS);
            return -1;
        }
        snprintf(out[n++], 64, "%s", w);
    }
    return n;
}

/* `in` for a person to read, one line: bytes other than printable ASCII,
 * and the backslash, as \xNN (a name from the class folder may hold escape
 * sequences or line breaks). */
static void escaped(const char *in, char *out, size_t sz)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && n + 5 < sz; p++)
        if (*p >= 0x20 && *p < 0x7f && *p != '\\') out[n++] = (char)*p;
        else n += (size_t)snprintf(out + n, sz - n, "\\x%02x", *p);
    out[n] = 0;
}

static int by_student_id(const void *a, const void *b) { return strcmp(((const student *)a)->id, ((const student *)b)->id); }

/* A usable id for the entry `name` whose own name cannot be one: its
 * letters, digits and ._-+@ kept, every other byte '_', its archive
 * extension dropped, made unlike every id in st[0..n) ("-2", "-3", ...). */
static void stand_in_id(const char *name, int is_dir, const student *st, int n, char *id, size_t sz)
{
    static const char *const exts[] = { ".tar.gz", ".tgz", ".tar", ".zip", NULL };
    size_t keep = strlen(name);
    for (int i = 0; exts[i] && !is_dir; i++) {
        size_t e = strlen(exts[i]);
        if (keep > e && strcmp(name + keep - e, exts[i]) == 0) {
            keep -= e;
            break;
        }
    }
    char base[101];
    size_t k = 0;
    for (size_t i = 0; i < keep && k < sizeof base - 1; i++) {
        char c = name[i];
        base[k++] = isalnum((unsigned char)c) && !(c & 0x80) ? c : strchr("._-+@", c) && c ? c : '_';
    }
    base[k] = 0;
    if (!k || strchr(".-+@", base[0])) base[0] = '_', base[k ? k : 1] = 0;
    snprintf(id, sz, "%s", base);
    for (int suffix = 2;; suffix++) {
        int taken = 0;
        for (int i = 0; i < n && !taken; i++) taken = strcmp(st[i].id, id) == 0;
        if (!taken) return;
        snprintf(id, sz, "%s-%d", base, suffix);
    }
}

/* Submissions in `dir` (unpack.c's up_list: folders and archives), sorted by
 * id. A bad submission never blocks the class: two entries with one id
 * (bob/ and bob.tar.gz) are one student, refused; an entry whose name
 * cannot be an id is a student under a stand-in id (stand_in_id), refused;
 * each with the reason in `refusal` (and `refused` set), the rest graded.
 * Other entries are listed in `ignored`. Returns how many, or -1 with the
 * problem in err (the folder cannot be read; too many submissions). */
int list_submissions(const char *dir, student *st, int max, char *err, size_t errsz, char *ignored,
                     size_t ignsz)
{
    err[0] = 0;
    DIR *d = opendir(dir);
    if (!d) return snprintf(err, errsz, "%s: cannot be read (%s)", dir, strerror(errno)), -1;
    up_submission *subs = NULL;
    int n = 0, m = 0, k;
    char why[4000], a[300], b[300];
    up_list(dir, &subs, &n, why, sizeof why, ignored, ignsz); /* its -1: the problems handled here */
    for (int i = 0; i < n; i = k) {
        for (k = i + 1; k < n && strcmp(subs[k].id, subs[i].id) == 0;) k++;
        if (m == max) goto too_many;
        student *s = &st[m++];
        memset(s, 0, sizeof *s);
        snprintf(s->id, sizeof s->id, "%s", subs[i].id);
        snprintf(s->source, sizeof s->source, "%s", subs[i].path);
        if (k - i > 1) {
            const char *an = strrchr(subs[i].path, '/'), *bn = strrchr(subs[i + 1].path, '/');
            escaped(an ? an + 1 : subs[i].path, a, sizeof a);
            escaped(bn ? bn + 1 : subs[i + 1].path, b, sizeof b);
            s->refused = 1;
            snprintf(s->refusal, sizeof s->refusal, "refused: %d submissions of student %s (%s and %s%s): keep one and "
                     "grade again", k - i, s->id, a, b, k - i > 2 ? ", and more" : "");
        }
    }
    /* names that cannot be an id (up_student_id's -2): a student each, under a stand-in id */
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[4096], id[128];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &sb) != 0 || !(S_ISDIR(sb.st_mode) || S_ISREG(sb.st_mode))) continue;
        if (up_student_id(e->d_name, S_ISDIR(sb.st_mode), id, sizeof id) != -2) continue;
        if (m == max) goto too_many;
        student *s = &st[m];
        memset(s, 0, sizeof *s);
        stand_in_id(e->d_name, S_ISDIR(sb.st_mode), st, m, s->id, sizeof s->id);
        m++;
        escaped(e->d_name, a, sizeof a);
        s->refused = 1;
        snprintf(s->refusal, sizeof s->refusal, "refused: the entry '%s' cannot be a student id (letters, digits and "
                 "._-+@ only, not beginning with - + or @, under 128 characters; %s here): rename it and grade again", a, s->id);
    }
    free(subs);
    closedir(d);
    qsort(st, (size_t)m, sizeof *st, by_student_id);
    return m;
too_many:
    snprintf(err, errsz, "more than %d submissions in %s: at most %d at a time", max, dir, max);
    free(subs);
    closedir(d);
    return -1;
}

/* The folder inside a submission that holds `week`: SUB/WEEK, or one level
 * down (an archive of a folder). NULL if neither. */
int find_week_in_sub(const char *sub, const char *week, char *out, size_t outsz)
{
    snprintf(out, outsz, "%s/%s", sub, week);
    if (is_dir(out)) return 0;
    DIR *d = opendir(sub);
    if (!d) return -1;
    struct dirent *e;
    int found = -1;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            char p[1400];
            snprintf(p, sizeof p, "%s/%s/%s", sub, e->d_name, week);
            if (is_dir(p)) {
                snprintf(out, outsz, "%s", p);
                found = 0;
                break;
            }
        }
    closedir(d);
    return found;
}
