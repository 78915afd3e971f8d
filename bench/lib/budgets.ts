import type { OpSummary } from './stats.ts';

/**
 * The performance budgets (docs/performance.md), each a ratio of a product figure to a ceiling
 * measured in the same run (the machines are shared and noisy, so absolute figures would say
 * little), and, for the token endpoints, a p99 bound at that load. Budgets this harness does not
 * measure yet are listed too, so that a reader sees what is still unproven rather than an all-green
 * table.
 */
export type Verdict = 'pass' | 'falls short' | 'not measured yet';

export interface BudgetResult {
  budget: string;
  measured: string;
  verdict: Verdict;
}

/** Requests per second of successful operations. */
export const okPerSecond = (s: OpSummary, seconds: number): number => s.ok / seconds;

const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;

/**
 * The product reaches at least `share` of its ceiling (`ratio`: the median of the rounds' ratios,
 * bench.ts takeTurns), with no error and, when `p99Ms` is set, its p99 below it. The median rounds'
 * rates are shown beside the ratio.
 */
export function ratioBudget(o: {
  budget: string;
  product: OpSummary;
  productPerSecond: number;
  ceilingPerSecond: number;
  ratio: number;
  share: number;
  p99Ms?: number;
}): BudgetResult {
  const ratio = o.ratio;
  const ratioOk = Number.isFinite(ratio) && ratio >= o.share;
  const p99Ok = o.p99Ms === undefined || o.product.p99 < o.p99Ms;
  const errorsOk = o.product.errors === 0;
  const parts = [`${pct(ratio)} (median round ratio; median rounds ${o.productPerSecond.toFixed(1)} and ${o.ceilingPerSecond.toFixed(1)} ops/s)`];
  if (o.p99Ms !== undefined) parts.push(`p99 ${o.product.p99.toFixed(1)} ms`);
  if (!errorsOk) parts.push(`${o.product.errors} errors`);
  return { budget: o.budget, measured: parts.join(', '), verdict: ratioOk && p99Ok && errorsOk ? 'pass' : 'falls short' };
}

export const notMeasured = (budget: string, why = '–'): BudgetResult => ({ budget, measured: why, verdict: 'not measured yet' });

/** A figure that must be at most (`limit` 'max') or at least ('min') a bound: hashes per login, bytes, scores. */
export function boundBudget(o: { budget: string; value: number; bound: number; kind: 'max' | 'min' | 'exactly'; shown: string }): BudgetResult {
  const ok = o.kind === 'max' ? o.value <= o.bound : o.kind === 'min' ? o.value >= o.bound : o.value === o.bound;
  return { budget: o.budget, measured: o.shown, verdict: ok ? 'pass' : 'falls short' };
}

/**
 * Growth: each operation's ok/s with the larger member count differs from the one with
 * the smaller count by at most `share` of the latter (`change`: the grown side's rate over the small
 * side's, minus 1). The worst operation is named.
 */
export function growthBudget(o: { budget: string; changes: readonly { label: string; change: number }[]; share: number }): BudgetResult {
  const { changes } = o;
  const worst = changes.reduce((a, c) => (Number.isNaN(c.change) || Math.abs(c.change) > Math.abs(a.change) ? c : a));
  const ok = changes.every((c) => Math.abs(c.change) <= o.share);
  const sign = worst.change >= 0 ? '+' : '';
  return { budget: o.budget, measured: `largest change ${sign}${pct(worst.change)} (${worst.label})`, verdict: ok ? 'pass' : 'falls short' };
}
