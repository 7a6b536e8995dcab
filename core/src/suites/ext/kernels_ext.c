/* IMB-EXT's own parts: the fence epoch and the Window benchmark. */
#include "suites/ext/kernels_ext.h"

void su_ext(bench_ctx *c) {
  os_open_default(c, 0);
  MPI_Win_fence(0, c->win);
}

void c_fence(bench_ctx *c) { MPI_Win_fence(0, c->win); }

/* The window covers X bytes of the receive buffer; one byte is put to the
 * rank itself so that the window is used at all (IMB's "negligible
 * non-trivial action"). Slot 0 always, as IMB: the window is new each time. */
void k_win_create(bench_ctx *c, long iter) {
  MPI_Win w;
  MPI_Win_create(c->rbuf, (MPI_Aint)c->bytes, 1, MPI_INFO_NULL, c->comm, &w);
  MPI_Win_fence(0, w);
  if (c->bytes > 0) MPI_Put(c->sbuf, 1, MPI_BYTE, c->rank, 0, 1, MPI_BYTE, w);
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

/* -check: the one byte, whatever the element type. */
void p_win_create(bench_ctx *c, long iter) {
  if (c->bytes > 0) c->rbuf[0] = (char)0xFF;
}

long v_win_create(bench_ctx *c, long iter) { return c->bytes > 0 && c->rbuf[0] != c->sbuf[0]; }
