/* wb_file.h — reading a whole file, the one way every tool does it. */
#ifndef WB_FILE_H
#define WB_FILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The contents of the regular file `path`, NUL-terminated, malloc'd (the
 * caller frees); *len (if given) is its length in bytes. NULL with errno set
 * when it cannot be read (EISDIR for a folder, which fopen would open). */
char *wb_read_file(const char *path, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
