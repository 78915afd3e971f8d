import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { transparentHugePages } from './huge-pages.ts';
import { RequestDurationHistogram } from './request-duration-histogram.ts';

/**
 * The service's Prometheus metrics (docs/operations.md "Metrics"), one registry for the process:
 * every app built in it counts into the same series, as every node is one process in production.
 * The management listener (http/management.ts) serves `registry.metrics()`; a test reads a series'
 * value before and after.
 */
export const registry = new Registry();

// Node's own series under their usual `nodejs_` and `process_` names: the event-loop delay
// (nodejs_eventloop_lag_*), heap, garbage collection, CPU, open handles.
collectDefaultMetrics({ register: registry });

/** Login outcomes, counted where the security event of each is written (lib/security-events.ts). */
export const loginsTotal = new Counter({
  name: 'sso_logins_total',
  help: 'Logins by outcome: success (password), passkey, wrong_password, unknown_account, locked, recaptcha_refused, passkey_refused, suspended, address_limited.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Every security event written (lib/security-events.ts), by its name. */
export const securityEventsTotal = new Counter({
  name: 'sso_security_events_total',
  help: 'Security events written to the log, by event.',
  labelNames: ['event'] as const,
  registers: [registry],
});

/** A rotated refresh token presented again: the family was revoked (RFC 9700 section 4.14.2). */
export const refreshReuseTotal = new Counter({
  name: 'sso_refresh_token_reuse_total',
  help: 'Refresh-token reuse detections (each revoked its token family).',
  registers: [registry],
});

/** An authorization code presented a second time (RFC 6749 section 4.1.2). */
export const codeReplayTotal = new Counter({
  name: 'sso_authorization_code_replay_total',
  help: 'Authorization codes presented again after their first exchange.',
  registers: [registry],
});

/**
 * Every answer's duration, by the route's template (never the raw URL, whose ids and queries would
 * make a series per request; `unmatched` for an answer no route gave, a 404), recorded where the
 * request log writes its line (http/request-log.ts). Buckets from 5 ms (a cached read) to 10 s (a
 * request that waited on a locked database or an outside system), around the argon2id verification's
 * tens of milliseconds that a login and a sign-up step cost (docs/performance.md). Recorded by
 * lib/request-duration-histogram.ts, a prom-client Histogram that records without a labels object.
 */
export const httpRequestDuration = new RequestDurationHistogram({
  name: 'sso_http_request_duration_seconds',
  help: 'HTTP request duration in seconds, by method, route template (unmatched: no route) and status code.',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** The grant types the token endpoint knows (SPEC.md section 7); any other value is counted as `other`. */
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token', 'password']);

/** Token endpoint answers (RFC 6749 section 5): `issued`, or the error code of section 5.2. */
export const tokenGrantsTotal = new Counter({
  name: 'sso_token_grants_total',
  help: 'Token endpoint requests by grant_type (authorization_code, refresh_token, password, other) and outcome (issued, or the RFC 6749 error code).',
  labelNames: ['grant_type', 'outcome'] as const,
  registers: [registry],
});

/** Counts one answer of the token endpoint; `grantType` is the form's value as sent (unchecked). */
export function countTokenGrant(grantType: unknown, outcome: string): void {
  tokenGrantsTotal.inc({ grant_type: typeof grantType === 'string' && GRANT_TYPES.has(grantType) ? grantType : 'other', outcome });
}

/**
 * Messages carrying a one-time password: `sent` (delivered at once), `failed` (the mail server or SMS
 * gateway refused the first delivery; the outbox retries it, decision 0004), `refused` (the
 * per-recipient message limit refused it, LIMITS.messagesPerRecipient: nothing was sent).
 */
export const otpMessagesTotal = new Counter({
  name: 'sso_otp_messages_total',
  help: 'One-time password messages by channel (sms, email) and outcome (sent, failed: first delivery failed and left to the outbox retries, refused: per-recipient limit).',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

export function countOtpMessage(channel: 'sms' | 'mail', outcome: 'sent' | 'failed' | 'refused'): void {
  otpMessagesTotal.inc({ channel: channel === 'mail' ? 'email' : channel, outcome });
}

/** A gauge by `state`, set at each scrape from `states` (undefined: no series this scrape). */
function stateGauge(name: string, help: string, states: () => Record<string, number> | undefined): Gauge<'state'> {
  return new Gauge({
    name,
    help,
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [state, value] of Object.entries(states() ?? {})) this.set({ state }, value);
    },
  });
}

/** Work handed to argon2id's threads and not yet finished (lib/passwords.ts). */
let argon2Pending = 0;

/** The libuv thread pool that runs argon2id, and that Node's file system and crypto share (UV_THREADPOOL_SIZE, default 4). */
const threadPoolSize = () => Number(process.env.UV_THREADPOOL_SIZE) || 4;

/** Runs one argon2id hash or verification, counted in sso_argon2_operations while it runs. */
export async function argon2Work<T>(work: () => Promise<T>): Promise<T> {
  argon2Pending++;
  try {
    return await work();
  } finally {
    argon2Pending--;
  }
}

/**
 * argon2id work in this process: `in_flight` on the thread pool's threads, `queued` waiting for one
 * (more pending than the pool has threads). Queued work is a login's wait: a rising queue is the
 * first sign of a node short of cores (docs/operations.md "Sizing").
 */
export const argon2Gauge = stateGauge(
  'sso_argon2_operations',
  'argon2id hashes and verifications in progress, by state (in_flight: on a thread-pool thread, queued: waiting for one).',
  () => {
    const threads = threadPoolSize();
    return { in_flight: Math.min(argon2Pending, threads), queued: Math.max(0, argon2Pending - threads) };
  },
);

/** One kind's unsent outbox messages (not delivered, not given up). */
export interface OutboxBacklog {
  kind: string;
  messages: number;
  /** created_at of the oldest, epoch ms. */
  oldestCreatedAt: number;
}

/** A PostgreSQL pool's counts (node-postgres Pool: totalCount, idleCount, waitingCount, options.max). */
export interface PoolCounts {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * What the gauges that read the running app need, registered by the app when it is built (app.ts):
 * the registry is the process's, the app's database is its own. Several apps in one test process:
 * the latest registered answers.
 */
export interface MetricsSource {
  outboxBacklog(): Promise<OutboxBacklog[]>;
  /** Undefined for SQLite: one connection, no pool. */
  pool(): PoolCounts | undefined;
  now(): number;
  /** Where the kernel's transparent huge page mode is read, when not its own file (a test's; lib/huge-pages.ts). */
  hugePagesFile?: string | undefined;
}

let source: MetricsSource | undefined;

/** Registers the app's source; the returned function removes it again, unless another has replaced it. */
export function setMetricsSource(s: MetricsSource): () => void {
  source = s;
  return () => {
    if (source === s) source = undefined;
  };
}

/**
 * The host's transparent huge page mode, 1 for the mode in force (`madvise`, `always` or `never`),
 * read at each scrape (lib/huge-pages.ts): with `never`, each argon2id verification costs about 1.4
 * times its CPU (docs/operations.md "Sizing"). No series where the kernel does not say.
 */
export const hugePagesGauge = stateGauge(
  'sso_host_transparent_huge_pages',
  "The host's transparent huge page mode, 1 for the one in force (state: madvise, always, never); with never, argon2id costs about 1.4 times its CPU.",
  () => {
    const mode = transparentHugePages(source?.hugePagesFile);
    return mode === undefined ? undefined : { [mode]: 1 };
  },
);

/**
 * PostgreSQL only: SQLite has one connection and no pool (db/sqlite.ts), and reports no series here.
 * Registered before the outbox gauges, so that a scrape reads the pool before its own queries take
 * connections from it (the registry collects in registration order).
 */
export const poolConnectionsGauge = stateGauge('sso_db_pool_connections', 'PostgreSQL pool connections by state (in_use, idle, max: the pool size).', () => {
  const p = source?.pool();
  return p && { in_use: p.total - p.idle, idle: p.idle, max: p.max };
});

/** PostgreSQL's queue for a connection; always 0 for SQLite, whose writers wait on its lock instead (busy_timeout). */
export const poolWaitingGauge = new Gauge({
  name: 'sso_db_pool_waiting_requests',
  help: 'Queries waiting for a free PostgreSQL pool connection.',
  registers: [registry],
  collect() {
    this.reset();
    const p = source?.pool();
    if (p) this.set(p.waiting);
  },
});

/**
 * The outbox's waiting messages; undefined when there is no app or its database does not answer (the
 * gauges stay empty). The two outbox gauges of one scrape ask at once and share the read in flight.
 */
let outboxRead: Promise<OutboxBacklog[] | undefined> | undefined;
function readOutbox(): Promise<OutboxBacklog[] | undefined> {
  if (!source) return Promise.resolve(undefined);
  outboxRead ??= source
    .outboxBacklog()
    .catch(() => undefined)
    .finally(() => {
      outboxRead = undefined;
    });
  return outboxRead;
}

const OUTBOX_KINDS = ['mail', 'sms', 'backchannel'];

/** A gauge by outbox kind, set at each scrape from the outbox's waiting messages: `valueOf` a kind's (undefined: none waiting). */
const outboxGauge = (name: string, help: string, valueOf: (waiting: OutboxBacklog | undefined, now: number) => number) =>
  new Gauge({
    name,
    help,
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const backlog = await readOutbox();
      if (!backlog || !source) return;
      const now = source.now();
      for (const kind of OUTBOX_KINDS) this.set({ kind }, valueOf(backlog.find((b) => b.kind === kind), now));
    },
  });

export const outboxBacklogGauge = outboxGauge(
  'sso_outbox_backlog_messages',
  'Outbox messages not yet delivered nor given up, by kind (mail, sms, backchannel).',
  (waiting) => waiting?.messages ?? 0,
);

export const outboxAgeGauge = outboxGauge(
  'sso_outbox_oldest_message_age_seconds',
  'Age in seconds of the oldest outbox message not yet delivered nor given up, by kind (0: none waiting).',
  (waiting, now) => (waiting ? Math.max(0, (now - waiting.oldestCreatedAt) / 1000) : 0),
);
