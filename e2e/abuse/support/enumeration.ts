import { expect } from 'vitest';
import type { Answer } from './client.ts';

/**
 * Timing comparison of a known and an unknown address (OWASP ASVS 5.0 V6: no account enumeration
 * "by different response times"), robust on a shared, busy machine:
 *
 * - Randomised interleaving: the 2n tries (n per side) run in a shuffled order, one request at a
 *   time as an attacker would probe (parallel requests share the server's work and would hide a
 *   difference). Load from anything else on the machine, drift, and the work a member's answer
 *   leaves behind it (mail sent after the answer, decision 0005) then fall on either side alike:
 *   each side follows each equally often. (Strict alternation did not: the background work after
 *   a member's answer landed on the next request, an unknown one more often; z near -2 was seen.)
 * - Mann-Whitney rank test of the two samples: under "the address changes nothing" the random order
 *   makes every labelling equally likely, so the rank-sum statistic z is standard normal whatever
 *   the spread or the outliers (a GC pause or a burst of another process moves one rank, not the
 *   median). |z| <= 4 (p < 1e-4, two sided) is "within noise". Skipping the argon2id verify for an
 *   unknown id or waiting for the mail of a member gives |z| near sqrt(3n), about 17 for n = 100.
 * - A second look: a sample over the limit is followed by as many tries again, in a new random
 *   order, and the limit applies to all the tries together. A difference the address makes grows
 *   with the tries (z with their square root: 4 becomes about 5.7); a chance excursion of the first
 *   sample does not. Under "the address changes nothing" a first sample is over the limit once in
 *   about 16,000, and all the tries together then once in about 16 more (a first z of 4.1 needs
 *   the second sample's above 1.6). Seen in CI: z = 4.11 on the authorize form post, where runs
 *   before and after it gave -1.4 to 1.9.
 * - The medians, their difference, the IQRs and how often a known try was the slower one in all
 *   known-unknown comparisons are printed, so that the size of any difference can be read in the
 *   test output against the spread.
 */
export const Z_LIMIT = 4;

export interface Summary {
  median: number;
  q1: number;
  q3: number;
}

export interface TimingComparison {
  label: string;
  tries: number;
  known: Summary;
  unknown: Summary;
  /** The share of (known, unknown) comparisons in which the known try was the slower (0.5: none). */
  knownSlower: number;
  z: number;
}

const quantile = (sorted: number[], p: number) => {
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  return sorted[lo]! + (sorted[Math.ceil(at)]! - sorted[lo]!) * (at - lo);
};

export function summarise(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  return { median: quantile(s, 0.5), q1: quantile(s, 0.25), q3: quantile(s, 0.75) };
}

/** The Mann-Whitney U of `known` against `unknown` (mid-ranks for ties) as its normal z, and U / (n1 n2). */
export function mannWhitney(known: number[], unknown: number[]): { knownSlower: number; z: number } {
  const all = [...known.map((v) => ({ v, known: true })), ...unknown.map((v) => ({ v, known: false }))].sort((a, b) => a.v - b.v);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    const midRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k]!.known) rankSum += midRank;
    i = j + 1;
  }
  const [n1, n2] = [known.length, unknown.length];
  const u = rankSum - (n1 * (n1 + 1)) / 2;
  return { knownSlower: u / (n1 * n2), z: (u - (n1 * n2) / 2) / Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12) };
}

export type Side = 'known' | 'unknown';

/** n tries of each side in a random order (Fisher-Yates), each with its index on its side (from `first`). */
function shuffledTries(n: number, first: number): { side: Side; i: number }[] {
  const tries = (['known', 'unknown'] as const).flatMap((side) => Array.from({ length: n }, (_, i) => ({ side, i: first + i })));
  for (let k = tries.length - 1; k > 0; k--) {
    const r = Math.floor(Math.random() * (k + 1));
    [tries[k], tries[r]] = [tries[r]!, tries[k]!];
  }
  return tries;
}

/**
 * Runs `n` tries of each side of `probe` in a random order (after `warmup` unmeasured ones of
 * each), and `n` more of each when those are over the limit (the second look above), prints the
 * figures and returns them. `probe` sends one request and checks its answer; its time is what is
 * compared. Try i of a side has indices 0 to n - 1, and n to 2n - 1 in a second look (the warm-up's
 * are negative). `lanes` > 1 runs that many tries at once, for endpoints whose time is mostly idle
 * waiting (the order stays random, so it still falls on both sides alike).
 */
export async function compareTimings(
  label: string,
  n: number,
  probe: (side: Side, i: number) => Promise<unknown>,
  options: { warmup?: number; lanes?: number } = {},
): Promise<TimingComparison> {
  for (let i = 0; i < (options.warmup ?? 6); i++) {
    await probe('known', -1 - i);
    await probe('unknown', -1 - i);
  }
  const times: Record<Side, number[]> = { known: [], unknown: [] };
  const sample = async (first: number) => {
    const queue = shuffledTries(n, first);
    const lane = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const start = performance.now();
        await probe(next.side, next.i);
        times[next.side].push(performance.now() - start);
      }
    };
    await Promise.all(Array.from({ length: options.lanes ?? 1 }, lane));
    return { label, tries: times.known.length + times.unknown.length, known: summarise(times.known), unknown: summarise(times.unknown), ...mannWhitney(times.known, times.unknown) };
  };
  const first = await sample(0);
  if (Math.abs(first.z) <= Z_LIMIT) {
    report(first, options.lanes);
    return first;
  }
  report(first, options.lanes, 'over the limit: a second look follows');
  const all = await sample(n);
  report(all, options.lanes);
  return all;
}

/** Prints a comparison's figures in the test output. */
function report(result: TimingComparison, lanes: number | undefined, note?: string): void {
  const { label } = result;
  const ms = (x: number) => x.toFixed(2);
  const iqr = (s: Summary) => ms(s.q3 - s.q1);
  // eslint-disable-next-line no-console -- the measurement belongs in the test output
  console.log(
    `[enumeration timing] ${label}: ${result.tries} tries in random order${lanes ? `, ${lanes} at a time` : ''}; ` +
      `median known ${ms(result.known.median)} ms, unknown ${ms(result.unknown.median)} ms, ` +
      `difference ${ms(result.known.median - result.unknown.median)} ms; IQR known ${iqr(result.known)} ms, unknown ${iqr(result.unknown)} ms; ` +
      `known slower in ${(100 * result.knownSlower).toFixed(1)}% of comparisons; Mann-Whitney z = ${result.z.toFixed(2)} (limit ±${Z_LIMIT})` +
      (note ? `; ${note}` : ''),
  );
}

/** Asserts that the comparison is within noise (the sign test above). */
export function expectWithinNoise(c: TimingComparison): void {
  expect(Math.abs(c.z), `${c.label}: known and unknown addresses differ in timing (z = ${c.z.toFixed(2)})`).toBeLessThanOrEqual(Z_LIMIT);
}

/**
 * What an answer shows, for comparing a known and an unknown address: status, the headers that
 * describe the body, and the body with `normalise` applied (only parts that are random or that
 * echo the caller's own input may be normalised).
 */
export const visible = (a: Answer, normalise: (text: string) => string = (t) => t) => ({
  status: a.status,
  contentType: a.headers.get('content-type'),
  cacheControl: a.headers.get('cache-control'),
  location: a.headers.get('location'),
  body: normalise(a.text),
});

/** Replaces the value of a JSON string field (such as a random register_token) with a placeholder. */
export const maskField = (field: string) => (text: string) => text.replace(new RegExp(`"${field}":"[^"]*"`, 'g'), `"${field}":"<${field}>"`);

/** Replaces every occurrence of the caller's own input (an address it sent) with a placeholder. */
export const maskEcho = (value: string) => (text: string) => text.split(value).join('<echo>');
