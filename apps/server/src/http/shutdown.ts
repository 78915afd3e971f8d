import { setTimeout as sleep } from 'node:timers/promises';

/** What the shutdown needs of the app (app.ts): its readiness switch (health.ts), its close, its log. */
export interface Stoppable {
  startDraining(): void;
  close(): Promise<unknown>;
  log: { info(message: string): void; error(message: string): void };
}

export interface ShutdownSettings {
  /** SHUTDOWN_DRAIN_MS: how long readiness answers 503 while the node still serves, before it closes. */
  drainMs: number;
  /** SHUTDOWN_TIMEOUT_MS: how long the close may take (requests in flight, the tasks after them). */
  timeoutMs: number;
}

export type ShutdownOutcome = 'closed' | 'timed_out' | 'failed';

/**
 * The shutdown on SIGTERM (main.ts; docs/operations.md "Health and draining"), one log line a step:
 * 1. draining: readiness answers 503 at once, liveness 200, and the node goes on serving, so that the
 *    balancer's readiness probes take it out of rotation before it stops listening;
 * 2. closing, after `drainMs`: no new connection, the requests in flight finish (Fastify's close);
 * 3. closed; or timed out after `timeoutMs` (requests still open), or failed (a close hook threw), for
 *    the caller to exit non-zero.
 */
export async function shutDown(app: Stoppable, settings: ShutdownSettings): Promise<ShutdownOutcome> {
  app.startDraining();
  app.log.info(`shutdown: draining for ${settings.drainMs} ms (readiness answers 503, the node still serves)`);
  if (settings.drainMs > 0) await sleep(settings.drainMs);
  app.log.info(`shutdown: closing the server (at most ${settings.timeoutMs} ms for the requests in flight)`);
  const timer = new AbortController();
  const outcome = await Promise.race([
    app.close().then(
      (): ShutdownOutcome => 'closed',
      (err: unknown): ShutdownOutcome => (app.log.error(`shutdown: the close failed: ${err instanceof Error ? err.message : String(err)}`), 'failed'),
    ),
    sleep(settings.timeoutMs, 'timed_out' as const, { signal: timer.signal }).catch((): ShutdownOutcome => 'closed'),
  ]);
  timer.abort();
  if (outcome === 'closed') app.log.info('shutdown: closed');
  else if (outcome === 'timed_out') app.log.error(`shutdown: timed out after ${settings.timeoutMs} ms with requests still open; exiting`);
  return outcome;
}
