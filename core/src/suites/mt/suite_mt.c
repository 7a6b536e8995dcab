/* IMB-MT as a registry table, in IMB-MT's run order (docs/mt.md). Every row
 * runs once on all processes, each with -thread_level multiple's OpenMP
 * threads on communicators of their own (mt_main.c). time_scale is IMB-MT's
 * divider (PingPongMT, BiBandMT: 2), bw_scale its bandwidth multiplier. */
#include "engine/registry.h"
#include "suites/mt/kernels_mt.h"
#include "suites/mt/mt_main.h"

static const bench_desc mt[] = {
  {.name = "PingPongMT", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | BF_MT_PAIRS, .time_scale = 0.5, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_mt_pingpong, .verify = v_mt_pair},
  {.name = "PingPingMT", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | BF_MT_PAIRS, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_mt_pingping, .verify = v_mt_pair},
  {.name = "SendRecvMT", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 2,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_mt_sendrecv, .verify = v_mt_sendrecv},
  {.name = "ExchangeMT", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 4,
   .sbuf = BUF_X, .rbuf = BUF_2X, .run = k_mt_exchange, .verify = v_mt_exchange},
  {.name = "UniBandMT", .cls = CLASS_MSGRATE, .flags = BF_DEFAULT | BF_MT_PAIRS | BF_MT_WINDOW, .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_mt_uniband, .verify = v_mt_uniband, .out = OUT_AVG_RATE},
  {.name = "BiBandMT", .cls = CLASS_MSGRATE, .flags = BF_DEFAULT | BF_MT_PAIRS | BF_MT_WINDOW, .time_scale = 0.5,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_mt_biband, .verify = v_mt_pair, .out = OUT_AVG_RATE},
  {.name = "BarrierMT", .cls = CLASS_SYNC, .flags = BF_DEFAULT | BF_MT_EACH_CALL, .time_scale = 1,
   .sbuf = BUF_NONE, .rbuf = BUF_NONE, .run = k_mt_barrier},
  {.name = "BcastMT", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_MT_EACH_CALL | BF_HAS_ROOT, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_mt_bcast, .verify = v_mt_bcast},
  {.name = "ReduceMT", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_MT_EACH_CALL | BF_HAS_ROOT | BF_REDUCTION,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_mt_reduce, .verify = v_mt_reduce},
  {.name = "AllReduceMT", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_MT_EACH_CALL | BF_REDUCTION,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_mt_allreduce, .verify = v_mt_allreduce},
};

const suite_desc suite_mt = {.name = "mt", .title = "MT", .benchmarks = mt,
                             .n_benchmarks = (int)(sizeof(mt) / sizeof(mt[0])), .own_main = mt_main};
