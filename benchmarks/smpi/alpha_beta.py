"""The alpha-beta model of the Allreduce and Bcast algorithms SMPI ran (benchmarks/smpi_riken.sh pins them).

Each message from rank a to rank b costs alpha(a, b) + n / beta, where alpha is the route's latency on the shipped
torus (1.05 us per hop, wrap-around distance, or the loopback's 1.05 us between ranks of one node) and beta the
link bandwidth (6.275 GB/s): exactly what SMPI charges with its correction factors set to 1 (H3's check), minus
link contention (none modelled here; at <= 1 KiB a message is > 99 % latency). A rank's clock advances with each
message it receives (a receive ends at max(receiver's clock, sender's clock + cost); sends below SMPI's
detached threshold (64 KiB) do not block the sender), so the result is the algorithm's critical
path per rank from a common start; IMB reports the max and the mean over ranks.

    .venv/bin/python benchmarks/smpi/alpha_beta.py 4x6x16 0,8,128,1024

Algorithms (SimGrid 3.32 source, src/smpi/colls): allreduce__rdb (MPICH recursive doubling, non-power-of-two
ranks folded first) and bcast__binomial_tree (MPICH binomial tree from root 0).
"""
import sys

from mpimark.execution.platforms import resolve

RANKS_PER_NODE = 4


def cost_fn(shape):
    plat = resolve("torus:" + shape)
    beta = plat.parameters["link_bandwidth_Bps"]
    cache = {}

    def alpha(a, b):
        na, nb = a // RANKS_PER_NODE, b // RANKS_PER_NODE
        if na == nb:
            return plat.parameters["loopback_latency_s"]
        key = (min(na, nb), max(na, nb))
        if key not in cache:
            cache[key] = plat.route(na, nb)[0]
        return cache[key]

    return plat.host_count * RANKS_PER_NODE, alpha, beta


def allreduce_rdb(P, alpha, beta, n):
    t = [0.0] * P
    pof2 = 1 << (P.bit_length() - 1)
    rem = P - pof2

    def msg(a, b):  # a sends to b (small sends are eager in SMPI: the sender does not wait)
        t[b] = max(t[b], t[a] + alpha(a, b) + n / beta)

    def exchange(a, b):  # sendrecv: each side waits only for the other's message
        c = alpha(a, b) + n / beta
        t[a], t[b] = max(t[a], t[b] + c), max(t[b], t[a] + c)

    for r in range(0, 2 * rem, 2):
        msg(r, r + 1)
    real = [2 * i + 1 if i < rem else i + rem for i in range(pof2)]
    mask = 1
    while mask < pof2:
        for i in range(pof2):
            j = i ^ mask
            if i < j:
                exchange(real[i], real[j])
        mask <<= 1
    for r in range(0, 2 * rem, 2):
        msg(r + 1, r)
    return t


def bcast_binomial(P, alpha, beta, n, root=0):
    t = [0.0] * P
    mask = 1 << (P - 1).bit_length()
    # MPICH binomial: the root sends to root+P/2 (rounded to a power of two) first, then halves the distance.
    mask >>= 1
    have = [False] * P
    have[root] = True
    while mask >= 1:
        for rel in range(0, P, 2 * mask):
            if rel + mask < P:
                a, b = (rel + root) % P, (rel + mask + root) % P
                t[b] = t[a] + alpha(a, b) + n / beta
        mask >>= 1
    return t


def main(argv):
    if len(argv) != 3:
        print("usage: alpha_beta.py SHAPE SIZES  (e.g. 4x6x16 0,8,128,1024)", file=sys.stderr)
        return 2
    P, alpha, beta = cost_fn(argv[1])
    print(f"# alpha-beta model, torus {argv[1]}, {P} ranks (4 per node); times in us")
    print("bench\tbytes\tmodel_max_us\tmodel_mean_us")
    for n in (int(s) for s in argv[2].split(",")):
        for name, fn, count in (("Allreduce", allreduce_rdb, n), ("Bcast", bcast_binomial, n)):
            t = fn(P, alpha, beta, count)
            print(f"{name}\t{n}\t{max(t) * 1e6:.2f}\t{sum(t) / P * 1e6:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
