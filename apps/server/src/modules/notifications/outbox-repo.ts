import type { Kysely, Selectable } from 'kysely';
import type { Database, OutboxTable } from '../../db/schema.ts';

export type OutboxRow = Selectable<OutboxTable>;

export async function insertMessage(db: Kysely<Database>, row: OutboxRow): Promise<void> {
  await db.insertInto('outbox').values(row).execute();
}

/**
 * Claims one due message for `leaseMs`, in one conditional update, so that of several nodes (or
 * the worker and an immediate send) only one delivers it.
 */
export async function claimMessage(db: Kysely<Database>, id: string, now: number, leaseMs: number): Promise<boolean> {
  const r = await db
    .updateTable('outbox')
    .set({ claimed_until: now + leaseMs })
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const dueMessages = (db: Kysely<Database>, now: number, limit: number) =>
  db
    .selectFrom('outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();

/** Delivered: the body is emptied, so that no code stays at rest once it has gone out. */
export async function markSent(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db.updateTable('outbox').set({ sent_at: now, body: '', html: null, claimed_until: null, last_error: null }).where('id', '=', id).execute();
}

/** Not delivered: try again at `nextAttemptAt`, or give up (`failed`) after the last attempt. */
export async function markAttemptFailed(
  db: Kysely<Database>,
  id: string,
  p: { attempts: number; nextAttemptAt: number; error: string; failedAt: number | null },
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      attempts: p.attempts,
      next_attempt_at: p.nextAttemptAt,
      claimed_until: null,
      last_error: p.error.slice(0, 500),
      failed_at: p.failedAt,
      ...(p.failedAt !== null ? { body: '', html: null } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export const findMessage = (db: Kysely<Database>, id: string) => db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * The messages waiting (neither delivered nor given up) by kind, with the oldest's created_at: the
 * outbox gauges (lib/metrics.ts), read once a scrape through the `outbox_due` index's sent_at.
 */
export async function outboxBacklog(db: Kysely<Database>): Promise<{ kind: string; messages: number; oldestCreatedAt: number }[]> {
  const rows = await db
    .selectFrom('outbox')
    .select((eb) => ['kind', eb.fn.countAll<number | string>().as('messages'), eb.fn.min('created_at').as('oldest')])
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .groupBy('kind')
    .execute();
  return rows.map((r) => ({ kind: r.kind, messages: Number(r.messages), oldestCreatedAt: Number(r.oldest) }));
}
