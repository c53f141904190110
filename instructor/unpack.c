/* unpack.c — submissions into fresh folders, refusing anything but plain files
 * and folders (see unpack.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "unpack.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEF_TOTAL (256LL << 20)
#define DEF_ENTRIES 10000
#define DEF_FILE (64LL << 20)

typedef struct {
    long long total, max_total, max_file;
    long      entries, max_entries;
    char     *err;
    size_t    errsz;
    const char *src;
} job;

/* The reason, naming the source and the entry escaped (up_escape): both
 * reach the instructor's terminal and the student's feedback. The source by
 * its own name (the file or folder the student handed in), not by the path
 * of the instructor's folders it lies in. */
static int refuse(job *j, const char *entry, const char *fmt, ...)
{
    char why[300], src[1200], name[820];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    const char *own = strrchr(j->src, '/');
    up_escape(own && own[1] ? own + 1 : j->src, src, sizeof src);
    up_escape(entry, name, sizeof name);
    if (entry) snprintf(j->err, j->errsz, "%s: entry '%.800s' %s (submission refused)", src, name, why);
    else snprintf(j->err, j->errsz, "%s: %s (submission refused)", src, why);
    return -1;
}

/* An entry's path: relative, no `..`, no control characters or backslashes.
 * "./a//b/" is cleaned to "a/b" in out. */
static int clean_path(job *j, const char *p, char *out, size_t outsz)
{
    if (!p || !*p) return refuse(j, "", "has an empty name");
    if (p[0] == '/') return refuse(j, p, "is an absolute path");
    for (const unsigned char *c = (const unsigned char *)p; *c; c++)
        if (*c < 0x20 || *c == 0x7f || *c == '\\') return refuse(j, p, "has a control character or a backslash in its name");
    size_t o = 0;
    const char *s = p;
    while (*s) {
        size_t len = strcspn(s, "/");
        if (len == 2 && s[0] == '.' && s[1] == '.') return refuse(j, p, "has a '..' component");
        if (len > 0 && !(len == 1 && s[0] == '.')) {
            if (o + len + 2 > outsz) return refuse(j, p, "has too long a path");
            if (o) out[o++] = '/';
            memcpy(out + o, s, len);
            o += len;
        }
        s += len;
        while (*s == '/') s++;
    }
    out[o] = 0;
    return o ? 0 : 1; /* 1: "." itself, nothing to make */
}

/* The type and mode checks shared by archives and folders. */
static int check_kind(job *j, const char *name, mode_t mode, int hardlink)
{
    if (hardlink) return refuse(j, name, "is a hard link");
    if (S_ISLNK(mode)) return refuse(j, name, "is a symbolic link");
    if (!S_ISREG(mode) && !S_ISDIR(mode)) return refuse(j, name, "is not a regular file or folder (device, fifo or socket)");
    if (mode & (S_ISUID | S_ISGID | S_ISVTX)) return refuse(j, name, "has a setuid, setgid or sticky bit");
    if (++j->entries > j->max_entries) return refuse(j, NULL, "more than %ld files and folders", j->max_entries);
    return 0;
}

static int count_bytes(job *j, const char *name, long long file_so_far, size_t more)
{
    if (file_so_far + (long long)more > j->max_file)
        return refuse(j, name, "is larger than %lld bytes", j->max_file);
    j->total += (long long)more;
    if (j->total > j->max_total) return refuse(j, NULL, "more than %lld bytes in all", j->max_total);
    return 0;
}

static int unpack_here(job *j, int fd);

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)f;
    return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static void rm_tree(const char *p) { nftw(p, rm_one, 32, FTW_DEPTH | FTW_PHYS); }

/* ------------------------------------------------------------- archives */

/* The archive's entries are written relative to tmp: libarchive's
 * SECURE_NOABSOLUTEPATHS refuses absolute paths, ours included, so the
 * working folder is tmp for the while (the caller's is restored). */
static int from_archive(job *j, const char *tmp)
{
    int fd = open(j->src, O_RDONLY | O_CLOEXEC); /* before the chdir: src may be relative */
    if (fd < 0) return refuse(j, NULL, "cannot be read (%s)", strerror(errno));
    int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (here < 0 || chdir(tmp) != 0) {
        if (here >= 0) close(here);
        close(fd);
        return refuse(j, NULL, "cannot enter %s (%s)", tmp, strerror(errno));
    }
    int rc = unpack_here(j, fd);
    close(fd);
    if (fchdir(here) != 0) rc = refuse(j, NULL, "cannot return to the working folder (%s)", strerror(errno));
    close(here);
    return rc;
}

static int unpack_here(job *j, int fd)
{
    struct archive *in = archive_read_new(), *out = archive_write_disk_new();
    archive_read_support_format_tar(in);
    archive_read_support_format_zip(in);
    archive_read_support_filter_gzip(in);
    archive_read_support_filter_none(in);
    archive_write_disk_set_options(out, ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS |
                                            ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS | ARCHIVE_EXTRACT_NO_OVERWRITE);
    int rc = 0;
    if (archive_read_open_fd(in, fd, 65536) != ARCHIVE_OK) {
        rc = refuse(j, NULL, "cannot be read as a tar or zip archive (%s)", archive_error_string(in));
        goto done;
    }
    struct archive_entry *e;
    int r;
    while ((r = archive_read_next_header(in, &e)) == ARCHIVE_OK) {
        char name[PATH_MAX], rel[PATH_MAX];
        snprintf(name, sizeof name, "%s", archive_entry_pathname(e) ? archive_entry_pathname(e) : "");
        mode_t mode = archive_entry_mode(e);
        if ((rc = check_kind(j, name, archive_entry_symlink(e) ? S_IFLNK : mode,
                             archive_entry_hardlink(e) != NULL)) != 0)
            goto done;
        int c = clean_path(j, name, rel, sizeof rel);
        if (c < 0) { rc = -1; goto done; }
        if (c == 1) continue; /* "./" */
        if (archive_entry_size_is_set(e) && archive_entry_size(e) > j->max_file) {
            rc = refuse(j, name, "is larger than %lld bytes", j->max_file);
            goto done;
        }
        archive_entry_set_pathname(e, rel); /* relative to tmp, the working folder now */
        archive_entry_set_perm(e, S_ISDIR(mode) ? 0755 : (mode & 0111) ? 0755 : 0644);
        archive_entry_set_uid(e, getuid());
        archive_entry_set_gid(e, getgid());
        if (archive_write_header(out, e) != ARCHIVE_OK) {
            rc = refuse(j, name, "cannot be written (%s; the same path twice?)", archive_error_string(out));
            goto done;
        }
        long long got = 0;
        const void *buf;
        size_t len;
        la_int64_t off;
        while ((r = archive_read_data_block(in, &buf, &len, &off)) == ARCHIVE_OK) {
            if ((rc = count_bytes(j, name, got, len)) != 0) goto done;
            got += (long long)len;
            if (archive_write_data_block(out, buf, len, off) != ARCHIVE_OK) {
                rc = refuse(j, name, "cannot be written (%s)", archive_error_string(out));
                goto done;
            }
        }
        if (r != ARCHIVE_EOF) {
            rc = refuse(j, name, "is damaged (%s)", archive_error_string(in));
            goto done;
        }
        if (archive_write_finish_entry(out) != ARCHIVE_OK) {
            rc = refuse(j, name, "cannot be written (%s)", archive_error_string(out));
            goto done;
        }
    }
    if (r != ARCHIVE_EOF) rc = refuse(j, NULL, "is damaged (%s)", archive_error_string(in));
done:
    archive_read_free(in);
    archive_write_free(out);
    return rc;
}

/* ------------------------------------------------------------- folders */

static int copy_file(job *j, const char *from, const char *to, const char *rel, mode_t mode)
{
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0) return refuse(j, rel, "cannot be read (%s)", strerror(errno));
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (mode & 0111) ? 0755 : 0644);
    if (out < 0) {
        close(in);
        return refuse(j, rel, "cannot be written (%s)", strerror(errno));
    }
    char buf[65536];
    ssize_t n;
    long long got = 0;
    int rc = 0;
    while (rc == 0 && (n = read(in, buf, sizeof buf)) > 0) {
        if ((rc = count_bytes(j, rel, got, (size_t)n)) != 0) break;
        got += n;
        if (write(out, buf, (size_t)n) != n) rc = refuse(j, rel, "cannot be written (%s)", strerror(errno));
    }
    close(in);
    close(out);
    return rc;
}

/* Walk `dir` (relative path `rel` under the submission) into `to`. lstat
 * only: a symlink is refused, never followed. */
static int from_folder(job *j, const char *dir, const char *to, const char *rel, int depth)
{
    if (depth > 64) return refuse(j, rel, "is nested too deep");
    DIR *d = opendir(dir);
    if (!d) return refuse(j, rel[0] ? rel : ".", "cannot be read (%s)", strerror(errno));
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char from[PATH_MAX], dst[PATH_MAX], r[PATH_MAX], clean[PATH_MAX];
        snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(from, &st) != 0) { rc = refuse(j, r, "cannot be read (%s)", strerror(errno)); break; }
        if ((rc = clean_path(j, r, clean, sizeof clean)) != 0) break;
        if ((rc = check_kind(j, r, st.st_mode, S_ISREG(st.st_mode) && st.st_nlink > 1)) != 0) break;
        snprintf(dst, sizeof dst, "%s/%s", to, e->d_name);
        if (S_ISDIR(st.st_mode)) {
            if (mkdir(dst, 0755) != 0) rc = refuse(j, r, "cannot be made (%s)", strerror(errno));
            else rc = from_folder(j, from, dst, r, depth + 1);
        } else {
            if (st.st_size > j->max_file) rc = refuse(j, r, "is larger than %lld bytes", j->max_file);
            else rc = copy_file(j, from, dst, r, st.st_mode);
        }
    }
    closedir(d);
    return rc;
}

int up_import(const char *src, const char *dest, const up_limits *lim, char *err, size_t errsz)
{
    job j = { .max_total = lim && lim->max_total_bytes > 0 ? lim->max_total_bytes : DEF_TOTAL,
              .max_file = lim && lim->max_file_bytes > 0 ? lim->max_file_bytes : DEF_FILE,
              .max_entries = lim && lim->max_entries > 0 ? lim->max_entries : DEF_ENTRIES,
              .err = err, .errsz = errsz, .src = src };
    err[0] = 0;
    struct stat st;
    if (lstat(dest, &st) == 0) return refuse(&j, NULL, "cannot go to %s: it exists", dest);
    if (lstat(src, &st) != 0) return refuse(&j, NULL, "cannot be read (%s)", strerror(errno));
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) return refuse(&j, NULL, "is neither a folder nor an archive");
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.part-XXXXXX", dest);
    if (!mkdtemp(tmp)) return refuse(&j, NULL, "cannot make %s (%s)", tmp, strerror(errno));
    chmod(tmp, 0755);
    int rc = S_ISDIR(st.st_mode) ? from_folder(&j, src, tmp, "", 0) : from_archive(&j, tmp);
    if (rc == 0 && rename(tmp, dest) != 0) rc = refuse(&j, NULL, "cannot be renamed to %s (%s)", dest, strerror(errno));
    if (rc != 0) rm_tree(tmp);
    return rc;
}

/* ------------------------------------------------------------- the class */

static const char *const exts[] = { ".tar.gz", ".tgz", ".tar", ".zip", NULL };

int up_student_id(const char *name, int is_dir, char *id, size_t idsz)
{
    if (!name[0] || name[0] == '.') return -1;
    size_t n = strlen(name), keep = n;
    if (!is_dir) {
        keep = 0;
        for (int i = 0; exts[i]; i++) {
            size_t e = strlen(exts[i]);
            if (n > e && strcmp(name + n - e, exts[i]) == 0) {
                keep = n - e;
                break;
            }
        }
        if (!keep) return -1;
    }
    if (keep >= idsz || !up_id_ok(name, keep)) return -2;
    memcpy(id, name, keep);
    id[keep] = 0;
    return 0;
}

static int by_id(const void *a, const void *b)
{
    const up_submission *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : strcmp(x->path, y->path);
}

static void append(char *buf, size_t sz, const char *fmt, ...)
{
    if (!buf || !sz) return;
    size_t used = strlen(buf);
    if (used + 1 >= sz) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, sz - used, fmt, ap);
    va_end(ap);
}

int up_list(const char *dir, up_submission **out, int *n, char *err, size_t errsz, char *ignored, size_t ignsz)
{
    *out = NULL, *n = 0;
    err[0] = 0;
    if (ignored && ignsz) ignored[0] = 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errsz, "%s: cannot be read (%s)", dir, strerror(errno));
        return -1;
    }
    int cap = 0, bad = 0;
    up_submission *v = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0) continue;
        int is_dir = S_ISDIR(st.st_mode);
        char id[128];
        int r = (is_dir || S_ISREG(st.st_mode)) ? up_student_id(e->d_name, is_dir, id, sizeof id) : -1;
        char shown[4 * sizeof path + 1];
        up_escape(path, shown, sizeof shown);
        if (r == -1) {
            up_escape(e->d_name, shown, sizeof shown);
            append(ignored, ignsz, "%s\n", shown);
            continue;
        }
        if (r == -2) {
            append(err, errsz, "%s: not a usable student id (letters, digits and ._-+@ only, under 128)\n", shown);
            bad = 1;
            continue;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            up_submission *nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) break;
            v = nv;
        }
        up_submission *s = &v[(*n)++];
        snprintf(s->id, sizeof s->id, "%s", id);
        snprintf(s->path, sizeof s->path, "%s", path);
        s->is_dir = is_dir;
    }
    closedir(d);
    if (*n) qsort(v, (size_t)*n, sizeof *v, by_id);
    for (int i = 1; i < *n; i++)
        if (!strcmp(v[i].id, v[i - 1].id)) {
            append(err, errsz, "%s and %s are both student %s: keep one\n", v[i - 1].path, v[i].path, v[i].id);
            bad = 1;
        }
    *out = v;
    return bad ? -1 : 0;
}
