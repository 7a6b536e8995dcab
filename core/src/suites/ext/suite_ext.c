/* The IMB-EXT table in IMB's order. The transfer benchmarks run in both
 * modes, aggregate first; their window lives for one message size and mode
 * (setup/teardown), every transfer is completed by MPI_Win_fence (complete),
 * and in aggregate mode every transfer targets displacement 0 as IMB's do;
 * -imb_compat guide gives iteration i its own target slot (BF_DISJOINT, the
 * user guide's "disjoint sections").
 * Window has one mode and MSGS_NONAGGR iterations. */
#include "engine/registry.h"
#include "suites/ext/kernels_ext.h"

#define MODES (BF_DEFAULT | BF_AGGREGATE | BF_DISJOINT | BF_DISJOINT_GUIDE)

/* One row per benchmark, every field written out; the transfers are
 * fence-completed, between the pair (Unidir/Bidir) or to rank 0. */
static const bench_desc ext[] = {
  {.name = "Window", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_NONAGGR_ITERS, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_win_create, .poison = p_win_create, .verify = v_win_create},
  {.name = "Unidir_Get", .cls = CLASS_SINGLE, .flags = MODES | (RF_PATTERN(RP_PAIR_REV) | RF_GET), .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_get, .poison = p_os_get, .verify = v_os_get,
   .setup = su_ext, .teardown = os_close, .complete = c_fence},
  {.name = "Unidir_Put", .cls = CLASS_SINGLE, .flags = MODES | (RF_PATTERN(RP_PAIR)), .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_ext,
   .teardown = os_close, .complete = c_fence},
  {.name = "Bidir_Get", .cls = CLASS_SINGLE, .flags = MODES | (RF_PATTERN(RP_BIDIR) | RF_GET), .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_get, .poison = p_os_get, .verify = v_os_get,
   .setup = su_ext, .teardown = os_close, .complete = c_fence},
  {.name = "Bidir_Put", .cls = CLASS_SINGLE, .flags = MODES | (RF_PATTERN(RP_BIDIR)), .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_ext,
   .teardown = os_close, .complete = c_fence},
  {.name = "Accumulate", .cls = CLASS_COLLECTIVE, .flags = MODES | (RF_PATTERN(RP_TO_ROOT) | BF_REDUCTION),
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_acc, .poison = p_os_acc, .verify = v_os_acc,
   .setup = su_ext, .teardown = os_close, .complete = c_fence},
};

const suite_desc suite_ext = {.name = "ext", .title = "MPI-2", .benchmarks = ext,
                              .n_benchmarks = (int)(sizeof(ext) / sizeof(ext[0])), .nonaggregate_first = 0};
