/* Small string helpers the C library lacks in strict C11. */
#ifndef MPIMARK_STRUTIL_H
#define MPIMARK_STRUTIL_H

int str_ieq(const char *a, const char *b);   /* case-insensitive equality */
char *str_dup(const char *s);                /* strdup; aborts on no memory */
char *str_trim(char *s);                     /* trims whitespace in place */
#include <stddef.h>
/* An amount of memory given in GB (2^30 bytes) in a unit that fits: "1.500 GB", "2.0 MB", "256 KB"
 * (0.000 GB says nothing). Writes to buf (n bytes) and returns it. */
const char *str_gigabytes(double gb, char *buf, size_t n);

#endif
