/* A minimal assertion harness for the CTest units: each failed CHECK prints
 * file:line and the expression; main returns the failure count. */
#ifndef MPIMARK_TEST_CHECK_H
#define MPIMARK_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                            \
    }                                                                        \
  } while (0)

#define CHECK_EQ_LONG(a, b)                                                  \
  do {                                                                       \
    long _a = (long)(a), _b = (long)(b);                                     \
    if (_a != _b) {                                                          \
      fprintf(stderr, "%s:%d: %s == %ld, expected %ld\n", __FILE__, __LINE__, #a, _a, _b); \
      failures++;                                                            \
    }                                                                        \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                \
  do {                                                                       \
    double _a = (a), _b = (b);                                               \
    if (!(_a - _b <= (tol) && _b - _a <= (tol))) {                           \
      fprintf(stderr, "%s:%d: %s == %.9g, expected %.9g\n", __FILE__, __LINE__, #a, _a, _b); \
      failures++;                                                            \
    }                                                                        \
  } while (0)

#define TEST_MAIN_END()                                                      \
  do {                                                                       \
    if (failures) fprintf(stderr, "%d check(s) failed\n", failures);         \
    return failures ? 1 : 0;                                                 \
  } while (0)

#endif
