/**
 * Latency histogram in microseconds, log-linear like HdrHistogram: exact 1 µs buckets below 2,048 µs,
 * then 1,024 buckets per power of two (under 0.1 % relative error). Recording is one array increment,
 * so the loader spends its CPU on sockets, not on bookkeeping. Sparse export lets worker processes merge.
 */
const SUB = 1024; // buckets per power of two
const MAX_US = 2 ** 31 - 1; // about 35 minutes: far beyond any request we time
const SIZE = 23 * SUB;

function indexOf(us: number): number {
  if (us < 2 * SUB) return us;
  const shift = 31 - Math.clz32(us) - 10; // most significant bit above the 10 sub-bucket bits
  return (shift + 1) * SUB + ((us >>> shift) - SUB);
}

/** The lowest value of a bucket, in microseconds. */
function valueOf(index: number): number {
  if (index < 2 * SUB) return index;
  const shift = Math.floor(index / SUB) - 1;
  return ((index % SUB) + SUB) * 2 ** shift;
}

export class Histogram {
  readonly counts = new Uint32Array(SIZE);
  total = 0;

  record(us: number): void {
    const v = us < 0 ? 0 : us > MAX_US ? MAX_US : us | 0;
    this.counts[indexOf(v)]!++;
    this.total++;
  }

  /** The value at or below which `q` (0..1) of the recordings fall, in milliseconds. */
  quantileMs(q: number): number {
    if (this.total === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (let i = 0; i < SIZE; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return valueOf(i) / 1000;
    }
    return MAX_US / 1000;
  }

  /** Non-empty buckets as [index, count] pairs, for a parent process to merge. */
  toSparse(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < SIZE; i++) if (this.counts[i]) out.push([i, this.counts[i]!]);
    return out;
  }

  addSparse(pairs: [number, number][]): void {
    for (const [i, n] of pairs) {
      this.counts[i]! += n;
      this.total += n;
    }
  }
}
