/* test_unpack.c — Check tests of unpack.c: archives are made here with
 * libarchive's writer, one bad thing each, after some good entries (so a
 * partial unpack would show). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "unpack.h"

#include <archive.h>
#include <archive_entry.h>
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64], arc[128], dest[128];

static void setup(void)
{
    snprintf(root, sizeof root, "/tmp/upt-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(dest, sizeof dest, "%s/out", root);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", root);
}

/* An archive entry: type 'f' file, 'd' folder, 'l' symlink, 'h' hard link,
 * 'c' char device, 'p' fifo; mode bits; data or link target; size for 'z'
 * (a file of that many zero bytes). */
typedef struct {
    char        type;
    const char *name;
    int         mode;
    const char *data;
    long long   zeros;
} ent;

static void make_archive(const char *name, int zip, const ent *es)
{
    snprintf(arc, sizeof arc, "%s/%s", root, name);
    struct archive *a = archive_write_new();
    if (zip) archive_write_set_format_zip(a);
    else archive_write_set_format_pax_restricted(a);
    if (!zip && strstr(name, "gz")) archive_write_add_filter_gzip(a);
    ck_assert_int_eq(archive_write_open_filename(a, arc), ARCHIVE_OK);
    for (const ent *e = es; e->type; e++) {
        struct archive_entry *en = archive_entry_new();
        archive_entry_set_pathname(en, e->name);
        archive_entry_set_perm(en, e->mode ? e->mode : 0644);
        long long size = 0;
        switch (e->type) {
        case 'f': archive_entry_set_filetype(en, AE_IFREG); size = e->zeros ? e->zeros : (long long)strlen(e->data); break;
        case 'd': archive_entry_set_filetype(en, AE_IFDIR); break;
        case 'l': archive_entry_set_filetype(en, AE_IFLNK); archive_entry_set_symlink(en, e->data); break;
        case 'h': archive_entry_set_filetype(en, AE_IFREG); archive_entry_set_hardlink(en, e->data); break;
        case 'c': archive_entry_set_filetype(en, AE_IFCHR); archive_entry_set_rdev(en, 0x0103); break;
        case 'p': archive_entry_set_filetype(en, AE_IFIFO); break;
        }
        archive_entry_set_size(en, size);
        ck_assert_int_eq(archive_write_header(a, en), ARCHIVE_OK);
        if (e->type == 'f' && e->zeros) {
            static char z[65536];
            for (long long left = e->zeros; left > 0; left -= (long long)sizeof z)
                archive_write_data(a, z, left < (long long)sizeof z ? (size_t)left : sizeof z);
        } else if (e->type == 'f') {
            archive_write_data(a, e->data, strlen(e->data));
        }
        archive_entry_free(en);
    }
    archive_write_close(a);
    archive_write_free(a);
}

/* Nothing half made: neither dest nor a .part folder beside it. */
static void assert_nothing_left(void)
{
    struct stat st;
    ck_assert_msg(lstat(dest, &st) != 0, "dest exists after a refusal");
    DIR *d = opendir(root);
    struct dirent *e;
    while ((e = readdir(d))) ck_assert_msg(!strstr(e->d_name, ".part-"), "left %s", e->d_name);
    closedir(d);
}

static char err[1024];

static void expect_refused(const char *archive_name, int zip, const ent *es, const char *entry, const char *why,
                           const up_limits *lim)
{
    make_archive(archive_name, zip, es);
    int rc = up_import(arc, dest, lim, err, sizeof err);
    ck_assert_msg(rc == -1, "%s was accepted", archive_name);
    if (entry) ck_assert_msg(strstr(err, entry), "the message must name '%s': %s", entry, err);
    ck_assert_msg(strstr(err, why), "the message must say '%s': %s", why, err);
    assert_nothing_left();
}

static const char *slurp(const char *rel)
{
    static char buf[4096];
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dest, rel);
    FILE *f = fopen(p, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

#define GOOD { 'd', "phase0/", 0755, NULL, 0 }, { 'f', "phase0/week01/vecadd.cu", 0644, "// mine\n", 0 }

START_TEST(good_tar_gz)
{
    ent es[] = { GOOD, { 'f', "./phase0/week01/run.sh", 0755, "#!/bin/sh\n", 0 }, { 'f', "top.cu", 0600, "x", 0 }, { 0 } };
    make_archive("bob.tar.gz", 0, es);
    ck_assert_msg(up_import(arc, dest, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(slurp("phase0/week01/vecadd.cu"), "// mine\n");
    struct stat st;
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    char p[256];
    snprintf(p, sizeof p, "%s/phase0/week01/run.sh", dest);
    ck_assert(stat(p, &st) == 0 && (st.st_mode & 07777) == 0755);
    snprintf(p, sizeof p, "%s/top.cu", dest);
    ck_assert(stat(p, &st) == 0 && (st.st_mode & 07777) == 0644);
}
END_TEST

START_TEST(good_zip)
{
    ent es[] = { GOOD, { 0 } };
    make_archive("bob.zip", 1, es);
    ck_assert_msg(up_import(arc, dest, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(slurp("phase0/week01/vecadd.cu"), "// mine\n");
}
END_TEST

START_TEST(symlink_refused)
{
    ent es[] = { GOOD, { 'l', "phase0/week01/test_week01.c", 0777, "/etc/passwd", 0 }, { 0 } };
    expect_refused("s.tar", 0, es, "phase0/week01/test_week01.c", "symbolic link", NULL);
    expect_refused("s.zip", 1, es, "phase0/week01/test_week01.c", "symbolic link", NULL);
}
END_TEST

START_TEST(hardlink_refused)
{
    ent es[] = { GOOD, { 'h', "phase0/week01/h.cu", 0644, "phase0/week01/vecadd.cu", 0 }, { 0 } };
    expect_refused("h.tar", 0, es, "phase0/week01/h.cu", "hard link", NULL);
}
END_TEST

START_TEST(device_and_fifo_refused)
{
    ent c[] = { GOOD, { 'c', "phase0/null", 0666, NULL, 0 }, { 0 } };
    expect_refused("c.tar", 0, c, "phase0/null", "not a regular file", NULL);
    ent p[] = { GOOD, { 'p', "phase0/fifo", 0666, NULL, 0 }, { 0 } };
    expect_refused("p.tar.gz", 0, p, "phase0/fifo", "not a regular file", NULL);
}
END_TEST

START_TEST(setuid_setgid_sticky_refused)
{
    ent u[] = { GOOD, { 'f', "phase0/su", 04755, "x", 0 }, { 0 } };
    expect_refused("u.tar", 0, u, "phase0/su", "setuid", NULL);
    ent g[] = { GOOD, { 'f', "phase0/sg", 02755, "x", 0 }, { 0 } };
    expect_refused("g.tar", 0, g, "phase0/sg", "setuid", NULL);
    ent t[] = { GOOD, { 'd', "phase0/sticky", 01777, NULL, 0 }, { 0 } };
    expect_refused("t.tar", 0, t, "phase0/sticky", "sticky", NULL);
}
END_TEST

START_TEST(absolute_and_dotdot_refused)
{
    ent a[] = { GOOD, { 'f', "/tmp/evil-upt", 0644, "x", 0 }, { 0 } };
    expect_refused("a.tar", 0, a, "/tmp/evil-upt", "absolute", NULL);
    ck_assert(access("/tmp/evil-upt", F_OK) != 0);
    ent d[] = { GOOD, { 'f', "phase0/../../evil", 0644, "x", 0 }, { 0 } };
    expect_refused("d.tar", 0, d, "phase0/../../evil", "'..'", NULL);
    expect_refused("d.zip", 1, d, "phase0/../../evil", "'..'", NULL);
    ent n[] = { GOOD, { 'f', "phase0/a\nb", 0644, "x", 0 }, { 0 } };
    expect_refused("n.tar", 0, n, "phase0/a", "control character", NULL);
}
END_TEST

START_TEST(same_path_twice_refused)
{
    ent es[] = { GOOD, { 'f', "phase0/week01/vecadd.cu", 0644, "// second\n", 0 }, { 0 } };
    expect_refused("twice.tar", 0, es, "phase0/week01/vecadd.cu", "cannot be written", NULL);
}
END_TEST

START_TEST(caps)
{
    up_limits small = { .max_total_bytes = 1000, .max_entries = 3, .max_file_bytes = 100 };
    ent big[] = { GOOD, { 'f', "phase0/big", 0644, NULL, 101 }, { 0 } };
    expect_refused("big.tar", 0, big, "phase0/big", "larger than 100 bytes", &small);
    ent many[] = { GOOD, { 'f', "a", 0, "1", 0 }, { 'f', "b", 0, "2", 0 }, { 0 } };
    expect_refused("many.tar", 0, many, NULL, "more than 3 files", &small);
    ent total[] = { { 'f', "a", 0, NULL, 90 }, { 'f', "b", 0, NULL, 90 }, { 'f', "c", 0, NULL, 90 }, { 0 } };
    up_limits t = { .max_total_bytes = 200, .max_file_bytes = 100 };
    expect_refused("total.tar", 0, total, NULL, "more than 200 bytes in all", &t);
    /* A bomb: 64 MiB of zeros is a small .tar.gz; the cap stops it, whatever
     * the header says. */
    up_limits b = { .max_total_bytes = 1 << 20, .max_file_bytes = 128LL << 20 };
    ent bomb[] = { { 'f', "zeros", 0, NULL, 64LL << 20 }, { 0 } };
    expect_refused("bomb.tar.gz", 0, bomb, NULL, "more than 1048576 bytes in all", &b);
    struct stat st;
    ck_assert(stat(arc, &st) == 0 && st.st_size < (1 << 20));
}
END_TEST

START_TEST(not_an_archive_and_dest_exists)
{
    snprintf(arc, sizeof arc, "%s/junk.zip", root);
    FILE *f = fopen(arc, "w");
    fputs("this is not a zip file, just text that goes on for a while\n", f);
    fclose(f);
    ck_assert_int_eq(up_import(arc, dest, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "junk.zip"), "%s", err);
    /* named by its own name: the instructor's folders never reach the feedback */
    ck_assert_msg(strncmp(err, "junk.zip: ", 10) == 0 && !strstr(err, root), "%s", err);
    assert_nothing_left();
    ent es[] = { GOOD, { 0 } };
    make_archive("ok.tar", 0, es);
    mkdir(dest, 0755);
    ck_assert_int_eq(up_import(arc, dest, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "exists"), "%s", err);
}
END_TEST

START_TEST(folder_submission)
{
    char src[160], p[256];
    snprintf(src, sizeof src, "%s/alice", root);
    snprintf(p, sizeof p, "%s/phase0/week01", src);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && echo '// alice' > '%s/vecadd.cu'", p, p);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_msg(up_import(src, dest, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(slurp("phase0/week01/vecadd.cu"), "// alice\n");
    /* a symlink in a folder submission is refused like one in an archive */
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && ln -s /etc/passwd '%s/test_week01.c'", dest, p);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(up_import(src, dest, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "phase0/week01/test_week01.c") && strstr(err, "symbolic link"), "%s", err);
    assert_nothing_left();
}
END_TEST

START_TEST(student_ids)
{
    char id[128];
    ck_assert_int_eq(up_student_id("bob.tar.gz", 0, id, sizeof id), 0);
    ck_assert_str_eq(id, "bob");
    ck_assert_int_eq(up_student_id("a.b-c@uni.tgz", 0, id, sizeof id), 0);
    ck_assert_str_eq(id, "a.b-c@uni");
    ck_assert_int_eq(up_student_id("bob.tar", 0, id, sizeof id), 0);
    ck_assert_int_eq(up_student_id("bob.zip", 0, id, sizeof id), 0);
    ck_assert_int_eq(up_student_id("bob", 1, id, sizeof id), 0);
    ck_assert_int_eq(up_student_id("bob.rar", 0, id, sizeof id), -1);
    ck_assert_int_eq(up_student_id(".hidden", 1, id, sizeof id), -1);
    ck_assert_int_eq(up_student_id(".zip", 0, id, sizeof id), -1);
    ck_assert_int_eq(up_student_id("bob smith.zip", 0, id, sizeof id), -2);
    ck_assert_int_eq(up_student_id("x;rm -rf", 1, id, sizeof id), -2);
    /* a gradebook cell a spreadsheet would take for a formula */
    ck_assert_int_eq(up_student_id("+1+1.tgz", 0, id, sizeof id), -2);
    ck_assert_int_eq(up_student_id("-2+3", 1, id, sizeof id), -2);
    ck_assert_int_eq(up_student_id("@A2.zip", 0, id, sizeof id), -2);
    ck_assert_int_eq(up_student_id("a+b@c-d", 1, id, sizeof id), 0);
}
END_TEST

START_TEST(duplicate_students_refused)
{
    char cls[160], p[256], ign[256];
    snprintf(cls, sizeof cls, "%s/class", root);
    mkdir(cls, 0755);
    const char *make[] = { "bob/", "bob.tar.gz", "carol.zip", "dave/", "notes.txt", "carol.tgz", NULL };
    for (int i = 0; make[i]; i++) {
        snprintf(p, sizeof p, "%s/%s", cls, make[i]);
        if (strchr(make[i], '/')) mkdir(p, 0755);
        else fclose(fopen(p, "w"));
    }
    up_submission *s;
    int n;
    ck_assert_int_eq(up_list(cls, &s, &n, err, sizeof err, ign, sizeof ign), -1);
    ck_assert_msg(strstr(err, "/class/bob and ") && strstr(err, "/class/bob.tar.gz are both student bob"), "%s", err);
    ck_assert_msg(strstr(err, "/class/carol.tgz and ") && strstr(err, "/class/carol.zip are both student carol"), "%s", err);
    ck_assert_msg(!strstr(err, "dave"), "%s", err);
    ck_assert_str_eq(ign, "notes.txt\n");
    free(s);
    snprintf(p, sizeof p, "%s/bob.tar.gz", cls), unlink(p);
    snprintf(p, sizeof p, "%s/carol.tgz", cls), unlink(p);
    ck_assert_msg(up_list(cls, &s, &n, err, sizeof err, NULL, 0) == 0, "%s", err);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(s[0].id, "bob");
    ck_assert_int_eq(s[0].is_dir, 1);
    ck_assert_str_eq(s[1].id, "carol");
    ck_assert_str_eq(s[2].id, "dave");
    free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("unpack");
    TCase *t = tcase_create("unpack");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 60);
    tcase_add_test(t, good_tar_gz);
    tcase_add_test(t, good_zip);
    tcase_add_test(t, symlink_refused);
    tcase_add_test(t, hardlink_refused);
    tcase_add_test(t, device_and_fifo_refused);
    tcase_add_test(t, setuid_setgid_sticky_refused);
    tcase_add_test(t, absolute_and_dotdot_refused);
    tcase_add_test(t, same_path_twice_refused);
    tcase_add_test(t, caps);
    tcase_add_test(t, not_an_archive_and_dest_exists);
    tcase_add_test(t, folder_submission);
    tcase_add_test(t, student_ids);
    tcase_add_test(t, duplicate_students_refused);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
