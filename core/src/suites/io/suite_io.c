/* The IMB-IO table in IMB's default order (IMB_bnames_io.h). Write
 * flavours run in aggregate mode (to disjoint file sections, one assured
 * completion after the loop) and then non-aggregate mode (the completion
 * after every write); Read flavours run once, with no completion step. Each
 * is followed by its nonblocking flavour, which uses the overlap protocol:
 * t_pure from the blocking routine, then start + CPU work + wait. S_ runs
 * on one process with a private file, P_ and C_ on every count of the sweep.
 *
 * C_ rows use the parallel-transfer class: IMB-IO times its collective
 * calls back to back after two barriers, which is the engine's parallel
 * loop (the collective class would add -sync's barrier after every call);
 * the columns are the same, IMB-IO's collective tables show MB/s too. */
#include "engine/registry.h"
#include "suites/io/files.h"
#include "suites/io/kernels_io.h"

/* One row per benchmark, every field written out. Nonblocking writes
 * complete every transfer (IMB: no aggregate mode for them), so they take
 * the non-aggregate repetition count, MSGS_NONAGGR (BF_NONAGGR_ITERS). */
static const bench_desc io[] = {
  {.name = "S_Write_Indv", .cls = CLASS_SINGLE, .flags = BF_DEFAULT | (BF_AGGREGATE | BF_DISJOINT), .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io,
   .teardown = t_io, .complete = c_io},
  {.name = "S_IWrite_Indv", .cls = CLASS_SINGLE, .flags = BF_DEFAULT | (BF_OVERLAP | BF_NONAGGR_ITERS),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io, .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "S_Write_Expl", .cls = CLASS_SINGLE, .flags = BF_DEFAULT | (BF_AGGREGATE | BF_DISJOINT), .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io,
   .teardown = t_io, .complete = c_io},
  {.name = "S_IWrite_Expl", .cls = CLASS_SINGLE, .flags = BF_DEFAULT | (BF_OVERLAP | BF_NONAGGR_ITERS),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io, .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "P_Write_Indv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_AGGREGATE | BF_DISJOINT), .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io,
   .teardown = t_io, .complete = c_io},
  {.name = "P_IWrite_Indv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_OVERLAP | BF_NONAGGR_ITERS),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io, .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "P_Write_Shared", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_AGGREGATE | BF_DISJOINT),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io},
  {.name = "P_IWrite_Shared", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_OVERLAP | BF_NONAGGR_ITERS),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io, .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "P_Write_Priv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_AGGREGATE | BF_DISJOINT), .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io,
   .teardown = t_io, .complete = c_io},
  {.name = "P_IWrite_Priv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_OVERLAP | BF_NONAGGR_ITERS),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io, .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "P_Write_Expl", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_AGGREGATE | BF_DISJOINT), .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io,
   .teardown = t_io, .complete = c_io},
  {.name = "P_IWrite_Expl", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_OVERLAP | BF_NONAGGR_ITERS),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io, .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "C_Write_Indv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_AGGREGATE | BF_DISJOINT), .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io,
   .teardown = t_io, .complete = c_io},
  {.name = "C_IWrite_Indv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_OVERLAP | BF_NONAGGR_ITERS),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io, .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "C_Write_Shared", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_AGGREGATE | BF_DISJOINT),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io},
  {.name = "C_IWrite_Shared", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_OVERLAP | BF_NONAGGR_ITERS),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io, .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "C_Write_Expl", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_AGGREGATE | BF_DISJOINT), .time_scale = 1,
   .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io,
   .teardown = t_io, .complete = c_io},
  {.name = "C_IWrite_Expl", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | (BF_OVERLAP | BF_NONAGGR_ITERS),
   .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io,
   .setup = s_io, .teardown = t_io, .complete = c_io, .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "S_Read_Indv", .cls = CLASS_SINGLE, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io},
  {.name = "S_IRead_Indv", .cls = CLASS_SINGLE, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io,
   .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "S_Read_Expl", .cls = CLASS_SINGLE, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io},
  {.name = "S_IRead_Expl", .cls = CLASS_SINGLE, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io,
   .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "P_Read_Indv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io},
  {.name = "P_IRead_Indv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io,
   .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "P_Read_Shared", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io},
  {.name = "P_IRead_Shared", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io,
   .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "P_Read_Priv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io},
  {.name = "P_IRead_Priv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io,
   .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "P_Read_Expl", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io},
  {.name = "P_IRead_Expl", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io,
   .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "C_Read_Indv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io},
  {.name = "C_IRead_Indv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io,
   .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "C_Read_Shared", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io},
  {.name = "C_IRead_Shared", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io,
   .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  {.name = "C_Read_Expl", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io},
  {.name = "C_IRead_Expl", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io, .teardown = t_io,
   .start = st_io, .finish = f_io, .out = OUT_OVERLAP},
  /* IMB's Sync type: no size, t_min/t_max/t_avg, no -check (nothing arrives);
   * MSGS_NONAGGR repetitions, as IMB gives a benchmark that moves no data. */
  {.name = "Open_Close", .cls = CLASS_SYNC, .flags = BF_DEFAULT | BF_NONAGGR_ITERS, .time_scale = 1, .sbuf = BUF_NONE, .rbuf = BUF_NONE,
   .run = k_open_close, .setup = s_open_close, .teardown = t_open_close},
};

const suite_desc suite_io = {.name = "io", .title = "MPI-IO", .benchmarks = io,
                             .n_benchmarks = (int)(sizeof(io) / sizeof(io[0])),
                             .nonaggregate_first = 0, .single_np = 1, .rep_test_cap = 50,
                             .precheck = io_precheck};
