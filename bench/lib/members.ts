import { OPERATIONS, type Member, type OperationName } from './flows.ts';
import type { HttpClient } from './http.ts';
import type { Job, NextJob } from './load.ts';

/**
 * The idle members a load driver may start a job for. A member is taken for one job at a time and
 * given back when it ends, so that each member follows its own refresh rotation chain without ever
 * racing itself. A member whose login or refresh failed has an unknown or revoked chain: it is
 * retired rather than given back (and the failure is already counted).
 */
export class MemberPool {
  private readonly idle: Member[];
  retired = 0;

  constructor(members: readonly Member[]) {
    this.idle = [...members];
  }

  get idleCount(): number {
    return this.idle.length;
  }

  /** A random idle member (so that no member is starved), or undefined when all are busy. */
  take(): Member | undefined {
    if (this.idle.length === 0) return undefined;
    const i = Math.floor(Math.random() * this.idle.length);
    const m = this.idle[i] as Member;
    this.idle[i] = this.idle[this.idle.length - 1] as Member;
    this.idle.pop();
    return m;
  }

  give(m: Member): void {
    this.idle.push(m);
  }
}

/** Relative weights of the operations, e.g. { login: 5, refresh: 40, introspect: 35, cards: 20 }. */
export type Mix = Partial<Record<OperationName, number>>;

const CHAIN_OPERATIONS: ReadonlySet<string> = new Set<OperationName>(['login', 'passwordLogin', 'refresh', 'partnerRefresh', 'refreshOpenid', 'refreshDpop']);

/** Jobs drawn at random by the weights of `mix`, each for an idle member of `pool`. */
export function mixedJobs(http: HttpClient, pool: MemberPool, mix: Mix): NextJob {
  const entries = Object.entries(mix).filter((e): e is [OperationName, number] => (e[1] ?? 0) > 0);
  const total = entries.reduce((s, [, w]) => s + w, 0);
  const pick = (): OperationName => {
    let r = Math.random() * total;
    for (const [op, w] of entries) if ((r -= w) < 0) return op;
    return (entries[entries.length - 1] as [OperationName, number])[0];
  };
  return (): Job | undefined => {
    const member = pool.take();
    if (!member) return undefined;
    const op = pick();
    return {
      op,
      run: async () => {
        let ok = false;
        try {
          const outcome = await OPERATIONS[op](http, member);
          ok = outcome.ok;
          return outcome;
        } finally {
          if (ok || !CHAIN_OPERATIONS.has(op)) pool.give(member);
          else pool.retired++;
        }
      },
    };
  };
}

/** The share of each operation in percent, for reports ("login 5%, refresh 40%, …"). */
export const describeMix = (mix: Mix): string => {
  const total = Object.values(mix).reduce((s, w) => s + (w ?? 0), 0);
  return Object.entries(mix)
    .map(([op, w]) => `${op} ${Math.round(((w ?? 0) / total) * 100)}%`)
    .join(', ');
};
