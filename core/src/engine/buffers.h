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

#endif
