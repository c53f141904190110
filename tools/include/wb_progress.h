/* wb_progress.h — the learner's progress file (progress.md by default).
 *
 * A Markdown file a person reads and edits. Records live between two marker
 * lines; everything outside them is the learner's own and is kept verbatim:
 *
 *   <!-- wb:records (written by make ... check; edit outside this block) -->
 *   - [x] w01.vecadd-bw | 2026-11-22 | NVIDIA H100 80GB HBM3 | 0.94 of COPY (2810 GB/s) | >= 0.85 COPY
 *   <!-- wb:end -->
 *
 * Every non-blank line inside the block must be a record of five fields
 * separated by " | ": checkpoint id, date (YYYY-MM-DD), GPU, measured figure,
 * target. A file that breaks this is refused with its line number and left
 * untouched. Updates are written to a temporary file in the same folder and
 * renamed over the old one, under a lock, so an interrupted run never leaves
 * a half-written file. A symbolic link is followed (the file it points to is
 * replaced, the link stays), and the file keeps its mode and, where allowed,
 * its owner. The lock is PATH.lock beside the file, removed by its holder
 * before it lets go, so none is left behind. */
#ifndef WB_PROGRESS_H
#define WB_PROGRESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WB_PROGRESS_BEGIN "<!-- wb:records (written by make ... check; edit outside this block) -->"
#define WB_PROGRESS_END   "<!-- wb:end -->"

typedef struct {
    char id[64];
    char date[16];
    char gpu[128];
    char figure[160];
    char target[96];
} wb_record;

typedef struct {
    int        n;
    wb_record *rec;      /* n records in file order */
    char      *before;   /* text before the block (learner's) */
    char      *after;    /* text after the block (learner's) */
    int        has_block;
} wb_progress;

/* The progress file's path: WB_PROGRESS if set, else "progress.md". */
const char *wb_progress_path(void);

/* Parse the text of a progress file. Returns 0, or -1 with
 * "path:line: what is wrong" in err. A missing file is an empty progress. */
int  wb_progress_parse(const char *text, const char *path, wb_progress *p, char *err, size_t errsz);
int  wb_progress_load(const char *path, wb_progress *p, char *err, size_t errsz);
void wb_progress_free(wb_progress *p);
/* The record with this id, or NULL. */
const wb_record *wb_progress_find(const wb_progress *p, const char *id);
/* Render the whole file text (caller frees). */
char *wb_progress_render(const wb_progress *p);

/* Add or replace records in the file at `path`, atomically and under a lock.
 * Returns 0, or -1 with the reason in err (the file is then unchanged): a
 * refused file, or what stands in the way ("the folder X does not exist",
 * "X is a directory, not a file", a folder that cannot be written in). */
int wb_progress_update(const char *path, const wb_record *recs, int n, char *err, size_t errsz);
/* Whether an update could write `path`: 0, or -1 with what stands in the way,
 * as wb_progress_update would say it. Reads and changes nothing. */
int wb_progress_check(const char *path, char *err, size_t errsz);

/* Which hints `make WEEK hint` has shown, kept beside the progress file (and
 * so not lost with build/): wb_hints_path gives PROGRESS.hints
 * ("progress.md.hints"), one line a week, "phase0/week01 2", under a comment.
 * wb_hints_shown: the count of `week`, or -1 where the file has no line for
 * it (or no file). wb_hints_set writes it as the progress file is written
 * (under a lock, to a temporary file renamed over the old one), keeping every
 * other line: 0, or -1 with the reason in err (the file is then unchanged). */
int  wb_hints_path(char *buf, size_t n); /* 0, or -1 (buf "") where PROGRESS.hints does not fit in n bytes */
int  wb_hints_shown(const char *path, const char *week);
int  wb_hints_set(const char *path, const char *week, int shown, char *err, size_t errsz);

/* Fill a record's fields, replacing any '|' or newline so it stays parseable.
 * date NULL means today. */
void wb_record_set(wb_record *r, const char *id, const char *date, const char *gpu,
                   const char *figure, const char *target);

#ifdef __cplusplus
}
#endif
#endif
