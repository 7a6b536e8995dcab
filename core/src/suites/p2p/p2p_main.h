/* mpimark-core p2p: IMB-P2P's program (docs/p2p.md). */
#ifndef MPIMARK_P2P_MAIN_H
#define MPIMARK_P2P_MAIN_H

int p2p_main(int argc, char **argv);

#endif
