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

static const bench_desc rma[] = {
  {.name = "Unidir_put", .cls = CLASS_SINGLE, .flags = MODES, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_rma, .teardown = os_close,
   .complete = c_flush},
  {.name = "Bidir_put", .cls = CLASS_SINGLE, .flags = MODES | RF_PATTERN(RP_BIDIR), .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_rma,
   .teardown = os_close, .complete = c_flush},
  {.name = "Unidir_get", .cls = CLASS_SINGLE, .flags = MODES | RF_GET, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_os_get, .poison = p_os_get, .verify = v_os_get, .setup = su_rma, .teardown = os_close,
   .complete = c_flush},
  {.name = "Bidir_get", .cls = CLASS_SINGLE, .flags = MODES | RF_PATTERN(RP_BIDIR) | RF_GET, .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_get, .poison = p_os_get, .verify = v_os_get,
   .setup = su_rma, .teardown = os_close, .complete = c_flush},
  {.name = "Put_local", .cls = CLASS_SINGLE, .flags = MODES, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_rma, .teardown = os_close,
   .complete = c_flush_local},
  {.name = "Get_local", .cls = CLASS_SINGLE, .flags = BF_AGGREGATE | RF_GET, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_get, .poison = p_os_get, .verify = v_os_get, .setup = su_rma,
   .teardown = os_close, .complete = c_flush_local},
  {.name = "Put_all_local", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | ONE_ALL, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_rma,
   .teardown = os_close, .complete = c_flush_local_all},
  {.name = "Get_all_local", .cls = CLASS_COLLECTIVE, .flags = ONE_ALL | RF_GET, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_get, .poison = p_os_get, .verify = v_os_get, .setup = su_rma,
   .teardown = os_close, .complete = c_flush_local_all},
  {.name = "One_put_all", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | ONE_ALL, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_rma,
   .teardown = os_close, .complete = c_flush_all},
  {.name = "All_put_all", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | ALL_ALL, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_rma, .teardown = os_close,
   .complete = c_flush_all},
  {.name = "One_get_all", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | ONE_ALL | RF_GET, .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_get, .poison = p_os_get, .verify = v_os_get,
   .setup = su_rma, .teardown = os_close, .complete = c_flush_all},
  {.name = "All_get_all", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | ALL_ALL | RF_GET, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_get, .poison = p_os_get, .verify = v_os_get, .setup = su_rma,
   .teardown = os_close, .complete = c_flush_all},
  {.name = "Exchange_put", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | RF_PATTERN(RP_RING), .time_scale = 1,
   .sbuf = BUF_2X, .rbuf = BUF_2X, .run = k_exch_put, .poison = p_exch, .verify = v_exch, .setup = su_rma,
   .teardown = os_close, .complete = c_flush},
  {.name = "Exchange_get", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | RF_PATTERN(RP_RING) | RF_GET,
   .time_scale = 1, .sbuf = BUF_2X, .rbuf = BUF_2X, .run = k_exch_get, .poison = p_exch, .verify = v_exch,
   .setup = su_rma, .teardown = os_close, .complete = c_flush},
  {.name = "Accumulate", .cls = CLASS_SINGLE, .flags = MODES | BF_REDUCTION, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_acc, .poison = p_os_acc, .verify = v_os_acc, .setup = su_rma,
   .teardown = os_close, .complete = c_flush},
  {.name = "Get_accumulate", .cls = CLASS_SINGLE, .flags = MODES | BF_REDUCTION, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_get_acc, .poison = p_os_fetch, .verify = v_os_fetch, .setup = su_rma,
   .teardown = os_close, .complete = c_flush},
  {.name = "Fetch_and_op", .cls = CLASS_SINGLE, .flags = MODES | BF_REDUCTION | BF_SINGLE_ELEMENT, .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_os_fop, .poison = p_os_fetch, .verify = v_os_fetch,
   .setup = su_rma, .teardown = os_close, .complete = c_flush},
  {.name = "Compare_and_swap", .comment = "Uses MPI_INT data type", .cls = CLASS_SINGLE, .flags = MODES | BF_REDUCTION | BF_SINGLE_ELEMENT,
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_cas, .poison = p_cas, .verify = v_cas,
   .setup = su_cas, .teardown = os_close, .complete = c_flush},
  {.name = "Truly_passive_put",
   .comment = "The benchmark measures execution time of MPI_Put for 2 cases:\n"
              "1) The target is waiting in MPI_Barrier call (t_pure value)\n"
              "2) The target performs computation and then enters MPI_Barrier routine (t_ovrl value)",
   .cls = CLASS_SINGLE, .flags = BF_DEFAULT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_os_put, .poison = p_os_put, .verify = v_os_put, .setup = su_truly_passive,
   .teardown = os_close, .complete = c_flush, .loop = lp_truly_passive, .out = OUT_PURE_OVRL},
};

const suite_desc suite_rma = {.name = "rma", .title = "MPI-RMA", .benchmarks = rma,
                              .n_benchmarks = (int)(sizeof(rma) / sizeof(rma[0])), .nonaggregate_first = 1};
