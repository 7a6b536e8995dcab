#include "suites/osu/osu_columns.h"

#include <stdio.h>
#include <string.h>

static void add(osu_column_t *cols, int *n, const char *header, const char *field, char kind, int width) {
  osu_column_t *c = &cols[(*n)++];
  snprintf(c->header, sizeof(c->header), "%s", header);
  snprintf(c->field, sizeof(c->field), "%s", field);
  c->kind = kind;
  c->width = width;
  int pad = width - (int)strlen(header);
  c->pad = pad > 0 ? pad : 0;
}

/* -z's columns: OSU pads "Px Tail Lat(us)" to the field and takes one blank
 * off for a two-digit percentile (so P100 comes out one wider). */
static void add_tail(osu_column_t *cols, int *n, double pct, int bandwidth) {
  int p = (int)pct;
  char header[24], field[24];
  snprintf(header, sizeof(header), "P%d Tail %s", p, bandwidth ? "BW(MB/s)" : "Lat(us)");
  snprintf(field, sizeof(field), "p%d_tail_%s", p, bandwidth ? "bw_mb_s" : "lat_us");
  add(cols, n, header, field, 'f', OSU_FIELD_WIDTH);
  cols[*n - 1].pad = OSU_FIELD_WIDTH - (int)strlen(bandwidth ? "Px Tail BW(MB/s)" : "Px Tail Lat(us)") - (p > 9);
}

int osu_columns(const osu_test_t *t, const osu_options_t *o, osu_column_t *cols, int *sized) {
  int n = 0, full = o && o->full, validate = o && o->validate, rate = o ? o->print_rate : 1;
  const int W = OSU_FIELD_WIDTH;
  *sized = !(t->shape & OSU_SHAPE_NO_SIZE);
  switch (t->looks_like) {
    case OSU_FAM_STARTUP:
      if (!strcmp(t->name, "init")) {
        add(cols, &n, "nprocs", "processes", 'i', 0);
        add(cols, &n, "min (ms)", "t_min_usec", 'f', 0);
        add(cols, &n, "max (ms)", "t_max_usec", 'f', 0);
        add(cols, &n, "avg (ms)", "t_avg_usec", 'f', 0);
      } else {
        add(cols, &n, "processes", "processes", 'i', 0);  /* osu_hello's one figure, in its sentence */
      }
      return n;
    case OSU_FAM_BW:
      add(cols, &n, "Bandwidth (MB/s)", "mbytes_per_sec", 'f', W);
      break;
    case OSU_FAM_MBW_MR:
      add(cols, &n, "MB/s", "mbytes_per_sec", 'f', W);
      if (rate) add(cols, &n, "Messages/s", "msgs_per_sec", 'f', W);
      break;
    case OSU_FAM_ONESIDED:
      add(cols, &n, t->bandwidth ? "Bandwidth (MB/s)" : "Latency (us)", t->bandwidth ? "mbytes_per_sec" : "t_avg_usec",
          'f', W);
      break;
    case OSU_FAM_NBC:
      add(cols, &n, "Overall(us)", "t_avg_usec", 'f', W);
      add(cols, &n, "Compute(us)", "compute_usec", 'f', W);
      if (full) {
        add(cols, &n, "Coll. Init(us)", "coll_init_usec", 'f', W);
        add(cols, &n, "MPI_Test(us)", "mpi_test_usec", 'f', W);
        add(cols, &n, "MPI_Wait(us)", "mpi_wait_usec", 'f', W);
      }
      add(cols, &n, "Pure Comm.(us)", "pure_comm_usec", 'f', W);
      if (full) {
        add(cols, &n, "Min Comm.(us)", "min_comm_usec", 'f', W);
        add(cols, &n, "Max Comm.(us)", "max_comm_usec", 'f', W);
      }
      add(cols, &n, "Overlap(%)", "overlap_percent", 'f', W);
      break;
    default:  /* latency, latency_mt, latency_mp, multi_lat, the blocking collectives */
      add(cols, &n, "Avg Latency(us)", "t_avg_usec", 'f', W);
      /* osu_latency_mp prints its figure 10 wide unless it validates, under the usual 18-wide header. */
      if (!strcmp(t->name, "latency_mp") && !validate) cols[n - 1].width = 10;
      if (full && t->looks_like == OSU_FAM_COLL) {
        add(cols, &n, "Min Latency(us)", "t_min_usec", 'f', W);
        add(cols, &n, "Max Latency(us)", "t_max_usec", 'f', W);
        add(cols, &n, "Iterations", "repetitions", 'i', 12);
      }
      break;
  }
  if (validate) add(cols, &n, "Validation", "validation", 's', W);
  int bw_tail = t->bandwidth > 0;
  for (int i = 0; o && i < o->n_tail; i++) add_tail(cols, &n, o->tail[i], bw_tail);
  return n;
}
