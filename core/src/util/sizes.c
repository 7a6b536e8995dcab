#include "util/sizes.h"

static int contains(const size_t *v, int n, size_t x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return 1;
  return 0;
}

int sizes_build(const options_t *o, size_t unit, size_t *out, int max) {
  int n = 0;
  if (unit == 0) unit = 1;
  if (o->have_size_list) {
    /* IMB measures a list as given: every entry rounded up to the element,
     * duplicates kept, an explicit 0 kept even with -zero_size off. */
    for (int i = 0; i < o->n_sizes && n < max; i++) out[n++] = (o->sizes[i] + unit - 1) / unit * unit;
    return n;
  }
  if (o->zero_size && n < max) out[n++] = 0;
  size_t top = ((size_t)1 << o->msglog_max) / unit * unit;
  for (int k = o->msglog_min; k <= o->msglog_max && n < max; k++) {
    size_t s = (((size_t)1 << k) + unit - 1) / unit * unit;
    if (s > top || s == 0) continue;
    if (!contains(out, n, s)) out[n++] = s;
  }
  return n;
}
