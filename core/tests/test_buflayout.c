/* Buffer arithmetic: heap_neighbour_offset against glibc's own placement of
 * two consecutive allocations (where IMB's send and receive buffers land). */
#include "check.h"
#include "util/buflayout.h"

#include <stdint.h>
#include <stdlib.h>

int main(void) {
  /* A multiple of 16 is followed 16 bytes past its end: the next chunk's size field. */
  CHECK_EQ_LONG(heap_neighbour_offset(4096), 4112);
  CHECK_EQ_LONG(heap_neighbour_offset(262144), 262160);
  /* Rounded up to 16 with the 8-byte size field; glibc's smallest chunk is 32 bytes. */
  CHECK_EQ_LONG(heap_neighbour_offset(1000), 1008);
  CHECK_EQ_LONG(heap_neighbour_offset(1001), 1024);
  CHECK_EQ_LONG(heap_neighbour_offset(1), 32);
  CHECK_EQ_LONG(heap_neighbour_offset(0), 32);
#ifdef __GLIBC__
  /* The rule is glibc's: two allocations carved one after the other from the
   * top of a fresh heap (sizes no earlier free could serve, under the mmap
   * threshold) sit exactly this far apart. */
  size_t sizes[] = {20000, 20001, 40000, 65536};
  for (int i = 0; i < 4; i++) {
    char *a = malloc(sizes[i]), *b = malloc(2 * sizes[i]);
    CHECK(a && b);
    CHECK_EQ_LONG((intptr_t)(b - a), heap_neighbour_offset(sizes[i]));
  }
#endif
  return failures;
}
