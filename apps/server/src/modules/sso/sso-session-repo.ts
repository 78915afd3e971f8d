import type { Kysely, Selectable } from 'kysely';
import { LIMITS, WEB_CLIENT_ID } from '@sso/contracts/constants';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database, SsoSessionsTable } from '../../db/schema.ts';

/** The SQL of `sso_sessions` (migration 0017, docs/decisions/0026-sso-session.md). */

export type SsoSessionRow = Selectable<SsoSessionsTable>;

// Compiled once (prepared-query.ts): every login from a browser without a live session starts one. Every column listed (`satisfies`): a column added later fails to compile, not left out.
const sessionInsert = preparedQuery((db, p: SsoSessionRow) =>
  db.insertInto('sso_sessions').values({
    id: p.id,
    user_id: p.user_id,
    secret_hash: p.secret_hash,
    browser_hash: p.browser_hash,
    device: p.device,
    auth_time: p.auth_time,
    amr: p.amr,
    created_at: p.created_at,
    last_used_at: p.last_used_at,
    last_client_id: p.last_client_id,
    expires_at: p.expires_at,
    ended_at: p.ended_at,
    address: p.address,
  } satisfies Record<keyof SsoSessionRow, unknown>),
);

export async function insertSsoSession(db: Kysely<Database>, row: SsoSessionRow): Promise<void> {
  await sessionInsert(db, row);
}

/** A session's expiry after an access at `now`: 90 days from the last access (SPEC.md section 9), no cap from the login. */
export const ssoSessionExpiry = (now: number) => now + LIMITS.ssoSessionIdleMs;

/**
 * The SPA's refresh of its tokens is an access to a site that needs the ID (SPEC.md section 9): the
 * live session its tokens came from slides on, and was last used for the web client. At most once in
 * LIMITS.ssoSessionTouchMs, as an authorize's use (sso-sessions.ts touchSession): one statement by
 * the key, which writes nothing when the session was used within the minute, has ended or lapsed (a
 * lapsed session is not revived by its tokens).
 */
export async function slideSsoSessionOnRefresh(db: Kysely<Database>, p: { id: string; now: number }): Promise<void> {
  await db
    .updateTable('sso_sessions')
    .set({ last_used_at: p.now, last_client_id: WEB_CLIENT_ID, expires_at: ssoSessionExpiry(p.now) })
    .where('id', '=', p.id)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', p.now)
    .where('last_used_at', '<=', p.now - LIMITS.ssoSessionTouchMs)
    .execute();
}

/** The session of this id, live or not: the caller checks its secret, its browser and its expiry. */
export const findSsoSession = (db: Kysely<Database>, id: string): Promise<SsoSessionRow | undefined> =>
  db.selectFrom('sso_sessions').selectAll().where('id', '=', id).executeTakeFirst();

/** Records a use of a live session (its sliding expiry with it); false when it has ended meanwhile. */
export async function touchSsoSession(
  db: Kysely<Database>,
  p: { id: string; now: number; clientId: string; expiresAt: number; address?: string | null },
): Promise<boolean> {
  const r = await db
    .updateTable('sso_sessions')
    .set({ last_used_at: p.now, last_client_id: p.clientId, expires_at: p.expiresAt, ...(p.address ? { address: p.address } : {}) })
    .where('id', '=', p.id)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The member authenticated again in a live session of theirs (a login with `prompt=login`, an
 * exceeded `max_age`, a password typed anyway): its new authentication and a new cookie secret.
 */
export async function reauthenticateSsoSession(
  db: Kysely<Database>,
  p: { id: string; userId: string; secretHash: string; authTime: number; amr: string; clientId: string; expiresAt: number; address: string | null },
): Promise<boolean> {
  const r = await db
    .updateTable('sso_sessions')
    .set({ secret_hash: p.secretHash, auth_time: p.authTime, amr: p.amr, last_used_at: p.authTime, last_client_id: p.clientId, expires_at: p.expiresAt, address: p.address })
    .where('id', '=', p.id)
    .where('user_id', '=', p.userId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Ends the member's live sessions, the given ones or all (undefined); returns the ids of those that were live. */
export async function endSsoSessionRows(db: Kysely<Database>, p: { userId: string; ids: readonly string[] | undefined; now: number }): Promise<string[]> {
  if (p.ids?.length === 0) return [];
  let update = db.updateTable('sso_sessions').set({ ended_at: p.now }).where('user_id', '=', p.userId).where('ended_at', 'is', null);
  if (p.ids) update = update.where('id', 'in', [...p.ids]);
  return (await update.returning('id').execute()).map((r) => r.id);
}

/** The member's sessions neither ended nor lapsed, last used first. */
export const liveSsoSessions = (db: Kysely<Database>, userId: string, now: number): Promise<SsoSessionRow[]> =>
  db
    .selectFrom('sso_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_used_at', 'desc')
    .execute();
