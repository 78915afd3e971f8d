import { networkErrorKind } from './http.ts';
import { Recorder, failed, type Outcome } from './stats.ts';

/**
 * Load drivers. A job is one operation of one member (a login is two requests: it is timed as the
 * whole flow). `next` picks the job to start, or undefined when none can start now (every member
 * busy): a member's refresh chain must never have two requests in flight, or the second would be a
 * replay and revoke the family (RFC 9700 section 4.14.2).
 */
export interface Job {
  op: string;
  run(): Promise<Outcome>;
}
export type NextJob = () => Job | undefined;

export interface LoadResult {
  recorder: Recorder;
  durationMs: number;
  /** Jobs started. */
  started: number;
  /** Open loop: starts that found no idle member or hit the in-flight cap (the client, not the server, was short). */
  skipped: number;
}

interface Common {
  durationMs: number;
  next: NextJob;
  /** Called every `progressEveryMs` (default 10 s) with the recorder so far. */
  progress?: (elapsedMs: number, recorder: Recorder) => void;
  progressEveryMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a job and records it; latency counts from `since` (the scheduled start in an open loop). */
async function timed(job: Job, since: number, recorder: Recorder): Promise<void> {
  let outcome: Outcome;
  try {
    outcome = await job.run();
  } catch (e) {
    outcome = failed(networkErrorKind(e));
  }
  recorder.record(job.op, performance.now() - since, outcome);
}

function ticker(o: Common, start: number, recorder: Recorder): () => void {
  if (!o.progress) return () => undefined;
  const report = o.progress;
  const t = setInterval(() => report(performance.now() - start, recorder), o.progressEveryMs ?? 10_000);
  return () => clearInterval(t);
}

/**
 * Closed loop: `workers` loops, each starting its next job when the previous one answered. What it
 * completes per second is the capacity of the system at that concurrency.
 */
export async function closedLoop(o: Common & { workers: number }): Promise<LoadResult> {
  const recorder = new Recorder();
  const start = performance.now();
  const end = start + o.durationMs;
  const stop = ticker(o, start, recorder);
  let started = 0;
  let skipped = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const job = o.next();
      if (!job) {
        skipped++;
        await sleep(1);
        continue;
      }
      started++;
      await timed(job, performance.now(), recorder);
    }
  };
  await Promise.all(Array.from({ length: o.workers }, worker));
  stop();
  return { recorder, durationMs: performance.now() - start, started, skipped };
}

/**
 * Open loop: jobs are started at `rate` per second on a fixed schedule, whether earlier ones have
 * answered or not, as independent members would arrive. Latency counts from the scheduled start, so
 * a stall of the server (or of this process) shows in the percentiles instead of silently lowering
 * the rate (no coordinated omission).
 */
export async function openLoop(o: Common & { rate: number; maxInFlight?: number }): Promise<LoadResult> {
  const recorder = new Recorder();
  const interval = 1000 / o.rate;
  const total = Math.floor((o.durationMs / 1000) * o.rate);
  const maxInFlight = o.maxInFlight ?? 2000;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const stop = ticker(o, start, recorder);
  let scheduled = 0;
  let started = 0;
  let skipped = 0;
  while (scheduled < total) {
    const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
    for (; scheduled < due; scheduled++) {
      const job = inFlight.size < maxInFlight ? o.next() : undefined;
      if (!job) {
        skipped++;
        continue;
      }
      started++;
      const p = timed(job, start + scheduled * interval, recorder).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await sleep(Math.max(1, start + scheduled * interval - performance.now()));
  }
  await Promise.all(inFlight);
  stop();
  return { recorder, durationMs: performance.now() - start, started, skipped };
}
