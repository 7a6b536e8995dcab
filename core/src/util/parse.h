/* The command-line value parsers shared by the IMB option parser and the
 * tools: integers in a range, decimals, IMB's booleans and byte sizes. Each
 * takes the whole string (no trailing characters) and returns 0, or -1
 * without touching *out. */
#ifndef MPIMARK_PARSE_H
#define MPIMARK_PARSE_H

#include <stddef.h>

/* A decimal integer in [lo, hi]. */
int parse_integer(const char *s, long long lo, long long hi, long long *out);
/* A finite decimal number (strtod's syntax; nan and inf are refused). */
int parse_double(const char *s, double *out);
/* A boolean the way IMB takes it: on/yes/true/enable/1 or off/no/false/disable/0. */
int parse_bool(const char *s, int *out);
/* The multiplier of a size suffix k/K, m/M, g/G (base 1024), 0 for any other character. */
unsigned long long size_suffix(char c);
/* A byte size: a non-negative integer with an optional k/K, m/M, g/G suffix (base 1024). */
int parse_size(const char *s, size_t *out);

#endif
