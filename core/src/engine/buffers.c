#include "engine/buffers.h"
#include "engine/datatypes.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_CACHE_MB 8.0
#define DEFAULT_CACHE_LINE 64
#define ALIGNMENT 64

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

/* Slot 0 gets the rank's values, the other slots copies, so every page is
 * written before the first timed iteration. */
static char *alloc_filled(const layout_t *l, dtype_t dt, int rank) {
  void *p = NULL;
  if (posix_memalign(&p, ALIGNMENT, l->alloc > 0 ? l->alloc : ALIGNMENT) != 0) return NULL;
  fill_values(p, dt, l->len / dtype_size(dt), rank, 0);
  for (long s = 1; s < l->slots; s++) memcpy((char *)p + (size_t)s * l->stride, p, l->len);
  return p;
}

int buffers_alloc(bench_ctx *c, const layout_t *s, const layout_t *r) {
  c->s_len = s->len;
  c->r_len = r->len;
  c->s_stride = s->stride;
  c->r_stride = r->stride;
  c->s_slots = s->slots;
  c->r_slots = r->slots;
  c->sbuf = alloc_filled(s, c->dt, c->rank);
  c->rbuf = alloc_filled(r, c->dt, c->rank);
  c->counts = malloc(sizeof(int) * (size_t)c->np);
  c->displs = malloc(sizeof(int) * (size_t)c->np);
  c->reqs = malloc(sizeof(MPI_Request) * (size_t)(2 * c->window + 1));
  if (!c->sbuf || !c->rbuf || !c->counts || !c->displs || !c->reqs) {
    buffers_free(c);
    return -1;
  }
  for (int i = 0; i < c->np; i++) {
    c->counts[i] = c->n;
    c->displs[i] = i * c->n;
  }
  return 0;
}

void buffers_free(bench_ctx *c) {
  free(c->sbuf);
  free(c->rbuf);
  free(c->counts);
  free(c->displs);
  free(c->reqs);
  c->sbuf = c->rbuf = NULL;
  c->counts = c->displs = NULL;
  c->reqs = NULL;
}
