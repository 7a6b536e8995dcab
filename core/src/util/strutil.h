/* Small string helpers the C library lacks in strict C11. */
#ifndef MPIMARK_STRUTIL_H
#define MPIMARK_STRUTIL_H

int str_ieq(const char *a, const char *b);   /* case-insensitive equality */
char *str_dup(const char *s);                /* strdup; aborts on no memory */
char *str_trim(char *s);                     /* trims whitespace in place */

#endif
