/* The one-sided machinery IMB-EXT (fence epochs) and IMB-RMA (passive
 * target) share: the window over an engine buffer, who accesses whom, the
 * locks and completion calls, the transfer kernels, and what -check expects
 * on the receive side. A benchmark row picks its pattern with RF_PATTERN and
 * RF_GET; its setup (su_ext / su_rma) decides fence or passive target. */
#ifndef MPIMARK_ONESIDED_H
#define MPIMARK_ONESIDED_H

#include "engine/registry.h"
#include "util/rma_pattern.h"

/* Suite-private descriptor bits (registry.h leaves bits 16 and up to suites). */
#define RF_PATTERN(p) ((unsigned)(p) << 16)                            /* bits 16-18: rma_pattern_t */
#define RF_PATTERN_OF(f) ((rma_pattern_t)(((f) >> 16) & 7u))
#define RF_GET (1u << 19)       /* the window covers the send buffer; data lands at the origin */
#define RF_ONE_FLUSH (1u << 20) /* one completion after the whole loop, although there are no modes */

typedef struct {
  int passive;            /* IMB-RMA: locks and flushes; IMB-EXT: fences */
  int n_targets, *targets;/* ranks this rank accesses, in issue order */
  int n_senders, *senders;/* ranks that access this rank's window */
  int lock_all;           /* holds MPI_Win_lock_all */
  int n_locks, *locks;    /* holds MPI_Win_lock(MPI_LOCK_SHARED) on these */
  int covers_self;        /* one of those epochs includes its own window: MPI_Win_sync is legal */
  size_t disp_unit;
  void *own;              /* window memory of the suite's own (Compare_and_swap), freed with the state */
} os_state;

static inline os_state *os_of(const bench_ctx *c) { return (os_state *)c->user; }

/* Creates c->win over base (bytes long) on the group's communicator and
 * the state with this rank's targets and senders. Collective. */
void os_open(bench_ctx *c, int passive, void *base, size_t bytes, size_t disp_unit);
/* os_open over the buffer the row names: the receive buffer, or the send
 * buffer with RF_GET; disp_unit is the element for reductions, else 1 byte. */
void os_open_default(bench_ctx *c, int passive);
/* Passive target: each origin opens its access epoch, untimed, for the
 * whole size: MPI_Win_lock_all for the *_ALL patterns, otherwise
 * MPI_Win_lock(MPI_LOCK_SHARED) on each target, as IMB does around its loop. */
void os_lock(bench_ctx *c);
/* Teardown: unlocks, frees the window and the state. Collective. */
void os_close(bench_ctx *c);

/* Target displacements of iteration i: in the receive buffer's slots (puts,
 * accumulates) or the send buffer's (gets). */
MPI_Aint os_put_disp(const bench_ctx *c, long i);
MPI_Aint os_get_disp(const bench_ctx *c, long i);

/* Completion (the descriptor's `complete`). */
void c_flush(bench_ctx *c);            /* MPI_Win_flush on each target */
void c_flush_local(bench_ctx *c);      /* MPI_Win_flush_local on each target */
void c_flush_all(bench_ctx *c);        /* MPI_Win_flush_all */
void c_flush_local_all(bench_ctx *c);  /* MPI_Win_flush_local_all */

/* One transfer to (from) each target: slot i of the send (receive) buffer,
 * target slot i. */
void k_os_put(bench_ctx *c, long i);
void k_os_get(bench_ctx *c, long i);
void k_os_acc(bench_ctx *c, long i);      /* MPI_Accumulate, MPI_SUM */
void k_os_get_acc(bench_ctx *c, long i);  /* MPI_Get_accumulate: result into receive slot i */
void k_os_fop(bench_ctx *c, long i);      /* MPI_Fetch_and_op: one element */

/* -check. Before iteration i the receive side is prepared (poisoned, or set
 * to the rank's own values where an accumulation adds to it) and the
 * preparation is made visible to the origins; after it, the origins complete
 * remotely and the receive side is compared with what must be there. */
void os_local_begin(bench_ctx *c);   /* around local loads/stores of window memory */
void os_local_end(bench_ctx *c);
void os_settle_before(bench_ctx *c); /* after the preparation */
void os_settle_after(bench_ctx *c);  /* before the comparison */
/* Elements of buf not from `ranks`: exact for one rank; for several, each
 * element must be some rank's (concurrent transfers to one place). */
long os_check_from(const bench_ctx *c, const void *buf, const int *ranks, int n, size_t first, size_t count);

void p_os_put(bench_ctx *c, long i);
long v_os_put(bench_ctx *c, long i);
void p_os_get(bench_ctx *c, long i);
long v_os_get(bench_ctx *c, long i);
void p_os_acc(bench_ctx *c, long i);
long v_os_acc(bench_ctx *c, long i);
void p_os_fetch(bench_ctx *c, long i);   /* Get_accumulate and Fetch_and_op */
long v_os_fetch(bench_ctx *c, long i);

#endif
