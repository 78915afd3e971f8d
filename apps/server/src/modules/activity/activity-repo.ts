import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { ActivityLogTable, Database } from '../../db/schema.ts';
import { newId } from '../../lib/secrets.ts';
import { requestAddress } from '../../lib/request-context.ts';

/**
 * Security events of the member's activity log (SPEC.md sections 1 and 2: the member reads it at
 * /user/activities). `detail` holds JSON {"device", "address"}: a coarse description of the device
 * (lib/device.ts) and the request's network address, never a secret.
 */
export type ActivityEvent =
  | 'login'
  | 'login_failed'
  | 'login_locked'
  | 'logout'
  | 'token_replay'
  | 'code_reuse'
  | 'signup'
  /** A reset link was mailed to the member (SPEC.md section 7, password reset). */
  | 'password_reset_requested'
  /** The password was set from a reset link; every session was revoked (SPEC.md section 7, password reset). */
  | 'password_reset'
  /** The open member changed their profile (SPEC.md section 2, /user/profile). */
  | 'profile_changed'
  /** The login e-mail was changed after its code was entered; every session was revoked (SPEC.md section 2, /user/email). */
  | 'email_changed'
  /** The member changed the password; every session was revoked (SPEC.md section 2, /user/password). */
  | 'password_changed'
  /** The member proved presence again with the password (POST /api/auth/reauth; decision 0012). */
  | 'reauth'
  /** A wrong current password at the password change or the re-authentication (decision 0012). */
  | 'password_check_failed'
  /** The member withdrew (docs/withdrawal.md). */
  | 'withdrawn'
  /** Cards (decision 0006). */
  | 'card_added'
  | 'card_add_locked'
  | 'card_enabled'
  | 'card_activated'
  | 'card_activation_locked'
  | 'card_removed'
  | 'na_linked'
  | 'na_link_locked'
  /** A partner session ended: by the member (/api/subuser/revoke), or with their last card (decision 0015). */
  | 'session_revoked'
  /** A direct-login one-time token was issued for a client, and one was redeemed (decision 0006). */
  | 'direct_login_issued'
  | 'direct_login'
  /** A direct-login token was presented without the proof it was bound to, and was burnt (decision 0013). */
  | 'direct_login_refused'
  /** The member accepted a service's terms before a hand-off to it (decision 0013). */
  | 'terms_accepted'
  /** Points and the open-account link (decision 0006). */
  | 'points_transferred'
  | 'point_transfer_locked'
  | 'open_linked'
  | 'open_link_locked'
  /** An open member became a card member; a numberless card was added (decision 0006). */
  | 'upgraded'
  | 'numberless_added'
  /** A failed open-account link; a login mobile number proven by SMS code (decision 0014). */
  | 'open_link_failed'
  | 'login_tel_changed'
  /** Passkeys (decision 0024): added, renamed, deleted, disabled from the mail's link, used as a fresh proof, required or not. */
  | 'passkey_added'
  | 'passkey_renamed'
  | 'passkey_removed'
  | 'passkey_revoked'
  | 'passkey_reauth'
  | 'passkey_required'
  | 'passkey_optional'
  /** After a password reset, the passkeys added in the 30 days before it were removed from its finish page or mail; every session ended (decision 0024). */
  | 'passkeys_removed_after_reset'
  /** A sign-in from a browser the member had not signed in from before; the member was mailed (decision 0024). */
  | 'login_new_device'
  /** The "not me" link of a notice mail was confirmed: every session ended and a reset link was mailed (decision 0033). */
  | 'not_me_reported'
  /** A browser's SSO session ended: by the member from the list of signed-in browsers, or by a login as another member in that browser (decision 0026). */
  | 'sso_session_ended'
  /** The member logged out of every browser and service at once from the list (decision 0026, "Log out everywhere"). */
  | 'sessions_ended_everywhere'
  /** The company's support desk acted on the account (modules/support/, migration 0022): the member sees it in their log. */
  | 'support_unlocked'
  | 'support_sessions_ended'
  | 'support_passkey_removed'
  | 'account_suspended'
  | 'account_restored';

// Compiled once (prepared-query.ts): every login writes a row. Every column listed (`satisfies`): a column added later fails to compile, not left out.
const rowInsert = preparedQuery((db, p: ActivityLogTable) =>
  db.insertInto('activity_log').values({ id: p.id, user_id: p.user_id, event: p.event, client_id: p.client_id, detail: p.detail, created_at: p.created_at } satisfies Record<keyof ActivityLogTable, unknown>),
);

export async function logActivity(
  db: Kysely<Database>,
  entry: { userId: string; event: ActivityEvent; clientId?: string | null; device?: string | null; address?: string | null; at: number },
): Promise<void> {
  // The address is for the company's support desk (modules/support/) and the member's own log (activity-service.ts):
  // the caller's, else the request's under way (lib/request-context.ts), so that every row written for a request has it;
  // null says the request's address is not the member's (an operator's action, modules/support/), so it is never shown to them.
  const address = entry.address === undefined ? requestAddress() : entry.address;
  const detail = { ...(entry.device ? { device: entry.device } : {}), ...(address ? { address } : {}) };
  await rowInsert(db, {
    id: newId(),
    user_id: entry.userId,
    event: entry.event,
    client_id: entry.clientId ?? null,
    detail: Object.keys(detail).length > 0 ? JSON.stringify(detail) : null,
    created_at: entry.at,
  });
}

/** A string field of a log row's JSON detail; null for rows without one. */
function detailField(detail: string | null, field: 'device' | 'address'): string | null {
  if (!detail) return null;
  try {
    const parsed: unknown = JSON.parse(detail);
    const value = (parsed as Record<string, unknown> | null)?.[field];
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** The device of a log row, from its JSON detail; null for rows without one. */
export const deviceOf = (detail: string | null): string | null => detailField(detail, 'device');

/** The network address of a log row (every row written during a request records it; migration 0022), for the support desk and the member's own log. */
export const addressOf = (detail: string | null): string | null => detailField(detail, 'address');

/** When the member added passkeys since `since`, and from which device: the `passkey_added` rows (decision 0024). */
export const passkeyAdditionsSince = (db: Kysely<Database>, userId: string, since: number) =>
  db.selectFrom('activity_log').select(['detail', 'created_at']).where('user_id', '=', userId).where('event', '=', 'passkey_added').where('created_at', '>=', since).execute();

/**
 * The member's login to `clientId` before the newest one (the newest began the visit under way):
 * when and from which device, for Top's 前回ログイン日時 (SPEC.md section 2, Top); undefined before a
 * second login. Top asks for the ID's own web client: a code its SSO session issues to a partner a
 * moment ago logs a login too, and is no visit of the member to their account.
 */
export const previousLogin = (db: Kysely<Database>, userId: string, clientId: string) =>
  db
    .selectFrom('activity_log')
    .select(['detail', 'created_at'])
    .where('user_id', '=', userId)
    .where('event', '=', 'login')
    .where('client_id', '=', clientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(1)
    .limit(1)
    .executeTakeFirst();

/** One page of the member's log, newest first; the id makes the order total, so that pages neither repeat nor skip rows of the same millisecond. */
export const listActivities = (db: Kysely<Database>, userId: string, offset: number, limit: number) =>
  db
    .selectFrom('activity_log')
    .select(['event', 'client_id', 'detail', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
