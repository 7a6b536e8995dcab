/* The IMB-EXT table in IMB's order. The transfer benchmarks run in both
 * modes, aggregate first; their window lives for one message size and mode
 * (setup/teardown), every transfer is completed by MPI_Win_fence (complete),
 * and in aggregate mode iteration i uses its own target slot (BF_DISJOINT,
 * the user guide's "disjoint sections"; IMB itself reuses displacement 0).
 * Window has one mode and MSGS_NONAGGR iterations. */
#include "engine/registry.h"
#include "suites/ext/kernels_ext.h"

#define MODES (BF_DEFAULT | BF_AGGREGATE | BF_DISJOINT)

/* A fence-completed transfer between the pair (Unidir/Bidir) or to rank 0. */
#define XFER(name_, cls_, flags_, bw, run_, poison_, verify_)                                                  \
  {.name = name_, .cls = cls_, .flags = MODES | (flags_), .time_scale = 1, .bw_scale = bw, .sbuf = BUF_X,       \
   .rbuf = BUF_X, .run = run_, .poison = poison_, .verify = verify_, .setup = su_ext, .teardown = os_close, \
   .complete = c_fence}

static const bench_desc ext[] = {
  {.name = "Window", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_NONAGGR_ITERS, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_win_create, .poison = p_win_create, .verify = v_win_create},
  XFER("Unidir_Get", CLASS_SINGLE, RF_PATTERN(RP_PAIR_REV) | RF_GET, 1, k_os_get, p_os_get, v_os_get),
  XFER("Unidir_Put", CLASS_SINGLE, RF_PATTERN(RP_PAIR), 1, k_os_put, p_os_put, v_os_put),
  XFER("Bidir_Get", CLASS_SINGLE, RF_PATTERN(RP_BIDIR) | RF_GET, 1, k_os_get, p_os_get, v_os_get),
  XFER("Bidir_Put", CLASS_SINGLE, RF_PATTERN(RP_BIDIR), 1, k_os_put, p_os_put, v_os_put),
  XFER("Accumulate", CLASS_COLLECTIVE, RF_PATTERN(RP_TO_ROOT) | BF_REDUCTION, 0, k_os_acc, p_os_acc, v_os_acc),
};

const suite_desc suite_ext = {.name = "ext", .title = "MPI-2", .benchmarks = ext,
                              .n_benchmarks = (int)(sizeof(ext) / sizeof(ext[0])), .nonaggregate_first = 0};
