#include "engine/buffers.h"
#include "engine/check.h"
#include "engine/datatypes.h"

#include <stdlib.h>
#include <string.h>

/* Where the buffers land moves the numbers (benchmarks/README.md, issue 16).
 * IMB takes its buffers from MPI_Alloc_mem, which Intel MPI serves from
 * malloc: 16-byte alignment, and for every size the send buffer and then the
 * receive buffer, both freed after it. Once the sizes outgrow the holes in
 * the heap the pair comes off its top, and the receive buffer starts 16 bytes
 * after the send buffer's end (heap_neighbour_offset): 16 bytes apart modulo
 * 4 KiB. That costs IMB time wherever a rank copies between its own buffers:
 * Allreduce's reduction stalls on 4K aliasing, and glibc's memcpy (rep movsb)
 * with its destination 16 bytes past its source modulo 4 KiB is 20-40x slower
 * from 4 to 256 KiB, which is Gather's root copying its own block. Aligned
 * buffers made the core's Allreduce 0.68-0.76x IMB's time, separate mallocs
 * (heap holes) its Gather 0.57x. So the default (-buffer_align 0) is one
 * malloc block holding the pair where malloc puts IMB's, at every size, for
 * IMB's numbers; -buffer_align BYTES aligns each buffer on its own instead.
 * Slot 0 gets the rank's values, the other slots copies, so every page is
 * written before the first timed iteration. */
static size_t alloc_bytes(const layout_t *l) { return l->alloc > 0 ? l->alloc : 64; }

static void fill_slots(char *p, const layout_t *l, dtype_t dt, int rank) {
  fill_values(p, dt, l->len / dtype_size(dt), rank, 0);
  for (long s = 1; s < l->slots; s++) memcpy(p + (size_t)s * l->stride, p, l->len);
}

static char *alloc_aligned(const layout_t *l, long align) {
  void *p = NULL;
  return posix_memalign(&p, (size_t)align, alloc_bytes(l)) == 0 ? p : NULL;
}

/* Sets c->sbuf and c->rbuf (NULL where memory could not be had). */
static void alloc_pair(bench_ctx *c, const layout_t *s, const layout_t *r) {
  long align = c->opt->buffer_align;
  c->rbuf_in_sbuf = align == 0;
  if (align == 0) {
    size_t gap = heap_neighbour_offset(alloc_bytes(s));
    c->sbuf = malloc(gap + alloc_bytes(r));
    c->rbuf = c->sbuf ? c->sbuf + gap : NULL;
  } else {
    c->sbuf = alloc_aligned(s, align);
    c->rbuf = alloc_aligned(r, align);
  }
  if (c->sbuf) fill_slots(c->sbuf, s, c->dt, c->rank);
  if (c->rbuf) fill_slots(c->rbuf, r, c->dt, c->rank);
}

int buffers_alloc(bench_ctx *c, const layout_t *s, const layout_t *r) {
  c->s_len = s->len;
  c->r_len = r->len;
  c->s_stride = s->stride;
  c->r_stride = r->stride;
  c->s_slots = s->slots;
  c->r_slots = r->slots;
  alloc_pair(c, s, r);
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
  if (!c->rbuf_in_sbuf) free(c->rbuf);
  free(c->sbuf);
  free(c->counts);
  free(c->displs);
  free(c->reqs);
  c->sbuf = c->rbuf = NULL;
  c->counts = c->displs = NULL;
  c->reqs = NULL;
}
