/* osu_latency (OSU 7.4's pt2pt/standard/osu_latency.c): rank 0 sends and
 * receives, rank 1 receives and sends back; each timed iteration is one
 * round trip, and the figure is the average RTT/2. With -c every iteration
 * first writes the pattern and zeroes the receive side (then a barrier), runs
 * -u untimed round trips before the timed one, and rank 1 checks what
 * arrived (the count reaches rank 0 by one reduction after the loop). Samples:
 * each timed iteration's RTT/2 in ns. */
#include "suites/osu/osu_buffers.h"
#include "suites/osu/osu_families.h"
#include "suites/osu/osu_figures.h"
#include "util/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *s, *r;
} pair_bufs_t;

static int alloc_pair(pair_bufs_t *b, size_t bytes) {
  b->s = osu_alloc(bytes, 'a');
  b->r = osu_alloc(bytes, 'b');
  return b->s && b->r ? 0 : -1;
}

static void free_pair(pair_bufs_t *b) {
  osu_free(b->s);
  osu_free(b->r);
  b->s = b->r = NULL;
}

/* Collective: every rank has its buffers, or every rank frees them and says so. */
static int agree(osu_ctx_t *c, pair_bufs_t *b, int failed) {
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_LOR, c->comm);
  if (!any) return 0;
  free_pair(b);
  snprintf(c->err, sizeof(c->err), "no memory for two %zu-byte buffers", c->bytes);
  return -1;
}

int osu_setup_latency(osu_ctx_t *c) {
  pair_bufs_t *b = calloc(1, sizeof(*b));
  c->user = b;
  if (c->o->buffer_multiple) return 0;
  /* -b single (OSU's default): one pair of the largest size for every size. */
  if (agree(c, b, !b || alloc_pair(b, c->o->max_size) != 0) == 0) return 0;
  free(b);
  c->user = NULL;
  return -1;
}

int osu_teardown_latency(osu_ctx_t *c) {
  pair_bufs_t *b = c->user;
  if (b) free_pair(b);
  free(b);
  c->user = NULL;
  return 0;
}

int osu_measure_latency(osu_ctx_t *c, osu_row_t *row) {
  pair_bufs_t *b = c->user;
  const osu_options_t *o = c->o;
  if (o->buffer_multiple && agree(c, b, alloc_pair(b, c->bytes) != 0) != 0) {
    row->status = OSU_ROW_OUT_OF_MEMORY;
    return -1;
  }
  /* OSU writes both buffers at every size (set_buffer_pt2pt). */
  memset(b->s, 'a', c->bytes);
  memset(b->r, 'b', c->bytes);
  int peer = 1 - c->rank, count = (int)c->count;
  long rounds = o->validate ? o->validation_warmup : 0;
  long defects = 0;
  MPI_Barrier(c->comm);
  for (long i = 0; i < c->iterations + c->skip; i++) {
    if (o->validate) {
      osu_pattern_fill(b->s, c->count, c->type, (long)c->bytes + i);
      memset(b->r, 0, c->bytes);
      MPI_Barrier(c->comm);
    }
    if (c->rank == 0) {
      for (long j = 0; j <= rounds; j++) {
        int timed = i >= c->skip && j == rounds;
        int64_t t0 = timed ? now_ns() : 0;
        MPI_Send(b->s, count, c->type, peer, 1, c->comm);
        MPI_Recv(b->r, count, c->type, peer, 1, c->comm, MPI_STATUS_IGNORE);
        if (timed) c->times_ns[i - c->skip] = (double)(now_ns() - t0) / 2;
      }
    } else {
      for (long j = 0; j <= rounds; j++) {
        MPI_Recv(b->r, count, c->type, peer, 1, c->comm, MPI_STATUS_IGNORE);
        MPI_Send(b->s, count, c->type, peer, 1, c->comm);
      }
      if (o->validate) defects += osu_pattern_defects(b->r, c->count, c->type, (long)c->bytes + i);
    }
  }
  /* OSU sends rank 1's count to rank 0 after every iteration (untimed, the barrier follows anyway); one
   * reduction after the loop gives the same total without a point-to-point message that the fault
   * under test could spoil too. */
  osu_check_verdict(c, defects, row);
  if (o->buffer_multiple) free_pair(b);
  if (c->rank == 0) osu_latency_figures(c, row);
  return 0;
}
