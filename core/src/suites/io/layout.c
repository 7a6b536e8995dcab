#include "suites/io/layout.h"
#include "util/patterns.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void io_portion(int rank, int nprocs, size_t X, size_t unit, size_t *pos1, size_t *len) {
  size_t units = (X + unit - 1) / unit;
  size_t first = split_offset(units, nprocs, rank) * unit;
  size_t end = first + split_count(units, nprocs, rank) * unit;
  if (first > X) first = X;
  if (end > X) end = X;
  *pos1 = first;
  *len = end - first;
}

long io_sections(size_t X, long x_sample, double overall_vol) {
  if (X == 0) return 1;
  double by_volume = overall_vol / (double)X;
  long n = by_volume < (double)x_sample ? (long)by_volume : x_sample;
  return n > 1 ? n : 1;
}

size_t io_shared_offset(size_t X, size_t pos1, long k) { return (size_t)k * X + pos1; }

size_t io_private_offset(size_t len, long k) { return (size_t)k * len; }

size_t io_view_to_file(size_t v, size_t X, size_t pos1, size_t len) {
  return len == 0 ? v : (v / len) * X + pos1 + v % len;
}

int io_file_name(char *buf, size_t n, const char *dir, int group, int rank) {
  size_t dl = strlen(dir);
  const char *sep = dl == 0 || dir[dl - 1] == '/' ? "" : "/";
  char g[24] = "", r[24] = "";
  if (group >= 0) snprintf(g, sizeof(g), "_g%d", group);
  if (rank >= 0) snprintf(r, sizeof(r), "_%d", rank);
  int w = snprintf(buf, n, "%s%s%s%s%s", dir, sep, IO_BASE_NAME, g, r);
  return w < 0 || (size_t)w >= n ? -1 : 0;
}

/* ROMIO's prefixes are a word of two or more letters, digits or
 * underscores before a colon; one letter would be a drive, a slash a path. */
const char *io_posix_path(const char *name) {
  const char *p = name;
  while (isalnum((unsigned char)*p) || *p == '_') p++;
  return *p == ':' && p - name >= 2 ? p + 1 : name;
}

static const char *skip_number(const char *p) {
  const char *q = p;
  while (isdigit((unsigned char)*q)) q++;
  return q > p ? q : NULL;
}

int io_is_leftover(const char *entry) {
  const char *p = entry + (entry[0] == '.');
  size_t bl = strlen(IO_BASE_NAME);
  if (strncmp(p, IO_BASE_NAME, bl) != 0) return 0;
  p += bl;
  if (p[0] == '_' && p[1] == 'g') {
    if (!(p = skip_number(p + 2))) return 0;
  }
  if (p[0] == '_') {
    if (!(p = skip_number(p + 1))) return 0;
  }
  if (entry[0] == '.') return *p == '.';  /* hidden: only ROMIO's ".<name>.shfp..." */
  return *p == 0 || *p == '.' || *p == '-';
}
