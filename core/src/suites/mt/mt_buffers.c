#include "suites/mt/mt_run.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

int mt_thread_id(void) {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

static size_t aligned_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* Buffers of one thread: send then receive area, aligned, zeroed (written
 * before any timing, by the thread that will use them for -malloc_algo parallel). */
static int alloc_slot(slot_t *s, size_t sbytes, size_t rbytes, size_t align) {
  size_t sb = aligned_up(sbytes + 1, align);
  void *p = NULL;
  if (posix_memalign(&p, align, sb + aligned_up(rbytes + 1, align)) != 0) return -1;
  memset(p, 0, sb + aligned_up(rbytes + 1, align));
  s->block = p;
  s->c.sbuf = p;
  s->c.rbuf = (char *)p + sb;
  return 0;
}

int mt_alloc_buffers(const mt_run_t *m, slot_t *slots, size_t sbytes, size_t rbytes) {
  size_t align = (size_t)m->o->malloc_align;
  int algo = m->multiple ? m->o->malloc_algo : MT_MALLOC_SERIAL;
  int failed = 0;
  if (algo == MT_MALLOC_CONTINUOUS) {
    size_t each = aligned_up(sbytes + 1, align) + aligned_up(rbytes + 1, align);
    void *p = NULL;
    if (posix_memalign(&p, align, each * (size_t)m->threads) != 0) return -1;
    memset(p, 0, each * (size_t)m->threads);
    for (int i = 0; i < m->threads; i++) {
      slots[i].block = i == 0 ? p : NULL;
      slots[i].c.sbuf = (char *)p + each * (size_t)i;
      slots[i].c.rbuf = slots[i].c.sbuf + aligned_up(sbytes + 1, align);
    }
  } else if (algo == MT_MALLOC_PARALLEL) {
#pragma omp parallel num_threads(m->threads) reduction(+ : failed)
    failed += alloc_slot(&slots[mt_thread_id()], sbytes, rbytes, align) != 0;
  } else {
    for (int i = 0; i < m->threads; i++) failed += alloc_slot(&slots[i], sbytes, rbytes, align) != 0;
  }
  return failed ? -1 : 0;
}
