/* test_harness.c — the common library's own tests (no GPU needed). */

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb.h"
#include "wb_regress.h"
#include "wb_f16.h"

static char tmpdir[256];

static void remove_tmpdir(void)
{
    if (!tmpdir[0]) return;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    tmpdir[0] = 0;
}

static void make_tmpdir(void)
{
    atexit(remove_tmpdir);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/wb-harness-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *path) { return wb_read_file(path, NULL); }

/* ---- comparison ---- */

START_TEST(compare_within_tolerance)
{
    float ref[4] = { 1.0f, -2.0f, 100.0f, 0.0f };
    float got[4] = { 1.0f + 1e-6f, -2.0f, 100.001f, 1e-7f };
    wb_cmp c;
    ck_assert_uint_eq(wb_compare_f32("x", got, ref, 4, 1e-6, 1e-5, &c), 0);
    got[2] = 100.01f; /* 1e-2 > 1e-6 + 1e-5 * 100 */
    ck_assert_uint_eq(wb_compare_f32("x", got, ref, 4, 1e-6, 1e-5, &c), 1);
    ck_assert_uint_eq(c.first_bad, 2);
    ck_assert_msg(strstr(c.msg, "x[2] expected 100 got 100.01") != NULL, "message: %s", c.msg);
}
END_TEST

START_TEST(compare_nan_never_passes)
{
    float ref[3] = { 1.0f, 2.0f, 3.0f }, got[3] = { 1.0f, NAN, 3.0f };
    wb_cmp c;
    ck_assert_uint_eq(wb_compare_f32("y", got, ref, 3, 1e9, 1e9, &c), 1);
    ck_assert_msg(strstr(c.msg, "got nan") != NULL, "message: %s", c.msg);
    got[1] = INFINITY;
    ck_assert_uint_eq(wb_compare_f32("y", got, ref, 3, 1e9, 1e9, &c), 1);
}
END_TEST

START_TEST(compare_nonfinite_references)
{
    ck_assert(wb_close(NAN, NAN, 0, 0));
    ck_assert(!wb_close(1.0, NAN, 1e9, 1e9));
    ck_assert(wb_close(INFINITY, INFINITY, 0, 0));
    ck_assert(!wb_close(-INFINITY, INFINITY, 0, 0));
    ck_assert(!wb_close(1e30, INFINITY, 1e9, 1e9));
}
END_TEST

START_TEST(compare_poisoned_output_fails)
{
    float ref[8] = { 0 }, got[8];
    wb_hpoison(got, sizeof got);
    ck_assert(isnan(got[0]));
    wb_cmp c;
    ck_assert_uint_eq(wb_compare_f32("z", got, ref, 8, 1e-3, 1e-3, &c), 8);
    ck_assert_msg(strstr(c.msg, "8 of 8 elements wrong") != NULL, "message: %s", c.msg);
    uint32_t a[3] = { 1, 2, 3 }, b[3] = { 1, 5, 3 };
    ck_assert_uint_eq(wb_compare_u32("h", a, b, 3, &c), 1);
    ck_assert_uint_eq(wb_count_not_byte(got, sizeof got, 0xFF), 0);
}
END_TEST

/* ---- statistics and random numbers ---- */

/* wb_f16.h, bfloat16: round to nearest even on the 16 bits dropped, NaN kept NaN
 * (quiet, same sign), Inf kept, the largest finite rounding up to Inf, and
 * every bfloat16 back to float exactly. */
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float flt(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

START_TEST(bf16_round_and_back)
{
    const struct { uint32_t in; uint16_t want; } C[] = {
        { 0x3f800000u, 0x3f80 },  /* 1 */
        { 0x3f808000u, 0x3f80 },  /* halfway, even below: stays */
        { 0x3f818000u, 0x3f82 },  /* halfway, odd below: rounds up to even */
        { 0x3f808001u, 0x3f81 },  /* just past halfway */
        { 0x3f807fffu, 0x3f80 },  /* just under halfway */
        { 0x80000000u, 0x8000 },  /* -0 */
        { 0x00000001u, 0x0000 },  /* the smallest denormal rounds to +0 */
        { 0x7f800000u, 0x7f80 },  /* +Inf */
        { 0xff800000u, 0xff80 },  /* -Inf */
        { 0x7f7fffffu, 0x7f80 },  /* the largest float: past bf16's largest, to Inf */
        { 0x7f800001u, 0x7fc0 },  /* a signalling NaN whose payload is all in the low half: still NaN, quiet */
        { 0xffc12345u, 0xffc1 },  /* a negative quiet NaN keeps its sign and top payload */
    };
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        uint16_t got = wb_f32_to_bf16(flt(C[i].in));
        ck_assert_msg(got == C[i].want, "wb_f32_to_bf16(0x%08x) = 0x%04x, want 0x%04x", C[i].in, got, C[i].want);
    }
    for (uint32_t h = 0; h <= 0xffffu; h++) {
        float f = wb_bf16_to_f32((uint16_t)h);
        ck_assert_msg(bits(f) == h << 16, "wb_bf16_to_f32(0x%04x) is not exact", h);
        if (!isnan(f)) ck_assert_msg(wb_f32_to_bf16(f) == h, "0x%04x does not come back from float", h);
    }
}
END_TEST

START_TEST(stats_median)
{
    double odd[5] = { 5, 1, 4, 2, 3 }, even[4] = { 4, 1, 3, 2 };
    ck_assert_double_eq(wb_median(odd, 5), 3);
    ck_assert_double_eq(wb_median(even, 4), 2.5);
    ck_assert_double_eq(odd[0], 5); /* input not reordered */
    ck_assert(isnan(wb_median(odd, 0)));
    wb_summary s;
    wb_summarize(odd, 5, &s);
    ck_assert_double_eq(s.min, 1);
    ck_assert_double_eq(s.max, 5);
    ck_assert_double_eq(s.mean, 3);
}
END_TEST

START_TEST(rng_reproducible_and_distinct)
{
    wb_rng a = wb_rng_for("t", 0), b = wb_rng_for("t", 0), c = wb_rng_for("t", 1), d = wb_rng_for("u", 0);
    uint64_t x = wb_rng_u64(&a);
    ck_assert_uint_eq(x, wb_rng_u64(&b));
    ck_assert_uint_ne(x, wb_rng_u64(&c));
    ck_assert_uint_ne(x, wb_rng_u64(&d));
    float v[1000];
    wb_fill_uniform_f32(&a, v, 1000, -1, 1);
    for (int i = 0; i < 1000; i++) ck_assert(v[i] >= -1 && v[i] < 1);
    for (int i = 0; i < 100; i++) {
        int64_t k = wb_rng_int(&a, 3, 7);
        ck_assert(k >= 3 && k <= 7);
    }
}
END_TEST

/* ---- progress file ---- */

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

/* ---- week metadata ---- */

/* A workbook in tmpdir: the real curriculum map, one week folder. */
static void make_week_tree(char *path, size_t n)
{
    make_tmpdir();
    char *cur = read_file("common/curriculum.txt");
    ck_assert_msg(cur != NULL, "run from the workbook's top folder (common/curriculum.txt)");
    char p[400];
    snprintf(p, sizeof p, "mkdir -p '%s/common' '%s/phase0/week01' '%s/phase1/week05'", tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(p), 0);
    snprintf(p, sizeof p, "%s/common/curriculum.txt", tmpdir);
    write_file(p, cur);
    free(cur);
    snprintf(path, n, "%s/phase0/week01/week.txt", tmpdir);
}

START_TEST(meta_parse_and_errors)
{
    char path[400];
    make_week_tree(path, sizeof path);
    write_file(path, "# comment\nexercise: vecadd\nlibs: -lcublas\n"
                     "checkpoint: w01.a | does a\ncheckpoint: w01.b | does b | >= 0.85 COPY\n"
                     "hint: vecadd | think\n");
    wb_week w;
    char err[600];
    ck_assert_msg(wb_week_load(path, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.n_checkpoints, 2);
    ck_assert_double_eq_tol(w.checkpoints[1].target, 0.85, 1e-12);
    ck_assert_str_eq(w.checkpoints[1].yard, "COPY");
    ck_assert_str_eq(w.libs, "-lcublas");
    ck_assert_int_eq(w.n_hints, 1);
    ck_assert_str_eq(w.title, "Build system, first kernel"); /* from common/curriculum.txt */
    ck_assert_str_eq(w.dir, "phase0/week01");
    ck_assert_int_eq(w.number, 1);
    write_file(path, "checkpoint: w01.b | does b | at least 0.85\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "week.txt:1:") != NULL, "%s", err);
    write_file(path, "bogus: 1\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    write_file(path, "checkpoint: a | x\ncheckpoint: a | y\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    /* a title is refused: titles live in one place */
    write_file(path, "title: Something else\n");
    ck_assert_int_eq(wb_week_load(path, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "curriculum.txt") != NULL, "%s", err);
}
END_TEST

START_TEST(meta_uses_and_needs)
{
    char path[400], p5[400];
    make_week_tree(path, sizeof path);
    snprintf(p5, sizeof p5, "%s/phase1/week05/week.txt", tmpdir);
    wb_week w;
    char err[600];
    write_file(p5, "uses: phase0/week01 phase0/week02\nuses: phase0/week03\nneeds: cutlass\n");
    ck_assert_msg(wb_week_load(p5, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.n_uses, 3);
    ck_assert_str_eq(w.uses[2], "phase0/week03");
    ck_assert_int_eq(w.n_needs, 1);
    ck_assert_str_eq(w.needs[0], "cutlass");
    const char *bad[] = { "uses: week01\n", "uses: phase0/week1\n", "uses: phase0/week01 phase0/week01\n",
                          "uses: phase1/week05\n", "needs: a/b\n" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(p5, bad[i]);
        ck_assert_msg(wb_week_load(p5, &w, err, sizeof err) == -1, "accepted: %s", bad[i]);
    }
    /* a week in the wrong phase's folder */
    snprintf(p5, sizeof p5, "mkdir -p '%s/phase0/week05'", tmpdir);
    ck_assert_int_eq(system(p5), 0);
    snprintf(p5, sizeof p5, "%s/phase0/week05/week.txt", tmpdir);
    write_file(p5, "exercise: x\n");
    ck_assert_int_eq(wb_week_load(p5, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "not in phase 0") != NULL, "%s", err);
}
END_TEST

START_TEST(curriculum_map)
{
    wb_curriculum c;
    char err[600];
    ck_assert_msg(wb_curriculum_load("common/curriculum.txt", &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.first_week[5], 21);
    ck_assert_int_eq(c.phase_of[38], 6);
    ck_assert_int_eq(c.first_week[9], 53);
    for (int w = 1; w <= 52; w++) ck_assert_msg(c.week[w][0], "week %d has no title", w);
    make_tmpdir();
    char p[400];
    snprintf(p, sizeof p, "%s/c.txt", tmpdir);
    write_file(p, "phase: 0 | A\nweek: 1 | x\nweek: 3 | y\n");
    ck_assert_int_eq(wb_curriculum_load(p, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "c.txt:3:") != NULL, "%s", err);
}
END_TEST

/* The 52 core weeks, then `track: N | P | title` lines (53 and up), in
 * order: each belongs to a phase, is marked as a track week, and leaves the
 * core ranges (first_week) as they are. */
static char *core_with(const char *tail)
{
    char *cur = read_file("common/curriculum.txt");
    ck_assert_ptr_nonnull(cur);
    char *t = strstr(cur, "\ntrack:");
    if (t) t[1] = 0; /* the core 52 only */
    size_t n = strlen(cur) + strlen(tail) + 1;
    char *s = malloc(n);
    snprintf(s, n, "%s%s", cur, tail);
    free(cur);
    return s;
}

START_TEST(curriculum_tracks)
{
    wb_curriculum c;
    char err[600], p[400];
    /* the workbook's own map: week 53 is Phase 5's Hopper track */
    ck_assert_msg(wb_curriculum_load("common/curriculum.txt", &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_ge(c.last_week, 53);
    ck_assert_int_eq(c.phase_of[53], 5);
    ck_assert_int_eq(c.track[53], 1);
    ck_assert_int_eq(c.track[52], 0);
    ck_assert_int_eq(c.first_week[9], 53);
    make_tmpdir();
    snprintf(p, sizeof p, "%s/c.txt", tmpdir);
    /* no track line: 52 weeks, as before */
    char *s = core_with("");
    write_file(p, s);
    free(s);
    ck_assert_msg(wb_curriculum_load(p, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.last_week, 52);
    ck_assert_int_eq(c.track[52], 0);
    /* two tracks of two phases; a title with a colon and a bar-free text */
    s = core_with("track: 53 | 5 | Hopper I: TMA\ntrack: 54 | 6 | Attention on Hopper\n");
    write_file(p, s);
    free(s);
    ck_assert_msg(wb_curriculum_load(p, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.last_week, 54);
    ck_assert_int_eq(c.phase_of[53], 5);
    ck_assert_int_eq(c.phase_of[54], 6);
    ck_assert_int_eq(c.track[54], 1);
    ck_assert_str_eq(c.week[53], "Hopper I: TMA");
    ck_assert_int_eq(c.first_week[6], 29); /* the core ranges are untouched */
    ck_assert_int_eq(c.first_week[9], 53);
    /* refused: out of order, a gap, no phase, a bad phase, no title, a core week after a track, past the limit */
    const char *bad[] = {
        "track: 54 | 5 | x\n",          "track: 53 | 5 | x\ntrack: 55 | 5 | y\n", "track: 53 | x\n",
        "track: 53 | 9 | x\n",          "track: 53 | -1 | x\n",                   "track: 53 | five | x\n",
        "track: 53 | 5 |\n",            "track: 53 | 5 | x\nweek: 54 | y\n",      "track: 52 | 5 | x\n",
        "week: 53 | x\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s = core_with(bad[i]);
        write_file(p, s);
        free(s);
        ck_assert_msg(wb_curriculum_load(p, &c, err, sizeof err) == -1, "accepted: %s", bad[i]);
        ck_assert_msg(strstr(err, "c.txt:") != NULL, "%s: %s", bad[i], err);
    }
    /* a track line before week 52 */
    write_file(p, "phase: 0 | A\nweek: 1 | x\ntrack: 2 | 0 | y\n");
    ck_assert_int_eq(wb_curriculum_load(p, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "after week 52") != NULL, "%s", err);
    /* weeks 53..64 fill up; 65 is refused */
    char tail[2048] = "";
    for (int w = 53; w <= WB_MAX_WEEK + 1; w++) {
        size_t k = strlen(tail);
        snprintf(tail + k, sizeof tail - k, "track: %d | 8 | t%d\n", w, w);
    }
    s = core_with(tail);
    write_file(p, s);
    free(s);
    ck_assert_int_eq(wb_curriculum_load(p, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "expected 65") != NULL || strstr(err, "53..64") != NULL, "%s", err);
}
END_TEST

/* A track week's folder: phase5/week53 loads (marked track, its title from
 * the map); the same number in another phase's folder, or a week past the
 * last track line, is refused. */
START_TEST(meta_track_week)
{
    char path[400], p[400];
    make_week_tree(path, sizeof path);
    snprintf(p, sizeof p, "%s/common/curriculum.txt", tmpdir);
    char *s = core_with("track: 53 | 5 | Hopper I: TMA, tensor maps and mbarriers\n");
    write_file(p, s);
    free(s);
    snprintf(p, sizeof p, "mkdir -p '%s/phase5/week53' '%s/phase4/week53' '%s/phase5/week54'", tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(p), 0);
    wb_week w;
    char err[600];
    snprintf(p, sizeof p, "%s/phase5/week53/week.txt", tmpdir);
    write_file(p, "exercise: tma_copy\nuses: phase5/week27\nnvflags: -gencode=arch=compute_90a,code=sm_90a\n"
                  "checkpoint: w53.box | box\n");
    ck_assert_msg(wb_week_load(p, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.number, 53);
    ck_assert_int_eq(w.phase, 5);
    ck_assert_int_eq(w.track, 1);
    ck_assert_str_eq(w.dir, "phase5/week53");
    ck_assert_str_eq(w.title, "Hopper I: TMA, tensor maps and mbarriers");
    write_file(path, "exercise: vecadd\n");
    ck_assert_msg(wb_week_load(path, &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.track, 0);
    snprintf(p, sizeof p, "%s/phase4/week53/week.txt", tmpdir);
    write_file(p, "exercise: x\n");
    ck_assert_int_eq(wb_week_load(p, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "not in phase 4") != NULL, "%s", err);
    snprintf(p, sizeof p, "%s/phase5/week54/week.txt", tmpdir);
    write_file(p, "exercise: x\n");
    ck_assert_int_eq(wb_week_load(p, &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "track:") != NULL, "%s", err);
}
END_TEST

/* ---- the results record ---- */

static wb_result sample_result(const char *id, int status)
{
    wb_result r;
    wb_result_init(&r);
    snprintf(r.week, sizeof r.week, "phase0/week01");
    snprintf(r.id, sizeof r.id, "%s", id);
    r.status = status;
    r.seed = 18446744073709551615ull;
    return r;
}

/* make regress's arithmetic: three runs make a baseline; a fourth run within
 * the noise raises no alarm, a planted 20 % slowdown is flagged, a record of
 * another GPU is refused, a checkpoint without a figure is flagged. */
static void regress_record(const char *path, double ratio, const char *gpu, int status)
{
    wb_result r[2];
    for (int i = 0; i < 2; i++) {
        wb_result_init(&r[i]);
        snprintf(r[i].week, sizeof r[i].week, "phase0/week01");
        snprintf(r[i].id, sizeof r[i].id, i ? "w01.vecadd" : "w01.vecadd-bw");
        snprintf(r[i].gpu, sizeof r[i].gpu, "%s", gpu);
        r[i].status = i ? WB_RES_PASS : status;
        if (!i) {
            r[i].ratio = ratio, r[i].value = 3000 * ratio, r[i].yard_value = 3000, r[i].target = 0.85;
            snprintf(r[i].unit, sizeof r[i].unit, "GB/s");
            snprintf(r[i].yard, sizeof r[i].yard, "COPY");
        }
    }
    char err[300];
    ck_assert_msg(wb_results_write(path, r, 2, err, sizeof err) == 0, "%s", err);
}

START_TEST(regress_baseline_and_check)
{
    char dir[] = "/tmp/wb-regress-XXXXXX", p[4][64], base[64], now[64], err[700];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const double runs[3] = { 1.00, 0.98, 1.01 };
    const char *recs[3];
    for (int i = 0; i < 3; i++) {
        snprintf(p[i], sizeof p[i], "%s/run%d.tsv", dir, i);
        regress_record(p[i], runs[i], "GPU A", WB_RES_PASS);
        recs[i] = p[i];
    }
    snprintf(base, sizeof base, "%s/baseline.tsv", dir);
    ck_assert_int_eq(wb_regress_baseline(base, recs, 3, err, sizeof err), 1); /* one checkpoint has a ratio */
    wb_regress_row *rows;
    ck_assert_int_eq(wb_regress_read(base, &rows, err, sizeof err), 1);
    ck_assert_int_eq(rows[0].runs, 3);
    ck_assert(fabs(rows[0].median - 1.00) < 1e-9 && fabs(rows[0].lo - 0.98) < 1e-9 && fabs(rows[0].hi - 1.01) < 1e-9);
    ck_assert(fabs(rows[0].band - WB_REGRESS_MIN_BAND) < 1e-9); /* 1.5 x 3 % spread is under the floor */
    free(rows);
    snprintf(now, sizeof now, "%s/now.tsv", dir);
    const char *one[1] = { now };
    FILE *out = fopen("/dev/null", "w");
    regress_record(now, 0.97, "GPU A", WB_RES_PASS);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), 0);
    regress_record(now, 0.80, "GPU A", WB_RES_PASS);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), 1);
    /* a run that missed its target is compared by its ratio; one with no
     * figure (wrong output) is flagged */
    regress_record(now, 0.25, "GPU A", WB_RES_FAIL);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), 1);
    regress_record(now, NAN, "GPU A", WB_RES_FAIL);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), 1);
    /* each checkpoint runs alone: the other runs of its week list it as
     * skipped, before or after the run that measured it */
    char skipped[64];
    snprintf(skipped, sizeof skipped, "%s/skipped.tsv", dir);
    regress_record(skipped, NAN, "GPU A", WB_RES_SKIP);
    regress_record(now, 0.97, "GPU A", WB_RES_PASS);
    const char *order1[2] = { now, skipped }, *order2[2] = { skipped, now };
    ck_assert_int_eq(wb_regress_check(base, order1, 2, out, err, sizeof err), 0);
    ck_assert_int_eq(wb_regress_check(base, order2, 2, out, err, sizeof err), 0);
    unlink(skipped);
    regress_record(now, 1.00, "GPU B", WB_RES_PASS);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "GPU B"));
    /* a baseline over two GPUs is refused; so is one with no ratio at all */
    snprintf(p[3], sizeof p[3], "%s/other.tsv", dir);
    regress_record(p[3], 1.0, "GPU B", WB_RES_PASS);
    const char *mixed[2] = { p[0], p[3] };
    ck_assert_int_eq(wb_regress_baseline(base, mixed, 2, err, sizeof err), -1);
    regress_record(p[3], 1.0, "GPU A", WB_RES_FAIL);
    const char *none[1] = { p[3] };
    ck_assert_int_eq(wb_regress_baseline(base, none, 1, err, sizeof err), -1);
    fclose(out);
    for (int i = 0; i < 4; i++) unlink(p[i]);
    unlink(base), unlink(now), rmdir(dir);
}
END_TEST

START_TEST(results_roundtrip)
{
    make_tmpdir();
    char path[400], err[600];
    snprintf(path, sizeof path, "%s/r.tsv", tmpdir);
    wb_result in[3] = { sample_result("w01.vecadd-bw", WB_RES_PASS), sample_result("w01.vecadd", WB_RES_FAIL),
                        sample_result("w01.devquery", WB_RES_SKIP) };
    in[0].value = 3027.4, in[0].yard_value = 2957.123456789, in[0].ratio = 3027.4 / 2957.123456789, in[0].target = 0.85;
    snprintf(in[0].unit, sizeof in[0].unit, "GB/s");
    snprintf(in[0].yard, sizeof in[0].yard, "COPY");
    snprintf(in[0].gpu, sizeof in[0].gpu, "NVIDIA H100 80GB HBM3");
    snprintf(in[0].detail, sizeof in[0].detail, "3027 GB/s vs COPY 2957 GB/s");
    in[0].tests = 1;
    snprintf(in[1].message, sizeof in[1].message, "test.c:80: n=1\tc[0]\nexpected 1 got nan");
    in[1].tests = 29, in[1].failed = 3;
    in[2].skipped = 2;
    ck_assert_msg(wb_results_write(path, in, 3, err, sizeof err) == 0, "%s", err);
    wb_result *out = NULL;
    int n = wb_results_read(path, &out, err, sizeof err);
    ck_assert_msg(n == 3, "%s", err);
    ck_assert_str_eq(out[0].id, "w01.vecadd-bw");
    ck_assert_int_eq(out[0].status, WB_RES_PASS);
    ck_assert(out[0].value == in[0].value && out[0].yard_value == in[0].yard_value && out[0].ratio == in[0].ratio);
    ck_assert(out[0].target == 0.85);
    ck_assert_str_eq(out[0].gpu, "NVIDIA H100 80GB HBM3");
    ck_assert(out[0].seed == 18446744073709551615ull);
    ck_assert(isnan(out[1].value) && isnan(out[1].ratio) && isnan(out[1].target));
    ck_assert_str_eq(out[1].message, "test.c:80: n=1 c[0] expected 1 got nan"); /* TAB and LF made spaces */
    ck_assert_int_eq(out[1].failed, 3);
    ck_assert_int_eq(out[2].status, WB_RES_SKIP);
    ck_assert_str_eq(out[2].gpu, "");
    char fig[300], tgt[64];
    wb_result_figure(&out[0], fig, sizeof fig);
    wb_result_target(&out[0], tgt, sizeof tgt);
    ck_assert_str_eq(fig, "1.024 of COPY (3027 GB/s vs COPY 2957 GB/s)");
    ck_assert_str_eq(tgt, ">= 0.85 COPY");
    free(out);
}
END_TEST

START_TEST(results_malformed_refused)
{
    make_tmpdir();
    char path[400], err[600];
    snprintf(path, sizeof path, "%s/r.tsv", tmpdir);
    wb_result *out = NULL;
    const char *bad[] = {
        "",                                                       /* empty */
        "PASS  w01.vecadd\n",                                     /* printed lines are not a record */
        "#wb-results 1\nhead\nw\tid\tok\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t0\t-\t-\n", /* status */
        "#wb-results 1\nhead\nw\tid\tpass\tfast\t-\t-\t-\t-\t-\t1\t-\t0\t0\t0\t-\t-\n", /* value */
        "#wb-results 1\nhead\nw\tid\tpass\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\n",            /* fields */
        "#wb-results 1\nhead\nw\tid\tpass\t-\t-\t-\t-\t-\t-\t-1\t-\t0\t0\t0\t-\t-\n", /* seed */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i]);
        ck_assert_msg(wb_results_read(path, &out, err, sizeof err) == -1, "accepted case %zu", i);
        ck_assert_msg(strstr(err, "r.tsv") != NULL, "%s", err);
    }
    snprintf(path, sizeof path, "%s/missing.tsv", tmpdir);
    ck_assert_int_eq(wb_results_read(path, &out, err, sizeof err), -1);
}
END_TEST

/* Records appended by several processes at once (Check forks one per
 * test) all arrive whole. */
START_TEST(results_append_from_processes)
{
    make_tmpdir();
    char path[400], err[600];
    snprintf(path, sizeof path, "%s/chan.tsv", tmpdir);
    ck_assert_int_eq(wb_results_start(path), 0);
    enum { PROCS = 4, EACH = 50 };
    for (int p = 0; p < PROCS; p++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (int k = 0; k < EACH; k++) {
                char id[32];
                snprintf(id, sizeof id, "p%d.k%d", p, k);
                wb_result r = sample_result(id, WB_RES_PASS);
                memset(r.message, 'x', 500);
                r.message[500] = 0;
                if (wb_results_append(path, &r) != 0) _exit(1);
            }
            _exit(0);
        }
    }
    for (int p = 0; p < PROCS; p++) {
        int st;
        wait(&st);
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    wb_result *out = NULL;
    int n = wb_results_read(path, &out, err, sizeof err);
    ck_assert_msg(n == PROCS * EACH, "%d records: %s", n, err);
    free(out);
}
END_TEST

START_TEST(read_file_whole)
{
    make_tmpdir();
    char p[400];
    snprintf(p, sizeof p, "%s/f.txt", tmpdir);
    char big[10000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    write_file(p, big);
    size_t len = 0;
    char *t = wb_read_file(p, &len);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(len, sizeof big - 1);
    ck_assert_str_eq(t, big);
    free(t);
    errno = 0;
    ck_assert_ptr_null(wb_read_file(tmpdir, NULL)); /* a folder opens, but is no file */
    ck_assert_int_eq(errno, EISDIR);
    snprintf(p, sizeof p, "%s/missing", tmpdir);
    ck_assert_ptr_null(wb_read_file(p, NULL));
}
END_TEST

START_TEST(seed_parse)
{
    uint64_t v;
    char err[200];
    ck_assert_int_eq(wb_seed_parse("20261122", &v, err, sizeof err), 0);
    ck_assert(v == 20261122u);
    ck_assert_int_eq(wb_seed_parse("010", &v, err, sizeof err), 0);
    ck_assert(v == 10); /* decimal, not octal */
    ck_assert_int_eq(wb_seed_parse("18446744073709551615", &v, err, sizeof err), 0);
    const char *bad[] = { "", "notanumber", "-5", "+5", "0x10", "12abc", " 12", "18446744073709551616", "1e3" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(wb_seed_parse(bad[i], &v, err, sizeof err) == -1, "accepted '%s'", bad[i]);
    ck_assert_int_eq(wb_seed_parse("random", &v, err, sizeof err), 0);
}
END_TEST

/* ---- device facts that need no device ---- */

START_TEST(fp32_lanes_table)
{
    ck_assert_int_eq(wb_fp32_lanes_per_sm(9, 0), 128);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(8, 0), 64);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(8, 6), 128);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(7, 0), 64);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("harness");
    TCase *t = tcase_create("compare");
    tcase_add_test(t, compare_within_tolerance);
    tcase_add_test(t, compare_nan_never_passes);
    tcase_add_test(t, compare_nonfinite_references);
    tcase_add_test(t, compare_poisoned_output_fails);
    tcase_add_test(t, bf16_round_and_back);
    suite_add_tcase(s, t);
    t = tcase_create("stats");
    tcase_add_test(t, stats_median);
    tcase_add_test(t, rng_reproducible_and_distinct);
    tcase_add_test(t, fp32_lanes_table);
    suite_add_tcase(s, t);
    t = tcase_create("progress");
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
    suite_add_tcase(s, t);
    t = tcase_create("meta");
    tcase_add_test(t, meta_parse_and_errors);
    tcase_add_test(t, meta_uses_and_needs);
    tcase_add_test(t, curriculum_map);
    tcase_add_test(t, curriculum_tracks);
    tcase_add_test(t, meta_track_week);
    tcase_add_test(t, regress_baseline_and_check);
    suite_add_tcase(s, t);
    t = tcase_create("results");
    tcase_add_test(t, results_roundtrip);
    tcase_add_test(t, results_malformed_refused);
    tcase_add_test(t, results_append_from_processes);
    tcase_add_test(t, seed_parse);
    tcase_add_test(t, read_file_whole);
    suite_add_tcase(s, t);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    const char *ledger = getenv("WB_LEDGER");
    if (ledger) {
        FILE *f = fopen(ledger, "a");
        TestResult **r = srunner_results(sr);
        for (int i = 0; f && i < srunner_ntests_run(sr); i++)
            fprintf(f, "%s\tharness %s\t%s\n", tr_rtype(r[i]) == CK_PASS ? "PASS" : "FAIL", tr_tcname(r[i]),
                    tr_rtype(r[i]) == CK_PASS ? "" : tr_msg(r[i]));
        if (f) fclose(f);
    }
    srunner_free(sr);
    return failed ? 1 : 0;
}
