#include "tools/mpibench/mpib_calc.h"
#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int mpib_parse_bytes(const char *s, size_t *out) {
  if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+') return -1;
  /* Digits and at most one point, then the unit: strtod would also accept
   * hex, exponents, inf and nan, which mpiBench's users never mean. */
  const char *p = s;
  int digits = 0, points = 0;
  for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
    if (*p == '.') points++;
    else digits++;
  }
  if (digits == 0 || points > 1) return -1;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end != p) return -1;
  double unit = 1;
  if (*p) {
    unit = (double)size_suffix(*p++);
    if (unit == 0) return -1;
  }
  if (unit > 1 && (*p == 'b' || *p == 'B')) p++;
  if (*p) return -1;
  double bytes = floor(v * unit);
  if (bytes < 0 || bytes >= 18446744073709551616.0 || bytes > (double)SIZE_MAX) return -1;
  *out = (size_t)bytes;
  return 0;
}

size_t mpib_next_size(size_t s) { return s > 0 ? s << 1 : 1; }

size_t mpib_cap_stop(size_t stop, int nprocs, size_t mem_limit) {
  while (stop > 0 && (double)stop * (double)nprocs * 2.0 > (double)mem_limit) stop /= 2;
  return stop;
}

int mpib_partition_levels(int nprocs, int partsize, int *sizes, int max) {
  int n = 0;
  if (partsize <= 0) return 0;
  for (int cur = nprocs; cur >= partsize && cur > 0 && n < max; cur >>= 1) sizes[n++] = cur;
  return n;
}

int mpib_partition_color(int rank, int cur) { return rank / cur; }

int mpib_partition_groups(int nprocs, int cur) { return (nprocs + cur - 1) / cur; }

void mpib_cart_coords(int rank, int ndims, const int *dims, int *coords) {
  for (int d = ndims - 1; d >= 0; d--) {
    coords[d] = rank % dims[d];
    rank /= dims[d];
  }
}

void mpib_cart_split(int rank, int ndims, const int *dims, int d, int *color, int *key) {
  int coords[MPIB_MAX_DIMS];
  mpib_cart_coords(rank, ndims, dims, coords);
  int c = 0;
  for (int i = 0; i < ndims; i++)
    if (i != d) c = c * dims[i] + coords[i];
  *color = c;
  *key = coords[d];
}

int mpib_cart_groups(int nprocs, const int *dims, int d) { return dims[d] > 0 ? nprocs / dims[d] : 0; }

int mpib_chunk(int count, int nranks) {
  int c = nranks > 0 ? count / nranks : 0;
  return c > 0 ? c : 1;
}

int mpib_alltoallv_count(int i, int rank, int chunk, int count) {
  return (int)(((long long)(i + rank) * chunk) % (count + 1));
}

int mpib_gatherv_count(int i, int chunk, int count) { return (int)(((long long)i * chunk) % (count + 1)); }
