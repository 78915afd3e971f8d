import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { compareTimings, type Side, Z_LIMIT } from './enumeration.ts';

/** The timing comparison of the enumeration checks, on a probe of known timing (no server). */
describe('compareTimings', () => {
  /** A probe that takes `knownMs` for a known address and no time for an unknown one, and the tries it saw. */
  function probe(knownMs: number) {
    const seen: Record<Side, number[]> = { known: [], unknown: [] };
    const run = async (side: Side, i: number) => {
      seen[side].push(i);
      if (side === 'known' && knownMs > 0) await sleep(knownMs);
    };
    return { run, seen };
  }
  const measured = (indices: number[]) => indices.filter((i) => i >= 0).sort((a, b) => a - b);
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

  it('takes a second look at a sample over the limit, with new indices, and judges on all the tries', async () => {
    // The figures' lines (compareTimings prints them) stay out of this test's output.
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const p = probe(2);
    const c = await compareTimings('a slower known side', 30, p.run, { warmup: 1 });
    expect(c.tries).toBe(120);
    expect(measured(p.seen.known)).toEqual(range(0, 60));
    expect(measured(p.seen.unknown)).toEqual(range(0, 60));
    expect(c.z).toBeGreaterThan(Z_LIMIT);
    expect(c.knownSlower).toBeGreaterThan(0.95);
  });

  it('takes one sample when the sides are alike', async () => {
    const p = probe(0);
    const c = await compareTimings('alike', 30, p.run, { warmup: 1 });
    // Timing noise alone is over the limit once in about 16,000 samples (support/enumeration.ts).
    expect(c.tries).toBe(60);
    expect(measured(p.seen.known)).toEqual(range(0, 30));
    expect(p.seen.known.filter((i) => i < 0)).toEqual([-1]);
  });
});
