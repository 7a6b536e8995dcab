/* IMB-P2P as a registry table, in IMB-P2P's order (docs/p2p.md). Every
 * row runs once on all processes (p2p_main.c). time_scale turns one
 * iteration into IMB's latency unit (PingPong: half a round trip);
 * bw_scale 1 with OUT_P2P: MB/s and Msg/sec count the messages sent. */
#include "engine/registry.h"
#include "suites/p2p/kernels_p2p.h"
#include "suites/p2p/p2p_main.h"

#define ROW(NAME, FLAGS, SCALE, KERNEL)                                                                  \
  {.name = NAME, .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (FLAGS), .time_scale = SCALE, .bw_scale = 1, \
   .sbuf = BUF_X, .rbuf = BUF_X, .run = KERNEL, .out = OUT_P2P, .verify = p2p_verify}

static const bench_desc p2p[] = {
  ROW("PingPong", BF_P2P_EVEN, 0.5, k_p2p_pingpong),
  ROW("PingPing", BF_P2P_EVEN, 1, k_p2p_pingping),
  ROW("Unirandom", 0, 1, k_p2p_unirandom),
  ROW("Birandom", 0, 1, k_p2p_birandom),
  ROW("Corandom", 0, 1, k_p2p_corandom),
  ROW("Stencil2D", BF_P2P_GRID2D, 1, k_p2p_stencil),
  ROW("Stencil3D", BF_P2P_GRID3D, 1, k_p2p_stencil),
  ROW("SendRecv_Replace", BF_P2P_NO_SYNC, 1, k_p2p_sendrecv_replace),
};

const suite_desc suite_p2p = {.name = "p2p", .title = "IMB-P2P", .benchmarks = p2p,
                              .n_benchmarks = (int)(sizeof(p2p) / sizeof(p2p[0])), .own_main = p2p_main};
