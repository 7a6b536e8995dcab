#include "engine/registry.h"
#include "util/strutil.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>

static const suite_desc *const suites[] = {&suite_mpi1, &suite_nbc, &suite_mpi4, &suite_ext, &suite_rma, &suite_io, &suite_p2p,
                                             &suite_mt, &suite_osu};

const suite_desc *find_suite(const char *name) {
  for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
    if (str_ieq(suites[i]->name, name)) return suites[i];
  return NULL;
}

const bench_desc *find_benchmark(const suite_desc *s, const char *name) {
  for (int i = 0; i < s->n_benchmarks; i++)
    if (str_ieq(s->benchmarks[i].name, name)) return &s->benchmarks[i];
  return NULL;
}

const suite_desc *suite_at(int i) {
  return i >= 0 && (size_t)i < sizeof(suites) / sizeof(suites[0]) ? suites[i] : NULL;
}

int suite_names(char *buf, size_t len) {
  size_t used = 0;
  buf[0] = 0;
  for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
    int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", suites[i]->name);
    if (w < 0 || (size_t)w >= len - used) return -1;
    used += (size_t)w;
  }
  return 0;
}

static const suite_desc *const tool_suites[] = {&suite_mpibench, &suite_beff, &suite_startup};

const suite_desc *tool_suite_at(int i) {
  return i >= 0 && i < (int)(sizeof(tool_suites) / sizeof(tool_suites[0])) ? tool_suites[i] : NULL;
}

void suite_imb_label(const suite_desc *s, char *buf, size_t len) {
  int n = snprintf(buf, len, "IMB-%s", s->name);
  for (int i = 4; i < n && (size_t)i < len; i++) buf[i] = (char)toupper((unsigned char)buf[i]);
}
