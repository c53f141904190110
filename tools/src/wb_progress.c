/* wb_progress.c — the progress file: parse, render, atomic update. */

#include "wb_progress.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *DEFAULT_HEAD =
    "# CUDA workbook progress\n"
    "\n"
    "Passed checkpoints are recorded below by `make phaseP/weekNN check`.\n"
    "Write your own notes anywhere outside the records block: they are kept.\n"
    "\n";

const char *wb_progress_path(void)
{
    const char *e = getenv("WB_PROGRESS");
    return (e && *e) ? e : "progress.md";
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) abort();
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static void field_copy(char *dst, size_t cap, const char *src)
{
    size_t j = 0;
    for (size_t i = 0; src && src[i] && j + 1 < cap; i++) {
        char c = src[i];
        dst[j++] = (c == '|' || c == '\n' || c == '\r') ? '/' : c;
    }
    dst[j] = 0;
    /* trim */
    while (j && dst[j - 1] == ' ') dst[--j] = 0;
    size_t k = 0;
    while (dst[k] == ' ') k++;
    if (k) memmove(dst, dst + k, strlen(dst + k) + 1);
}

void wb_record_set(wb_record *r, const char *id, const char *date, const char *gpu, const char *figure,
                   const char *target)
{
    char today[16];
    if (!date) {
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(today, sizeof today, "%Y-%m-%d", &tm);
        date = today;
    }
    field_copy(r->id, sizeof r->id, id);
    field_copy(r->date, sizeof r->date, date);
    field_copy(r->gpu, sizeof r->gpu, gpu && *gpu ? gpu : "-");
    field_copy(r->figure, sizeof r->figure, figure && *figure ? figure : "passed");
    field_copy(r->target, sizeof r->target, target && *target ? target : "-");
}

static int valid_date(const char *s)
{
    if (strlen(s) != 10) return 0;
    for (int i = 0; i < 10; i++) {
        if (i == 4 || i == 7) {
            if (s[i] != '-') return 0;
        } else if (!isdigit((unsigned char)s[i])) {
            return 0;
        }
    }
    return 1;
}

static int valid_id(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '.' && *s != '-' && *s != '_') return 0;
    return 1;
}

/* Parse "- [x] a | b | c | d | e". Returns NULL or what is wrong. */
static const char *parse_record(const char *line, wb_record *r)
{
    if (strncmp(line, "- [x] ", 6) != 0) return "a record must start with '- [x] '";
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", line + 6);
    char *f[6];
    int k = 0;
    char *s = buf;
    for (;;) {
        char *bar = strstr(s, " | ");
        if (k == 5) return "a record has exactly five fields separated by ' | '";
        f[k++] = s;
        if (!bar) break;
        *bar = 0;
        s = bar + 3;
    }
    if (k != 5) return "a record has exactly five fields separated by ' | '";
    wb_record tmp;
    field_copy(tmp.id, sizeof tmp.id, f[0]);
    field_copy(tmp.date, sizeof tmp.date, f[1]);
    field_copy(tmp.gpu, sizeof tmp.gpu, f[2]);
    field_copy(tmp.figure, sizeof tmp.figure, f[3]);
    field_copy(tmp.target, sizeof tmp.target, f[4]);
    if (!valid_id(tmp.id)) return "the first field must be a checkpoint id (letters, digits, '.', '-', '_')";
    if (!valid_date(tmp.date)) return "the second field must be a date, YYYY-MM-DD";
    if (!tmp.gpu[0] || !tmp.figure[0] || !tmp.target[0]) return "empty field";
    *r = tmp;
    return NULL;
}

int wb_progress_parse(const char *text, const char *path, wb_progress *p, char *err, size_t errsz)
{
    memset(p, 0, sizeof *p);
    const char *begin = NULL, *end = NULL, *after_begin = NULL, *after_end = NULL;
    int lno = 0, begin_lno = 0;
    int cap = 0;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *next = nl ? nl + 1 : line + len;
        lno++;
        char buf[1024];
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = 0;
        if (len && buf[len - 1] == '\r') buf[--len] = 0;
        int is_begin = strncmp(buf, "<!-- wb:records", 15) == 0;
        int is_end = strcmp(buf, WB_PROGRESS_END) == 0;
        if (is_begin) {
            if (begin) {
                snprintf(err, errsz, "%s:%d: a second records block starts here (the first is at line %d)",
                         path, lno, begin_lno);
                goto fail;
            }
            begin = line;
            after_begin = next;
            begin_lno = lno;
        } else if (is_end) {
            if (!begin || end) {
                snprintf(err, errsz, "%s:%d: '%s' without a records block before it", path, lno,
                         WB_PROGRESS_END);
                goto fail;
            }
            end = line;
            after_end = next;
        } else if (begin && !end) {
            const char *s = buf;
            while (*s == ' ' || *s == '\t') s++;
            if (*s) {
                if (p->n == cap) {
                    cap = cap ? 2 * cap : 16;
                    p->rec = realloc(p->rec, (size_t)cap * sizeof *p->rec);
                    if (!p->rec) abort();
                }
                const char *why = parse_record(buf, &p->rec[p->n]);
                if (why) {
                    snprintf(err, errsz, "%s:%d: %s (a record reads '- [x] id | YYYY-MM-DD | gpu | figure | target')",
                             path, lno, why);
                    goto fail;
                }
                for (int i = 0; i < p->n; i++)
                    if (strcmp(p->rec[i].id, p->rec[p->n].id) == 0) {
                        snprintf(err, errsz, "%s:%d: checkpoint '%s' is recorded twice", path, lno, p->rec[i].id);
                        goto fail;
                    }
                p->n++;
            }
        }
        line = next;
    }
    if (begin && !end) {
        snprintf(err, errsz, "%s:%d: the records block has no end line '%s'", path, begin_lno, WB_PROGRESS_END);
        goto fail;
    }
    if (begin) {
        p->has_block = 1;
        p->before = xstrndup(text, (size_t)(begin - text));
        p->after = xstrndup(after_end, strlen(after_end));
        (void)after_begin;
    } else {
        p->before = xstrndup(text, strlen(text));
        p->after = xstrndup("", 0);
    }
    return 0;
fail:
    free(p->rec);
    memset(p, 0, sizeof *p);
    return -1;
}

static char *slurp(const char *path, int *missing, char *err, size_t errsz)
{
    *missing = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) {
            *missing = 1;
            return xstrndup("", 0);
        }
        snprintf(err, errsz, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    /* fopen opens a directory too, and reading it gives nothing: that read
     * as an empty progress, so make status showed no records at all */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errsz, S_ISDIR(st.st_mode) ? "%s is a directory, not a file" : "%s is not a regular file",
                 path);
        fclose(f);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    size_t k;
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) s = realloc(s, cap *= 2);
    }
    int bad = ferror(f), e = errno;
    fclose(f);
    if (!s) abort();
    if (bad) {
        free(s);
        snprintf(err, errsz, "cannot read %s: %s", path, strerror(e));
        return NULL;
    }
    s[n] = 0;
    if (strlen(s) != n) {
        free(s);
        snprintf(err, errsz, "%s: contains a NUL byte; not a text file", path);
        return NULL;
    }
    return s;
}

int wb_progress_load(const char *path, wb_progress *p, char *err, size_t errsz)
{
    int missing;
    char *text = slurp(path, &missing, err, errsz);
    if (!text) return -1;
    int rc = wb_progress_parse(missing ? DEFAULT_HEAD : text, path, p, err, errsz);
    free(text);
    return rc;
}

void wb_progress_free(wb_progress *p)
{
    free(p->rec);
    free(p->before);
    free(p->after);
    memset(p, 0, sizeof *p);
}

const wb_record *wb_progress_find(const wb_progress *p, const char *id)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->rec[i].id, id) == 0) return &p->rec[i];
    return NULL;
}

char *wb_progress_render(const wb_progress *p)
{
    size_t cap = strlen(p->before) + strlen(p->after) + 256 + (size_t)p->n * 600;
    char *s = malloc(cap);
    if (!s) abort();
    size_t n = 0;
    n += (size_t)snprintf(s + n, cap - n, "%s", p->before);
    if (n && s[n - 1] != '\n') n += (size_t)snprintf(s + n, cap - n, "\n");
    n += (size_t)snprintf(s + n, cap - n, "%s\n", WB_PROGRESS_BEGIN);
    for (int i = 0; i < p->n; i++) {
        const wb_record *r = &p->rec[i];
        n += (size_t)snprintf(s + n, cap - n, "- [x] %s | %s | %s | %s | %s\n", r->id, r->date, r->gpu, r->figure,
                              r->target);
    }
    n += (size_t)snprintf(s + n, cap - n, "%s\n", WB_PROGRESS_END);
    snprintf(s + n, cap - n, "%s", p->after);
    return s;
}

/* The folder part of a path ("." when it has none). */
static void folder_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, n, ".");
    else if (slash == path) snprintf(dir, n, "/");
    else snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

/* The file an update replaces: `path` with its symbolic links resolved, so
 * a link stays a link and its target is what gets replaced (a link to a
 * file not made yet resolves to where it points). The folder must exist and
 * the file, if there, must be a regular file. Returns 0, or -1 with what
 * stands in the way, named for a person. */
static int resolve_target(const char *path, char *out, size_t outsz, char *err, size_t errsz)
{
    char cur[PATH_MAX];
    snprintf(cur, sizeof cur, "%s", path);
    for (int hops = 0;; hops++) {
        char *real = realpath(cur, NULL);
        if (real) {
            snprintf(out, outsz, "%s", real);
            free(real);
            struct stat st;
            if (stat(out, &st) != 0) {
                snprintf(err, errsz, "cannot read %s: %s", path, strerror(errno));
                return -1;
            }
            if (S_ISDIR(st.st_mode)) {
                snprintf(err, errsz, "%s is a directory, not a file", path);
                return -1;
            }
            if (!S_ISREG(st.st_mode)) {
                snprintf(err, errsz, "%s is not a regular file", path);
                return -1;
            }
            return 0;
        }
        if (errno == ENOTDIR) {
            snprintf(err, errsz, "%s: a part of this path is a file, not a folder", path);
            return -1;
        }
        if (errno == ELOOP || hops == 40) {
            snprintf(err, errsz, "%s: too many symbolic links (a link to itself?)", path);
            return -1;
        }
        if (errno != ENOENT) {
            snprintf(err, errsz, "cannot reach %s: %s", path, strerror(errno));
            return -1;
        }
        /* something is missing: a link to a file not made yet, or the file
         * itself (fine: it is created), or its folder (not fine) */
        struct stat st;
        if (lstat(cur, &st) == 0 && S_ISLNK(st.st_mode)) {
            char to[PATH_MAX], dir[PATH_MAX];
            ssize_t k = readlink(cur, to, sizeof to - 1);
            if (k < 0) {
                snprintf(err, errsz, "cannot read the link %s: %s", cur, strerror(errno));
                return -1;
            }
            to[k] = 0;
            folder_of(cur, dir, sizeof dir);
            if (to[0] == '/') snprintf(cur, sizeof cur, "%s", to);
            else snprintf(cur, sizeof cur, "%s/%s", dir, to);
            continue;
        }
        char dir[PATH_MAX];
        folder_of(cur, dir, sizeof dir);
        char *rdir = realpath(dir, NULL);
        if (!rdir) {
            if (errno == ENOENT)
                snprintf(err, errsz,
                         "the folder %s does not exist (make it, or set WB_PROGRESS to a file in a folder that does)",
                         dir);
            else if (errno == ENOTDIR)
                snprintf(err, errsz, "%s is not a folder (a part of it is a file)", dir);
            else
                snprintf(err, errsz, "cannot reach the folder %s: %s", dir, strerror(errno));
            return -1;
        }
        const char *base = strrchr(cur, '/') ? strrchr(cur, '/') + 1 : cur;
        snprintf(out, outsz, "%s/%s", strcmp(rdir, "/") ? rdir : "", base);
        free(rdir);
        return 0;
    }
}

int wb_progress_check(const char *path, char *err, size_t errsz)
{
    char real[PATH_MAX], dir[PATH_MAX];
    if (resolve_target(path, real, sizeof real, err, errsz) != 0) return -1;
    folder_of(real, dir, sizeof dir);
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(err, errsz, "cannot write in the folder %s (where %s is replaced): %s", dir, path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Take the lock: an flock on `lockpath`, which the holder removes before it
 * lets go, so no lock file outlives a writer. A writer that opened the file
 * before it was removed gets a lock on a file no longer there: it checks the
 * path still names the file it locked (same inode) and else starts again.
 * Returns the locked descriptor, or -1 with the reason. */
static int lock_take(const char *lockpath, char *err, size_t errsz)
{
    for (;;) {
        int fd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            char dir[PATH_MAX];
            folder_of(lockpath, dir, sizeof dir);
            snprintf(err, errsz, "cannot write in the folder %s (the lock %s): %s", dir, lockpath, strerror(errno));
            return -1;
        }
        int r;
        while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR) {}
        if (r != 0) {
            snprintf(err, errsz, "cannot lock %s: %s", lockpath, strerror(errno));
            close(fd);
            return -1;
        }
        struct stat held, named;
        if (fstat(fd, &held) == 0 && stat(lockpath, &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino)
            return fd;
        close(fd); /* its holder removed it while we waited: lock the new one */
    }
}

/* Remove, then let go: whoever waits on this file sees it gone and retries. */
static void lock_drop(int fd, const char *lockpath)
{
    unlink(lockpath);
    close(fd);
}

/* Replace the file `real` (symbolic links resolved) by `text`: written to a
 * temporary file beside it, flushed, renamed over it, the rename flushed
 * too; the new file keeps the old one's mode and owner. The caller holds the
 * lock. Returns 0, or -1 with the reason (the file is then unchanged). */
static int replace_text(const char *real, const char *text, char *err, size_t errsz)
{
    char tmppath[PATH_MAX + 32], dir[PATH_MAX];
    folder_of(real, dir, sizeof dir);
    /* the new file takes the old one's mode and owner (a new file: 0644
     * less the umask, as any file the learner makes) */
    struct stat old;
    int had = stat(real, &old) == 0;
    snprintf(tmppath, sizeof tmppath, "%s.tmp.%ld", real, (long)getpid());
    unlink(tmppath); /* one a crashed run of the same pid left */
    int fd = open(tmppath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, had ? 0600 : 0644);
    if (fd < 0) {
        snprintf(err, errsz, "cannot write in the folder %s (%s): %s", dir, tmppath, strerror(errno));
        return -1;
    }
    if (had) {
        if ((old.st_uid != geteuid() || old.st_gid != getegid()) && fchown(fd, old.st_uid, old.st_gid) != 0) {
            /* not ours to give away: the file becomes ours, mode kept */
        }
        if (fchmod(fd, old.st_mode & 07777) != 0) {
            snprintf(err, errsz, "%s: cannot set its mode: %s", tmppath, strerror(errno));
            close(fd);
            unlink(tmppath);
            return -1;
        }
    }
    size_t len = strlen(text), off = 0;
    while (off < len) {
        ssize_t k = write(fd, text + off, len - off);
        if (k < 0) {
            if (errno == EINTR) continue;
            snprintf(err, errsz, "%s: write failed: %s", tmppath, strerror(errno));
            close(fd);
            unlink(tmppath);
            return -1;
        }
        off += (size_t)k;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        snprintf(err, errsz, "%s: cannot flush: %s", tmppath, strerror(errno));
        unlink(tmppath);
        return -1;
    }
    if (rename(tmppath, real) != 0) {
        snprintf(err, errsz, "cannot replace %s: %s", real, strerror(errno));
        unlink(tmppath);
        return -1;
    }
    /* the rename itself reaches the disk */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return 0;
}

/* The file `path` names (symbolic links resolved) into real, of PATH_MAX
 * bytes, locked through real.lock (into lockpath, of PATH_MAX + 8): the
 * lock's descriptor for lock_drop, or -1 with the reason. */
static int lock_target(const char *path, char *real, char *lockpath, char *err, size_t errsz)
{
    if (resolve_target(path, real, PATH_MAX, err, errsz) != 0) return -1;
    snprintf(lockpath, PATH_MAX + 8, "%s.lock", real);
    return lock_take(lockpath, err, errsz);
}

int wb_progress_update(const char *path, const wb_record *recs, int nrec, char *err, size_t errsz)
{
    char real[PATH_MAX], lockpath[PATH_MAX + 8];
    int lfd = lock_target(path, real, lockpath, err, errsz);
    if (lfd < 0) return -1;
    int rc = -1;
    wb_progress p;
    /* read by the name the learner knows, so a refusal names that file */
    if (wb_progress_load(path, &p, err, errsz) != 0) goto out_unlock;
    for (int i = 0; i < nrec; i++) {
        wb_record *old = (wb_record *)wb_progress_find(&p, recs[i].id);
        if (old) {
            *old = recs[i];
        } else {
            p.rec = realloc(p.rec, (size_t)(p.n + 1) * sizeof *p.rec);
            if (!p.rec) abort();
            p.rec[p.n++] = recs[i];
        }
    }
    char *text = wb_progress_render(&p);
    if (replace_text(real, text, err, errsz) != 0) goto out_free;
    rc = 0;
out_free:
    free(text);
    wb_progress_free(&p);
out_unlock:
    lock_drop(lfd, lockpath);
    return rc;
}

/* ---- which hints were shown: PROGRESS.hints, beside the progress file ---- */

static const char *HINTS_HEAD =
    "# The hints `make phaseP/weekNN hint` has shown: a week and how many, a line a week.\n"
    "# Written by make beside the progress file; delete a week's line to see its hints from the first again.\n";

/* Cut, the name would be another file's: the progress file's own where it is n - 1 bytes long, so the
 * hints' lines went into it; "" and -1 instead. */
int wb_hints_path(char *buf, size_t n)
{
    int k = snprintf(buf, n, "%s.hints", wb_progress_path());
    if (k >= 0 && (size_t)k < n) return 0;
    if (n) buf[0] = 0;
    return -1;
}

/* The line of `week` in text ("phase0/week01 2"): its count, or -1. */
static int hints_find(const char *text, const char *week, const char **line, size_t *len)
{
    size_t wl = strlen(week);
    for (const char *l = text; *l; l += strcspn(l, "\n"), l += *l == '\n') {
        size_t ll = strcspn(l, "\n");
        int k;
        if (ll > wl && strncmp(l, week, wl) == 0 && l[wl] == ' ' && sscanf(l + wl, " %d", &k) == 1 && k >= 0) {
            if (line) *line = l, *len = ll;
            return k;
        }
    }
    return -1;
}

int wb_hints_shown(const char *path, const char *week)
{
    int missing;
    char err[300];
    char *text = slurp(path, &missing, err, sizeof err);
    if (!text) return -1;
    int k = hints_find(text, week, NULL, NULL);
    free(text);
    return k;
}

int wb_hints_set(const char *path, const char *week, int shown, char *err, size_t errsz)
{
    char real[PATH_MAX], lockpath[PATH_MAX + 8];
    int lfd = lock_target(path, real, lockpath, err, errsz);
    if (lfd < 0) return -1;
    int missing, rc = -1;
    char *old = slurp(path, &missing, err, errsz);
    if (old) {
        const char *line = NULL;
        size_t len = 0;
        if (missing || !*old) free(old), old = xstrndup(HINTS_HEAD, strlen(HINTS_HEAD));
        size_t n = strlen(old);
        char *text = malloc(n + strlen(week) + 32);
        if (!text) abort();
        if (hints_find(old, week, &line, &len) >= 0)
            sprintf(text, "%.*s%s %d%s", (int)(line - old), old, week, shown, line + len);
        else
            sprintf(text, "%s%s%s %d\n", old, n && old[n - 1] != '\n' ? "\n" : "", week, shown);
        rc = replace_text(real, text, err, errsz);
        free(text);
        free(old);
    }
    lock_drop(lfd, lockpath);
    return rc;
}
