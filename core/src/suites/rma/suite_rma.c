/* The IMB-RMA table in IMB's order. Every benchmark is passive target: the
 * window lives for one message size and mode, the origins lock it in setup
 * and unlock it in teardown (untimed, held across the engine's calibration,
 * warm-up and measurement loops), and only origins are timed. Benchmarks
 * with modes (non-aggregate first) complete through `complete` after every
 * transfer or once after the loop; the *_all ones complete once after the
 * loop (RF_ONE_FLUSH); Exchange_* flush both neighbours every iteration. */
#include "engine/registry.h"
#include "suites/rma/kernels_rma.h"

#define MODES (BF_DEFAULT | BF_AGGREGATE)
#define ONE_ALL (RF_PATTERN(RP_ONE_ALL) | RF_ONE_FLUSH | BF_BW_TARGETS)
#define ALL_ALL (RF_PATTERN(RP_ALL_ALL) | RF_ONE_FLUSH)

#define ROW(name_, cls_, flags_, bw, buf, run_, complete_, poison_, verify_, setup_)                          \
  {.name = name_, .cls = cls_, .flags = flags_, .time_scale = 1, .bw_scale = bw, .sbuf = buf, .rbuf = buf,      \
   .run = run_, .poison = poison_, .verify = verify_, .setup = setup_, .teardown = os_close,                  \
   .complete = complete_}
#define PUT(name_, cls_, flags_, bw, complete_) \
  ROW(name_, cls_, flags_, bw, BUF_X, k_os_put, complete_, p_os_put, v_os_put, su_rma)
#define GET(name_, cls_, flags_, bw, complete_) \
  ROW(name_, cls_, (flags_) | RF_GET, bw, BUF_X, k_os_get, complete_, p_os_get, v_os_get, su_rma)

static const bench_desc rma[] = {
  PUT("Unidir_put", CLASS_SINGLE, MODES, 1, c_flush),
  PUT("Bidir_put", CLASS_SINGLE, MODES | RF_PATTERN(RP_BIDIR), 1, c_flush),
  GET("Unidir_get", CLASS_SINGLE, MODES, 1, c_flush),
  GET("Bidir_get", CLASS_SINGLE, MODES | RF_PATTERN(RP_BIDIR), 1, c_flush),
  PUT("Put_local", CLASS_SINGLE, MODES, 1, c_flush_local),
  GET("Get_local", CLASS_SINGLE, BF_AGGREGATE, 1, c_flush_local),
  PUT("Put_all_local", CLASS_COLLECTIVE, BF_DEFAULT | ONE_ALL, 1, c_flush_local_all),
  GET("Get_all_local", CLASS_COLLECTIVE, ONE_ALL, 1, c_flush_local_all),
  PUT("One_put_all", CLASS_COLLECTIVE, BF_DEFAULT | ONE_ALL, 1, c_flush_all),
  PUT("All_put_all", CLASS_COLLECTIVE, BF_DEFAULT | ALL_ALL, 0, c_flush_all),
  GET("One_get_all", CLASS_COLLECTIVE, BF_DEFAULT | ONE_ALL, 1, c_flush_all),
  GET("All_get_all", CLASS_COLLECTIVE, BF_DEFAULT | ALL_ALL, 0, c_flush_all),
  ROW("Exchange_put", CLASS_COLLECTIVE, BF_DEFAULT | RF_PATTERN(RP_RING), 0, BUF_2X, k_exch_put, c_flush, p_exch,
      v_exch, su_rma),
  ROW("Exchange_get", CLASS_COLLECTIVE, BF_DEFAULT | RF_PATTERN(RP_RING) | RF_GET, 0, BUF_2X, k_exch_get, c_flush,
      p_exch, v_exch, su_rma),
  ROW("Accumulate", CLASS_SINGLE, MODES | BF_REDUCTION, 1, BUF_X, k_os_acc, c_flush, p_os_acc, v_os_acc, su_rma),
  ROW("Get_accumulate", CLASS_SINGLE, MODES | BF_REDUCTION, 1, BUF_X, k_os_get_acc, c_flush, p_os_fetch,
      v_os_fetch, su_rma),
  ROW("Fetch_and_op", CLASS_SINGLE, MODES | BF_REDUCTION | BF_SINGLE_ELEMENT, 1, BUF_X, k_os_fop, c_flush,
      p_os_fetch, v_os_fetch, su_rma),
  ROW("Compare_and_swap", CLASS_SINGLE, MODES | BF_REDUCTION | BF_SINGLE_ELEMENT, 1, BUF_X, k_cas, c_flush, p_cas,
      v_cas, su_cas),
  {.name = "Truly_passive_put", .cls = CLASS_SINGLE, .flags = BF_DEFAULT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_truly_passive,
   .teardown = os_close, .complete = c_flush, .loop = lp_truly_passive, .out = OUT_PURE_OVRL},
};

const suite_desc suite_rma = {.name = "rma", .title = "MPI-RMA", .benchmarks = rma,
                              .n_benchmarks = (int)(sizeof(rma) / sizeof(rma[0])), .nonaggregate_first = 1};
