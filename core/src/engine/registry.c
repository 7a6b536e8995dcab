#include "engine/registry.h"
#include "util/strutil.h"

#include <stddef.h>

static const suite_desc *const suites[] = {&suite_mpi1};

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
