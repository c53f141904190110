/* unpack.h — a student's submission, from the class folder into a fresh folder.
 *
 * A submission is a folder or a .tar, .tar.gz, .tgz or .zip archive; its name
 * less the extension is the student's id. up_import() makes DEST from it
 * holding only regular files (mode 0644, or 0755 if executable) and folders:
 * a symlink, a hard link, a device, fifo or socket, a setuid/setgid/sticky
 * bit, an absolute path, a `..` component, a name with a control character or
 * a backslash, the same path twice, or a cap passed refuses the whole
 * submission with a message naming the entry. Nothing is half done: the work
 * goes into a temporary folder beside DEST, renamed to DEST at the end.
 *
 * Archives are read with libarchive (tar and zip formats, gzip or no
 * compression; nothing else is enabled), written with
 * ARCHIVE_EXTRACT_SECURE_NODOTDOT, _SECURE_SYMLINKS, _SECURE_NOABSOLUTEPATHS
 * on top of the checks above. Sizes are counted from the data as it is
 * written, not from the headers, so a compression bomb or a lying header
 * stops at the cap.
 *
 * Limits: file names are taken as bytes (no Unicode normalisation: two
 * spellings of one name are two files); an archive nested in the archive is
 * just a file.
 */
#ifndef UNPACK_H
#define UNPACK_H

#include <stddef.h>

#include "names.h"

typedef struct {
    long long max_total_bytes;   /* all files together; 0: 256 MiB */
    long      max_entries;       /* files and folders; 0: 10000 */
    long long max_file_bytes;    /* one file; 0: 64 MiB */
} up_limits;

/* DEST (which must not exist) from SRC, a folder or an archive. Returns 0, or
 * -1 with the reason in err (naming SRC and the entry). */
int up_import(const char *src, const char *dest, const up_limits *lim, char *err, size_t errsz);

/* up_escape and up_id_ok: names.h */

/* The student's id of a class-folder entry name ("bob.tar.gz" -> "bob"): 0;
 * -1 if the name is not a submission's (a dot file, another extension, an
 * empty id); -2 if it is but cannot be an id (up_id_ok). */
int up_student_id(const char *name, int is_dir, char *id, size_t idsz);

typedef struct {
    char id[128];
    char path[4096];     /* DIR/name */
    int  is_dir;
} up_submission;

/* Every submission in DIR, sorted by id. -1 if two entries give one id
 * ("bob/ and bob.tar.gz are both student bob") or an entry has an unusable
 * name; err lists every such problem, one a line. Other entries (dot files,
 * other extensions) are listed in `ignored` if given (one a line). *out is
 * malloc'd. */
int up_list(const char *dir, up_submission **out, int *n, char *err, size_t errsz, char *ignored, size_t ignsz);

#endif
