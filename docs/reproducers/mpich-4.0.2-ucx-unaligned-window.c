/* MPICH 4.0.2 (ch4:ucx, UCX 1.13.1, Debian 12): a window whose base address
 * is 4 bytes past an 8-byte boundary is addressed from the base rounded down
 * to 8 bytes: a get of displacement 0 reads the int below the base, and a
 * put to displacement 0 lands there. Very likely what pmodels/mpich#6140
 * ("ch4/ucx: Only set window base pointer when allocating", for UCX >= 1.13,
 * after 4.0.2) fixed.
 *
 *   mpicc.mpich -o unaligned mpich-4.0.2-ucx-unaligned-window.c
 *   mpiexec.mpich -n 2 ./unaligned      # "WRONG" on the base % 8 = 4 lines
 *   mpicc -o unaligned_ompi mpich-4.0.2-ucx-unaligned-window.c
 *   mpiexec -n 2 ./unaligned_ompi       # Open MPI 4.1.4: all "ok"
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

static _Alignas(64) int arr[64];

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = (rank + 1) % size, one = 42;
  for (int off = 0; off < 2; off++) {
    int *base = &arr[16 + off]; /* off 0: 8-byte aligned; off 1: 4 bytes past that */
    for (int i = 0; i < 64; i++) arr[i] = -1;
    base[0] = 7; /* what a get of displacement 0 must return */
    MPI_Win w;
    MPI_Win_create(base, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    int got = 0;
    MPI_Win_fence(0, w);
    MPI_Get(&got, 1, MPI_INT, peer, 0, 1, MPI_INT, w);
    MPI_Win_fence(0, w);
    MPI_Put(&one, 1, MPI_INT, peer, 0, 1, MPI_INT, w);
    MPI_Win_fence(0, w);
    MPI_Win_free(&w);
    int put_ok = base[0] == 42 && base[-1] == -1;
    printf("rank %d, base %% 8 = %d: get -> %d (%s); put -> base %d, int below %d (%s)\n", rank,
           (int)((uintptr_t)base % 8), got, got == 7 ? "ok" : "WRONG", base[0], base[-1], put_ok ? "ok" : "WRONG");
  }
  MPI_Finalize();
  return 0;
}
