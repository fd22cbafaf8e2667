# fasta + k-nucleotide (benchmarks game): a random DNA string from fasta's LCG, then k-mer counts in dicts; a line-by-line port of knucleotide.tg.
import sys

IM = 139968
IA = 3877
IC = 29573


def make_cumulative(table):
    chars = []
    probs = []
    p = 0.0
    for c, w in table:
        p += w
        chars.append(c)
        probs.append(p)
    return (chars, probs)


def random_sequence(n, table, seed):
    chars, probs = make_cumulative(table)
    nc = len(chars)
    out = []
    for i in range(n):
        seed = (seed * IA + IC) % IM
        r = float(seed) / IM
        k = 0
        while k < nc - 1 and r >= probs[k]:
            k += 1
        out.append(chars[k])
    return ("".join(out), seed)


def count_kmers(seq, k):
    counts = {}
    for i in range(len(seq) - k + 1):
        kmer = seq[i:i + k]
        counts[kmer] = counts.get(kmer, 0) + 1
    return counts


def frequencies(seq, k):
    counts = count_kmers(seq, k)
    total = len(seq) - k + 1
    lines = []
    for kmer, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"{kmer} {100 * float(c) / total:.3f}")
    return lines


def main(n):
    homo_sapiens = [("a", 0.3029549426680), ("c", 0.1979883004921), ("g", 0.1975473066391), ("t", 0.3015094502008)]
    iub = [("a", 0.27), ("c", 0.12), ("g", 0.12), ("t", 0.27), ("B", 0.02), ("D", 0.02),
           ("H", 0.02), ("K", 0.02), ("M", 0.02), ("N", 0.02), ("R", 0.02), ("S", 0.02),
           ("V", 0.02), ("W", 0.02), ("Y", 0.02)]
    seq1, seed = random_sequence(n, iub, 42)
    seq2, seed = random_sequence(n, homo_sapiens, seed)
    seq = (seq1 + seq2).upper()
    print(f"length {len(seq)}, last seed {seed}")
    for k in [1, 2]:
        for line in frequencies(seq, k):
            print(line)
        print("")
    for frag in ["GGT", "GGTA", "GGTATT", "GGTATTTTAATT", "GGTATTTTAATTTATAGT"]:
        counts = count_kmers(seq, len(frag))
        print(f"{counts.get(frag, 0)}\t{frag}")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
