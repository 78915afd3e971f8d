import { median, okPerSecond, pairedMedian, type CpuSide } from './budgets.ts';
import { say } from './cli.ts';
import { closedLoop, type LoadResult, type NextJob } from './load.ts';
import { ms } from './report.ts';
import type { OpSummary } from './stats.ts';
import { cpuPerOp, type CpuPerOp, type ThreadCpu } from './thread-cpu.ts';

/** One row of a figures table: a source's rate and latencies over one stretch of load. */
export interface Row {
  label: string;
  summary: OpSummary;
  perSecond: number;
  /** CPU per successful operation by process (thread-cpu.ts: the server's threads, PostgreSQL, the driver), when the source reads it. */
  cpu?: CpuPerOp;
}

/** One row of the table from a load result of one operation. */
export function rowOf(label: string, r: LoadResult): Row {
  const s = r.recorder.summary().find((x) => x.op !== 'all') ?? (r.recorder.summary()[0] as OpSummary);
  const perSecond = okPerSecond(s, r.durationMs / 1000);
  say(`  ${label}: ${perSecond.toFixed(1)} ok/s, p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms, ${s.errors} errors`);
  for (const [kind, n] of r.recorder.errors) say(`    ${kind}: ${n}`);
  return { label, summary: s, perSecond };
}

/** What the closed loop drives in one turn: an operation of a server, or a ceiling. */
export interface Source {
  label: string;
  next: NextJob;
  /** Reads the CPU by process (thread-cpu.ts), for the CPU per operation of each round. */
  cpu?: () => ThreadCpu;
}

/** Rounds per source in a comparison. */
export const ROUNDS = 5;

const medianRow = (rounds: Row[]): Row => [...rounds].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(rounds.length / 2)] as Row;

/** The median over the rounds of each CPU figure, when the rounds have them. */
const medianCpu = (rounds: Row[]): Pick<Row, 'cpu'> => {
  const cpus = rounds.flatMap((r) => (r.cpu ? [r.cpu] : []));
  const of = (k: keyof CpuPerOp) => median(cpus.map((c) => c[k]));
  return cpus.length === 0 ? {} : { cpu: { mainUs: of('mainUs'), otherUs: of('otherUs'), databaseUs: of('databaseUs'), driverUs: of('driverUs') } };
};

/** Two sources taken in turns: the median round of each, and the median of the rounds' ratios a/b. */
export interface Turns {
  a: Row;
  b: Row;
  /** The median over the rounds of a's rate over b's rate in the same round. */
  ratio: number;
  /** Each round's ratio, for the record. */
  ratios: number[];
  /**
   * The median over the rounds of a's server CPU per operation (its threads, and the database's
   * processes) over b's in the same round, and each round's, when the sources read their CPU: paired
   * by round as the rates are, so that a change of the machine's load between rounds cancels out.
   */
  cpuRatio?: number;
  cpuRatios?: number[];
  /** Each round's server CPU µs per operation of each side (serverUs), when the sources read their CPU: the figures of the budgets (budgets.ts). */
  cpuRounds?: { a: number[]; b: number[] };
  /** The errors of all the rounds of each side. */
  errors: { a: number; b: number };
}

/** The two sides of a comparison as the CPU budgets take them (budgets.ts), named as the report names them. */
export function cpuSides(t: Turns, aLabel: string, bLabel: string): { a: CpuSide; b: CpuSide } {
  return {
    a: { label: aLabel, roundsUs: t.cpuRounds?.a ?? [], errors: t.errors.a },
    b: { label: bLabel, roundsUs: t.cpuRounds?.b ?? [], errors: t.errors.b },
  };
}

/** A round's server CPU per operation: its threads, and its database's backends (PostgreSQL; none for SQLite). */
export const serverUs = (r: Row): number => (r.cpu ? r.cpu.mainUs + r.cpu.otherUs + r.cpu.databaseUs : Number.NaN);

/** How long each source runs: the closed loop's connections, a round's two halves, and the warm-up. */
export interface TurnTiming {
  workers: number;
  durationMs: number;
  warmupMs: number;
  /** Rounds of each source (ROUNDS unless set). */
  rounds?: number;
}

/**
 * Two sources compared by taking turns: both are warmed, then they run in ROUNDS rounds of half the
 * operation time each, the order swapped every round (each turn after a short warm-up). The figure
 * that counts is the median of the rounds' ratios: each round's two turns are seconds apart, so a
 * change of the machine's load between rounds cancels out of that round's ratio. Measured one after
 * the other, minutes apart, figures of this machine moved by more than the budgets' margins: the bare
 * route by 40% within one run, and the same server answered 5,417 introspections a second in one
 * 10-second phase and 7,692 in rounds a few minutes later (08:29 UTC). The medians of each side's
 * rounds, compared instead, broke on a step in the machine's load in the middle of a run (10:52: card
 * list rounds at 3,000 ok/s, then at 4,700, gave the two databases medians 31% apart while no round's
 * ratio but the one across the step was more than 5% from 1).
 */
export async function takeTurns(a: Source, b: Source, errors: Map<string, number>, t: TurnTiming): Promise<Turns> {
  const roundMs = t.durationMs / 2;
  for (const s of [a, b]) await closedLoop({ workers: t.workers, durationMs: t.warmupMs, next: s.next });
  const rounds = new Map<Source, Row[]>([
    [a, []],
    [b, []],
  ]);
  for (let round = 0; round < (t.rounds ?? ROUNDS); round++) {
    for (const source of round % 2 === 0 ? [a, b] : [b, a]) {
      await closedLoop({ workers: t.workers, durationMs: t.warmupMs / 2, next: source.next });
      const before = source.cpu?.();
      const r = await closedLoop({ workers: t.workers, durationMs: roundMs, next: source.next });
      const after = source.cpu?.();
      const row = rowOf(`${source.label}, round ${round + 1}`, r);
      if (before && after) {
        row.cpu = cpuPerOp(before, after, (row.perSecond * roundMs) / 1000);
        const c = row.cpu;
        say(`    CPU per operation: server main thread ${c.mainUs.toFixed(0)} µs, other threads ${c.otherUs.toFixed(0)} µs, PostgreSQL ${c.databaseUs.toFixed(0)} µs, load driver ${c.driverUs.toFixed(0)} µs`);
      }
      rounds.get(source)?.push(row);
      for (const [k, n] of r.recorder.errors) errors.set(k, (errors.get(k) ?? 0) + n);
    }
  }
  const ra = rounds.get(a) ?? [];
  const rb = rounds.get(b) ?? [];
  const ratios = ra.map((r, i) => r.perSecond / (rb[i]?.perSecond ?? Number.NaN));
  const withCpu = ra.every((r, i) => r.cpu && rb[i]?.cpu);
  const cpuRounds = withCpu ? { a: ra.map(serverUs), b: rb.map(serverUs) } : undefined;
  const errorsOf = (rows: Row[]) => rows.reduce((n, r) => n + r.summary.errors, 0);
  return {
    a: { ...medianRow(ra), label: a.label, ...medianCpu(ra) },
    b: { ...medianRow(rb), label: b.label, ...medianCpu(rb) },
    ratio: median(ratios),
    ratios,
    // pairedMedian: NaN when a round of either side completed nothing (CPU/0), as the budgets take it.
    ...(cpuRounds
      ? { cpuRatio: pairedMedian(cpuRounds.a, cpuRounds.b, (x, y) => x / y), cpuRatios: cpuRounds.a.map((x, i) => x / (cpuRounds.b[i] as number)), cpuRounds }
      : {}),
    errors: { a: errorsOf(ra), b: errorsOf(rb) },
  };
}
