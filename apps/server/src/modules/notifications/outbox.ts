import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { countOtpMessage } from '../../lib/metrics.ts';
import { newId } from '../../lib/secrets.ts';
import type { Notifier, OutgoingMessage } from './notifier.ts';
import { claimMessage, dueMessages, insertMessage, markAttemptFailed, markSent, type OutboxRow } from './outbox-repo.ts';

/** Delivers one message to its channel (SMTP, the SMS gateway, a client's back-channel logout URI); rejects when it could not go out now. */
export type Deliver = (message: OutgoingMessage) => Promise<void>;

export const OUTBOX = {
  /** How long a claim lasts: a node that died mid-delivery leaves the message to another after this. */
  leaseMs: 60_000,
  firstRetryMs: 5_000,
  maxRetryMs: 10 * 60_000,
  /** About two and a half hours of retries before a message is given up (and logged as an error). */
  maxAttempts: 20,
  batch: 20,
} as const;

export const retryDelay = (attempts: number) => Math.min(OUTBOX.firstRetryMs * 2 ** (attempts - 1), OUTBOX.maxRetryMs);

/**
 * Writes a message to the outbox for the worker to deliver, without trying it now: for a caller
 * inside a transaction, whose message must go out only once it commits (and goes with it if it
 * rolls back). Due at once, claimed by nobody; the worker (or a drain) delivers it within
 * OUTBOX_WORKER_INTERVAL_MS (messaging.ts).
 */
export async function queueMessage(db: Kysely<Database>, message: OutgoingMessage, now: number): Promise<void> {
  await insertMessage(db, { ...rowOf(message, now), claimed_until: null });
}

const rowOf = (message: OutgoingMessage, now: number): OutboxRow => ({
  id: newId(),
  kind: message.kind,
  recipient: message.to,
  subject: message.subject ?? '',
  body: message.text,
  html: message.html ?? null,
  attempts: 0,
  next_attempt_at: now,
  // Claimed by the send that writes it from the start, so that the worker does not deliver it a second time.
  claimed_until: now + OUTBOX.leaseMs,
  sent_at: null,
  failed_at: null,
  last_error: null,
  created_at: now,
});

export interface OutboxNotifier extends Notifier {
  /** Delivers every message that is due now; returns how many went out. The worker calls it on a timer. */
  drain(): Promise<number>;
}

interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The reliable notifier (decision 0004): a message is written to the outbox before anything else, one
 * delivery is tried at once, and a failure leaves it to the retries with exponential back-off. The
 * step that sent it never fails because of it, so its data is never lost.
 */
export function outboxNotifier(deps: { db: Kysely<Database>; clock: Clock; deliver: Deliver; log: Log }): OutboxNotifier {
  const attempt = async (row: OutboxRow): Promise<boolean> => {
    const message: OutgoingMessage = { kind: row.kind, to: row.recipient, subject: row.subject, text: row.body, ...(row.html ? { html: row.html } : {}) };
    try {
      await deps.deliver(message);
      await markSent(deps.db, row.id, deps.clock.now());
      return true;
    } catch (err) {
      const attempts = row.attempts + 1;
      const now = deps.clock.now();
      const failedAt = attempts >= OUTBOX.maxAttempts ? now : null;
      const error = err instanceof Error ? err.message : String(err);
      await markAttemptFailed(deps.db, row.id, { attempts, nextAttemptAt: now + retryDelay(attempts), error, failedAt });
      // The recipient is not logged: it is personal data, and the outbox row names it.
      if (failedAt !== null) deps.log.error({ outboxId: row.id, kind: row.kind, attempts, error }, 'message given up after the last retry');
      else deps.log.warn({ outboxId: row.id, kind: row.kind, attempts, error }, 'message not delivered; it will be retried');
      return false;
    }
  };

  return {
    async send(message) {
      const row = rowOf(message, deps.clock.now());
      await insertMessage(deps.db, row);
      const delivered = await attempt(row);
      if (message.otp && message.kind !== 'backchannel') countOtpMessage(message.kind, delivered ? 'sent' : 'failed');
    },

    async drain() {
      let sent = 0;
      for (const row of await dueMessages(deps.db, deps.clock.now(), OUTBOX.batch)) {
        if (!(await claimMessage(deps.db, row.id, deps.clock.now(), OUTBOX.leaseMs))) continue;
        if (await attempt(row)) sent++;
      }
      return sent;
    },
  };
}
