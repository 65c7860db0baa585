/**
 * A small seeded PRNG (mulberry32) so a chaos run's plan — which message, which fault, when —
 * replays from its seed. Timing on a loaded machine still varies, so a replay reproduces the plan,
 * not every interleaving.
 */
export class Rng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('rng.pick: empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One key of `weights`, chosen with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Partial<Record<K, number>>>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    const total = entries.reduce((s, [, w]) => s + Math.max(0, w), 0);
    let r = this.next() * total;
    for (const [k, w] of entries) {
      r -= Math.max(0, w);
      if (r < 0) return k;
    }
    return (entries[entries.length - 1] as [K, number])[0];
  }

  /** `n` distinct sorted integers from [0, size). */
  sample(size: number, n: number): number[] {
    const chosen = new Set<number>();
    const want = Math.min(n, size);
    while (chosen.size < want) chosen.add(this.int(0, size - 1));
    return [...chosen].sort((a, b) => a - b);
  }
}

/** A fresh random seed (printed by the run, so it can be replayed). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
