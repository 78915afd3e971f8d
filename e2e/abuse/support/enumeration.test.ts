import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compareTimings, type Side, Z_LIMIT } from './enumeration.ts';

/**
 * The timing comparison of the enumeration checks, on a probe of known timing: no server, and a
 * clock that only the probe moves, so that every figure is exact.
 */
describe('compareTimings', () => {
  let clock = 0;
  beforeEach(() => {
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    // The figures' lines stay out of this test's output.
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A probe that takes `knownMs` for a known address and 1 ms for an unknown one, and the tries it saw. */
  function probe(knownMs: number) {
    const seen: Record<Side, number[]> = { known: [], unknown: [] };
    const run = async (side: Side, i: number) => {
      seen[side].push(i);
      clock += side === 'known' ? knownMs : 1;
    };
    return { run, seen };
  }
  const measured = (indices: number[]) => indices.filter((i) => i >= 0).sort((a, b) => a - b);
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

  it('takes a second look at a sample over the limit, with new indices, and judges on all the tries', async () => {
    const p = probe(2);
    const c = await compareTimings('a slower known side', 30, p.run, { warmup: 1 });
    expect(c.tries).toBe(120);
    expect(measured(p.seen.known)).toEqual(range(0, 60));
    expect(measured(p.seen.unknown)).toEqual(range(0, 60));
    expect(c.knownSlower).toBe(1);
    expect(c.z).toBeGreaterThan(Z_LIMIT);
  });

  it('takes one sample when the sides are alike', async () => {
    const p = probe(1);
    const c = await compareTimings('alike', 30, p.run, { warmup: 1 });
    expect(c.tries).toBe(60);
    expect(measured(p.seen.known)).toEqual(range(0, 30));
    expect(p.seen.known.filter((i) => i < 0)).toEqual([-1]);
    expect(c.z).toBe(0);
  });
});
