#include "util/parse.h"
#include "util/strutil.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int parse_integer(const char *s, long long lo, long long hi, long long *out) {
  char *end;
  if (!s || !*s) return -1;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (*end || errno || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

int parse_double(const char *s, double *out) {
  char *end;
  if (!s || !*s) return -1;
  errno = 0;
  double v = strtod(s, &end);
  if (*end || errno || !isfinite(v)) return -1; /* nan and inf would turn checks such as v <= 0 off */
  *out = v;
  return 0;
}

int parse_bool(const char *s, int *out) {
  static const char *yes[] = {"on", "yes", "true", "enable", "1"};
  static const char *no[] = {"off", "no", "false", "disable", "0"};
  for (size_t i = 0; i < 5; i++) {
    if (str_ieq(s, yes[i])) { *out = 1; return 0; }
    if (str_ieq(s, no[i])) { *out = 0; return 0; }
  }
  return -1;
}

unsigned long long size_suffix(char c) {
  switch (c) {
    case 'k': case 'K': return 1ULL << 10;
    case 'm': case 'M': return 1ULL << 20;
    case 'g': case 'G': return 1ULL << 30;
    default: return 0;
  }
}

int parse_size(const char *s, size_t *out) {
  char *end;
  if (!s || !*s || *s == '-' || *s == '+') return -1;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || errno) return -1;
  unsigned long long mult = 1;
  if (*end) {
    mult = size_suffix(*end);
    if (!mult || end[1]) return -1;
  }
  if (v > (unsigned long long)SIZE_MAX / mult) return -1;
  *out = (size_t)(v * mult);
  return 0;
}
