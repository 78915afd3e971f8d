import type { Kysely, Selectable } from 'kysely';
import type { Database, PushedAuthorizationRequestsTable } from '../../db/schema.ts';

/** The SQL of pushed authorization requests (RFC 9126; migration 0024, decision 0036). */
export type PushedRequestRow = Selectable<PushedAuthorizationRequestsTable>;

export async function insertPushedRequest(db: Kysely<Database>, row: PushedRequestRow): Promise<void> {
  await db.insertInto('pushed_authorization_requests').values(row).execute();
}

export const findPushedRequest = (db: Kysely<Database>, uriHash: string) =>
  db.selectFrom('pushed_authorization_requests').selectAll().where('uri_hash', '=', uriHash).executeTakeFirst();

/**
 * The authorize endpoint's first read of a live request: from now on it lasts the authorization
 * process (`expiresAt`) instead of the request_uri's short lifetime. Once only, and only while live
 * and unused: a later read changes nothing.
 */
export async function startPushedRequest(db: Kysely<Database>, uriHash: string, now: number, expiresAt: number): Promise<void> {
  await db
    .updateTable('pushed_authorization_requests')
    .set({ started_at: now, expires_at: expiresAt })
    .where('uri_hash', '=', uriHash)
    .where('started_at', 'is', null)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/**
 * A sign-up that carries the request (signup/card-step.ts) keeps it live until the flow itself
 * expires, which is longer than a login's authorization process: only later, never sooner, and only
 * while it is live and unused.
 */
export async function keepPushedRequestUntil(db: Kysely<Database>, uriHash: string, now: number, expiresAt: number): Promise<void> {
  await db
    .updateTable('pushed_authorization_requests')
    .set({ expires_at: expiresAt })
    .where('uri_hash', '=', uriHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .where('expires_at', '<', expiresAt)
    .execute();
}

/**
 * Uses the request up for the code about to be issued, in one conditional update: of two concurrent
 * authorizations of one request_uri exactly one gets it (RFC 9126 section 4, one-time use). False when
 * it was used, has expired, or is gone.
 */
export async function consumePushedRequest(db: Kysely<Database>, uriHash: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('pushed_authorization_requests')
    .set({ consumed_at: now })
    .where('uri_hash', '=', uriHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
