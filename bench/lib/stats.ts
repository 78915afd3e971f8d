/**
 * Latency recording for the load tools: every sample is kept (a Float64Array that grows), so the
 * percentiles are exact rather than bucketed. A 10-minute soak at a few hundred requests per second
 * keeps well under a million samples, a few MB.
 */
export class Samples {
  private values = new Float64Array(1024);
  private size = 0;
  private sorted = true;

  add(ms: number): void {
    if (this.size === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.size++] = ms;
    this.sorted = false;
  }

  get count(): number {
    return this.size;
  }

  private view(): Float64Array {
    const v = this.values.subarray(0, this.size);
    if (!this.sorted) {
      v.sort();
      this.sorted = true;
    }
    return v;
  }

  /** The p-th percentile (0–100) by the nearest-rank method; NaN when empty. */
  percentile(p: number): number {
    const v = this.view();
    if (v.length === 0) return Number.NaN;
    const rank = Math.min(v.length, Math.max(1, Math.ceil((p / 100) * v.length)));
    return v[rank - 1] as number;
  }

  get max(): number {
    return this.size === 0 ? Number.NaN : (this.view()[this.size - 1] as number);
  }

  get mean(): number {
    let sum = 0;
    for (let i = 0; i < this.size; i++) sum += this.values[i] as number;
    return this.size === 0 ? Number.NaN : sum / this.size;
  }
}

/** How one operation ended: ok, or failed with a kind such as "HTTP 400 invalid_grant" or "network ECONNRESET". */
export type Outcome = { ok: true } | { ok: false; kind: string };

export const OK: Outcome = { ok: true };
export const failed = (kind: string): Outcome => ({ ok: false, kind });

export interface OpSummary {
  op: string;
  count: number;
  ok: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
}

/** Latencies of successful operations per operation name and overall, and failures counted by operation and kind. */
export class Recorder {
  readonly byOp = new Map<string, Samples>();
  readonly overall = new Samples();
  /** "op: kind" -> count. */
  readonly errors = new Map<string, number>();
  private readonly errorsByOp = new Map<string, number>();

  record(op: string, ms: number, outcome: Outcome): void {
    if (outcome.ok) {
      let s = this.byOp.get(op);
      if (!s) this.byOp.set(op, (s = new Samples()));
      s.add(ms);
      this.overall.add(ms);
      return;
    }
    const key = `${op}: ${outcome.kind}`;
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
    this.errorsByOp.set(op, (this.errorsByOp.get(op) ?? 0) + 1);
  }

  get okCount(): number {
    return this.overall.count;
  }

  get errorCount(): number {
    let n = 0;
    for (const c of this.errors.values()) n += c;
    return n;
  }

  /** One row per operation (in the given order, then any other), and an "all" row. */
  summary(order: readonly string[] = []): OpSummary[] {
    const ops = [...new Set([...order, ...this.byOp.keys(), ...this.errorsByOp.keys()])];
    const row = (op: string, s: Samples | undefined, errors: number): OpSummary => ({
      op,
      count: (s?.count ?? 0) + errors,
      ok: s?.count ?? 0,
      errors,
      p50: s?.percentile(50) ?? Number.NaN,
      p99: s?.percentile(99) ?? Number.NaN,
      max: s?.max ?? Number.NaN,
    });
    return [...ops.map((op) => row(op, this.byOp.get(op), this.errorsByOp.get(op) ?? 0)), row('all', this.overall, this.errorCount)];
  }
}
