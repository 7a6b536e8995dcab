#include "engine/buffers.h"
#include "engine/check.h"
#include "engine/datatypes.h"

#include <stdlib.h>
#include <string.h>

/* Where a buffer lands moves the numbers: with malloc (IMB's allocator) a
 * reduction's send and receive buffers can sit a few bytes apart modulo
 * 4 KiB, and the CPU then stalls on "4K aliasing"; aligned buffers avoid it
 * and measured up to 1.5x faster than IMB at 4-64 KiB (benchmarks/README.md,
 * issue 16). So the default is malloc's placement, for IMB's numbers, and
 * -buffer_align BYTES asks for aligned buffers.
 * Slot 0 gets the rank's values, the other slots copies, so every page is
 * written before the first timed iteration. */
static char *alloc_filled(const layout_t *l, dtype_t dt, int rank, long align) {
  size_t bytes = l->alloc > 0 ? l->alloc : 64;
  void *p = NULL;
  if (align == 0) p = malloc(bytes);
  else if (posix_memalign(&p, (size_t)align, bytes) != 0) p = NULL;
  if (!p) return NULL;
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
  c->sbuf = alloc_filled(s, c->dt, c->rank, c->opt->buffer_align);
  c->rbuf = alloc_filled(r, c->dt, c->rank, c->opt->buffer_align);
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

void buffers_grow(layout_t *s, layout_t *r, size_t whole) {
  if (s->alloc < whole) s->alloc = whole;
  if (r->alloc < whole) r->alloc = whole;
}

int buffers_send_reference(bench_ctx *c) {
  if (!c->whole) return 0;
  c->send_ref = malloc(c->whole);
  if (!c->send_ref) return -1;
  fill_values(c->send_ref, c->dt, c->whole / dtype_size(c->dt), c->rank, 0);
  return 0;
}

/* mpiBench computes its byte pattern in a plain loop; the engine's values
 * take a division per element, so they are copied from send_ref instead.
 * The work per call is mpiBench's: write both buffers whole, then read the
 * send buffer whole. */
void buffers_refill_whole(bench_ctx *c) {
  memcpy(c->sbuf, c->send_ref, c->whole);
  poison(c->rbuf, c->whole);
}

long buffers_send_changed(const bench_ctx *c) {
  if (memcmp(c->sbuf, c->send_ref, c->whole) == 0) return 0;
  return count_mismatches(c->sbuf, c->send_ref, c->dt, c->whole / dtype_size(c->dt));
}

void buffers_free(bench_ctx *c) {
  free(c->send_ref);
  c->send_ref = NULL;
  free(c->sbuf);
  free(c->rbuf);
  free(c->counts);
  free(c->displs);
  free(c->reqs);
  c->sbuf = c->rbuf = NULL;
  c->counts = c->displs = NULL;
  c->reqs = NULL;
}
