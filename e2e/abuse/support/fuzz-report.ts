import type { FuzzAnswer, FuzzRequest } from './fuzz-http.ts';
import type { Endpoint } from './fuzz-requests.ts';

/**
 * Counts of the fuzz run for its report: requests per endpoint group, answers by status class, and
 * how many got past the first validation into the service (a business answer rather than a 901,
 * 401, invalid_request or a refusal of the body), which shows that the generators reach deeper.
 */

interface Counts {
  endpoints: number;
  sent: number;
  pastValidation: number;
  received: number;
  byStatus: Record<string, number>;
}

const FIRST_LINE = new Set([401, 404, 413, 415]);

/** Whether the answer came from behind the first validation: a service's own answer. */
function pastValidation(e: Endpoint, r: FuzzRequest, a: FuzzAnswer): boolean {
  if (r.method !== e.method && !(e.method === 'GET' && r.method === 'HEAD')) return false;
  if (FIRST_LINE.has(a.status)) return false;
  if (a.status < 400) return true;
  let json: { result_code?: unknown; error?: unknown } | undefined;
  try {
    json = JSON.parse(a.text) as typeof json;
  } catch {
    return false;
  }
  return json?.result_code !== undefined ? json.result_code !== 901 : json?.error !== 'invalid_request' && json?.error !== 'invalid_client';
}

export class FuzzTally {
  private readonly perEndpoint = new Map<Endpoint, Counts>();

  private counts(e: Endpoint): Counts {
    let c = this.perEndpoint.get(e);
    if (!c) this.perEndpoint.set(e, (c = { endpoints: 1, sent: 0, pastValidation: 0, received: 0, byStatus: {} }));
    return c;
  }

  sent(e: Endpoint): void {
    this.counts(e).sent++;
  }

  answered(e: Endpoint, r: FuzzRequest, a: FuzzAnswer): void {
    const c = this.counts(e);
    const klass = `${String(a.status).slice(0, 1)}xx`;
    c.byStatus[klass] = (c.byStatus[klass] ?? 0) + 1;
    c.received += a.text.length;
    if (pastValidation(e, r, a)) c.pastValidation++;
  }

  sentTo(e: Endpoint): number {
    return this.perEndpoint.get(e)?.sent ?? 0;
  }

  total(): number {
    return [...this.perEndpoint.values()].reduce((n, c) => n + c.sent, 0);
  }

  /** One line per endpoint group. */
  lines(table: readonly Endpoint[]): string[] {
    const groups = new Map<string, Counts>();
    for (const e of table) {
      const c = this.perEndpoint.get(e);
      const g = groups.get(e.group) ?? { endpoints: 0, sent: 0, pastValidation: 0, received: 0, byStatus: {} };
      groups.set(e.group, g);
      g.endpoints++;
      if (!c) continue;
      g.sent += c.sent;
      g.pastValidation += c.pastValidation;
      g.received += c.received;
      for (const [k, n] of Object.entries(c.byStatus)) g.byStatus[k] = (g.byStatus[k] ?? 0) + n;
    }
    return [...groups].map(
      ([name, g]) =>
        `  ${name.padEnd(12)} ${String(g.endpoints).padStart(2)} endpoints ${String(g.sent).padStart(6)} requests, ` +
        `${String(g.pastValidation).padStart(5)} past validation, ${(g.received / 1e6).toFixed(1)} MB answered ${JSON.stringify(g.byStatus)}`,
    );
  }
}
