/* Message buffers: their sizes (IMB's sizing per benchmark), the -off_cache
 * slots, allocation, and the real data written into them before timing. */
#ifndef MPIMARK_BUFFERS_H
#define MPIMARK_BUFFERS_H

#include <stddef.h>
#include "engine/registry.h"
#include "util/buflayout.h"

/* Allocates and fills c->sbuf/c->rbuf for the layouts; returns -1 if memory
 * could not be had. */
int buffers_alloc(bench_ctx *c, const layout_t *s, const layout_t *r);
void buffers_free(bench_ctx *c);

/* mpiBench's -C works on its whole buffers (-e times the processes): grows
 * both allocations of the layouts to whole bytes (before buffers_alloc). */
void buffers_grow(layout_t *s, layout_t *r, size_t whole);
/* With c->whole set, after buffers_alloc: c->send_ref, the values the whole
 * send buffer must hold. Returns -1 if memory could not be had. */
int buffers_send_reference(bench_ctx *c);
/* mpiBench -C before a call: the whole send buffer written with its values
 * again, the whole receive buffer cleared. */
void buffers_refill_whole(bench_ctx *c);
/* mpiBench -C after a call: elements of the whole send buffer that changed. */
long buffers_send_changed(const bench_ctx *c);

#endif
