/* Message buffers: their sizes (IMB's sizing per benchmark), the -off_cache
 * slots, allocation, and the real data written into them before timing. */
#ifndef MPIMARK_BUFFERS_H
#define MPIMARK_BUFFERS_H

#include <stddef.h>
#include "engine/registry.h"

/* Bytes of one buffer of the given kind for message size X on np processes. */
size_t buffer_bytes(bufsize_t kind, size_t X, int np);

typedef struct {
  size_t len;      /* bytes of one slot */
  size_t stride;   /* distance between slots */
  long slots;      /* 1 without -off_cache */
  size_t alloc;    /* bytes allocated */
} layout_t;

/* -off_cache: slots of ceil(len/line)+1 cache lines, as many as make twice the
 * cache size (at most n_sample), so consecutive iterations touch cold memory. */
void buffer_layout(size_t len, const options_t *o, long n_sample, layout_t *out);

/* Aggregate mode of BF_DISJOINT benchmarks: n slots of len bytes side by
 * side, so that M transfers go to disjoint sections (IMB-EXT, IMB-IO). */
void buffer_layout_disjoint(size_t len, long n, layout_t *out);

/* Allocates and fills c->sbuf/c->rbuf for the layouts; returns -1 if memory
 * could not be had. */
int buffers_alloc(bench_ctx *c, const layout_t *s, const layout_t *r);
void buffers_free(bench_ctx *c);

#endif
