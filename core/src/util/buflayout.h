/* Message buffer arithmetic (no MPI): how large a benchmark's buffers are
 * for message size X on np processes, and the -off_cache / disjoint slot
 * layouts. engine/buffers.c allocates what these say. */
#ifndef MPIMARK_BUFLAYOUT_H
#define MPIMARK_BUFLAYOUT_H

#include <stddef.h>
#include "util/options.h"

/* How a buffer is sized for message size X on np processes. */
typedef enum { BUF_NONE, BUF_X, BUF_2X, BUF_NP_X } bufsize_t;

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

#endif
