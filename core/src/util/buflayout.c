#include "util/buflayout.h"

#define DEFAULT_CACHE_MB 8.0
#define DEFAULT_CACHE_LINE 64

size_t buffer_bytes(bufsize_t kind, size_t X, int np) {
  switch (kind) {
    case BUF_NONE: return 0;
    case BUF_X: return X;
    case BUF_2X: return 2 * X;
    case BUF_NP_X: return (size_t)np * X;
  }
  return 0;
}

void buffer_layout(size_t len, const options_t *o, long n_sample, layout_t *out) {
  out->len = len;
  out->stride = len;
  out->slots = 1;
  out->alloc = len;
  if (!o->off_cache) return;
  double cache_mb = o->cache_size_mb < 0 ? DEFAULT_CACHE_MB : o->cache_size_mb;
  size_t line = o->cache_line > 0 ? (size_t)o->cache_line : DEFAULT_CACHE_LINE;
  size_t cache = (size_t)(cache_mb * 1048576.0);
  out->stride = ((len + line - 1) / line + 1) * line;
  long slots = (long)((2 * cache + out->stride - 1) / out->stride);
  if (slots > n_sample) slots = n_sample;
  if (slots < 1) slots = 1;
  out->slots = slots;
  out->alloc = (size_t)slots * out->stride;
  if (out->alloc < len) out->alloc = len;
}

void buffer_layout_disjoint(size_t len, long n, layout_t *out) {
  out->len = len;
  out->stride = len;
  out->slots = n > 1 ? n : 1;
  out->alloc = (size_t)out->slots * len;
}
