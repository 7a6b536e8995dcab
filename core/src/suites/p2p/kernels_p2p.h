/* IMB-P2P's kernels: one iteration of each benchmark on MPI_COMM_WORLD
 * (docs/p2p.md). Every rank takes part; what a rank does depends on its
 * partner, the random pair or ring of the step, or its grid neighbours,
 * kept in the suite's state (c->user). Each kernel counts the messages
 * this rank sent, the unit of IMB-P2P's latency, bandwidth and rate. */
#ifndef MPIMARK_KERNELS_P2P_H
#define MPIMARK_KERNELS_P2P_H

#include <stdint.h>
#include "engine/registry.h"

#define P2P_MAX_NEIGHBOURS 6

/* The suite's row flags (bits 16 and up, registry.h). */
enum {
  BF_P2P_EVEN = 1 << 16,     /* pairs r and r + np/2: an even count of processes */
  BF_P2P_GRID2D = 1 << 17,   /* a periodic 2-D grid of 4 neighbours (p2p_grid2d) */
  BF_P2P_GRID3D = 1 << 18,   /* a periodic 3-D grid of 6 neighbours (p2p_grid3d) */
  BF_P2P_NO_SYNC = 1 << 19,  /* IMB-P2P starts the timing without a barrier after the warm-up */
};

typedef struct {
  int touch_send, touch_recv;   /* -msgwr, -msgrd */
  size_t dummy;                 /* what the touches read and write */
  size_t slot;                  /* distance between the stencils' per-neighbour buffers */
  int partner;                  /* PingPong, PingPing */
  int neighbours[P2P_MAX_NEIGHBOURS], n_neighbours;
  int grid[3];                  /* stencils: x, y, z lengths */
  int *ring;                    /* Corandom */
  uint64_t seed;                /* Unirandom, Birandom, Corandom */
  double sent;                  /* messages this rank sent in the loop */
  int last_from;                /* -check: the rank whose message the receive buffer holds last, or -1 */
} p2p_state_t;

/* Resets the pseudo-random sequence and Corandom's ring (start of a loop). */
void p2p_state_restart(p2p_state_t *s, int nranks);

void k_p2p_pingpong(bench_ctx *c, long iter);
void k_p2p_pingping(bench_ctx *c, long iter);
void k_p2p_unirandom(bench_ctx *c, long iter);
void k_p2p_birandom(bench_ctx *c, long iter);
void k_p2p_corandom(bench_ctx *c, long iter);
void k_p2p_stencil(bench_ctx *c, long iter);
void k_p2p_sendrecv_replace(bench_ctx *c, long iter);

/* -check after an untimed iteration with patterned send buffers: the
 * elements of what this rank received last that differ from its sender's
 * pattern (every neighbour's buffer for the stencils). */
long p2p_verify(bench_ctx *c, long iter);

#endif
