import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { lookupDigest, sha256 } from '../../lib/secrets.ts';
import type { Clock } from '../../lib/clock.ts';
import { issueToken, redeemToken } from '../verification/one-time-secret.ts';
import { parseLoginId } from './login-id.ts';
import { findActiveUserByLoginId, type UserRow } from './user-repo.ts';

/**
 * One password hash per login (docs/performance.md). The SPA's login is two requests: POST
 * /api/auth/login checks the password and reCAPTCHA and answers the outstanding terms, then a
 * hidden form posts the same id and password to /api/auth/authorize (SPEC.md section 4). Hashing
 * the password in both would halve the logins a node can take at a peak, argon2id being the
 * costliest work the server does.
 *
 * The login step therefore answers a ticket: 256 random bits, stored as SHA-256 in `verifications`
 * (ARCHITECTURE.md: one table for every one-time secret), for the member (its subject), bound to
 * the client and to the member's password hash of the moment (a keyed digest of both), valid
 * LIMITS.loginTicketTtlMs (about a minute), used up by one conditional update. An authorize post
 * that carries a live ticket of that member and client, whose password has not changed since, is
 * the member who has just passed the checked login step; any other ticket is used up and the
 * authorize step checks reCAPTCHA and the password itself (decision 0011), so that the ticket
 * only ever spares work and never lets in anyone the login step would not. A password change,
 * a reset and every other end of the member's sessions kill the member's tickets too
 * (modules/sessions/end-sessions.ts).
 */
const bindingOf = (user: Pick<UserRow, 'password_hash'>, clientId: string) => lookupDigest(`login-ticket:${clientId} ${user.password_hash}`);

export const issueLoginTicket = (db: Kysely<Database>, user: Pick<UserRow, 'id' | 'password_hash'>, clientId: string, now: number): Promise<string> =>
  issueToken(db, { purpose: 'login_ticket', subject: user.id, now, binding: bindingOf(user, clientId) });

/** The member a live ticket of this id and client stands for, the ticket used up; undefined: the authorize step checks for itself. */
export async function redeemLoginTicket(
  deps: { db: Kysely<Database>; clock: Clock },
  p: { ticket: string; rawId: string; clientId: string },
): Promise<UserRow | undefined> {
  const ticket = await redeemToken(deps.db, 'login_ticket', sha256(p.ticket), deps.clock.now());
  if (ticket === undefined) return undefined;
  const user = await findActiveUserByLoginId(deps.db, parseLoginId(p.rawId));
  return user && ticket.subject === user.id && ticket.binding === bindingOf(user, p.clientId) ? user : undefined;
}
