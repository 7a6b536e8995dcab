#include "engine/datatypes.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

MPI_Datatype dtype_mpi(dtype_t t, int reduction) {
  switch (t) {
    case DT_BYTE: return MPI_BYTE;
    case DT_CHAR: return MPI_CHAR;  /* IMB's, for reductions too; Open MPI and MPICH sum it */
    case DT_INT: return MPI_INT;
    case DT_FLOAT: return MPI_FLOAT;
    case DT_DOUBLE: return MPI_DOUBLE;
    case DT_FLOAT16:
#ifdef MPIX_C_FLOAT16
      return MPIX_C_FLOAT16;
#else
      return MPI_DATATYPE_NULL;
#endif
    case DT_BFLOAT16:
#ifdef MPIX_C_BF16
      return MPIX_C_BF16;
#else
      return MPI_DATATYPE_NULL;
#endif
  }
  return MPI_DATATYPE_NULL;
}

const char *dtype_mpi_name(dtype_t t, int reduction) {
  static const char *names[] = {"MPI_BYTE", "MPI_CHAR", "MPI_INT", "MPI_FLOAT", "MPI_DOUBLE",
                                "MPIX_C_FLOAT16", "MPIX_C_BF16"};
  return names[t];
}

/* Small non-negative integers: exact in every type, distinct per rank and
 * position, and never 0xFF.. so the poison pattern can't pass for data.
 * char gets 0..7 only: MPI leaves signed overflow in a reduction undefined
 * (Open MPI's vector sum saturates, a scalar sum wraps), and sums of up to
 * 18 ranks of 0..7 stay below 128. */
#define VALUE_PERIOD 251u

static inline long value_of(int r, size_t pos) {
  return (long)(((size_t)r * 31u + pos * 7u + 1u) % VALUE_PERIOD);
}

static inline long char_value_of(int r, size_t pos) { return (long)(((size_t)r * 3u + pos + 1u) % 8u); }

/* value_of / char_value_of stepped from one position to the next without
 * a division: -check inside the timing (mpiBench -C) fills per call. */
#define FILL_LOOP(T)                                            \
  do {                                                          \
    T *p = (T *)buf;                                            \
    long v = value_of(r, first);                                \
    for (size_t e = 0; e < n; e++) {                            \
      p[e] = (T)v;                                              \
      v += 7;                                                   \
      if (v >= (long)VALUE_PERIOD) v -= (long)VALUE_PERIOD;     \
    }                                                           \
  } while (0)

/* The values repeat every VALUE_PERIOD positions (char's every 8), so a
 * long buffer gets one period element by element and then copies of what is
 * already written, doubling: a 4 MiB buffer at memcpy's speed. Element by
 * element, the buffers of a default ext launch (every size to 4 MiB, both
 * buffers, every table) took ~0.15 s per rank, twice IMB's fill
 * (benchmarks/README.md, "Launch wall time against IMB"). */
static void repeat_period(void *buf, size_t elem, size_t count, size_t done) {
  char *p = buf;
  while (done < count) {
    size_t n = done < count - done ? done : count - done;
    memcpy(p + done * elem, p, n * elem);
    done += n;
  }
}

void fill_values(void *buf, dtype_t t, size_t count, int r, size_t first) {
  size_t period = t == DT_CHAR ? 8 : VALUE_PERIOD;
  size_t head = count < period ? count : period;
  size_t n = head;
  switch (t) {
    case DT_BYTE: FILL_LOOP(uint8_t); break;
    case DT_CHAR: {
      signed char *p = buf;
      long v = char_value_of(r, first);
      for (size_t e = 0; e < n; e++, v = (v + 1) % 8) p[e] = (signed char)v;
      break;
    }
    case DT_INT: FILL_LOOP(int); break;
    case DT_FLOAT: FILL_LOOP(float); break;
    case DT_DOUBLE: FILL_LOOP(double); break;
    default: FILL_LOOP(uint16_t); break;
  }
  repeat_period(buf, dtype_size(t), count, head);
}

/* Sums in the element type, as the MPI library does: a char sum wraps. */
#define SUM_LOOP(T)                                             \
  do {                                                          \
    T *p = (T *)buf;                                            \
    for (size_t e = 0; e < count; e++) {                        \
      T acc = 0;                                                \
      for (int k = 0; k < nr; k++) {                            \
        T v;                                                    \
        fill_values(&v, t, 1, ranks[k], first + e);             \
        acc = (T)(acc + v);                                     \
      }                                                         \
      p[e] = acc;                                               \
    }                                                           \
  } while (0)

void fill_sum(void *buf, dtype_t t, size_t count, const int *ranks, int nr, size_t first) {
  switch (t) {
    case DT_BYTE: SUM_LOOP(uint8_t); break;
    case DT_CHAR: SUM_LOOP(signed char); break;
    case DT_INT: SUM_LOOP(int); break;
    case DT_FLOAT: SUM_LOOP(float); break;
    case DT_DOUBLE: SUM_LOOP(double); break;
    default: SUM_LOOP(uint16_t); break;
  }
}

long count_mismatches(const void *got, const void *expected, dtype_t t, size_t count) {
  size_t w = dtype_size(t);
  const char *a = got, *b = expected;
  if (memcmp(a, b, count * w) == 0) return 0;
  long bad = 0;
  for (size_t e = 0; e < count; e++)
    if (memcmp(a + e * w, b + e * w, w) != 0) bad++;
  return bad;
}

MPI_Datatype block_type(size_t bytes) {
  const size_t chunk = (size_t)1 << 30;
  size_t q = bytes / chunk, r = bytes % chunk;
  MPI_Datatype chunk_t, whole_t, rest_t, out;
  MPI_Type_contiguous((int)chunk, MPI_BYTE, &chunk_t);
  MPI_Type_contiguous((int)q, chunk_t, &whole_t);
  MPI_Type_contiguous((int)r, MPI_BYTE, &rest_t);
  int lens[2] = {1, 1};
  MPI_Aint disp[2] = {0, (MPI_Aint)(q * chunk)};
  MPI_Datatype types[2] = {whole_t, rest_t};
  MPI_Type_create_struct(r ? 2 : 1, lens, disp, types, &out);
  MPI_Type_commit(&out);
  MPI_Type_free(&chunk_t);
  MPI_Type_free(&whole_t);
  MPI_Type_free(&rest_t);
  return out;
}
