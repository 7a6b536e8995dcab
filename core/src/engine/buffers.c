#include "engine/buffers.h"
#include "engine/datatypes.h"

#include <stdlib.h>
#include <string.h>

#define ALIGNMENT 64

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
