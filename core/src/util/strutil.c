#include "util/strutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int str_ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

char *str_dup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (!d) {
    fprintf(stderr, "mpimark-core: out of memory\n");
    exit(1);
  }
  return memcpy(d, s, n);
}

char *str_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
  return s;
}

const char *str_gigabytes(double gb, char *buf, size_t n) {
  if (gb >= 0.5) snprintf(buf, n, "%.3f GB", gb);
  else if (gb * 1024.0 >= 0.5) snprintf(buf, n, "%.1f MB", gb * 1024.0);
  else snprintf(buf, n, "%.0f KB", gb * 1024.0 * 1024.0);
  return buf;
}
