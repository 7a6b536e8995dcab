#include "report/reporter.h"

#define MAX_REPORTERS 4

static reporter_t *reporters[MAX_REPORTERS];
static int n_reporters;

void report_add(reporter_t *r) {
  if (r && n_reporters < MAX_REPORTERS) reporters[n_reporters++] = r;
}

#define FAN_OUT(method, arg)                                   \
  for (int i = 0; i < n_reporters; i++)                        \
    if (reporters[i]->method) reporters[i]->method(reporters[i], arg)

void report_run_begin(const run_info_t *info) { FAN_OUT(run_begin, info); }
void report_table_begin(const table_info_t *t) { FAN_OUT(table_begin, t); }
void report_result(const result_t *res) { FAN_OUT(result, res); }
void report_event(const event_t *ev) { FAN_OUT(event, ev); }
void report_run_end(const run_end_t *end) { FAN_OUT(run_end, end); }
