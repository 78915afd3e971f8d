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

/** A share as the budgets write it: 0.85 -> "85%". */
const percent = (share: number): string => `${Math.round(share * 100)}%`;

/**
 * The budgets, once: each one's bound and the words the report gives it, made from the bound
 * (docs/performance.md and the README point here). How each is measured is said beside it.
 */
export const BUDGETS = {
  /** Authorize POSTs per second over argon2id verifications per second, in turns. */
  login: { share: 0.85, label: (): string => `login ≥ ${percent(BUDGETS.login.share)} of the argon2id ceiling` },
  /** The server's argon2id count over 20 SPA logins (login step + authorize step), in-process. */
  hashesPerLogin: { bound: 1, label: (): string => 'exactly one password hash per login' },
  /** Ok/s over the bare route's ok/s, in turns; the p99 of the median round. */
  refresh: { share: 0.12, p99Ms: 25, label: (): string => `refresh ≥ ${percent(BUDGETS.refresh.share)} of bare Fastify, p99 < ${BUDGETS.refresh.p99Ms} ms` },
  /** As the refresh grant's. */
  introspection: {
    share: 0.3,
    p99Ms: 25,
    label: (): string => `introspection ≥ ${percent(BUDGETS.introspection.share)} of bare Fastify, p99 < ${BUDGETS.introspection.p99Ms} ms`,
  },
  /**
   * The sign-in's three requests (challenge, assertion with a software authenticator's ES256
   * signature, the authorize POST with its ticket) per second over the password login's authorize
   * POSTs per second, in turns (decision 0024).
   */
  passkey: { share: 10, p99Ms: 50, label: (): string => `passkey sign-in ≥ ${BUDGETS.passkey.share}× the password login, p99 < ${BUDGETS.passkey.p99Ms} ms` },
  /**
   * The refresh grant of a session with `openid` (a new ES256 ID token each time) per second over
   * the plain refresh grant's, in turns (each member holds a session of each kind); the p99 of its
   * median round (decision 0025); beside it, the server's CPU per refresh by thread (from /proc).
   */
  openidRefresh: {
    share: 0.85,
    p99Ms: 25,
    label: (): string =>
      `refresh with openid within ${percent(1 - BUDGETS.openidRefresh.share)} of the refresh without it, token endpoint p99 < ${BUDGETS.openidRefresh.p99Ms} ms`,
  },
  /** `passkey_login` rows of `verifications` written, and left unused, over 20 sign-ins. */
  challengeRows: { bound: 1, label: (): string => 'one challenge row written and used up per passkey sign-in' },
  /**
   * `--production`: two new production servers alike but for LOG_LEVEL (info: a line per request;
   * warn: none), side by side in turns; the refresh grant's and introspection's rate with logs over
   * without.
   */
  requestLogs: {
    share: 0.9,
    label: (): string => `request logs cost ≤ ${percent(1 - BUDGETS.requestLogs.share)} of refresh and introspection`,
    of: (operation: string): string => `${operation} with request logs ≥ ${percent(BUDGETS.requestLogs.share)} of without`,
  },
  /** `--production`: every request line of the logged server names its reqId. */
  requestIds: { bound: 0, label: (): string => 'every request log line names its request id' },
  /**
   * `--production`: node-oidc-provider 9 (bench/peer/oidc-provider-server.ts: its in-memory store,
   * refresh rotation on, no request logs, one confidential client, sessions minted as its code
   * exchange would) in a process of its own, driven by the same client, in turns with the product's
   * production server with its request logs; the report says how many of its sessions its store
   * still held (an LRU of 1,000 entries evicts most of those minted, docs/performance.md).
   */
  peer: {
    share: 2,
    label: (): string => `refresh and introspection ≥ ${BUDGETS.peer.share}× node-oidc-provider`,
    of: (operation: string): string => `${operation} ≥ ${BUDGETS.peer.share}× node-oidc-provider's`,
  },
  /**
   * A second server on a database filled to `--growth` members (default 1,000,000), restarted on it
   * once the load is on the disk; both servers are warmed on every operation, then take turns.
   */
  growth: {
    share: 0.2,
    label: (small = '1,000', grown = '1,000,000'): string => `growth: ${small} vs ${grown} members within ${percent(BUDGETS.growth.share)}`,
  },
  /** The chunks the build manifest lists for the entry, Welcome and the login page (lib/spa-size.ts). */
  loginRouteJs: { bound: 120 * 1024, label: (): string => `SPA: login route ≤ ${BUDGETS.loginRouteJs.bound / 1024} KiB gzip JavaScript` },
  /**
   * Lighthouse's default mobile run in Debian's Chromium, the median of 5 runs per page (Lighthouse's
   * guidance for its variance), each run in a fresh browser context, Top after logging in as a bench member (lib/lighthouse.ts).
   */
  lighthouse: { bound: 95, label: (): string => `SPA: Lighthouse 12 mobile performance ≥ ${BUDGETS.lighthouse.bound} (login, Top)` },
} as const;

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
