/* test_progress.c — the harness's tests of the progress file (wb_progress.h). */

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb.h"
#include "wb_progress.h"
#include "test_harness.h"

static const char *GOOD =
    "# My progress\n"
    "\n"
    "Notes: week 1 was fun.\n"
    "<!-- wb:records (written by make ... check; edit outside this block) -->\n"
    "- [x] w01.vecadd | 2026-11-20 | NVIDIA H100 | passed | -\n"
    "- [x] w01.vecadd-bw | 2026-11-21 | NVIDIA H100 | 0.94 of COPY (2810 GB/s) | >= 0.85 COPY\n"
    "<!-- wb:end -->\n"
    "\n"
    "More notes after the block.\n";

START_TEST(progress_parse_and_render_roundtrip)
{
    wb_progress p;
    char err[600];
    ck_assert_msg(wb_progress_parse(GOOD, "p.md", &p, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(p.n, 2);
    ck_assert_str_eq(p.rec[1].figure, "0.94 of COPY (2810 GB/s)");
    ck_assert_ptr_nonnull(wb_progress_find(&p, "w01.vecadd"));
    char *s = wb_progress_render(&p);
    ck_assert_str_eq(s, GOOD);
    free(s);
    wb_progress_free(&p);
}
END_TEST

START_TEST(progress_corrupt_refused_with_line)
{
    const char *bad[] = {
        "x\n<!-- wb:records -->\n- [x] w01 | 2026-11-20 | gpu | passed\n<!-- wb:end -->\n",
        "x\n<!-- wb:records -->\n- [x] w01 | yesterday | gpu | passed | -\n<!-- wb:end -->\n",
        "x\n<!-- wb:records -->\nhello\n<!-- wb:end -->\n",
        "x\n<!-- wb:records -->\n- [x] w01 | 2026-11-20 | g | f | t\n",
        "<!-- wb:records -->\n<!-- wb:end -->\n<!-- wb:records -->\n<!-- wb:end -->\n",
        "x\n<!-- wb:records -->\n- [x] a | 2026-11-20 | g | f | t\n- [x] a | 2026-11-20 | g | f | t\n<!-- wb:end -->\n",
    };
    const char *where[] = { "p.md:3:", "p.md:3:", "p.md:3:", "p.md:2:", "p.md:3:", "p.md:4:" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wb_progress p;
        char err[600] = "";
        ck_assert_int_eq(wb_progress_parse(bad[i], "p.md", &p, err, sizeof err), -1);
        ck_assert_msg(strncmp(err, where[i], strlen(where[i])) == 0, "case %zu: %s", i, err);
    }
}
END_TEST

START_TEST(progress_update_keeps_notes_and_replaces)
{
    make_tmpdir();
    char path[400];
    snprintf(path, sizeof path, "%s/progress.md", tmpdir);
    write_file(path, GOOD);
    wb_record r[2];
    wb_record_set(&r[0], "w01.vecadd-bw", "2026-11-22", "NVIDIA H100 | SXM", "0.95 of COPY", ">= 0.85 COPY");
    wb_record_set(&r[1], "w02.bugs", "2026-11-22", "NVIDIA H100", NULL, NULL);
    char err[600];
    ck_assert_msg(wb_progress_update(path, r, 2, err, sizeof err) == 0, "%s", err);
    char *s = read_file(path);
    ck_assert_ptr_nonnull(strstr(s, "Notes: week 1 was fun.\n"));
    ck_assert_ptr_nonnull(strstr(s, "More notes after the block.\n"));
    ck_assert_ptr_nonnull(strstr(s, "- [x] w01.vecadd-bw | 2026-11-22 | NVIDIA H100 / SXM | 0.95 of COPY | >= 0.85 COPY\n"));
    ck_assert_ptr_nonnull(strstr(s, "- [x] w02.bugs | 2026-11-22 | NVIDIA H100 | passed | -\n"));
    ck_assert_ptr_null(strstr(s, "2026-11-21"));
    /* the first record stays first: order is kept */
    ck_assert(strstr(s, "w01.vecadd |") < strstr(s, "w01.vecadd-bw"));
    free(s);
    /* no temporary file is left behind */
    char tmp[500];
    snprintf(tmp, sizeof tmp, "%s/progress.md.tmp.%ld", tmpdir, (long)getpid());
    ck_assert_int_ne(access(tmp, F_OK), 0);
}
END_TEST

START_TEST(progress_update_refuses_corrupt_file_untouched)
{
    make_tmpdir();
    char path[400];
    snprintf(path, sizeof path, "%s/progress.md", tmpdir);
    const char *bad = "mine\n<!-- wb:records -->\n- [x] broken line\n<!-- wb:end -->\n";
    write_file(path, bad);
    wb_record r;
    wb_record_set(&r, "w01.vecadd", NULL, "gpu", NULL, NULL);
    char err[600];
    ck_assert_int_eq(wb_progress_update(path, &r, 1, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "progress.md:3:") != NULL, "%s", err);
    char *s = read_file(path);
    ck_assert_str_eq(s, bad);
    free(s);
}
END_TEST

START_TEST(progress_created_when_missing)
{
    make_tmpdir();
    char path[400];
    snprintf(path, sizeof path, "%s/new.md", tmpdir);
    wb_record r;
    wb_record_set(&r, "w01.vecadd", NULL, "gpu", NULL, NULL);
    char err[600];
    ck_assert_msg(wb_progress_update(path, &r, 1, err, sizeof err) == 0, "%s", err);
    wb_progress p;
    ck_assert_msg(wb_progress_load(path, &p, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(p.n, 1);
    ck_assert_ptr_nonnull(strstr(p.before, "# CUDA workbook progress"));
    wb_progress_free(&p);
}
END_TEST

/* An interrupted writer (killed between writing its temporary file and the
 * rename) leaves the real file as it was. */
START_TEST(progress_interrupted_write_leaves_file)
{
    make_tmpdir();
    char path[400];
    snprintf(path, sizeof path, "%s/progress.md", tmpdir);
    write_file(path, GOOD);
    pid_t pid = fork();
    if (pid == 0) {
        /* simulate a crash: a partial temporary file, then death */
        char tmp[500];
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
        write_file(tmp, "# half");
        _exit(9);
    }
    int st;
    waitpid(pid, &st, 0);
    char *s = read_file(path);
    ck_assert_str_eq(s, GOOD);
    free(s);
    wb_record r;
    wb_record_set(&r, "w03.x", NULL, "gpu", NULL, NULL);
    char err[600];
    ck_assert_msg(wb_progress_update(path, &r, 1, err, sizeof err) == 0, "%s", err);
}
END_TEST

/* A symbolic link stays a link: its target is updated, with its mode. */
START_TEST(progress_symlink_followed_and_mode_kept)
{
    make_tmpdir();
    char dir[400], real[500], link[400], err[600];
    snprintf(dir, sizeof dir, "%s/notes", tmpdir);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    snprintf(real, sizeof real, "%s/real.md", dir);
    snprintf(link, sizeof link, "%s/progress.md", tmpdir);
    write_file(real, GOOD);
    ck_assert_int_eq(chmod(real, 0600), 0);
    ck_assert_int_eq(symlink("notes/real.md", link), 0); /* relative, as `ln -s` makes */
    wb_record r;
    wb_record_set(&r, "w02.bugs", "2026-11-22", "gpu", NULL, NULL);
    ck_assert_msg(wb_progress_update(link, &r, 1, err, sizeof err) == 0, "%s", err);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert_msg(S_ISLNK(st.st_mode), "progress.md is no longer a symbolic link");
    char *s = read_file(real);
    ck_assert_ptr_nonnull(strstr(s, "- [x] w02.bugs | 2026-11-22 |"));
    ck_assert_ptr_nonnull(strstr(s, "Notes: week 1 was fun.\n"));
    free(s);
    ck_assert_int_eq(stat(real, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0600);
    /* nothing is left beside the link or the target */
    char left[600];
    snprintf(left, sizeof left, "%s/progress.md.lock", tmpdir);
    ck_assert_int_ne(access(left, F_OK), 0);
    snprintf(left, sizeof left, "%s/real.md.lock", dir);
    ck_assert_int_ne(access(left, F_OK), 0);
}
END_TEST

/* A link to a file that does not exist yet creates that file, link kept. */
START_TEST(progress_dangling_symlink_creates_target)
{
    make_tmpdir();
    char real[400], link[400], err[600];
    snprintf(real, sizeof real, "%s/elsewhere.md", tmpdir);
    snprintf(link, sizeof link, "%s/progress.md", tmpdir);
    ck_assert_int_eq(symlink(real, link), 0);
    wb_record r;
    wb_record_set(&r, "w01.vecadd", NULL, "gpu", NULL, NULL);
    ck_assert_msg(wb_progress_update(link, &r, 1, err, sizeof err) == 0, "%s", err);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    char *s = read_file(real);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(strstr(s, "- [x] w01.vecadd |"));
    free(s);
}
END_TEST

/* A new file gets 0644 less the umask; an existing file keeps its mode. */
START_TEST(progress_mode_new_and_kept)
{
    make_tmpdir();
    char path[400], err[600];
    snprintf(path, sizeof path, "%s/progress.md", tmpdir);
    wb_record r;
    wb_record_set(&r, "w01.vecadd", NULL, "gpu", NULL, NULL);
    mode_t old = umask(027);
    int rc = wb_progress_update(path, &r, 1, err, sizeof err);
    umask(old);
    ck_assert_msg(rc == 0, "%s", err);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0640);
    ck_assert_int_eq(chmod(path, 0604), 0);
    wb_record_set(&r, "w01.vecadd-bw", NULL, "gpu", NULL, NULL);
    ck_assert_msg(wb_progress_update(path, &r, 1, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0604);
}
END_TEST

/* Files in a folder other than `keep`: none may be left behind by a writer. */
static int leftovers(const char *dir, const char *keep, char *first, size_t n)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, keep)) continue;
        if (!count++) snprintf(first, n, "%s", e->d_name);
    }
    closedir(d);
    return count;
}

/* Four processes record at once: every record arrives, no lock file stays.
 * A lock file left by a writer that died (older versions always left one)
 * is taken over and removed. */
START_TEST(progress_concurrent_writers_lose_nothing)
{
    make_tmpdir();
    char path[400], stale[500], err[600];
    snprintf(path, sizeof path, "%s/progress.md", tmpdir);
    snprintf(stale, sizeof stale, "%s.lock", path);
    write_file(path, GOOD);
    write_file(stale, "");
    enum { WRITERS = 4, EACH = 25 };
    pid_t pid[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        pid[w] = fork();
        ck_assert_int_ge(pid[w], 0);
        if (pid[w] == 0) {
            for (int i = 0; i < EACH; i++) {
                wb_record r;
                char id[32];
                snprintf(id, sizeof id, "w%d.c%02d", w, i);
                wb_record_set(&r, id, "2026-11-22", "gpu", NULL, NULL);
                if (wb_progress_update(path, &r, 1, err, sizeof err) != 0) {
                    fprintf(stderr, "writer %d: %s\n", w, err);
                    _exit(1);
                }
            }
            _exit(0);
        }
    }
    for (int w = 0; w < WRITERS; w++) {
        int st;
        ck_assert_int_eq(waitpid(pid[w], &st, 0), pid[w]);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer %d failed", w);
    }
    wb_progress p;
    ck_assert_msg(wb_progress_load(path, &p, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(p.n, 2 + WRITERS * EACH);
    wb_progress_free(&p);
    char first[300] = "";
    ck_assert_msg(leftovers(tmpdir, "progress.md", first, sizeof first) == 0, "left behind: %s", first);
}
END_TEST

/* A recording into a folder that does not exist names that folder (it said
 * "cannot create lock file"), and make status's check says the same. */
START_TEST(progress_missing_folder_named)
{
    make_tmpdir();
    char path[400], err[600] = "";
    wb_record r;
    wb_record_set(&r, "w01.vecadd", NULL, "gpu", NULL, NULL);
    snprintf(path, sizeof path, "%s/nope/progress.md", tmpdir);
    ck_assert_int_eq(wb_progress_update(path, &r, 1, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "the folder ") && strstr(err, "/nope does not exist"), "%s", err);
    ck_assert_msg(strstr(err, "lock") == NULL, "%s", err);
    ck_assert_int_eq(wb_progress_check(path, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "/nope does not exist"), "%s", err);
    snprintf(path, sizeof path, "%s/fine.md", tmpdir);
    ck_assert_msg(wb_progress_check(path, err, sizeof err) == 0, "%s", err);
}
END_TEST

/* A progress file that is a directory is refused by name, by a recording
 * and by a reading (make status showed it as an empty progress), and no
 * lock or temporary file is left beside it. */
START_TEST(progress_directory_refused)
{
    make_tmpdir();
    char path[400], err[600] = "";
    snprintf(path, sizeof path, "%s/progress.md", tmpdir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    wb_progress p;
    ck_assert_int_eq(wb_progress_load(path, &p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "progress.md is a directory, not a file"), "%s", err);
    wb_record r;
    wb_record_set(&r, "w01.vecadd", NULL, "gpu", NULL, NULL);
    ck_assert_int_eq(wb_progress_update(path, &r, 1, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "progress.md is a directory, not a file"), "%s", err);
    char first[300] = "";
    ck_assert_msg(leftovers(tmpdir, "progress.md", first, sizeof first) == 0, "left behind: %s", first);
    ck_assert_int_eq(wb_progress_check(path, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "is a directory, not a file"), "%s", err);
}
END_TEST

/* An unreadable file is refused by name (not read as empty, not replaced). */
START_TEST(progress_unreadable_refused)
{
    if (geteuid() == 0) return; /* root reads everything */
    make_tmpdir();
    char path[400], err[600] = "";
    snprintf(path, sizeof path, "%s/progress.md", tmpdir);
    write_file(path, GOOD);
    ck_assert_int_eq(chmod(path, 0), 0);
    wb_progress p;
    ck_assert_int_eq(wb_progress_load(path, &p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cannot read") && strstr(err, "Permission denied"), "%s", err);
    wb_record r;
    wb_record_set(&r, "w01.vecadd", NULL, "gpu", NULL, NULL);
    ck_assert_int_eq(wb_progress_update(path, &r, 1, err, sizeof err), -1);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0);
    chmod(path, 0600);
}
END_TEST

void progress_tests(TCase *t)
{
    tcase_add_test(t, progress_parse_and_render_roundtrip);
    tcase_add_test(t, progress_corrupt_refused_with_line);
    tcase_add_test(t, progress_update_keeps_notes_and_replaces);
    tcase_add_test(t, progress_update_refuses_corrupt_file_untouched);
    tcase_add_test(t, progress_created_when_missing);
    tcase_add_test(t, progress_interrupted_write_leaves_file);
    tcase_add_test(t, progress_symlink_followed_and_mode_kept);
    tcase_add_test(t, progress_dangling_symlink_creates_target);
    tcase_add_test(t, progress_mode_new_and_kept);
    tcase_add_test(t, progress_concurrent_writers_lose_nothing);
    tcase_add_test(t, progress_missing_folder_named);
    tcase_add_test(t, progress_directory_refused);
    tcase_add_test(t, progress_unreadable_refused);
}
