/* mpimark-core mt: IMB-MT's program (docs/mt.md). */
#ifndef MPIMARK_MT_MAIN_H
#define MPIMARK_MT_MAIN_H

int mt_main(int argc, char **argv);

#endif
