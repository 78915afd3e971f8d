import type { OpSummary } from './stats.ts';

/**
 * The performance budgets (docs/performance.md, decision 0043), each a ratio of CPU per operation: the CPU time a
 * server spends (all its threads; with PostgreSQL, its database's backends too) over the operations
 * it completed, read from /proc around each stretch of load (thread-cpu.ts). A rate moves with
 * whatever else shares the machine (by a third between runs minutes apart on these 2 shared cores,
 * the load driver among them); the CPU an operation costs depends far less on it. The figures of a ratio are
 * measured in turns in the same run (turns.ts) and paired by round, so that what drift is left
 * cancels out. Rates and percentiles stay in the report as information; the token endpoint's p99 is
 * the one latency budget. Budgets this harness does not measure in a run are listed too, so that a
 * reader sees what is still unproven rather than an all-green table.
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
  /**
   * The password login as the SPA sends it (the login step with its one argon2id verification, the
   * authorize POST with the ticket, the code exchange) in turns with the bare argon2id verify loop of
   * the product's parameters, in the driver: the login's server CPU per login over the loop's CPU per
   * verification, minus 1, is what the login spends beyond its hash.
   */
  login: { share: 0.15, label: (): string => `password login: CPU beyond its one argon2id hash < ${percent(BUDGETS.login.share)} of the hash` },
  /** The server's argon2id count over 20 SPA logins (login step + authorize step), in-process. */
  hashesPerLogin: { bound: 1, label: (): string => 'exactly one password hash per login' },
  /**
   * node-oidc-provider 9 (bench/peer/oidc-provider-server.ts: a SQLite store on the disk, refresh
   * rotation on, a JSON line per request appended to a file) in a process of its own, driven by the
   * same client, in turns with the product (its request logs on in the production run): the product's
   * CPU per operation over the peer's. Like for like: the refresh is a confidential client's on both
   * sides, authenticated with client_secret_basic and answering no ID token (the product's is Net
   * Answer's, flows.ts `partnerRefresh`, its secret checked as decision 0038 says), not the SPA's
   * public refresh; the introspection too is a confidential client's with client_secret_basic.
   */
  peer: {
    share: 0.5,
    label: (): string => `partner refresh and introspection (client_secret_basic) CPU/op ≤ ${BUDGETS.peer.share}× node-oidc-provider's, its client authenticated alike`,
    of: (operation: string): string => `${operation}: CPU/op ≤ ${BUDGETS.peer.share}× node-oidc-provider's, its client authenticated alike`,
  },
  /** The refresh grant on a PostgreSQL server in turns with one on SQLite: node + database CPU per refresh, over the SQLite node's. */
  postgres: { share: 1.5, label: (): string => `PostgreSQL: node + database CPU per refresh ≤ ${BUDGETS.postgres.share}× SQLite's` },
  /**
   * The sign-in's three requests (challenge, assertion with a software authenticator's ES256
   * signature, the authorize POST with its ticket) in turns with the password login (decision 0024):
   * CPU per sign-in over CPU per login.
   */
  passkey: { share: 0.25, label: (): string => `passkey sign-in CPU/op ≤ ${BUDGETS.passkey.share}× the password login's` },
  /**
   * The refresh grant of a session with `openid` (a new ES256 ID token each time) in turns with the
   * plain refresh grant (each member holds a session of each kind; decision 0025), and one ES256
   * signature's CPU measured in the driver in the same run (signature.ts).
   */
  openidRefresh: {
    share: 0.1,
    label: (): string => `refresh with openid ≤ (plain refresh + one ES256 signature) + ${percent(BUDGETS.openidRefresh.share)}, CPU/op`,
  },
  /** The p99 of the median round of the refresh grants (plain, with openid, DPoP-bound): the one latency budget. */
  tokenP99: { p99Ms: 25, label: (): string => `token endpoint p99 < ${BUDGETS.tokenP99.p99Ms} ms (refresh grants)` },
  /** `passkey_login` rows of `verifications` written, and left unused, over 20 sign-ins. */
  challengeRows: { bound: 1, label: (): string => 'one challenge row written and used up per passkey sign-in' },
  /**
   * `--production`: two new production servers alike but for LOG_LEVEL (info: a line per request;
   * warn: none), side by side in turns; the CPU per operation with logs over without.
   */
  requestLogs: {
    share: 0.1,
    label: (): string => `request logs add ≤ ${percent(BUDGETS.requestLogs.share)} to the CPU/op of refresh and introspection`,
    of: (operation: string): string => `${operation}: request logs add ≤ ${percent(BUDGETS.requestLogs.share)} CPU/op`,
  },
  /** `--production`: every request line of the logged server names its reqId. */
  requestIds: { bound: 0, label: (): string => 'every request log line names its request id' },
  /**
   * A second server on a database filled to `--growth` members (default 1,000,000), restarted on it
   * once the load is on the disk; both servers are warmed on every operation, then take turns: each
   * operation's CPU per operation on the grown one over the small one's.
   */
  growth: {
    share: 0.2,
    label: (small = '1,000', grown = '1,000,000'): string => `growth: ${small} vs ${grown} members, CPU/op within ${percent(BUDGETS.growth.share)}`,
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
const us = (v: number): string => `${v.toFixed(0)} µs`;

/** The median of a list (the upper one of an even count); NaN when empty. */
export const median = (xs: readonly number[]): number => (xs.length === 0 ? Number.NaN : ([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number));

/**
 * One side of a CPU comparison, as turns.ts measures it: each round's CPU µs per operation, and the
 * errors of its rounds. Round i of `a` and round i of `b` ran seconds apart.
 */
export interface CpuSide {
  label: string;
  roundsUs: readonly number[];
  errors: number;
}

/** A round's CPU per operation that is a figure: a round that completed nothing gives CPU/0 (Infinity, or NaN without CPU). */
const measuredUs = (x: number): boolean => Number.isFinite(x) && x > 0;

/**
 * The median over the rounds of `f` of the two sides' figures of the same round; NaN (which fails
 * every budget) unless every round of both sides is a figure: a stalled reference round would
 * otherwise give a ratio of 0 (x / Infinity) or −1 (beyond), and three such rounds of five a median
 * within any bound.
 */
export function pairedMedian(a: readonly number[], b: readonly number[], f: (a: number, b: number) => number): number {
  if (a.length === 0 || a.length !== b.length || !a.every(measuredUs) || !b.every(measuredUs)) return Number.NaN;
  return median(a.map((x, i) => f(x, b[i] as number)));
}

const errorsPart = (sides: readonly CpuSide[]): string[] => {
  const n = sides.reduce((s, x) => s + x.errors, 0);
  return n === 0 ? [] : [`${n} errors`];
};

/**
 * `a`'s CPU per operation is at most `bound` times `b`'s: the median of the rounds' ratios, with no
 * error on either side. The sides' medians are shown beside it.
 */
export function cpuRatioBudget(o: { budget: string; a: CpuSide; b: CpuSide; bound: number }): BudgetResult {
  const ratio = pairedMedian(o.a.roundsUs, o.b.roundsUs, (x, y) => x / y);
  const ok = Number.isFinite(ratio) && ratio <= o.bound && o.a.errors + o.b.errors === 0;
  const parts = [`${ratio.toFixed(2)}× (${o.a.label} ${us(median(o.a.roundsUs))}, ${o.b.label} ${us(median(o.b.roundsUs))} per operation)`, ...errorsPart([o.a, o.b])];
  return { budget: o.budget, measured: parts.join(', '), verdict: ok ? 'pass' : 'falls short' };
}

/**
 * What an operation `a` spends beyond `b` (one argon2id hash; the plain refresh and `plusUs`, one
 * ES256 signature) is less than `share` of `b` (+ `plusUs`): the median of the rounds' a / (b + plus) − 1.
 * `strict` says whether the bound itself falls short (the login's "< 15%") or passes ("≤ + 10%").
 */
export function cpuBeyondBudget(o: { budget: string; a: CpuSide; b: CpuSide; plusUs?: number; plusLabel?: string; share: number; strict?: boolean }): BudgetResult {
  const plus = o.plusUs ?? 0;
  const beyond = pairedMedian(o.a.roundsUs, o.b.roundsUs, (x, y) => x / (y + plus) - 1);
  const within = o.strict ? beyond < o.share : beyond <= o.share;
  const ok = Number.isFinite(beyond) && within && o.a.errors + o.b.errors === 0;
  const base = `${o.b.label} ${us(median(o.b.roundsUs))}${plus ? ` + ${o.plusLabel ?? 'added'} ${us(plus)}` : ''}`;
  const sign = beyond >= 0 ? '+' : '';
  const parts = [`${sign}${pct(beyond)} (${o.a.label} ${us(median(o.a.roundsUs))} against ${base})`, ...errorsPart([o.a, o.b])];
  return { budget: o.budget, measured: parts.join(', '), verdict: ok ? 'pass' : 'falls short' };
}

/** The token endpoint's latency budget: the worst p99 of the median rounds of `rows`, below `p99Ms`. */
export function p99Budget(o: { budget: string; rows: readonly { label: string; summary: OpSummary }[]; p99Ms: number }): BudgetResult {
  const worst = o.rows.reduce<{ label: string; summary: OpSummary } | undefined>((w, r) => (!w || !(r.summary.p99 <= w.summary.p99) ? r : w), undefined);
  if (!worst) return notMeasured(o.budget);
  const ok = o.rows.every((r) => r.summary.p99 < o.p99Ms);
  return { budget: o.budget, measured: `worst p99 ${worst.summary.p99.toFixed(1)} ms (${worst.label}); ${o.rows.map((r) => `${r.label} ${r.summary.p99.toFixed(1)}`).join(', ')}`, verdict: ok ? 'pass' : 'falls short' };
}

export const notMeasured = (budget: string, why = '–'): BudgetResult => ({ budget, measured: why, verdict: 'not measured yet' });

/** A figure that must be at most (`limit` 'max') or at least ('min') a bound: hashes per login, bytes, scores. */
export function boundBudget(o: { budget: string; value: number; bound: number; kind: 'max' | 'min' | 'exactly'; shown: string }): BudgetResult {
  const ok = o.kind === 'max' ? o.value <= o.bound : o.kind === 'min' ? o.value >= o.bound : o.value === o.bound;
  return { budget: o.budget, measured: o.shown, verdict: ok ? 'pass' : 'falls short' };
}

/**
 * Growth: each operation's CPU per operation with the larger member count differs from the one with
 * the smaller count by at most `share` of the latter (`change`: the median of the rounds' grown over
 * small, minus 1). The worst operation is named.
 */
export function growthBudget(o: { budget: string; changes: readonly { label: string; change: number }[]; share: number }): BudgetResult {
  const { changes } = o;
  const worst = changes.reduce((a, c) => (Number.isNaN(c.change) || Math.abs(c.change) > Math.abs(a.change) ? c : a));
  const ok = changes.every((c) => Math.abs(c.change) <= o.share);
  const sign = worst.change >= 0 ? '+' : '';
  return { budget: o.budget, measured: `largest change of CPU/op ${sign}${pct(worst.change)} (${worst.label})`, verdict: ok ? 'pass' : 'falls short' };
}
