#include "tools/common/tool_run.h"
#include "util/timer.h"

#include <math.h>
#include <mpi.h>
#include <string.h>

void tool_collect(tool_run_t *t, int argc, char **argv) {
  memset(&t->info, 0, sizeof(t->info));
  MPI_Comm_rank(MPI_COMM_WORLD, &t->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &t->size);
  run_info_collect(&t->info, &t->share, argc, argv, "MPI_THREAD_SINGLE", "MPI_THREAD_SINGLE");
  t->t0 = now_ns();
}

int tool_json_open(tool_run_t *t, const char *path, char *err, size_t errlen) {
  return rec_file_open(&t->file, path, err, errlen);
}

jw_t *tool_run_begin(tool_run_t *t, const suite_desc *tool) {
  if (!t->file.f) return NULL;
  rec_run_begin(&t->file.jw, &t->info, tool);
  return &t->file.jw;
}

jw_t *tool_result_begin(tool_run_t *t, const char *benchmark, const char *suite, int processes,
                        long long bytes, long long count, const char *datatype, long repetitions,
                        double t_min_usec, double t_max_usec, double t_avg_usec,
                        double mbytes_per_sec, long defects) {
  if (!t->file.f) return NULL;
  rec_result_t r = {.benchmark = benchmark, .suite = suite, .processes = processes, .multi = -1, .groups = 1,
                    .group = -1, .bytes = bytes, .count = count, .datatype = datatype, .status = "ok",
                    .repetitions = repetitions, .t_min_usec = t_min_usec, .t_max_usec = t_max_usec,
                    .t_avg_usec = t_avg_usec, .mbytes_per_sec = mbytes_per_sec, .msgs_per_sec = NAN,
                    .defects = defects};
  rec_result_begin(&t->file, &r);
  rec_samples(&t->file.jw, NULL, 0, NULL);
  return &t->file.jw;
}

void tool_record_end(tool_run_t *t) {
  if (t->file.f) rec_close(&t->file.jw);
}

void tool_event(tool_run_t *t, const char *level, const char *kind, const char *message) {
  if (!t->file.f) return;
  event_t ev = {level, kind, message, NULL, 0, -1, 0};
  rec_event(&t->file.jw, &ev);
}

void tool_run_end(tool_run_t *t, int complete) {
  if (!t->file.f) return;
  run_end_t end = run_end_now(complete, t->t0, t->file.results);
  rec_file_end(&t->file, &end);
}
